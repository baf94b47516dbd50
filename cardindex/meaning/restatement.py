"""Restatement: one short card saying another's fact again in other words.

Reworded duplicates rarely share the sentence `classify` compares: "Marek wants short
answers. No preamble." and "Keep replies to Marek brief and skip the introductory fluff"
share one word of their fact sentences. So a pair the statement model leaves open is
compared once more, on the cards' whole **content** (description and the body's prose up
to its first reason line), in three steps, each of which can say no:

1. **One slot**: the descriptions name one thing: most of the shorter description (by
   rarity) is said by the other card's content, or each description by the other's.
2. **One value**: no marked value (a name, number, date, path, code) of one card stands
   against an unmatched value of the same sort in the other; no negation on one side
   only; no antonym across; "X instead of Y" keeps its X. A paraphrase with another value
   is never a duplicate.
3. **Covered**: most of the shorter content, weighted by the words' rarity in the vault,
   is said by the longer one, and the longer one is not about much more.

A word is said by the other card when it is there, or written another way (`values.
equivalent`: an abbreviation, a compound, a clipped or misspelt word), or when WordNet
gives the two one sense (`synonyms`). Synonyms only ever count towards coverage: they
never make two values one. English only (the word lists and WordNet are English).
Long cards are `documents`' concern, never compared here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from cardindex.meaning.synonyms import synonymous
from cardindex.meaning.values import equivalent, same_kind
from cardindex.meaning.words import ANTONYMS, NEGATIVE, NEGATORS, Words, words
from cardindex.store.card import Card

SLOT = 0.5  # rarity-weighted share of the shorter description the other card says
COVERED = 0.6  # of the shorter content that the longer one says
COVER_LONG = 0.12  # of the longer content that the shorter one says: not a card about much more
MAX_LINES = 6  # body lines read: a longer card is a document
MAX_TOKENS = 60

_REASON = re.compile(r"(?i)^\W*(?:why|how to apply|source|see also|related|context|reason|because|example)\b[^:]{0,20}:")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


class Content(NamedTuple):
    """What a short card says, as compared here."""

    description: Words
    all: Words


class Restatement(NamedTuple):
    """Why one card restates another: the shares measured."""

    slot: float
    covered: float
    cover_long: float
    joined: tuple[tuple[str, str], ...]  # words paired as synonyms (shorter's, longer's)


@functools.lru_cache(maxsize=20_000)
def _content(description: str, body: str) -> Content | None:
    lines = []
    for line in body.splitlines():
        if _FENCE.match(line):
            break
        if _REASON.match(line):
            break
        if line.strip():
            lines.append(line.strip(" -*#>"))
    if len(lines) > MAX_LINES:
        return None
    d = words(description)
    b = words(" ".join(lines))
    tokens = d.tokens + b.tokens
    if len(tokens) > MAX_TOKENS or not b.tokens:
        return None
    return Content(d, Words(tokens, d.values | b.values, f"{d.text} {b.text}"))


def content(card: Card) -> Content | None:
    """The card's description and the body's prose before its first reason line; None for a long card."""
    return _content(card.description, card.body)


def signature(card: Card) -> str:
    """What `restates` reads of a card (for caches that must know when it changed)."""
    found = content(card)
    return "" if found is None else found.all.text


def explain(found: Restatement) -> str:
    """The finding's detail: how much of the shorter card the other says, and which words it says otherwise."""
    joined = ", ".join(f"{x!r} as {y!r}" for x, y in found.joined[:3])
    said = f"the same fact in other words ({round(found.covered * 100)}% of the shorter card said by the other"
    return f"{said}; {joined})" if joined else f"{said})"


def _said(mine: Iterable[str], theirs: frozenset[str], seq_mine: tuple[str, ...], seq_theirs: tuple[str, ...],
          joined: list[tuple[str, str]]) -> set[str]:
    """Which of `mine` the other side says: the word, one written another way, or a synonym."""
    mine = set(mine)
    present = mine & theirs
    if not NEGATORS.isdisjoint(theirs):
        present |= mine & NEGATORS  # polarity is compared apart (`_conflict`): any negation says another's
    left, right = equivalent(mine - theirs, theirs - mine, seq_mine, seq_theirs)
    out = mine - left
    for x in sorted(left):
        y = next((y for y in sorted(theirs) if synonymous(x, y)), None)
        if y is not None:
            out.add(x)
            joined.append((x, y))
    return out | present


def _share(tokens: frozenset[str], said: set[str], weight: Mapping[str, float], default: float) -> float:
    total = sum(weight.get(t, default) for t in tokens)
    return sum(weight.get(t, default) for t in tokens & said) / total if total else 0.0


def _conflict(a: Words, b: Words, said_a: set[str], said_b: set[str]) -> str | None:
    """Why two contents cannot give one value: a marked value against another of its sort, polarity, antonyms."""
    lost_a = sorted(a.values - said_a)
    lost_b = sorted(b.values - said_b)
    if lost_a and lost_b and same_kind(" ".join(lost_a), " ".join(lost_b)):
        return f"{' '.join(lost_a)!r} vs {' '.join(lost_b)!r}"
    set_a, set_b = frozenset(a.tokens), frozenset(b.tokens)
    neg_a = bool(NEGATORS & set_a or NEGATIVE & set_a)
    neg_b = bool(NEGATORS & set_b or NEGATIVE & set_b)
    if neg_a != neg_b:
        return "negation on one side only"
    for word in sorted(set_a - set_b):
        if ANTONYMS.get(word, set()) & (set_b - set_a):
            return f"antonyms: {word!r}"
    return None


def restates(a: Content, b: Content, weight: Mapping[str, float]) -> Restatement | None:
    """Whether one of two short English cards states the other's fact again (the measures), or None."""
    found, conflict = measures(a, b, weight)
    if conflict is not None or found.slot < SLOT or found.covered < COVERED or found.cover_long < COVER_LONG:
        return None
    return found


def measures(a: Content, b: Content, weight: Mapping[str, float]) -> tuple[Restatement, str | None]:
    """The measures `restates` takes, and the conflict it found (for `bench/why_pairs.py`)."""
    default = max(weight.values(), default=1.0)
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    if not set_a or not set_b:
        return Restatement(0.0, 0.0, 0.0, ()), "nothing to compare"
    joined: list[tuple[str, str]] = []
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, joined)
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    share_a, share_b = _share(set_a, said_a, weight, default), _share(set_b, said_b, weight, default)
    total_a = sum(weight.get(t, default) for t in set_a)
    total_b = sum(weight.get(t, default) for t in set_b)
    short_share, long_share = (share_a, share_b) if total_a <= total_b else (share_b, share_a)
    slot_a = _share(frozenset(a.description.tokens), said_a, weight, default)
    slot_b = _share(frozenset(b.description.tokens), said_b, weight, default)
    slot = max(min(slot_a, slot_b), slot_a if total_a <= total_b else slot_b)
    return Restatement(round(slot, 2), round(short_share, 2), round(long_share, 2), tuple(joined)), \
        _conflict(a.all, b.all, said_a, said_b)
