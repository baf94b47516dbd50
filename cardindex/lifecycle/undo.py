"""Undo a journalled job: put every file it touched back, byte for byte.

A job can be undone only while the vault still holds what it wrote: if a later job (or
a person) changed one of its files since, undoing it would destroy that later work, so
it is refused with the name of what came after.

An undo is a job like any other (`jobs.run_job`): it plans its restores as writes
with hashes before and after, keeps the bytes it replaces in its own pack, records its
entry with `undoes` and the pending mark before its first write, so a kill at any point
leaves a vault that the next command returns to exactly what it was before the undo.
"""

from __future__ import annotations

from typing import Any

from cardindex.errors import NotFound, Refused
from cardindex.store.jobs import Write, current, prune, run_job
from cardindex.store.journal import Action, DamagedPack, FileChange, Journal
from cardindex.store.vault import Vault, today


def undone(jobs: list[dict[str, Any]]) -> set[str]:
    """Ids of jobs that need no undo: undone by a later job, or rolled back when interrupted.

    An undo that was itself interrupted and rolled back undid nothing.
    """
    return ({job["undoes"] for job in jobs if job.get("undoes") and not job.get("rolled_back")}
            | {job["id"] for job in jobs if job.get("rolled_back")})


def pick(jobs: list[dict[str, Any]], job_id: str | None) -> dict[str, Any]:
    """The job to undo: the one named (an id or a unique prefix), else the newest not yet undone."""
    done = undone(jobs)
    if job_id is None:
        if not jobs:
            raise Refused("nothing to undo: the journal is empty")
        for job in reversed(jobs):
            if not job.get("undoes") and job["id"] not in done:
                newest: dict[str, Any] = job
                return newest
        raise Refused("nothing to undo: every job in the journal is undone already")
    matches = [job for job in jobs if job["id"].startswith(job_id)]
    if len(matches) != 1:
        raise NotFound(f"no job {job_id!r} in the journal" if not matches else f"{job_id!r} names several jobs; give more of the id")
    chosen: dict[str, Any] = matches[0]
    if chosen["id"] in done:
        raise Refused(f"job {chosen['id']} is undone already" if not chosen.get("rolled_back")
                      else f"job {chosen['id']} was interrupted and rolled back; there is nothing to undo")
    if chosen.get("undoes"):
        raise Refused(f"job {chosen['id']} is itself an undo; to redo, run the original command again")
    return chosen


def undo(vault: Vault, job_id: str | None = None) -> tuple[str, str, list[FileChange]]:
    """Undo a job (caller holds the lock). Returns (undone id, new job id, files restored)."""
    journal = Journal(vault.state_dir)
    jobs = journal.jobs()
    job = pick(jobs, job_id)
    if job.get("purged"):  # `cards rm --purge` deleted the copies this undo would put back
        raise Refused(f"cannot undo job {job['id']}: the saved copies it needs were purged "
                      f"({', '.join(map(str, job['purged']))}; cards rm --purge)")
    changes = [FileChange(**f) for action in job["actions"] for f in action["files"]]
    pack = job.get("pack")  # where the job's prior bytes are (None: loose objects, as older jobs have)
    later = [j for j in jobs if j["id"] > job["id"] and j["id"] not in undone(jobs) and not j.get("undoes")]
    touched_later = {f["path"] for j in later for a in j["actions"] for f in a["files"]}
    if (any(c.before != c.after for c in changes) and not touched_later & {c.path for c in changes}
            and all(current(vault, c.path) == c.before for c in changes)):
        # Every file is as it was before the job and no later job touched one: it never
        # took effect (an entry an older cards left when killed before its first write).
        journal.mark_rolled_back(job["id"])
        raise Refused(f"nothing to undo: job {job['id']} left no trace (every file it names is as it was before it); "
                      "it is marked rolled back now")
    for change in changes:
        if current(vault, change.path) != change.after:
            by = [j["id"] for j in later if any(f["path"] == change.path for a in j["actions"] for f in a["files"])]
            cause = f"job {by[0]} changed it later; undo that first" if by else "it was changed by hand since"
            raise Refused(f"cannot undo job {job['id']}: {change.path} is not what the job left ({cause})")
        if change.before is not None:
            try:
                journal.blob(change.before, pack)
            except OSError:
                raise Refused(f"cannot undo job {job['id']}: the saved copy of {change.path} is missing") from None
            except DamagedPack as exc:
                raise Refused(f"cannot undo job {job['id']}: the saved copy of {change.path} is unreadable ({exc})") from None
    writes, restored = _restores(vault, journal, changes, pack)
    action = Action("undo", job["id"], f"undo {job['command']}", tuple(restored))
    new_id = run_job(vault, writes, [action], command="undo", day=today(), undoes=job["id"])
    for change in restored:
        if change.after is None:
            prune(vault, change.path)  # the folders the undone job made for its new files, if empty now
    vault.invalidate()
    return job["id"], new_id, restored


def _restores(
    vault: Vault, journal: Journal, changes: list[FileChange], pack: str | None
) -> tuple[list[Write], list[FileChange]]:
    """The writes that put each file back, in the job writer's order: what comes back first,
    then what is put back in place, then removals (a crash leaves a copy too many, never a
    card too few). The bytes each write replaces go into the undo's own pack."""
    back, edits, gone = [], [], []
    for change in changes:
        if change.before == change.after:
            continue
        if change.before is None:  # the job made this file: remove it
            data = vault.path_of(change.path).read_bytes()
            gone.append((Write(change.path, None, None, change.after, data), FileChange(change.path, change.after, None)))
            continue
        old = journal.blob(change.before, pack)
        if change.after is None:  # the job removed (or moved) this file: bring it back
            back.append((Write(None, change.path, old), FileChange(change.path, None, change.before)))
        else:
            data = vault.path_of(change.path).read_bytes()
            edits.append((Write(change.path, change.path, old, change.after, data),
                          FileChange(change.path, change.after, change.before)))
    ordered = back + edits + gone
    return [w for w, _ in ordered], [c for _, c in ordered]
