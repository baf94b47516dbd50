"""`cards watch`: click options only; the work is in `cardindex.commands.watch`."""

from __future__ import annotations

import click


@click.command()
@click.option("--once", is_flag=True, help="Bring INDEX.md up to date, print findings, and exit.")
@click.pass_obj
def watch(obj: object, once: bool) -> None:
    """Keep INDEX.md current while cards are edited; print findings for changed cards.

    \b
    Examples:
      cards watch
      cards watch --once
    """
    from .commands import watch as command

    click.get_current_context().exit(command.run(vault=obj.open(), once=once))  # type: ignore[attr-defined]
