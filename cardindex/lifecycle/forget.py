"""The weekly deeper pass lets what has not been confirmed for a configured time fall away (archived, never deleted).

`forget_after` in `.cardindex.yaml` maps a card type to days (`{project: 180}`). With
`cards consolidate --deep`, a live, unlocked card of that type whose evidence (`verified`,
else `created`) is older than that is archived, its dates kept, the reason journalled;
`cards undo` brings it back. A card with no date is never forgotten (nothing says how old
it is), nor is a locked one (the user stated it), nor a type without a setting.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from cardindex.store.card import Card
from cardindex.store.jobs import Step


class Forgotten(NamedTuple):
    card: Card
    days: int  # since its evidence
    limit: int  # forget_after for its type


def to_forget(cards: Iterable[Card], now: dt.date, forget_after: Mapping[str, int],
              taken: Iterable[str] = ()) -> list[Forgotten]:
    """The live cards the deep pass archives, oldest evidence first (`taken`: paths other decisions change)."""
    busy = set(taken)
    out = []
    for card in cards:
        limit = forget_after.get(card.type or "")
        if (not limit or not card.usable or card.locked or card.path in busy or not card.live(now)
                or card.status != "active"):
            continue
        evidence = card.evidence
        if evidence is None:
            continue
        age = (now - evidence).days
        if age > limit:
            out.append(Forgotten(card, age, limit))
    out.sort(key=lambda f: (-f.days, f.card.path))
    return out


def steps(forgotten: Iterable[Forgotten]) -> list[Step]:
    """Archive steps, each with its reason."""
    return [Step(f.card, "archive", {"status": "archived"}, "forget",
                 f"not confirmed for {f.days} days (forget_after for {f.card.type}: {f.limit})") for f in forgotten]
