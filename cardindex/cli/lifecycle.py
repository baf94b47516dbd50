"""`cards supersede`, `cards archive`, `cards rm`: explicit lifecycle edits, journalled."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from cardindex.cli.completion import card_ids
from cardindex.cli.options import Options, exit_with

if TYPE_CHECKING:
    from cardindex.index import build as index
    from cardindex.store.vault import Vault


def _warn(result: index.IndexResult) -> None:
    if result.broken:
        print(f"warning: {len(result.broken)} unreadable card(s) left out of {result.path}", file=sys.stderr)


def supersede(*, vault: Vault, old: str, new: str, force: bool = False) -> int:
    from cardindex.lifecycle.retire import supersede_card

    done = supersede_card(vault=vault, old=old, new=new, force=force)
    _warn(done.indexed)
    print(f"superseded {done.old} by {done.new}; archived as {done.archived_as} (job {done.job})")
    return 0


def archive(*, vault: Vault, refs: list[str], force: bool = False, reason: str | None = None) -> int:
    from cardindex.lifecycle.retire import archive_cards

    retired = archive_cards(vault=vault, refs=refs, force=force, reason=reason)
    _warn(retired.indexed)
    for d in retired.done:
        print(f"archived {d.step.card.id} as {d.path}")
    print(f"job {retired.job}; `cards undo` puts them back", file=sys.stderr)
    return 0


def remove(*, vault: Vault, refs: list[str], force: bool = False, purge: bool = False) -> int:
    from cardindex.lifecycle.retire import remove_cards

    retired = remove_cards(vault=vault, refs=refs, force=force, purge=purge)
    _warn(retired.indexed)
    for d in retired.done:
        print(f"removed {d.step.card.path}")
    if not purge:
        print(f"job {retired.job}; `cards undo` restores them", file=sys.stderr)
        return 0
    from cardindex.cli.journal import purged_line, still_there

    for p in retired.purged:
        print(purged_line(p))
        still_there(p)
    print(f"job {retired.job}; purged, so it cannot be undone", file=sys.stderr)
    return 0


@click.command("supersede")
@click.argument("old", shell_complete=card_ids)
@click.argument("new", shell_complete=card_ids)
@click.option("-f", "--force", is_flag=True, help="Also when OLD is locked.")
@click.pass_obj
def supersede_command(obj: Options, old: str, new: str, force: bool) -> None:
    """Mark OLD as replaced by NEW and move it to the archive (journalled).

    \b
    Examples:
      cards supersede deploy-day-tuesday deploy-day
      cards undo                         # put it back
    """
    exit_with(supersede(vault=obj.open(), old=old, new=new, force=force))


@click.command("archive")
@click.argument("cards", nargs=-1, required=True, shell_complete=card_ids)
@click.option("-f", "--force", is_flag=True, help="Also locked cards.")
@click.option("-r", "--reason", help="Why, for the journal.")
@click.pass_obj
def archive_command(obj: Options, cards: tuple[str, ...], force: bool, reason: str | None) -> None:
    """Move cards to the archive: kept, never indexed (journalled).

    \b
    Examples:
      cards archive sprint-42-goal
      cards archive old-a old-b --reason "the project ended"
    """
    exit_with(archive(vault=obj.open(), refs=list(cards), force=force, reason=reason))


@click.command("rm")
@click.argument("cards", nargs=-1, required=True, shell_complete=card_ids)
@click.option("-f", "--force", is_flag=True, help="Also locked cards.")
@click.option("--purge", is_flag=True, help="Also delete every copy the journal keeps of them, and reasons quoting "
              "them (for a card that held a secret; cannot be undone).")
@click.pass_obj
def rm_command(obj: Options, cards: tuple[str, ...], force: bool, purge: bool) -> None:
    """Delete cards (live or archived). The journal keeps their bytes: `cards undo` restores them.

    \b
    Examples:
      cards rm scratch-note
      cards rm archive/old-deploy-day
      cards rm leaked-token --purge
    """
    exit_with(remove(vault=obj.open(), refs=list(cards), force=force, purge=purge))
