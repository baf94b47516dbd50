"""`cards search`: fuzzy search over names, descriptions and bodies, ranked.

A query is a handful of words. Each word is looked up in every card's words, allowing
typos and other forms (rapidfuzz finds the variants in the vault's vocabulary:
"postgre" finds "postgres", "deploy" finds "deploys" and "deployment"). A card scores
the share of the query it contains, each word weighted by how rare it is in the vault,
and by where it is found: the description and title count fully, the body a little
less. The whole query found as a phrase adds a bonus. Scores run from 0 to 100.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import NamedTuple

from cardindex.agents.context import scope_matches
from cardindex.agents.summary import summary
from cardindex.index.build import priority
from cardindex.store.card import LIVE_STATUSES, Card
from cardindex.store.vault import Vault, today

BODY_WEIGHT = 0.8
PHRASE_BONUS = 10.0
TYPO_SCORE = 80  # rapidfuzz ratio from which another word counts as the same word
BODY_CHARS = 4000
_WORD = re.compile(r"[^\W_]+")
STOP = frozenset(
    ["a", "an", "the", "to", "of", "in", "on", "at", "for", "by", "with", "and", "or", "is", "are", "was", "be", "it", "its", "this", "that", "which", "what", "who", "how", "when", "where", "do", "does", "did", "i", "we", "you", "they", "use", "used", "using", "should", "must", "can"]
)


class Hit(NamedTuple):
    card: Card
    score: float
    field: str  # where the best-weighted word matched: description or body


def words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def search(cards: Sequence[Card], query: str, *, limit: int = 10, min_score: float = 40.0) -> list[Hit]:
    """Cards matching `query`, best first (ties: the index's priority)."""
    from rapidfuzz import fuzz, process

    asked = [w for w in dict.fromkeys(_WORD.findall(query.casefold()))]
    asked = [w for w in asked if w not in STOP] or asked
    if not asked or not cards:
        return []
    heads = [words(f"{c.title} {c.description}") for c in cards]
    bodies = [words(c.body[:BODY_CHARS]) for c in cards]
    vocabulary = sorted(set().union(*heads, *bodies))
    total = len(cards)
    plan = []  # per query word: its weight and {variant: similarity 0..1}
    for word in asked:
        variants = {word: 1.0}
        if len(word) >= 4:
            for found, score, _ in process.extract(word, vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE, limit=None):
                variants.setdefault(found, score / 100)
        if len(word) >= 3:
            for found in vocabulary:
                if found.startswith(word) and found != word:
                    variants.setdefault(found, 0.9)
        frequency = sum(1 for h, b in zip(heads, bodies, strict=True) if word in h or word in b)
        plan.append((math.log((total + 1) / (frequency + 1)) + 1.0, variants))
    weight_sum = sum(w for w, _ in plan)
    phrase = " ".join(_WORD.findall(query.casefold()))
    hits = []
    for i, card in enumerate(cards):
        head, body = heads[i], bodies[i]
        got, head_got = 0.0, 0.0
        for weight, variants in plan:
            in_head = max((s for v, s in variants.items() if v in head), default=0.0)
            in_body = max((s * BODY_WEIGHT for v, s in variants.items() if v in body), default=0.0)
            got += weight * max(in_head, in_body)
            head_got += weight * in_head
        if not got:
            continue
        score = 100.0 * got / weight_sum
        if len(asked) > 1 and phrase in " ".join(_WORD.findall(f"{card.description} {card.body}".casefold())):
            score = min(100.0, score + PHRASE_BONUS)
        if score >= min_score:
            hits.append(Hit(card, round(score, 1), "description" if head_got * 2 >= got else "body"))
    hits.sort(key=lambda h: (-h.score, priority(h.card)))
    return hits[:limit]


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


def _status_matches(actual: str, wanted: str | None) -> bool:
    if wanted is None:
        return actual in LIVE_STATUSES
    return wanted == "any" or actual == wanted
