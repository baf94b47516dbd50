"""A canonical card stands for what it absorbed.

A merge keeps one wording of a fact and archives the others with `merged_into`. A later
card may give the fact a new value in the words of a copy that was merged away: "Staging
Postgres listens on port 6432" pairs with the archived "… listens on port 5433", not with
the canonical "Staging Postgres is reachable on port 5433" that absorbed it. `merged_from`
says those are one fact, so a contradiction with the copy is one with the canonical card.

`merged_fields` is what a canonical card takes over from the copies it absorbs (dates,
sources, tags). Pure functions of cards.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardindex.meaning.similarity import Pair
from cardindex.store.card import Card, id_value

Find = Callable[[list[Card], frozenset[str]], list[Pair]]


def absorbed_pairs(live: Sequence[Card], absorbed: Sequence[Card], window: set[str] | None,
                   multi_valued: frozenset[str], find: Find) -> list[tuple[Pair, Card]]:
    """Contradictions between a live card of the window and a copy merged into another live card.

    Each comes back as a pair of the live card and the canonical card that absorbed the
    copy, with the copy itself (its words are what the detector compared).
    """
    holders = {c.id: c for c in live}
    copies = [c for c in absorbed if c.usable and _merged_into(c) in holders]
    starters = [c for c in live if c.usable and (window is None or c.path in window)]
    if not copies or not starters:
        return []
    archived = {c.path for c in copies}
    out = []
    for pair in find([*starters, *copies], multi_valued):
        if pair.kind != "contradiction" or pair.reason == "same-key" or (pair.a.path in archived) == (pair.b.path in archived):
            continue
        copy, new = (pair.a, pair.b) if pair.a.path in archived else (pair.b, pair.a)
        holder = holders[_merged_into(copy) or ""]
        if holder.path != new.path:
            out.append((Pair(new, holder, pair.kind, pair.reason, pair.score, pair.detail), copy))
    return out


def _merged_into(card: Card) -> str | None:
    value = card.fields.get("merged_into")
    return value if isinstance(value, str) else None


def strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def merged_fields(canonical: Card, cluster: Sequence[Card]) -> dict[str, Any]:
    """What `canonical` takes over from `cluster` (itself included): the newest evidence, the
    earliest `created`, every `source` and tag. Only fields that change."""
    updates: dict[str, Any] = {}
    newest: dt.date | None = max((c.evidence for c in cluster if c.evidence), default=None)
    if newest and newest != canonical.evidence:
        updates["verified"] = newest  # the newest evidence any of them had
    created = min((c.created for c in cluster if c.created), default=None)
    if created and created != canonical.created:
        updates["created"] = created
    sources = _unique(s for c in cluster for s in strings(c.fields.get("source")))
    if sources and sources != strings(canonical.fields.get("source")):
        updates["source"] = id_value(sources)
    tags = _unique(t for c in cluster for t in strings(c.fields.get("tags")))
    if tags and tags != strings(canonical.fields.get("tags")):
        updates["tags"] = tags
    return updates
