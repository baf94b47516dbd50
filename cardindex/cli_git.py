"""`cards git-setup` and `cards merge-index`: click options only; the work is in `cardindex.commands.git`."""

from __future__ import annotations

import click


@click.command("git-setup")
@click.pass_obj
def git_setup(obj: object) -> None:
    """Register the INDEX.md merge driver in .gitattributes and the local git config.

    Writes `INDEX.md merge=cards-index` (the vault's index file, relative to the repo
    root) to .gitattributes and `cards merge-index %O %A %B %P` as the driver in
    .git/config. Running it again changes nothing.

    \b
    Examples:
      cards git-setup
      cards --vault memory git-setup
    """
    from cardindex.commands import git as command

    click.get_current_context().exit(command.setup(vault=obj.open()))  # type: ignore[attr-defined]


@click.command("merge-index")
@click.argument("base")
@click.argument("ours")
@click.argument("theirs")
@click.argument("path", required=False)
def merge_index(base: str, ours: str, theirs: str, path: str | None) -> None:
    """Git merge driver for INDEX.md: merge BASE, OURS and THEIRS line by line into OURS.

    Lines are keyed on the card they link to, so different cards added, edited or
    removed on two branches merge cleanly. Exits 1, leaving conflict markers, only when
    both sides changed one card's line differently. Reads no card files.

    \b
    Examples:
      cards merge-index %O %A %B %P      # what git runs (set up by cards git-setup)
      cards merge-index base.md ours.md theirs.md INDEX.md
    """
    from cardindex.commands import git as command

    click.get_current_context().exit(command.merge(base=base, ours=ours, theirs=theirs, path=path))
