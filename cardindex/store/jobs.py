"""Changing cards as one job: edit, archive or remove them, journalled first, undoable.

The one job writer. `cards add` (supersession), `lint --fix`, consolidation, import, the
explicit `supersede`/`archive`/`rm` commands and `cards undo` itself all change files
the same way (`apply` plans card steps, `undo.undo` plans restores; both run through
`run_job`):

1. every file is re-read from disk and must still be what the plan saw;
2. the prior bytes of every file the job overwrites or removes go into one pack;
3. the pending mark is written, naming the job's id (`.cardindex/pending`);
4. the journal entry is written (the id, every file with its hash before and after,
   the pack's name; `undoes` for an undo);
5. the files are written: new files first, removals last (archived copies complete
   before the original goes), each file's bytes fsynced before it gets its name and
   each folder fsynced once at the end (`atomic.deferred_folder_syncs`);
6. the pending mark is cleared.

Each step is durable before the next begins. The invariant: **while the vault holds
any file a job wrote, and the job has not finished step 5, the pending mark names the
job and its entry holds the bytes to put back.** So a kill -9 (or a power cut) in any
gap leaves a vault that `recover` returns to exactly what it was before the job:

- before 3: no mark, no entry, no file touched; at most an orphan pack (unreferenced);
- between 3 and 4: a mark naming a job with no entry; no file was touched, so recovery
  only clears the mark (no phantom job: an entry never exists without its mark until
  the job is complete);
- between 4 and 6 (including a kill part way through 5): the mark and the entry; each
  file is what the job found, what it wrote, or (a lost name) missing, and the pack
  has every prior byte, so recovery rolls the job back file by file;
- after 6: the job is complete (the caller may still be writing INDEX.md, which any
  later `cards index` or writer regenerates from the cards).

The rollback is itself safe to interrupt: it leaves the mark set until every file is
back (and the entry says `rolled_back`), and putting a file back twice is a no-op, so
a kill during a rollback is finished by the next command. Recovery always rolls back,
never forward, also for an interrupted undo (the vault is then as it was after the job
being undone, and `cards undo` runs that undo again). Every command that writes, and
`status`, `lint` and `index`, recover first, under the lock (`recovery.settle`); pure
readers print a one-line warning instead (`recovery.warn_pending`).

Fault injection for the tests: `CARDS_TEST_KILL_AFTER_WRITES=N` kills the process
(SIGKILL) after its Nth file write, counting job writes and rollback writes alike;
`CARDS_TEST_KILL_AT=pack|mark|entry|written|cleared` kills it right after that step.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from cardindex.errors import CardIndexError, Refused
from cardindex.store.atomic import create_new, deferred_folder_syncs, move_new, remove, write_atomic
from cardindex.store.card import Card, decode, set_fields
from cardindex.store.journal import Action, DamagedPack, FileChange, Journal, fault, sha256
from cardindex.store.progress import report
from cardindex.store.vault import Vault, today

OPS = ("create", "replace", "edit", "archive", "remove")  # also the order a job writes in


class Step(NamedTuple):
    """One card's part in a job."""

    card: Card
    op: str  # "create" (a new card), "edit" (in place), "replace" (the whole file by `body`),
    #          "archive" (move to the archive), "remove" (delete)
    updates: Mapping[str, Any]  # fields to set on the way (None removes a field)
    action: str  # what the journal calls it: merge, supersede, conflict, archive, ...
    reason: str
    body: str | None = None  # edit: a new body (the optional llm rewrite); replace: the whole new text


class Done(NamedTuple):
    step: Step
    path: str | None  # where the card is now (None: removed)


def free_name(vault: Vault, stem: str, *, folder: str = "", taken: set[str] | None = None) -> str:
    """`stem.md`, or `stem-2.md`, `stem-3.md`… whichever does not exist yet (nor is in `taken`)."""
    prefix = f"{folder}/" if folder else ""
    n = 1
    while True:
        rel = f"{prefix}{stem}.md" if n == 1 else f"{prefix}{stem}-{n}.md"
        if not vault.path_of(rel).exists() and rel not in (taken or ()):
            return rel
        n += 1


def new_text(step: Step, text: str) -> str:
    """The card's text after the step (for edits and archives)."""
    out = set_fields(text, step.updates, path=step.card.path) if step.updates else text
    if step.body is not None:
        head = out[: Card.from_text(step.card.path, out).body_offset]
        out = head + step.body.strip("\n") + "\n"
    return out


