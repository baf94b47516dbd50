"""Changing cards as one job: edit, archive or remove them, journalled first, undoable.

The one place that changes existing cards, so `cards add` (supersession), `cards lint
--unsafe-fixes`, consolidation and the explicit `supersede`/`archive`/`rm` commands all
change cards the same way:

1. every card is re-read from disk and must still be what the plan saw;
2. the prior bytes of every file are kept in one pack, then the journal entry is
   written and marked pending (all three durable before any card is touched);
3. the files are written (edits in place, archived copies complete before the original
   goes, so a crash leaves a copy too many, never a card too few); each file's bytes
   are fsynced before it gets its name, and each folder the job touched is fsynced
   once at the end (`atomic.deferred_folder_syncs`), not once per file;
4. the pending mark is cleared.

If the process dies (or the power goes) between 2 and 4, the next job rolls the
interrupted one back (`recover`) before it starts, so the vault is as it was before the
interrupted job. That is also why step 3 may leave the folder fsyncs to its end: until
the mark is cleared, a rename, link or unlink lost to a power cut is the rollback's to
repair, from the pack.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .atomic import create_new, deferred_folder_syncs, move_new, remove, write_atomic
from .card import Card, decode, set_fields
from .errors import CardIndexError, Refused
from .journal import Action, FileChange, Journal, sha256
from .undo import roll_back
from .vault import Vault, today

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


class _Write(NamedTuple):
    step: Step
    source: str | None  # the file the step reads (None: a new card)
    target: str | None  # the file it writes (None: removed)
    data: bytes | None
    before: str | None = None  # sha256 of the source as read
    prior: bytes | None = None  # the source's bytes as read, kept in the job's pack


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
    journal = Journal(vault.state_dir)
    actions: list[Action] = []
    writes: list[_Write] = []
    taken: set[str] = set()
    for step in sorted(steps, key=lambda s: OPS.index(s.op) if s.op in OPS else -1):
        write = _plan(vault, step, taken)
        writes.append(write)
        before, after = write.before, None if write.data is None else sha256(write.data)
        if write.source is not None and write.target not in (None, write.source):  # a move
            files: tuple[FileChange, ...] = (FileChange(write.source, before, None), FileChange(write.target, None, after))
        else:
            files = (FileChange(write.source or step.card.path, before, after),)
        actions.append(Action(step.action, step.card.id, step.reason, files))
    actions += also  # notes without files, after what they are about
    if not actions:
        return None, []
    pack = journal.keep_many(w.prior for w in writes if w.prior is not None)  # the prior bytes, for undo and rollback
    job = journal.record(command, actions, pending=True, day=day or today(), pack=pack)
    kill_after = _kill_after()
    done: list[Done] = []
    try:
        with deferred_folder_syncs():  # each folder fsynced once, when the block ends
            for count, write in enumerate(writes, 1):
                _execute(vault, write)
                done.append(Done(write.step, write.target))
                if count == kill_after:
                    os.kill(os.getpid(), signal.SIGKILL)  # fault injection for the tests: a real kill -9
    except (OSError, CardIndexError) as exc:
        rolled = roll_back(vault, journal, job)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise Refused(f"job {job} failed ({reason}); rolled back {rolled} file(s), the vault is as it was") from None
    journal.clear_pending(job)
    # The vault's loaded cards follow what the job wrote, so the index after it needs no reload.
    vault.changed(
        added=[Card.from_text(w.target, w.data.decode("utf-8")) for w in writes
               if w.target is not None and w.data is not None and w.target == (w.source or w.target)
               and vault.is_card_name(w.target.rsplit("/", 1)[-1])],
        removed=[w.source for w in writes if w.source is not None and w.target != w.source],
    )
    return job, done


def _plan(vault: Vault, step: Step, taken: set[str]) -> _Write:
    """What one step reads and writes; refuses when the vault is not what the plan saw."""
    if step.op not in OPS:
        raise ValueError(f"unknown op {step.op!r}")
    path = step.card.path
    if step.op == "create":
        if vault.path_of(path).exists() or path in taken:
            raise Refused(f"{path} already exists; nothing written")
        taken.add(path)
        return _Write(step, None, path, step.card.text.encode("utf-8"))
    try:
        data = vault.path_of(path).read_bytes()
    except FileNotFoundError:
        raise Refused(f"{path} was removed while the job was planned; nothing written, run it again") from None
    if (decode(data)[0] or "") != step.card.text:
        raise Refused(f"{path} changed while the job was planned; nothing written, run it again")
    before = sha256(data)
    if step.op == "remove":
        return _Write(step, path, None, None, before, data)
    if step.op == "replace":
        return _Write(step, path, path, (step.body or "").encode("utf-8"), before, data)
    out = new_text(step, step.card.text).encode("utf-8")
    if step.op == "edit":
        return _Write(step, path, path, out, before, data)
    target = free_name(vault, step.card.id, folder=vault.archive_dir, taken=taken)
    taken.add(target)
    return _Write(step, path, target, out, before, data)


def _execute(vault: Vault, write: _Write) -> None:
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


def _kill_after() -> int | None:
    value = os.environ.get("CARDS_TEST_KILL_AFTER_WRITES")
    return int(value) if value and value.isdigit() else None


def recover(vault: Vault) -> str | None:
    """Roll back a job that was interrupted mid-way (caller holds the lock). Returns its id."""
    journal = Journal(vault.state_dir)
    job = journal.pending()
    if job is None:
        return None
    rolled = roll_back(vault, journal, job)
    print(f"recovered: job {job} was interrupted; rolled back {rolled} file(s)", file=sys.stderr)
    vault.invalidate()
    return job
