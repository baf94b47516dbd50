"""`cards context`: what an agent reads at session start."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import DATE, FORMAT, Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


def run(*, vault: Vault, output: str | None = None, with_vaults: tuple[str, ...] = (), **options: Any) -> int:
    """Print the context (`options` as for `render`), or write it to `output` atomically."""
    from cardindex.agents.context import render
    from cardindex.agents.search import layers
    from cardindex.errors import UsageError
    from cardindex.store.atomic import write_atomic

    text = render(vault, others=layers(vault, with_vaults)[1:], **options)
    if output:
        target = Path(output)
        if target.is_dir() or not target.name:
            raise UsageError(f"{output}: is a folder; --output takes a file")
        write_atomic(target, text)  # an OSError is one line from the CLI: exit 1 (full disk), 2 (bad name)
    else:
        print(text, end="")
    return 0


@click.command("context")
@click.option("-s", "--scope", metavar="SCOPE", help="Where the agent works: a path (src/api), path:…, repo:NAME or a free-text scope.")
@click.option("-b", "--budget", type=click.IntRange(min=200), default=6000, show_default=True, metavar="CHARS",
              help="At most this many characters.")
@click.option("-q", "--query", metavar="TEXT", help="The task at hand: cards that match it come first, best first.")
@click.option("--as-of", type=DATE, metavar="DATE", help="What the vault said at the end of DATE (from the journal).")
@click.option("-o", "--output", metavar="FILE", help="Write to FILE (atomically) instead of stdout.")
@click.option("-w", "--with-vault", "with_vaults", multiple=True, metavar="PATH",
              help="Read this vault too (repeatable); $CARDS_USER_VAULT or user_vault: in the user's config "
                   "names a user-level one.")
@FORMAT
@click.pass_obj
def context_command(obj: Options, scope: str | None, budget: int, query: str | None, as_of: dt.datetime | None,
                    output: str | None, with_vaults: tuple[str, ...], output_format: str) -> None:
    """What an agent should read at session start: the live cards that matter, within a budget.

    Locked, conflicting, user and feedback cards first, then the newest evidence; a
    conflict shows every side, marked "verify before acting". Expired, stale and
    archived cards are left out; a last line says how many did not fit. With
    --query, the cards that match the task come first, most relevant first.

    \b
    Examples:
      cards context                          # in a session-start hook
      cards context --scope src/api --budget 1500
      cards context --query "add a retry to the payout job" --budget 2000
      cards context --budget 1500 --output CURRENT_STATE.md
      cards context --as-of 2026-10-01 --format json
    """
    exit_with(run(vault=obj.open("warn"), scope=scope, budget=budget, as_of=as_of.date() if as_of else None,
                  output_format=output_format, output=output, query=query, with_vaults=with_vaults))
