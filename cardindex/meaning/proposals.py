"""Paraphrase candidates from sentence vectors (the optional `embed` extra): proposed, then judged.

`similarity` blocks candidate pairs on shared rare words, so two cards that say one thing
in other words ("whoever holds the pager" / "the on-call engineer") are never compared.
With the extra installed and `embeddings: true` in `.cardindex.yaml`, each card's
description and first fact become a vector (`embed.vectors`), and each card's nearest
neighbours (`TOP_K`, above `PROPOSE`) become candidates too. Nothing here decides: each
candidate goes through `classify.classify_sides`, the same model as every other pair;
only when it finds no relation does `agrees` look for a paraphrase the word model cannot
see, and it refuses whatever the word model can tell apart: another scope, two values of
a multi-valued key, a negation or antonym on one side, a marked value (name, number,
date, code) on one side only or replaced, values that do not agree, non-English text
(whose polarity is not judged), and a near vector that is not near enough (`ACCEPT`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from cardindex.meaning import slots
from cardindex.meaning.classify import Pair, Side
from cardindex.meaning.paraphrase import restated, values_agree
from cardindex.meaning.values import changed
from cardindex.meaning.words import ANTONYMS, NEGATORS, QUESTION, Statement
from cardindex.store.card import Card

if TYPE_CHECKING:
    import numpy as np

TOP_K = 3  # neighbours proposed per card: the work grows with the cards, not its square
PROPOSE = 0.3  # cosine below which no neighbour is proposed
ACCEPT = 0.55  # cosine a pair the word model finds unrelated needs to be one fact in other words
ROWS = 1024  # cards whose neighbours are found per matrix product (memory stays rows x cards)

__all__ = ["ACCEPT", "PROPOSE", "TOP_K", "agrees", "nearest", "neighbours", "text_of"]


def text_of(card: Card, st: Statement) -> str:
    """What a card's vector is made from: its description and its first fact."""
    return f"{card.description}. {st.fact.text}".strip()


def neighbours(vec: np.ndarray, k: int = TOP_K, floor: float = PROPOSE) -> Iterator[tuple[int, int, float]]:
    """(i, j, cosine), i < j, each once: the pairs where one is among the other's `k` nearest, above `floor`.

    `vec`: one unit vector per card (`embed.vectors`).
    """
    import numpy as np

    n = len(vec)
    if n < 2:
        return
    k = min(k, n - 1)
    found: dict[tuple[int, int], float] = {}
    for start in range(0, n, ROWS):
        block = vec[start:start + ROWS] @ vec.T
        for r in range(block.shape[0]):
            block[r, start + r] = -1.0
        top = np.argpartition(-block, k - 1, axis=1)[:, :k]
        for r, row in enumerate(top):
            i = start + r
            for j in row.tolist():
                score = float(block[r, j])
                if score >= floor:
                    found[(min(i, j), max(i, j))] = score
    for (i, j), score in sorted(found.items()):
        yield i, j, score


def nearest(scores: np.ndarray, k: int = TOP_K, floor: float = PROPOSE) -> list[int]:
    """The indices of the `k` highest `scores` (cosines to one card), above `floor`, nearest first."""
    order = sorted(range(len(scores)), key=lambda n: (-float(scores[n]), n))[:k]
    return [n for n in order if float(scores[n]) >= floor]


def agrees(a: Side, b: Side, score: float, weight: Mapping[str, float], multi_valued: frozenset[str]) -> Pair | None:
    """A duplicate when two cards the word model relates to nothing are one fact in other words, else None."""
    if score < ACCEPT or not (a.english and b.english):
        return None
    sa, sb = a.statement, b.statement
    relation = slots.relate(a.scope, b.scope, a.key, b.key, lambda: slots.same_description(a.card, b.card, sa, sb),
                            multi_valued)
    if relation in (slots.APART, slots.MULTI):
        return None
    qa, qb = QUESTION.match(a.card.description), QUESTION.match(b.card.description)
    if qa and qb and qa.group().strip(" \t*_#>").casefold() != qb.group().strip(" \t*_#>").casefold():
        return None  # two questions: two slots
    only_a, only_b = a.all - b.all, b.all - a.all
    if bool(NEGATORS & a.all) != bool(NEGATORS & b.all) or any(ANTONYMS.get(t, frozenset()) & only_b for t in only_a):
        return None  # a negation scores close to what it negates
    found = restated(sa.all, sb.all, weight)
    if found.added_values or found.lost_values:
        return None  # a marked value on one side only: another value, or more than one fact
    if changed(sa.all, sb.all) or changed(sa.fact, sb.fact):
        return None
    slot_words = a.description & b.description
    if values_agree(sa.fact, sb.fact, slot_words, weight) is False:
        return None
    return Pair(a.card, b.card, "duplicate", "wording", round(score * 100, 1), "the same fact in other words")