class Write(NamedTuple):
    """One file a job writes: a new file, an edit in place, a move, or a removal."""

    source: str | None  # the file the write reads (None: a new file)
    target: str | None  # the file it writes (None: removed)
    data: bytes | None  # the new bytes (None: removed)
    before: str | None = None  # sha256 of the source as read
    prior: bytes | None = None  # the source's bytes as read, kept in the job's pack

    def changes(self, path: str) -> tuple[FileChange, ...]:
        """The journal's view: each path with its hash before and after (`path` names a new file)."""
        after = None if self.data is None else sha256(self.data)
        if self.source is not None and self.target not in (None, self.source):  # a move
            return FileChange(self.source, self.before, None), FileChange(self.target, None, after)
        return (FileChange(self.source or self.target or path, self.before, after),)


def apply(
    vault: Vault, steps: Sequence[Step], *, command: str, also: Sequence[Action] = (), day: dt.date | None = None
) -> tuple[str | None, list[Done]]:
    """Run `steps` as one journalled job (caller holds the vault lock).

    Returns the job id (None when there was nothing to record) and where each card went.
    Refuses, writing nothing, when a card changed on disk since it was read, or a new
    card's name is taken. New cards are written first and removals last, so a crash
    part way leaves a card too many, never one too few (and the next job rolls it back).
    """
    recover(vault)
    actions: list[Action] = []
    planned: list[tuple[Step, Write]] = []
    taken: set[str] = set()
    for step in sorted(steps, key=lambda s: OPS.index(s.op) if s.op in OPS else -1):
        write = _plan(vault, step, taken)
        planned.append((step, write))
        actions.append(Action(step.action, step.card.id, step.reason, write.changes(step.card.path)))
    actions += also  # notes without files, after what they are about
    if not actions:
        return None, []
    writes = [w for _, w in planned]
    job = run_job(vault, writes, actions, command=command, day=day or today())
    # The vault's loaded cards follow what the job wrote, so the index after it needs no reload.
    vault.changed(
        added=[Card.from_text(w.target, w.data.decode("utf-8")) for w in writes
               if w.target is not None and w.data is not None and w.target == (w.source or w.target)
               and vault.is_card_name(w.target.rsplit("/", 1)[-1])],
        removed=[w.source for w in writes if w.source is not None and w.target != w.source],
    )
    return job, [Done(step, w.target) for step, w in planned]


def run_job(
    vault: Vault, writes: Sequence[Write], actions: list[Action], *, command: str, day: dt.date,
    undoes: str | None = None,
) -> str:
    """Write `writes` as one recoverable job (steps 2 to 6 of the module docstring); returns its id.

    The caller holds the lock and has checked that each source is still what it read.
    A write that fails (an OSError, a name taken meanwhile) rolls the job back and
    raises `Refused`: the vault is as it was.
    """
    journal = Journal(vault.state_dir)
    pack = journal.keep_many(w.prior for w in writes if w.prior is not None)  # the prior bytes, for undo and rollback
    fault("pack")
    job = journal.record(command, actions, pending=True, day=day, pack=pack, undoes=undoes)
    fault("entry")
    try:
        with deferred_folder_syncs():  # each folder fsynced once, when the block ends
            for done, write in enumerate(writes, start=1):
                _execute(vault, write)
                _wrote()
                report("writing files" if undoes is None else "restoring files", done, len(writes))
    except (OSError, CardIndexError) as exc:
        rolled = roll_back(vault, journal, job)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise Refused(f"job {job} failed ({reason}); rolled back {rolled} file(s), the vault is as it was") from None
    fault("written")
    journal.clear_pending(job)
    fault("cleared")
    return job


def _plan(vault: Vault, step: Step, taken: set[str]) -> Write:
    """What one step reads and writes; refuses when the vault is not what the plan saw."""
    if step.op not in OPS:
        raise ValueError(f"unknown op {step.op!r}")
    path = step.card.path
    if step.op == "create":
        if vault.path_of(path).exists() or path in taken:
            raise Refused(f"{path} already exists; nothing written")
        taken.add(path)
        return Write(None, path, step.card.text.encode("utf-8"))
    try:
        data = vault.path_of(path).read_bytes()
    except FileNotFoundError:
        raise Refused(f"{path} was removed while the job was planned; nothing written, run it again") from None
    if (decode(data)[0] or "") != step.card.text:
        raise Refused(f"{path} changed while the job was planned; nothing written, run it again")
    before = sha256(data)
    if step.op == "remove":
        return Write(path, None, None, before, data)
    if step.op == "replace":
        return Write(path, path, (step.body or "").encode("utf-8"), before, data)
    out = new_text(step, step.card.text).encode("utf-8")
    if step.op == "edit":
        return Write(path, path, out, before, data)
    target = free_name(vault, step.card.id, folder=vault.archive_dir, taken=taken)
    taken.add(target)
    return Write(path, target, out, before, data)


