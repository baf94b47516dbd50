"""Changing cards as one job: edit, archive or remove them, journalled first, undoable.

The one place that changes existing cards, so `cards add` (supersession), `cards lint
--unsafe-fixes`, consolidation and the explicit `supersede`/`archive`/`rm` commands all
change cards the same way:

1. every card is re-read from disk and must still be what the plan saw;
2. the journal entry, with the prior bytes of every file, is written and marked pending;
3. the files are written (edits in place, archived copies complete before the original
   goes, so a crash leaves a copy too many, never a card too few);
4. the pending mark is cleared.

If the process dies between 2 and 4, the next job rolls the interrupted one back
(`recover`) before it starts, so the vault is as it was before the interrupted job.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .atomic import move_new, write_atomic
from .card import Card, decode, set_fields
from .errors import CardIndexError, Refused
from .journal import Action, FileChange, Journal, sha256
from .undo import roll_back
from .vault import Vault, today

OPS = ("edit", "archive", "remove")


class Step(NamedTuple):
    """One card's part in a job."""

    card: Card
    op: str  # "edit" (in place), "archive" (move to the archive), "remove" (delete)
    updates: Mapping[str, Any]  # fields to set on the way (None removes a field)
    action: str  # what the journal calls it: merge, supersede, conflict, archive, ...
    reason: str
    body: str | None = None  # a new body for an edit (the optional llm rewrite)


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


def apply(
    vault: Vault, steps: Sequence[Step], *, command: str, also: Sequence[Action] = (), day: dt.date | None = None
) -> tuple[str | None, list[Done]]:
    """Run `steps` as one journalled job (caller holds the vault lock).

    Returns the job id (None when there was nothing to record) and where each card went.
    Refuses, writing nothing, when a card changed on disk since it was read.
    """
    recover(vault)
    journal = Journal(vault.state_dir)
    actions = list(also)
    writes: list[tuple[Step, str, str | None, bytes | None]] = []  # step, source, target, data
    taken: set[str] = set()
    for step in steps:
        if step.op not in OPS:
            raise ValueError(f"unknown op {step.op!r}")
        source = step.card.path
        try:
            data = vault.path_of(source).read_bytes()
        except FileNotFoundError:
            raise Refused(f"{source} was removed while the job was planned; nothing written, run it again") from None
        if (decode(data)[0] or "") != step.card.text:
            raise Refused(f"{source} changed while the job was planned; nothing written, run it again")
        before = journal.keep(data)
        if step.op == "remove":
            writes.append((step, source, None, None))
            files: tuple[FileChange, ...] = (FileChange(source, before, None),)
        else:
            out = new_text(step, step.card.text).encode("utf-8")
            if step.op == "edit":
                target = source
                files = (FileChange(source, before, sha256(out)),)
            else:
                target = free_name(vault, step.card.id, folder=vault.archive_dir, taken=taken)
                taken.add(target)
                files = (FileChange(source, before, None), FileChange(target, None, sha256(out)))
            writes.append((step, source, target, out))
        actions.append(Action(step.action, step.card.id, step.reason, files))
    if not actions:
        return None, []
    job = journal.record(command, actions, pending=True, day=day or today())
    kill_after = _kill_after()
    done: list[Done] = []
    try:
        for count, (step, source, into, payload) in enumerate(writes, 1):
            if into is None:
                os.unlink(vault.path_of(source))
            elif into == source:
                assert payload is not None
                write_atomic(vault.path_of(into), payload)
            elif payload is None or not move_new(vault.path_of(source), vault.path_of(into), payload):
                raise Refused(f"{into} appeared while archiving {source}")
            done.append(Done(step, into))
            if count == kill_after:
                os.kill(os.getpid(), signal.SIGKILL)  # fault injection for the tests: a real kill -9
    except (OSError, CardIndexError) as exc:
        rolled = roll_back(vault, journal, job)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise Refused(f"job {job} failed ({reason}); rolled back {rolled} file(s), the vault is as it was") from None
    journal.clear_pending(job)
    vault.changed(removed=[d.step.card.path for d in done if d.path != d.step.card.path])
    if any(d.path == d.step.card.path for d in done):
        vault.invalidate()
    return job, done


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
