"""`cards watch`: click options only; the work is in `cardindex.commands.watch`."""

from __future__ import annotations

import click


@click.command()
@click.option("--once", is_flag=True,
              help="Bring INDEX.md up to date, print every card's findings, and exit (1 with findings, else 0).")
@click.option("--debounce", type=click.FloatRange(min=0), default=0.1, show_default=True, metavar="SECONDS",
              help="Quiet time after a change before the index is rebuilt.")
@click.option("--poll", is_flag=True, help="Scan the vault every second instead of using inotify.")
@click.option("--format", "output_format", type=click.Choice(["text", "json-lines"]), default="text",
              show_default=True, help="Output format of the findings.")
@click.pass_obj
def watch(obj: object, once: bool, debounce: float, poll: bool, output_format: str) -> None:
    """Keep INDEX.md current while cards are edited; print findings for changed cards.

    Each pass rebuilds the index from disk under the vault lock and prints one
    `index: ...` line on stderr; findings for the cards that changed go to stdout, as
    `cards lint` prints them. A card that stops parsing mid-edit is reported and keeps
    its last good index entry until it parses again. Ctrl-C or SIGTERM stops (exit 0).

    \b
    Examples:
      cards watch
      cards watch --format json-lines 2>/dev/null
      cards watch --once        # in scripts: exit 1 when any card has findings
    """
    from cardindex.commands import watch as command

    vault = obj.open()  # type: ignore[attr-defined]
    code = command.run(vault=vault, once=once, debounce=debounce, poll=poll, output_format=output_format)
    click.get_current_context().exit(code)
