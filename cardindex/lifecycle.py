"""Retiring cards: move them to the archive with updated fields, journalled first.

The one place that archives, so `cards add` (supersession), `cards lint --unsafe-fixes`
and consolidation retire cards the same way, and every move can be undone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .atomic import move_new
from .card import Card, set_fields
from .errors import Refused
from .journal import Action, FileChange, Journal, sha256
from .vault import Vault


class Retirement(NamedTuple):
    card: Card
    updates: Mapping[str, Any]  # fields to set on the way out, e.g. status: superseded
    action: str  # supersede, archive, ...
    reason: str


def free_name(vault: Vault, stem: str, *, folder: str = "") -> str:
    """`stem.md`, or `stem-2.md`, `stem-3.md`… whichever does not exist yet."""
    prefix = f"{folder}/" if folder else ""
    n = 1
    while True:
        rel = f"{prefix}{stem}.md" if n == 1 else f"{prefix}{stem}-{n}.md"
        if not vault.path_of(rel).exists():
            return rel
        n += 1


def retire(vault: Vault, items: Sequence[Retirement], *, command: str, also: Sequence[Action] = ()) -> tuple[str, list[tuple[str, str]]]:
    """Archive `items` (caller holds the vault lock). Returns the job id and (old, new) paths.

    Each card is re-read from disk (never from the cache), the journal is written with
    the prior bytes before anything moves, and the archived copy is complete before
    the original is removed.
    """
    journal = Journal(vault.state_dir)
    actions = list(also)
    moves = []
    for item in items:
        data = vault.path_of(item.card.path).read_bytes()
        new_text = set_fields(data.decode("utf-8"), item.updates, path=item.card.path)
        target = free_name(vault, item.card.id, folder=vault.archive_dir)
        before = journal.keep(data)
        change = (FileChange(item.card.path, before, None), FileChange(target, None, sha256(new_text.encode())))
        actions.append(Action(item.action, item.card.id, item.reason, change))
        moves.append((item.card.path, target, new_text))
    job = journal.record(command, actions)
    done = []
    for source, target, text in moves:
        if not move_new(vault.path_of(source), vault.path_of(target), text):
            raise Refused(f"{target} appeared while archiving {source}; job {job} is incomplete")
        done.append((source, target))
    vault.changed(removed=[source for source, _ in done])
    return job, done
