"""`cards search QUERY`: find a card mid-session."""

from __future__ import annotations

from typing import Any

from cardindex.agents.context import fact, scope_matches
from cardindex.agents.search import Hit, search
from cardindex.commands.browse import summary
from cardindex.commands.output import echo, echo_json
from cardindex.store.card import LIVE_STATUSES
from cardindex.store.vault import Vault, today


def find(
    vault: Vault,
    query: str,
    *,
    card_type: str | None = None,
    scope: str | None = None,
    status: str | None = None,
    limit: int = 10,
    min_score: float = 40.0,
) -> list[Hit]:
    """Ranked hits among the cards that pass the filters (live ones unless `status` says otherwise)."""
    now = today()
    cards = vault.cards
    if status in ("archived", "superseded", "stale", "any"):
        cards = cards + vault.archived()
    pool = [
        c for c in cards
        if c.usable
        and (card_type is None or c.type == card_type)
        and (scope is None or scope_matches(c.scope, scope))
        and _status_matches(summary(c, now)["status"], status)
    ]
    return search(pool, query, limit=limit, min_score=min_score)


def run(*, vault: Vault, query: str, output_format: str = "text", **filters: Any) -> int:
    """Print the hits of `find` (`filters` as there); exit 1 when there are none."""
    now = today()
    hits = find(vault, query, **filters)
    if output_format == "json":
        echo_json([{**summary(h.card, now), "score": h.score, "matched": h.field, "fact": fact(h.card)} for h in hits])
    else:
        for h in hits:
            echo(f"{h.score:5.1f}  {h.card.id}  {h.card.description}")
    return 0 if hits else 1


def _status_matches(actual: str, wanted: str | None) -> bool:
    if wanted is None:
        return actual in LIVE_STATUSES
    return wanted == "any" or actual == wanted
