"""Blocking: which pairs of cards are worth classifying, the same for a whole vault and for one card in it.

Classifying every pair of a vault would grow with its square, so pairs are proposed by
blocks first (`similarity` classifies what they propose). Each card is a `Record` of
what the blocks read of it, and a block puts two cards together when they share

- a single-valued `key` (always a pair, whatever the number of holders);
- their description, as the statement model writes it (up to `MAX_BLOCK` cards);
- two of the three rarest words of their descriptions (up to `DESCRIPTION_BLOCK` cards
  under those two);
- two of the eight rarest words of their statements, each rare enough to block on (a
  statement of one or two words: one such word);
- two of the rarest words of their whole content (`restatement`: a reworded card rarely
  keeps its rare words in the one sentence the statement compares), up to
  `restatement.MAX_BLOCK` cards under those two.

"Rare" is counted over the vault: how many statements have a word (`Vocabulary`). The
same `Vocabulary` gives the write gate and `cards watch` the pairs of one card
(`pairs_of`) and lint the pairs of all (`all_pairs`); both read each card's blocks
through the same functions, so one card's pairs are exactly the whole vault's pairs
that hold it, and the gate refuses what lint would report (tested on random vaults).
The gate keeps the records of a large vault in its postings (`lint.gate_postings`): it
counts words without loading a card, and loads only the cards a block proposes.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, combinations
from sys import intern
from typing import Any, NamedTuple

from cardindex.meaning import restatement
from cardindex.meaning.restatement import SEP, parts
from cardindex.meaning.words import Statement

MAX_BLOCK = 60  # a word shared by more cards than this is not rare enough to block on
RARE_WORDS = 8  # each card is indexed under this many of its rarest words
DESCRIPTION_WORDS = 3  # and under each two of this many of its description's rarest words
DESCRIPTION_BLOCK = 20  # two words shared by more descriptions than this say nothing about a pair


class Record(NamedTuple):
    """What the blocks read of one card. The gate keeps records in its postings as plain tuples
    (`plain`), so what reads them here reads by position (`KEY`, `BAG`, ...)."""

    key: str | None
    described: str  # the description as the statement model writes it
    description: tuple[str, ...]  # its words
    bag: tuple[str, ...]  # the statement's words, each once
    size: int  # how many words the statement has, repeats counted
    said: restatement.BlockWords  # what the restatement block reads


Plain = tuple[Any, ...]  # a `Record`, or the plain tuple the postings keep of one
KEY, DESCRIBED, DESCRIPTION, BAG, SIZE, SAID = range(6)  # a record's fields by position
PLAIN, INITIALS, KEYED, SHORTS = range(4)  # and those of its `restatement.BlockWords`


def plain(r: Record) -> Plain:
    """The record as plain tuples (for `marshal`), read here as the record itself.

    Its words are interned, so that `marshal` writes each word once per file (a reference
    after that) and reads one object back for it: 10k cards' records in a few MB, not 6.
    """
    def kept(words_of: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(map(intern, words_of))

    bag = kept(r.bag)
    description = bag if r.description == r.bag else kept(r.description)
    said = r.said
    return (r.key, intern(r.described), description, bag, r.size, (kept(said.plain), said.initials, said.keyed,
                                                                    kept(said.shorts)))


def record(key: str | None, st: Statement, content: restatement.Content | None, english: bool) -> Record:
    """The record of a card with this key and statement, and restatement's view of it."""
    return Record(key, st.description.text, tuple(dict.fromkeys(st.description.tokens)),
                  tuple(dict.fromkeys(st.all.tokens)), len(st.all.tokens), restatement.block_words(content, english))


class Counts(NamedTuple):
    """How many records have each word, key and initials: what `Vocabulary` counts with.

    A sum over records, so the gate keeps it with its postings and adds or takes away the
    records of the cards that changed (`add`) instead of counting the vault again.
    """

    bags: Counter[str]  # the statements' words
    plain: Counter[str]  # the contents' words (restatement)
    keyed: Counter[str]  # their synonym senses and typed values
    initials: Counter[str]  # their initials of words in a row
    shorts: Counter[str]  # their words of two or three letters

    @classmethod
    def of(cls, records: Iterable[Plain]) -> Counts:
        records = list(records)
        said = [r[SAID] for r in records]
        return cls(Counter(chain.from_iterable(r[BAG] for r in records)),
                   Counter(chain.from_iterable(s[PLAIN] for s in said)),
                   Counter(chain.from_iterable(parts(s[KEYED]) for s in said)),
                   Counter(chain.from_iterable(parts(s[INITIALS]) for s in said)),
                   Counter(chain.from_iterable(s[SHORTS] for s in said)))

    def copy(self) -> Counts:
        return Counts(*(c.copy() for c in self))