def _execute(vault: Vault, write: Write) -> None:
    source, target, data = write.source, write.target, write.data
    if target is None:
        assert source is not None
        remove(vault.path_of(source))
    elif source is None:
        assert data is not None
        if not create_new(vault.path_of(target), data):
            raise Refused(f"{target} appeared while the job ran")
    elif target == source:
        assert data is not None
        write_atomic(vault.path_of(target), data)
    elif data is None or not move_new(vault.path_of(source), vault.path_of(target), data):
        raise Refused(f"{target} appeared while archiving {source}")


# ------------------------------------------------------------------ fault injection (tests only)

_writes_done = 0


def _wrote() -> None:
    """Count a file write of a job or a rollback; a real kill -9 after the Nth, when asked."""
    global _writes_done
    _writes_done += 1
    value = os.environ.get("CARDS_TEST_KILL_AFTER_WRITES")
    if value and value.isdigit() and _writes_done == int(value):
        os.kill(os.getpid(), signal.SIGKILL)


# ------------------------------------------------------------------ recovery


def current(vault: Vault, path: str) -> str | None:
    """The sha256 of the file at `path` now (None: absent)."""
    try:
        return sha256(vault.path_of(path).read_bytes())
    except (FileNotFoundError, NotADirectoryError):
        return None


def recover(vault: Vault) -> str | None:
    """Roll back a job that was interrupted mid-way (caller holds the lock). Returns its id.

    Says so in one line on stderr: the vault is as it was before the job.
    """
    journal = Journal(vault.state_dir)
    job = journal.pending()
    if job is None:
        return None
    from cardindex.store.temps import remove_stale_temps

    entry = journal.load(job)
    if entry is None and journal.has_entry(job):
        raise Refused(f"cannot roll back job {job}: its journal entry is unreadable; "
                      "it stays marked interrupted (.cardindex/pending)")
    what = f"job {job}" + (f" ({entry['command']})" if entry and entry.get("command") else "")
    if entry is None:  # killed between the mark and the entry: nothing was written yet
        journal.clear_pending(job)
        detail = "it had changed nothing"
    else:
        detail = f"rolled back {roll_back(vault, journal, job)} file(s)"
    removed = remove_stale_temps(vault)
    if removed:
        detail += f", removed {removed} temp file(s)"
    print(f"recovered: {what} was interrupted; the vault is as it was before it ({detail})", file=sys.stderr)
    vault.invalidate()
    return job


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
            now = current(vault, change.path)
            if now == change.before:
                continue
            if now != change.after:
                print(f"warning: {change.path} changed after job {job_id} was interrupted; left as it is", file=sys.stderr)
                continue
            if change.before is not None:
                try:
                    data = journal.blob(change.before, pack)
                except (OSError, DamagedPack) as exc:
                    why = "is missing" if isinstance(exc, OSError) else f"is unreadable ({exc})"
                    raise Refused(f"cannot roll back job {job_id}: the saved copy of {change.path} {why}; "
                                  "it stays marked interrupted (.cardindex/pending)") from None
                if now is None:
                    create_new(vault.path_of(change.path), data)
                else:
                    write_atomic(vault.path_of(change.path), data)
                count += 1
                _wrote()
        for change in changes:
            if change.before is None and change.after is not None and current(vault, change.path) == change.after:
                with contextlib.suppress(FileNotFoundError):
                    remove(vault.path_of(change.path))
                prune(vault, change.path)
                count += 1
                _wrote()
    journal.mark_rolled_back(job_id)
    vault.invalidate()
    return count


def prune(vault: Vault, path: str) -> None:
    """Remove the folders a job created for `path` (such as the archive) if they are empty now."""
    parts = path.split("/")[:-1]
    while parts:
        with contextlib.suppress(OSError):  # not empty, or gone: stop there
            os.rmdir(vault.path_of("/".join(parts)))
            parts.pop()
            continue
        break
