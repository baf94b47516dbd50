"""Synonyms from WordNet: which two normalized words one sense joins ("brief" / "short", "reply" / "answer").

The table (`data/synonyms.txt`, derived at build time by `scripts/build_synonyms.py` from
WordNet 3.0, licence in `data/LICENSE-WordNet`) lists groups of words that share a sense
among each word's two most frequent. It only pairs words when measuring how much of one
card another says (`restatement`); it never decides a value: "Docker" and "Podman" are
no synonyms anywhere, and a table that joined them would still not make them one value.
Read once, when two candidate cards are first compared.

Normalizing and stemming the table's 32,000 words costs about 0.4 s, more than a whole
`cards add`: both tables are built once per installed version and kept in the user's cache
folder (`store.built`), as text per word ("3 17": its group numbers), parsed per word
when a word is looked up.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

# What the tables are built from: the data file and the code of `words.normal` and `stem` (all of meaning/).
SOURCES = ("meaning",)


class GroupTable:
    """Word → the sense groups it is in (frozensets of group numbers), parsed from the kept text per word."""

    def __init__(self, flat: dict[str, str]) -> None:
        self._flat = flat

    def get(self, word: str, default: Iterable[int] = frozenset()) -> frozenset[int]:
        found = self._flat.get(word)
        return frozenset(default) if found is None else _parsed(found)

    def __contains__(self, word: object) -> bool:
        return word in self._flat

    def __len__(self) -> int:
        return len(self._flat)

    def as_dict(self) -> dict[str, frozenset[int]]:
        """Every word's groups (for tests: the whole table parsed)."""
        return {w: _parsed(g) for w, g in self._flat.items()}


@functools.lru_cache(maxsize=65536)
def _parsed(groups: str) -> frozenset[int]:
    return frozenset(int(g) for g in groups.split())


def _flat(groups: dict[str, set[int]] | dict[str, frozenset[int]]) -> dict[str, str]:
    return {w: " ".join(str(g) for g in sorted(gs)) for w, gs in groups.items()}


def build_groups() -> dict[str, frozenset[int]]:
    """Each normalized word (as `words` gives it) → the groups it is in, from the data file."""
    from importlib import resources  # with tempfile, shutil, bz2 and lzma: only when the table is built

    from cardindex.meaning.words import normal

    text = resources.files("cardindex.meaning").joinpath("data/synonyms.txt").read_text(encoding="utf-8")
    out: dict[str, set[int]] = {}
    for number, line in enumerate(text.splitlines()):
        if line.startswith("#"):
            continue
        for word in line.split():
            out.setdefault(normal(word), set()).add(number)
    return {w: frozenset(g) for w, g in out.items()}


def build_stem_groups(groups: dict[str, frozenset[int]]) -> dict[str, frozenset[int]]:
    """Each Snowball stem of a word in the table → the sense groups of the words with that stem."""
    from cardindex.meaning.stem import stems

    words = sorted(w for w in groups if w.isalpha())
    out: dict[str, set[int]] = {}
    for word, stem in zip(words, stems(words), strict=True):
        out.setdefault(stem, set()).update(groups[word])
    return {s: frozenset(g) for s, g in out.items()}


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[GroupTable, GroupTable]:
    """(by normalized word, by stem), from the user's cache when built from these sources before."""
    from cardindex.store.built import built

    def make() -> tuple[dict[str, str], dict[str, str]]:
        groups = build_groups()
        return _flat(groups), _flat(build_stem_groups(groups))

    by_word, by_stem = built("synonyms", SOURCES, make)
    return GroupTable(by_word), GroupTable(by_stem)


def _groups() -> GroupTable:
    """Each normalized word (as `words` gives it) → the groups it is in."""
    return _tables()[0]


def synonymous(x: str, y: str) -> bool:
    """Whether two normalized words share a sense in the table (a word is not its own synonym here)."""
    if x == y:
        return False
    groups = _groups()
    gx = groups.get(x)
    return bool(gx) and not gx.isdisjoint(groups.get(y))  # most words are in no group: one lookup decides


def groups_of(token: str) -> frozenset[int]:
    """The sense groups of a normalized word (empty when WordNet joins it to nothing)."""
    return _groups().get(token, frozenset())


def stem_groups() -> GroupTable:
    """Each Snowball stem of a word in the table → the sense groups of the words with that stem.

    For text compared by stems rather than normalized words (the derivable rules' docs passages).
    """
    return _tables()[1]
