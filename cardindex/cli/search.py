"""`cards search QUERY`: find a card mid-session."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import DATE, FORMAT, TYPES, Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


def run(*, vault: Vault, query: str, output_format: str = "text", with_vaults: tuple[str, ...] = (),
        **filters: Any) -> int:
    """Print the hits of `find_layered` (`filters` as for `find`); exit 1 when there are none."""
    from cardindex.agents.facts import fact
    from cardindex.agents.search import find_layered, layers
    from cardindex.agents.summary import summary
    from cardindex.cli.output import echo, echo_json
    from cardindex.store.vault import today

    now = filters.get("as_of") or today()
    vaults = layers(vault, with_vaults)
    hits = find_layered(vaults, query, **filters)
    layered = len(vaults) > 1
    if output_format == "json":
        echo_json([{**summary(h.card, now), "status": h.status, "score": h.score, "matched": h.field,
                    "weak": h.weak, "conflict_with": list(h.conflict_with), "fact": fact(h.card),
                    **({"vault": str(h.vault)} if layered else {})} for h in hits])
    else:
        for h in hits:
            where = f"{h.vault.name}:" if layered and h.vault is not None and h.vault != vault.root else ""
            marks = [h.status] if h.status != "active" else []
            marks += ["weak match"] if h.weak else []
            tail = f"  [{', '.join(marks)}]" if marks else ""
            echo(f"{h.score:5.1f}  {where}{h.card.id}  {h.card.description}{tail}")
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
@click.option("-w", "--with-vault", "with_vaults", multiple=True, metavar="PATH",
              help="Search this vault too (repeatable); $CARDS_USER_VAULT names a user-level one.")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=10, show_default=True, help="At most N results.")
@click.option("--min-score", type=click.FloatRange(0, 100), default=0.0, show_default=True,
              help="Leave out matches scoring under this (0-100).")
@click.option("--hybrid/--no-hybrid", default=None,
              help="Let an embedding reorder the best matches (needs the [embed] extra; default: the vault's "
                   "`embedding` setting).")
@FORMAT
@click.pass_obj
def search_command(obj: Options, query: str, card_type: str | None, scope: str | None, status: str | None,
                   everything: bool, as_of: dt.datetime | None, with_vaults: tuple[str, ...], limit: int,
                   min_score: float, hybrid: bool | None, output_format: str) -> None:
    """Find cards by ranked, stemmed match over titles, descriptions, keys, tags and bodies, best first.

    Typos are corrected only for words the vault does not hold. Hits are marked
    weak when the best one holds little of the query. With --with-vault (or
    $CARDS_USER_VAULT) other vaults are searched too, each hit naming its vault.
    Exit 1 when nothing matches (like grep).

    \b
    Examples:
      cards search "deploy day"
      cards search postgres --type reference --format json
      cards search "release freeze" --all
      cards search "on call" --scope src/billing -n 3
      cards search "when is the user away" --hybrid
    """
    exit_with(run(vault=obj.open("warn"), query=query, card_type=card_type, scope=scope, status=status,
                  everything=everything, as_of=as_of.date() if as_of else None, limit=limit, min_score=min_score,
                  hybrid=hybrid, output_format=output_format, with_vaults=with_vaults))
