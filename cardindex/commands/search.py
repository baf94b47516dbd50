"""`cards search QUERY`: find a card mid-session."""

from __future__ import annotations

from typing import Any

from cardindex.agents.context import fact
from cardindex.agents.search import find
from cardindex.agents.summary import summary
from cardindex.commands.output import echo, echo_json
from cardindex.store.vault import Vault, today


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