def add(counts: Counts, r: Plain, sign: int = 1) -> None:
    """Count record `r` in `counts` (`sign` -1: take it away)."""
    said = r[SAID]
    for counter, words_of in ((counts.bags, r[BAG]), (counts.plain, said[PLAIN]), (counts.keyed, parts(said[KEYED])),
                              (counts.initials, parts(said[INITIALS])), (counts.shorts, said[SHORTS])):
        if sign > 0:
            counter.update(words_of)
        else:
            counter.subtract(words_of)
            for t in words_of:
                if counter[t] <= 0:
                    del counter[t]


class _Frequency:
    """How many cards have each restatement key: a word, a sense or value, or initials of a short word some card has."""

    def __init__(self, counts: Counts, short: frozenset[str]) -> None:
        self.counts, self.short = counts, short

    def __getitem__(self, k: str) -> int:
        c = self.counts
        return c.plain[k] + c.keyed[k] + (c.initials[k] if k in self.short else 0)


def rarity(df: Mapping[str, int], cards: int) -> dict[str, float]:
    """The rarity weight of each word that `df[word]` of `cards` statements have: rare words say more about a fact."""
    total = cards + 1
    return {t: math.log(total / c) + 0.1 for t, c in df.items()}


class Vocabulary:
    """The records of every card compared (usable, live; in the vault's order) and the vault's counts of their words.

    `counts`, when given, must be `Counts.of(records)` (the gate's, kept with its postings).
    """

    def __init__(self, records: Sequence[Plain], counts: Counts | None = None) -> None:
        self.records = records
        n = len(records)
        self.counts = counts = Counts.of(records) if counts is None else counts
        self.df = counts.bags
        self.weight = rarity(self.df, n)
        self.threshold = math.log((n + 1) / MAX_BLOCK) if n > MAX_BLOCK else 0.0
        # Initials count as keys only where they abbreviate a short word some card has ("pr" / "pull request").
        self.short = frozenset(t for t, c in counts.shorts.items() if c > 0)
        self.frequency = _Frequency(counts, self.short)

    def _rarest(self, words: Iterable[str]) -> list[str]:
        """Words two statements have, rarest first (ties by the word: the same vault gives the same pairs)."""
        df = self.df
        return sorted((t for t in words if df[t] > 1), key=lambda t: (df[t], t))

    def described(self, i: int) -> list[str]:
        """The rarest words of card i's description, that it blocks on in twos."""
        return self._rarest(self.records[i][DESCRIPTION])[:DESCRIPTION_WORDS]

    def indexed(self, i: int) -> list[str]:
        """The rarest words of card i's statement that are rare enough to block on."""
        weight, threshold = self.weight, self.threshold
        return [t for t in self._rarest(self.records[i][BAG])[:RARE_WORDS] if weight[t] >= threshold]

    def other(self, i: int) -> frozenset[str]:
        """Card i's keys besides its words (`restatement.rarest_words`): its senses and values (written
        `~sense`, `=kind:value`), and its initials that abbreviate a short word some card has."""
        said = self.records[i][SAID]
        return self.short.intersection(parts(said[INITIALS])).union(parts(said[KEYED]))

    def reworded(self, i: int) -> list[str]:
        """The rarest words of card i's content (and of the senses and values it gives), as restatement blocks."""
        return restatement.rarest_words(self.records[i][SAID][PLAIN], self.other(i), self.frequency)

    def short_statement(self, i: int, indexed: Sequence[str]) -> bool:
        return self.records[i][SIZE] <= 2 and bool(indexed)


def all_pairs(vocabulary: Vocabulary, multi_valued: frozenset[str]) -> Iterator[tuple[int, int]]:
    """Every index pair the blocks propose, each once, in order."""
    records = vocabulary.records
    pairs: set[tuple[int, int]] = set()
    by_key: dict[str, list[int]] = defaultdict(list)
    by_text: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(records):
        key = r[KEY]
        if key and key not in multi_valued:
            by_key[key].append(i)
        by_text[r[DESCRIBED]].append(i)
    for members in by_key.values():
        pairs.update(combinations(members, 2))
    for members in by_text.values():
        if 1 < len(members) <= MAX_BLOCK:
            pairs.update(combinations(members, 2))
    _shared_two(pairs, (vocabulary.described(i) for i in range(len(records))), DESCRIPTION_BLOCK)
    indexed = [vocabulary.indexed(i) for i in range(len(records))]
    _shared_two(pairs, indexed, len(records))
    holding: dict[str, list[int]] = defaultdict(list)
    for i, rare in enumerate(indexed):
        for token in rare:
            holding[token].append(i)
    for i, rare in enumerate(indexed):
        if vocabulary.short_statement(i, rare):
            pairs.update((min(i, j), max(i, j)) for token in rare for j in holding[token] if j != i)
    _shared_two(pairs, (vocabulary.reworded(i) for i in range(len(records))), restatement.MAX_BLOCK)
    return iter(sorted(pairs))


