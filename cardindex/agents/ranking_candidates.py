"""Which cards a query's ranking scores: those holding any of its words, or in a large vault fewer.

FTS5 computes its BM25 for every card the expression matches, about 2.4 µs each: in a
vault of 100k cards a query of everyday words ("billing service storage") matches 20k
cards and costs 50 ms before a card is scored. Most of them hold one of those words and
nothing else of the query, and rank below the cards holding two.

So the cards matched are narrowed when they would exceed `BUDGET`, in two parts, each
ranked by FTS5 and cut to the candidates wanted: the cards holding the alternatives held
by fewest cards (taken while their cards total at most `BUDGET`: the rare words of the
query), and the cards holding two of the other, common, groups. A card holding one
common word and nothing else of the query is left out. Each part is ordered by FTS5's
BM25 over every word of the query (the part's condition is ANDed to the whole
expression). When the two parts together find fewer cards than the ranking wants, the
whole expression is taken, so a query whose cards each hold one common word finds them
all as before. A vault where the whole expression matches at most `BUDGET` cards (every
real vault seen, which holds hundreds) always gets it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Protocol


class Group(Protocol):
    """What is read of a query word's group (`ranking.Group`): its alternatives and how many cards hold each."""

    @property
    def alts(self) -> tuple[tuple[tuple[str, ...], float], ...]: ...

    @property
    def dfs(self) -> tuple[int, ...]: ...


BUDGET = 4_000  # cards FTS5 may score whole before the expression is narrowed (about 10 ms)
WIDEST = 1_000  # a ranking wanting more candidates than this (every match, for `relevance`) takes the whole


def phrase(alt: tuple[str, ...]) -> str:
    return '"' + " ".join(alt) + '"'


def whole(groups: Sequence[Group]) -> str:
    """The FTS5 expression for every card holding any alternative of any of `groups`."""
    alts = {a for g in groups for a, _ in g.alts}
    return " OR ".join(sorted(phrase(a) for a in alts))


def narrowed(groups: Sequence[Group], limit: int) -> list[str]:
    """Narrower expressions whose best cards together stand for the whole one's (module docstring);
    none when the whole one is cheap enough or every match is wanted."""
    if limit > WIDEST:
        return []
    dfs: dict[tuple[str, ...], int] = {}
    for g in groups:
        for (alt, _), n in zip(g.alts, g.dfs, strict=True):
            dfs[alt] = max(dfs.get(alt, 0), n)
    if sum(dfs.values()) <= BUDGET:
        return []
    kept: set[tuple[str, ...]] = set()
    spent = 0
    for alt, n in sorted(dfs.items(), key=lambda item: (item[1], item[0])):
        if spent + n > BUDGET:
            break
        kept.add(alt)
        spent += n
    common: list[list[str]] = []  # per group, its alternatives not kept whole
    for g in groups:
        rest = sorted({phrase(a) for a, _ in g.alts if a not in kept})
        if rest and rest not in common:
            common.append(rest)
    # FTS5's BM25 counts only the phrases of a matching part of the expression: each narrowing is
    # ANDed to the whole expression, so a card holding a common word beside a rare one still ranks
    # above one holding the rare word alone.
    everything = whole(groups)
    out = []
    if kept:
        out.append(f"({everything}) AND ({' OR '.join(sorted(phrase(a) for a in kept))})")
    pairs = [f"(({' OR '.join(x)}) AND ({' OR '.join(y)}))" for x, y in combinations(common, 2)]
    if pairs:
        out.append(f"({everything}) AND ({' OR '.join(pairs)})")
    return out
