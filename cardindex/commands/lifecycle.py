"""`cards supersede`, `cards archive`, `cards rm`: explicit lifecycle edits, journalled."""

from __future__ import annotations

import os
import sys
from typing import NamedTuple

from cardindex.errors import Refused, UsageError
from cardindex.index import build as index
from cardindex.store.card import Card, id_list, id_value, lineage
from cardindex.store.jobs import Done, Step, apply
from cardindex.store.os_errors import all_or_nothing
from cardindex.store.vault import Vault, today


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


def _finish(vault: Vault, steps: list[Step], command: str) -> tuple[str | None, list[Done]]:
    job, done, result = _apply(vault, steps, command)
    _warn(result)
    return job, done


def _warn(result: index.IndexResult) -> None:
    if result.broken:
        print(f"warning: {len(result.broken)} unreadable card(s) left out of {result.path}", file=sys.stderr)


def supersede(*, vault: Vault, old: str, new: str, force: bool = False) -> int:
    done = supersede_card(vault=vault, old=old, new=new, force=force)
    _warn(done.indexed)
    print(f"superseded {done.old} by {done.new}; archived as {done.archived_as} (job {done.job})")
    return 0


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


def archive(*, vault: Vault, refs: list[str], force: bool = False, reason: str | None = None) -> int:
    cards = _distinct([_no_link(vault, _unlocked(_live(vault, ref), force)) for ref in refs])
    steps = [Step(c, "archive", {"status": "archived"}, "archive", reason or "cards archive") for c in cards]
    job, done = _finish(vault, steps, "archive")
    for d in done:
        print(f"archived {d.step.card.id} as {d.path}")
    print(f"job {job}; `cards undo` puts them back", file=sys.stderr)
    return 0


def remove(*, vault: Vault, refs: list[str], force: bool = False, purge: bool = False) -> int:
    cards = _distinct([_no_link(vault, _unlocked(vault.find(ref), force)) for ref in refs])
    steps = [Step(c, "remove", {}, "remove", "cards rm --purge" if purge else "cards rm") for c in cards]
    if not purge:
        job, done = _finish(vault, steps, "rm")
        for d in done:
            print(f"removed {d.step.card.path}")
        print(f"job {job}; `cards undo` restores them", file=sys.stderr)
        return 0
    from cardindex.commands.journal import purged_line, still_there
    from cardindex.lifecycle.prune import purge as purge_card

    with vault.lock():  # one hold: nothing runs between the removal and the purge
        job, done, result = _apply(vault, steps, "rm")
        purged = [purge_card(vault, d.step.card.id) for d in done]
    _warn(result)
    for d in done:
        print(f"removed {d.step.card.path}")
    for p in purged:
        print(purged_line(p))
        still_there(p)
    print(f"job {job}; purged, so it cannot be undone", file=sys.stderr)
    return 0


def _distinct(cards: list[Card]) -> list[Card]:
    return list({c.path: c for c in cards}.values())
