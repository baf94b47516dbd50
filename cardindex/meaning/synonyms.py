"""Synonyms from WordNet: which two normalized words one sense joins ("brief" / "short", "reply" / "answer").

The table (`data/synonyms.txt`, derived at build time by `scripts/build_synonyms.py` from
WordNet 3.0, licence in `data/LICENSE-WordNet`) lists groups of words that share a sense
among each word's two most frequent. It only pairs words when measuring how much of one
card another says (`restatement`); it never decides a value: "Docker" and "Podman" are
no synonyms anywhere, and a table that joined them would still not make them one value.
Read once, when two candidate cards are first compared.
"""

from __future__ import annotations

import functools
from importlib import resources


@functools.lru_cache(maxsize=1)
def _groups() -> dict[str, frozenset[int]]:
    """Each normalized word (as `words` gives it) → the groups it is in."""
    from cardindex.meaning.words import normal

    text = resources.files("cardindex.meaning").joinpath("data/synonyms.txt").read_text(encoding="utf-8")
    out: dict[str, set[int]] = {}
    for number, line in enumerate(text.splitlines()):
        if line.startswith("#"):
            continue
        for word in line.split():
            out.setdefault(normal(word), set()).add(number)
    return {w: frozenset(g) for w, g in out.items()}


def synonymous(x: str, y: str) -> bool:
    """Whether two normalized words share a sense in the table (a word is not its own synonym here)."""
    if x == y:
        return False
    groups = _groups()
    gx, gy = groups.get(x), groups.get(y)
    return gx is not None and gy is not None and not gx.isdisjoint(gy)


def groups_of(token: str) -> frozenset[int]:
    """The sense groups of a normalized word (empty when WordNet joins it to nothing)."""
    return _groups().get(token, frozenset())


@functools.lru_cache(maxsize=1)
def stem_groups() -> dict[str, frozenset[int]]:
    """Each Snowball stem of a word in the table → the sense groups of the words with that stem.

    For text compared by stems rather than normalized words (the derivable rules' docs passages).
    """
    from cardindex.meaning.stem import stems

    groups = _groups()
    words = sorted(w for w in groups if w.isalpha())
    out: dict[str, set[int]] = {}
    for word, stem in zip(words, stems(words), strict=True):
        out.setdefault(stem, set()).update(groups[word])
    return {s: frozenset(g) for s, g in out.items()}
