"""Which of two cards consolidation keeps, and how their texts differ.

`evidence_order` (when a fact was last known true) orders values of one slot; `quality`
and `best` pick the card a merge keeps; `each_says_more` and `swapped` tell two facts
in one frame, or a changed value, from a rewording. Pure functions of cards.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from cardindex.meaning.union import swapped
from cardindex.meaning.words import words
from cardindex.store.card import Card

_REASONS = re.compile(r"(?im)^\W*(?:why|how to apply)\b")
NEVER = dt.date.min


def evidence_order(card: Card) -> dt.date:
    """When the fact was last known true (`verified`, else `created`, else `modified`).

    Two values of one slot with the same evidence date are a conflict: when a card was
    written (`created`) says nothing about which value held later.
    """
    return card.evidence or NEVER


def quality(card: Card) -> tuple[bool, bool, int, dt.date, dt.date]:
    """How well a card is described: the one to keep when duplicates merge."""
    described = len(set(words(card.description).tokens))
    return card.locked, bool(_REASONS.search(card.body)), min(described, 12), evidence_order(card), card.created or NEVER


def best(cards: Iterable[Card]) -> Card:
    return max(sorted(cards, key=lambda c: c.path), key=quality)


def first_line(card: Card) -> str:
    return next((line for line in card.body.splitlines() if line.strip()), "")


def one_word_swapped(a: str, b: str) -> bool:
    """The same sentence with exactly one word replaced by another: a changed value."""
    return swapped(a, b, longest=1)
