"""`cards supersede`, `cards archive`, `cards rm`: explicit lifecycle edits, journalled."""

from __future__ import annotations

import sys

from cardindex.index import build as index
from cardindex.lifecycle.retire import archive_cards, remove_cards, supersede_card
from cardindex.store.vault import Vault


def _warn(result: index.IndexResult) -> None:
    if result.broken:
        print(f"warning: {len(result.broken)} unreadable card(s) left out of {result.path}", file=sys.stderr)


def supersede(*, vault: Vault, old: str, new: str, force: bool = False) -> int:
    done = supersede_card(vault=vault, old=old, new=new, force=force)
    _warn(done.indexed)
    print(f"superseded {done.old} by {done.new}; archived as {done.archived_as} (job {done.job})")
    return 0


def archive(*, vault: Vault, refs: list[str], force: bool = False, reason: str | None = None) -> int:
    retired = archive_cards(vault=vault, refs=refs, force=force, reason=reason)
    _warn(retired.indexed)
    for d in retired.done:
        print(f"archived {d.step.card.id} as {d.path}")
    print(f"job {retired.job}; `cards undo` puts them back", file=sys.stderr)
    return 0


def remove(*, vault: Vault, refs: list[str], force: bool = False, purge: bool = False) -> int:
    retired = remove_cards(vault=vault, refs=refs, force=force, purge=purge)
    _warn(retired.indexed)
    for d in retired.done:
        print(f"removed {d.step.card.path}")
    if not purge:
        print(f"job {retired.job}; `cards undo` restores them", file=sys.stderr)
        return 0
    from cardindex.commands.journal import purged_line, still_there

    for p in retired.purged:
        print(purged_line(p))
        still_there(p)
    print(f"job {retired.job}; purged, so it cannot be undone", file=sys.stderr)
    return 0
