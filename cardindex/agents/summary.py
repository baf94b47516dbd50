"""A card as JSON-able data: what `cards list`, `cards search` and the MCP tools return.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from cardindex.store.card import Card


def summary(card: Card, now: dt.date) -> dict[str, Any]:
    """The JSON form of a card in listings."""
    status = card.status if card.usable else "invalid"
    if card.usable and card.status in ("active", "conflict") and card.expired(now):
        status = "expired"
    return {
        "id": card.id,
        "path": card.path,
        "name": card.name,
        "description": card.description,
        "type": card.type,
        "key": card.key,
        "scope": card.scope,
        "status": status,
        "lock": card.locked,
        "created": _iso(card.created),
        "verified": _iso(card.verified),
        "expires": _iso(card.expires),
        "tags": card.fields.get("tags") if isinstance(card.fields.get("tags"), list) else [],
        "problems": [p.message for p in card.problems if p.severity == "error"],
    }


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value
