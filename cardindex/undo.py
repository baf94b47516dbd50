"""Undo a journalled job: put every file it touched back, byte for byte.

A job can be undone only while the vault still holds what it wrote: if a later job (or
a person) changed one of its files since, undoing it would destroy that later work, so
it is refused with the name of what came after.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from .atomic import create_new, deferred_folder_syncs, remove, write_atomic
from .errors import NotFound, Refused
from .journal import Action, DamagedPack, FileChange, Journal, sha256
from .vault import Vault, today


def undone(jobs: list[dict[str, Any]]) -> set[str]:
    """Ids of jobs that need no undo: undone by a later job, or rolled back when interrupted."""
    return {job["undoes"] for job in jobs if job.get("undoes")} | {job["id"] for job in jobs if job.get("rolled_back")}


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


def _current(vault: Vault, path: str) -> str | None:
    try:
        return sha256(vault.path_of(path).read_bytes())
    except FileNotFoundError:
        return None


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
    for change in changes:
        if _current(vault, change.path) != change.after:
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
    # Put back what was there before, then remove what the job created, so a crash in
    # between leaves a copy too many, never a card too few.
    restored = []
    for change in changes:
        if change.before is None:
            continue
        data = journal.blob(change.before, pack)
        if change.after is None:
            create_new(vault.path_of(change.path), data)
        else:
            journal.keep(vault.path_of(change.path).read_bytes())  # what the job wrote stays auditable
            write_atomic(vault.path_of(change.path), data)
        restored.append(FileChange(change.path, change.after, change.before))
    for change in changes:
        if change.before is None and change.after is not None:
            journal.keep(vault.path_of(change.path).read_bytes())
            with contextlib.suppress(FileNotFoundError):
                os.unlink(vault.path_of(change.path))
            _prune(vault, change.path)
            restored.append(FileChange(change.path, change.after, None))
    new_id = journal.record("undo", [Action("undo", job["id"], f"undo {job['command']}", tuple(restored))], undoes=job["id"], day=today())
    vault.invalidate()
    return job["id"], new_id, restored


def roll_back(vault: Vault, journal: Journal, job_id: str) -> int:
    """Put back what an interrupted job changed, as far as it got; mark it rolled back.

    Unlike `undo`, files the job never reached are fine (they are still what it found).
    A file that is neither what the job found nor what it wrote was changed by someone
    else since: it is left alone, and said so. Returns how many files were put back.
    """
    entry = journal.load(job_id) or {}
    changes = [FileChange(**f) for action in entry.get("actions", []) for f in action["files"]]
    pack = entry.get("pack")
    count = 0
    # Restore first, then remove, so a crash during the rollback loses nothing either.
    # The job is still marked pending until `mark_rolled_back`: a crash in between rolls
    # it back again, so the folders may be fsynced once, at the end of the block.
    with deferred_folder_syncs():
        for change in changes:
            current = _current(vault, change.path)
            if current == change.before:
                continue
            if current != change.after:
                print(f"warning: {change.path} changed after job {job_id} was interrupted; left as it is", file=sys.stderr)
                continue
            if change.before is not None:
                try:
                    data = journal.blob(change.before, pack)
                except (OSError, DamagedPack) as exc:
                    why = "is missing" if isinstance(exc, OSError) else f"is unreadable ({exc})"
                    raise Refused(f"cannot roll back job {job_id}: the saved copy of {change.path} {why}; "
                                  "it stays marked interrupted (.cardindex/pending)") from None
                if current is None:
                    create_new(vault.path_of(change.path), data)
                else:
                    write_atomic(vault.path_of(change.path), data)
                count += 1
        for change in changes:
            if change.before is None and change.after is not None and _current(vault, change.path) == change.after:
                with contextlib.suppress(FileNotFoundError):
                    remove(vault.path_of(change.path))
                _prune(vault, change.path)
                count += 1
    journal.mark_rolled_back(job_id)
    vault.invalidate()
    return count


def _prune(vault: Vault, path: str) -> None:
    """Remove the folders a job created for `path` (such as the archive) if they are empty now."""
    parts = path.split("/")[:-1]
    while parts:
        with contextlib.suppress(OSError):  # not empty, or gone: stop there
            os.rmdir(vault.path_of("/".join(parts)))
            parts.pop()
            continue
        break
