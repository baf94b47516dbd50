"""Supersede, archive and remove cards on request: explicit lifecycle edits, each one journalled job.

The core of `cards supersede`, `cards archive`, `cards rm` and the MCP `supersede` tool;
prints nothing.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, NamedTuple

from cardindex.errors import Refused, UsageError
from cardindex.index import build as index
from cardindex.store.card import Card, id_list, id_value, lineage
from cardindex.store.jobs import Done, Step, apply
from cardindex.store.os_errors import all_or_nothing
from cardindex.store.vault import Vault, today

if TYPE_CHECKING:
    from cardindex.lifecycle.prune import Purged


class Superseded(NamedTuple):
    """What `supersede_card` did: OLD archived as `archived_as`, NEW recording it."""

    old: str
    new: str
    archived_as: str | None
    job: str | None
    indexed: index.IndexResult  # what regenerating the index found


def _no_link(vault: Vault, card: Card) -> Card:
    """Moving or deleting a symlink would leave a plain file after `cards undo` (the journal keeps bytes, not links)."""
    path = vault.path_of(card.path)
    if path.is_symlink():
        raise Refused(f"{card.path} is a symlink (to {os.readlink(path)}); archive or remove the file it points to, "
                      "or the link by hand")
    return card


def _live(vault: Vault, ref: str) -> Card:
    card = vault.find(ref)
    if card.path.startswith(vault.archive_dir + "/"):
        raise Refused(f"{card.path} is already in the archive")
    if not card.usable:
        problem = next(p for p in card.problems if p.severity == "error")
        raise Refused(f"{card.path}: cannot change a broken card ({problem.message}); fix it first")
    return card


def _unlocked(card: Card, force: bool) -> Card:
    if card.locked and not force:
        raise Refused(f"{card.path} is locked (stated by the user); use --force to change it anyway")
    return card


def _apply(vault: Vault, steps: list[Step], command: str) -> tuple[str | None, list[Done], index.IndexResult]:
    with vault.lock(), all_or_nothing(vault) as jobs:  # an index that cannot be written undoes the job
        job, done = apply(vault, steps, command=command)
        jobs.add(job)
        vault.invalidate()
        result = index.write(vault, today())
    return job, done, result


def supersede_card(*, vault: Vault, old: str, new: str, force: bool = False) -> Superseded:
    """Archive OLD as superseded by NEW and record it on NEW, as one journalled job. Prints nothing."""
    old_card = _no_link(vault, _unlocked(_live(vault, old), force))
    new_card = _live(vault, new)
    if old_card.path == new_card.path:
        raise UsageError("OLD and NEW are the same card")
    have = id_list(new_card.fields.get("supersedes"))
    ids = list(dict.fromkeys([*have, old_card.id, *lineage(old_card.fields)]))
    steps = [
        Step(old_card, "archive", {"status": "superseded", "superseded_by": new_card.id}, "supersede",
             f"replaced by {new_card.id} (cards supersede)"),
        Step(new_card, "edit", {"supersedes": id_value(ids)}, "supersede",
             f"supersedes {old_card.id} (cards supersede)"),
    ]
    job, done, result = _apply(vault, steps, "supersede")
    return Superseded(old_card.id, new_card.id, next(d.path for d in done if d.step.op == "archive"), job, result)


def _distinct(cards: list[Card]) -> list[Card]:
    return list({c.path: c for c in cards}.values())


class Retired(NamedTuple):
    """What `archive_cards` or `remove_cards` did: the job, each card's step, the index, what was purged."""

    job: str | None
    done: list[Done]
    indexed: index.IndexResult  # what regenerating the index found
    purged: list[Purged]  # with `purge`: every kept copy deleted from the journal, per card


def archive_cards(*, vault: Vault, refs: list[str], force: bool = False, reason: str | None = None) -> Retired:
    """Archive the live cards `refs` as one journalled job (locked ones only with `force`). Prints nothing."""
    cards = _distinct([_no_link(vault, _unlocked(_live(vault, ref), force)) for ref in refs])
    steps = [Step(c, "archive", {"status": "archived"}, "archive", reason or "cards archive") for c in cards]
    job, done, result = _apply(vault, steps, "archive")
    return Retired(job, done, result, [])


def remove_cards(*, vault: Vault, refs: list[str], force: bool = False, purge: bool = False) -> Retired:
    """Delete the cards `refs` as one journalled job; with `purge`, also every copy the journal keeps. Prints nothing."""
    cards = _distinct([_no_link(vault, _unlocked(vault.find(ref), force)) for ref in refs])
    steps = [Step(c, "remove", {}, "remove", "cards rm --purge" if purge else "cards rm") for c in cards]
    if not purge:
        job, done, result = _apply(vault, steps, "rm")
        return Retired(job, done, result, [])
    from cardindex.lifecycle.prune import purge as purge_card

    with vault.lock():  # one hold: nothing runs between the removal and the purge
        job, done, result = _apply(vault, steps, "rm")
        purged = [purge_card(vault, d.step.card.id) for d in done]
    return Retired(job, done, result, purged)
