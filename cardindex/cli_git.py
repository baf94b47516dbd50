"""`cards git-setup` and `cards merge-index`: click options only; the work is in `cardindex.commands.git`."""

from __future__ import annotations

import click


@click.command("git-setup")
@click.pass_obj
def git_setup(obj: object) -> None:
    """Register the INDEX.md merge driver in .gitattributes and the local git config.

    \b
    Examples:
      cards git-setup
    """
    from .commands import git as command

    click.get_current_context().exit(command.setup(vault=obj.open()))  # type: ignore[attr-defined]


@click.command("merge-index")
@click.argument("base")
@click.argument("ours")
@click.argument("theirs")
@click.argument("path", required=False)
def merge_index(base: str, ours: str, theirs: str, path: str | None) -> None:
    """Git merge driver for INDEX.md (git runs it as: cards merge-index %O %A %B %P).

    Writes the merged index to OURS; exits 1 only when both sides changed one card's line differently.
    """
    from .commands import git as command

    click.get_current_context().exit(command.merge(base=base, ours=ours, theirs=theirs, path=path))
