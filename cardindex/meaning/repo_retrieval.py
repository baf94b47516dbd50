"""How much of a card one or two repo passages say: the repo read as a retrieval corpus.

Every passage the derivable rules read (a docs paragraph or list item, a code comment or
docstring, a config record: `repo_facts.Unit`) is a document. A card's claim is a query:
the passages that share most of its rare stems are found by BM25 (binary term
frequency, length-normalised), and the card is judged by the share of its information
(its content stems, each weighted by its rarity in the repo: `UnitIndex.weight`) that the
best passage, or the best two together, hold. A synonym (`repo_synonyms.rescued`) in a
docs passage holds a stem it stands for. A word the repo never uses weighs most, so a
card that adds a name, a place, a person, a reason or a value to what the repo says is
not covered, however many repo names it gives.

Pure functions of the repo's facts and the card's sentences' stems; the index is built
once per set of facts (`repo_match.unit_index`).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_facts import RepoFacts, Unit, derived, quantities
from cardindex.meaning.repo_match import UnitIndex

K1 = 1.2
B = 0.75
CANDIDATES = 12  # passages retrieved for the whole card
FIRST_HOLDS = 0.5  # a second passage completes one that holds this much of the card: two halves found apart are chance
SECOND_ADDS = 2  # a second passage counts when it holds this many stems the first lacks (one is chance)
QUERY_TERMS = 12
POSTINGS_READ = 1_500
_MAX_POSTINGS = 4_000  # a stem in more passages than this finds nothing worth ranking


_passages: list[tuple[RepoFacts, UnitIndex]] = []


def passage_index(facts: RepoFacts) -> UnitIndex:
    """All the repo's passages as one corpus: docs, config records, code comments and commit subjects.

    A commit is a passage of its subject, at "line" 0 of a path naming its hash; built once
    for one set of facts.
    """
    if _passages and _passages[0][0] is facts:
        return _passages[0][1]

    def make() -> tuple[list[Unit], UnitIndex]:
        commits = []
        for commit_hash, subject, _, _ in facts.subjects:
            core = tuple(dict.fromkeys(quantities(content_stems(subject))))
            if len(core) >= 3:
                commits.append(Unit(f"commit {commit_hash[:10]}", 0, " ".join(core), f"{subject[:60]!r}", ""))
        return commits, UnitIndex([*facts.units, *facts.comments, *commits])

    def of_plain(plain: tuple[list[tuple[str, int, str, str, str]], dict[str, list[int]], list[int]]) -> tuple[
            list[Unit], UnitIndex]:
        commits = [Unit(*u) for u in plain[0]]
        return commits, UnitIndex([*facts.units, *facts.comments, *commits], (plain[1], plain[2]))

    _, index = derived(facts, "passages", make, lambda made: ([tuple(u) for u in made[0]], *made[1].plain()), of_plain)
    _passages[:] = [(facts, index)]
    return index


def where(unit: Unit) -> str:
    """Where a passage is, for a message: `docs/x.md line 4`, `Makefile line 9 (target test)`, `commit 1a2b… ('…')`."""
    if unit.line == 0 and unit.path.startswith("commit "):
        return f"{unit.path} ({unit.label})"
    return f"{unit.path} line {unit.line}" + (f" ({unit.label})" if unit.label else "")


class CardCover(NamedTuple):
    units: tuple[Unit, ...]  # the one or two passages that hold the card's content
    coverage: float  # weighted share of the card's stems they hold
    held: frozenset[str]  # the card's stems they hold (synonyms included)
    missing: frozenset[str]


_lengths: list[tuple[UnitIndex, list[int], float]] = []


def _length_table(index: UnitIndex) -> tuple[list[int], float]:
    if not (_lengths and _lengths[0][0] is index):
        lengths = index.lengths
        _lengths[:] = [(index, lengths, sum(lengths) / len(lengths) if lengths else 1.0)]
    return _lengths[0][1], _lengths[0][2]


def retrieve(index: UnitIndex, stems: Sequence[str], k: int) -> list[int]:
    """The `k` passages of `index` that BM25 ranks highest for the query `stems` (ties by position).

    Ranked by the query's `QUERY_TERMS` rarest stems, and past the third only while their
    passages number at most `POSTINGS_READ`: a common stem moves a score little and costs
    the most to count.
    """
    lengths, mean = _length_table(index)
    scores: dict[int, float] = defaultdict(float)
    terms = sorted((s for s in set(stems) if 0 < index.df.get(s, 0) <= _MAX_POSTINGS), key=lambda s: (index.df[s], s))
    read = 0
    for n, stem in enumerate(terms[:QUERY_TERMS]):
        ids = index.postings[stem]
        if n >= 3 and read + len(ids) > POSTINGS_READ:
            break  # the rarer stems have found the passages that can hold the card
        read += len(ids)
        idf = index.weight(stem)
        for i in ids:
            scores[i] += idf * (K1 + 1) / (1 + K1 * (1 - B + B * lengths[i] / mean))
    return [-j for _, j in heapq.nlargest(k, ((score, -i) for i, score in scores.items()))]


def _held(index: UnitIndex, i: int, wanted: frozenset[str]) -> frozenset[str]:
    """The stems of `wanted` passage `i` holds, or holds a synonym of (docs passages only)."""
    shared = wanted & index.sets[i]
    unit = index.units[i]
    if unit.label or shared == wanted:
        return shared
    from cardindex.meaning.repo_synonyms import rescued

    return shared | rescued(wanted - shared, unit)


def card_cover(index: UnitIndex, said: Sequence[frozenset[str]], least: float = 0.0) -> CardCover | None:
    """The best one or two passages for a card whose sentences have the stems `said`, and what they hold.

    None when not even `least` of the card's weight is in the repo at all (its stems no
    passage has weigh most): no passage can hold it, and none is looked for.
    """
    wanted = frozenset().union(*said) if said else frozenset()
    if not wanted or not index.units:
        return None
    weights = {s: index.weight(s) for s in wanted}
    total = sum(weights.values())
    if sum(w for s, w in weights.items() if s in index.df) < least * total:
        return None
    found: dict[int, None] = dict.fromkeys(retrieve(index, sorted(wanted), CANDIDATES))
    if not found:
        return None
    held = {i: _held(index, i, wanted) for i in found}

    def weight(stems: frozenset[str]) -> float:
        return sum(weights[s] for s in stems)

    first = max(held, key=lambda i: (weight(held[i]), -i))
    rest = {i: held[i] - held[first] for i in held if i != first}
    second = max(rest, key=lambda i: (weight(rest[i]), -i), default=None)
    units: tuple[Unit, ...] = (index.units[first],)
    together = held[first]
    if second is not None and len(rest[second]) >= SECOND_ADDS and weight(held[first]) >= FIRST_HOLDS * total:
        units += (index.units[second],)
        together = together | held[second]
    return CardCover(units, weight(together) / total, together, wanted - together)


def sentence_share(index: UnitIndex, stems: frozenset[str], held: frozenset[str]) -> float:
    """The weighted share of one sentence's `stems` that `held` (a card cover's stems) has."""
    total = sum(index.weight(s) for s in stems)
    return sum(index.weight(s) for s in stems & held) / total if total else 1.0
