"""`cards search QUERY`: find a card mid-session."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import DATE, FORMAT, TYPES, Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


def run(*, vault: Vault, query: str, output_format: str = "text", **filters: Any) -> int:
    """Print the hits of `find` (`filters` as there); exit 1 when there are none."""
    from cardindex.agents.context import fact
    from cardindex.agents.search import find
    from cardindex.agents.summary import summary
    from cardindex.cli.output import echo, echo_json
    from cardindex.store.vault import today

    now = filters.get("as_of") or today()
    hits = find(vault, query, **filters)
    if output_format == "json":
        echo_json([{**summary(h.card, now), "status": h.status, "score": h.score, "matched": h.field,
                    "weak": h.weak, "conflict_with": list(h.conflict_with), "fact": fact(h.card)} for h in hits])
    else:
        for h in hits:
            marks = [h.status] if h.status != "active" else []
            marks += ["weak match"] if h.weak else []
            tail = f"  [{', '.join(marks)}]" if marks else ""
            echo(f"{h.score:5.1f}  {h.card.id}  {h.card.description}{tail}")
        if hits and hits[0].weak:
            echo("(weak: the best hit holds little of the query; the vault may not know this)", err=True)
    return 0 if hits else 1


@click.command("search")
@click.argument("query")
@click.option("-t", "--type", "card_type", type=click.Choice(TYPES), help="Only cards of this type.")
@click.option("-s", "--scope", metavar="SCOPE", help="Only cards that apply to this scope (global ones always do).")
@click.option("--status", type=click.Choice(["active", "conflict", "stale", "superseded", "archived", "expired", "any"]),
              help="Only cards with this status (default: live ones; archived ones need --status or --all).")
@click.option("-a", "--all", "everything", is_flag=True, help="Every card, archived and superseded ones too (marked).")
@click.option("--as-of", type=DATE, metavar="DATE", help="Search what the vault held at the end of DATE (from the journal).")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=10, show_default=True, help="At most N results.")
@click.option("--min-score", type=click.FloatRange(0, 100), default=0.0, show_default=True,
              help="Leave out matches scoring under this (0-100).")
@FORMAT
@click.pass_obj
def search_command(obj: Options, query: str, card_type: str | None, scope: str | None, status: str | None,
                   everything: bool, as_of: dt.datetime | None, limit: int, min_score: float, output_format: str) -> None:
    """Find cards by ranked, stemmed match over titles, descriptions, keys, tags and bodies, best first.

    Typos are corrected only for words the vault does not hold. Hits are marked
    weak when the best one holds little of the query. Exit 1 when nothing matches
    (like grep).

    \b
    Examples:
      cards search "deploy day"
      cards search postgres --type reference --format json
      cards search "release freeze" --all
      cards search "on call" --scope src/billing -n 3
    """
    exit_with(run(vault=obj.open("warn"), query=query, card_type=card_type, scope=scope, status=status,
                  everything=everything, as_of=as_of.date() if as_of else None, limit=limit, min_score=min_score,
                  output_format=output_format))
