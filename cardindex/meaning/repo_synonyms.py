"""A sentence that rewords a docs passage with a synonym here and there ("start" for "begin").

Coverage (`repo_match`) counts the content stems a passage shares with a sentence. A
rewording that swaps a word for one WordNet puts in the same sense ("the worker begins",
"the worker starts") loses that word's weight; a passage that already holds most of the
sentence gets it back for each missing stem that is a synonym of one of its own. The
table is `synonyms.stem_groups`, the one `synonyms` reads (it never decides a value: it only lets a reworded
sentence meet its source). Loaded the first time a sentence needs it.
"""

from __future__ import annotations

from cardindex.meaning.repo_facts import Unit
from cardindex.meaning.repo_match import COVERED, Cover, UnitIndex

RESCUE_FROM = 0.6  # a passage must cover this much of a sentence before synonyms are looked at


def rescued(missing: frozenset[str], unit: Unit) -> frozenset[str]:
    """The stems of `missing` that are a synonym of a stem of `unit` (a docs passage)."""
    from cardindex.meaning.synonyms import stem_groups  # the table loads on first use

    table = stem_groups()
    held: set[int] = set()
    for stem in unit.stems.split():
        held.update(table.get(stem, ()))
    return frozenset(m for m in missing if not table.get(m, frozenset()).isdisjoint(held))


def with_synonyms(index: UnitIndex, cover: Cover | None, wanted: set[str]) -> Cover | None:
    """`cover` with the weight of each missing stem a synonym in its passage stands for (docs passages only)."""
    if cover is None or cover.unit.label or not RESCUE_FROM <= cover.coverage < COVERED or not cover.missing:
        return cover
    found = rescued(cover.missing, cover.unit)
    if not found:
        return cover
    total = sum(index.weight(s) for s in wanted)
    gained = sum(index.weight(s) for s in found) / total if total else 0.0
    return Cover(cover.unit, cover.coverage + gained, cover.missing - found)