def _shared_two(pairs: set[tuple[int, int]], chosen: Iterable[list[str]], limit: int) -> None:
    """Add the pairs of items whose chosen words share two (up to `limit` items sharing them)."""
    by_two: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, words_of in enumerate(chosen):
        for two in _twos(words_of):
            by_two[two].append(i)
    for members in by_two.values():
        if 1 < len(members) <= limit:
            pairs.update(combinations(members, 2))


def _twos(words_of: Sequence[str]) -> set[tuple[str, str]]:
    return set(combinations(sorted(words_of), 2))


def pairs_of(vocabulary: Vocabulary, n: int, multi_valued: frozenset[str]) -> list[int]:
    """The cards (indices) that `all_pairs` pairs with card n, ascending; without computing every card's blocks.

    Each block is asked only of the cards holding one of card n's own block words (one scan
    of the records' words, `_Held`), and a capped block counts its members the way
    `all_pairs` does.
    """
    records = vocabulary.records
    mine = records[n]
    key = mine[KEY] if mine[KEY] and mine[KEY] not in multi_valued else None
    described = vocabulary.described(n)
    indexed = vocabulary.indexed(n)
    reworded = vocabulary.reworded(n)
    held = _Held(vocabulary, key, mine[DESCRIBED], described if len(described) >= 2 else (), indexed,
                 reworded if len(reworded) >= 2 else ())
    found: set[int] = set(held.same_key)
    if 1 < len(held.same_text) <= MAX_BLOCK:
        found.update(held.same_text)
    for group in _members(_twos(described), held.description, vocabulary.described).values():
        if 1 < len(group) <= DESCRIPTION_BLOCK:
            found.update(group)
    if indexed:
        mine_short = vocabulary.short_statement(n, indexed)
        wanted = set(indexed)
        for j in sorted(set().union(*held.bag.values())):
            theirs = vocabulary.indexed(j)
            shared = len(wanted.intersection(theirs))
            if shared >= 2 or (shared and (mine_short or vocabulary.short_statement(j, theirs))):
                found.add(j)
    for group in _members(_twos(reworded), held.said, vocabulary.reworded).values():
        if 1 < len(group) <= restatement.MAX_BLOCK:
            found.update(group)
    found.discard(n)
    return sorted(found)


class _Held:
    """Which records hold card n's key, its description, and each of its block words: one pass over the records."""

    def __init__(self, vocabulary: Vocabulary, key: str | None, described_as: str, described: Sequence[str],
                 indexed: Sequence[str], reworded: Sequence[str]) -> None:
        self.same_key: list[int] = []
        self.same_text: list[int] = []
        self.description: dict[str, list[int]] = {t: [] for t in described}
        self.bag: dict[str, list[int]] = {t: [] for t in indexed}
        self.said: dict[str, list[int]] = {t: [] for t in reworded}
        in_description, in_bag, in_said = frozenset(described), frozenset(indexed), frozenset(reworded)
        # Keys `joined` in one string are found by a search: the senses and values, and the initials of a short
        # word some card has; only the keys some card has are looked for (the counts say which).
        counts = vocabulary.counts
        keyed = [(t, f"{SEP}{t}{SEP}") for t in sorted(in_said) if counts.keyed[t]]
        abbreviating = [(t, f"{SEP}{t}{SEP}") for t in sorted(in_said) if t in vocabulary.short and counts.initials[t]]
        records = vocabulary.records
        if key is not None:
            self.same_key = [j for j, r in enumerate(records) if r[KEY] == key]
        self.same_text = [j for j, r in enumerate(records) if r[DESCRIBED] == described_as]
        for field, wanted, out in ((DESCRIPTION, in_description, self.description), (BAG, in_bag, self.bag)):
            if wanted:
                meets = wanted.isdisjoint
                for j, r in enumerate(records):
                    if not meets(r[field]):
                        for t in wanted.intersection(r[field]):
                            out[t].append(j)
        if in_said:
            said_of = self.said
            for j, r in enumerate(records):
                said = r[SAID]
                hit = set(in_said.intersection(said[PLAIN]))
                if keyed and said[KEYED]:
                    hit.update(t for t, probe in keyed if probe in said[KEYED])
                if abbreviating and said[INITIALS]:
                    hit.update(t for t, probe in abbreviating if probe in said[INITIALS])
                for t in hit:
                    said_of[t].append(j)


def _members(twos: set[tuple[str, str]], holders: dict[str, list[int]],
             blocks_of: Callable[[int], list[str]]) -> dict[tuple[str, str], list[int]]:
    """For each pair of words, the cards whose own block words hold both (as `_shared_two` groups them)."""
    computed: dict[int, set[tuple[str, str]]] = {}
    out: dict[tuple[str, str], list[int]] = {}
    for two in sorted(twos):
        a, b = two
        both = sorted(set(holders[a]).intersection(holders[b]))
        group = []
        for j in both:
            if j not in computed:
                computed[j] = _twos(blocks_of(j))
            if two in computed[j]:
                group.append(j)
        out[two] = group
    return out
