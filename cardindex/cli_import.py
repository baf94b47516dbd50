"""`cards import`: click options only; the work is in `cardindex.commands.import_`."""

from __future__ import annotations

import click


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--apply", is_flag=True, help="Write the accepted cards (default: only show them).")
@click.pass_obj
def import_cards(obj: object, files: tuple[str, ...], apply: bool) -> None:
    """Split existing memory files into candidate cards, through the write gate.

    \b
    Examples:
      cards import CLAUDE.md
      cards import notes.md --apply
    """
    from .commands import import_ as command

    click.get_current_context().exit(command.run(vault=obj.open(), files=list(files), apply=apply))  # type: ignore[attr-defined]
