"""Which repo passage says what a sentence says: coverage of its content stems, weighted by rarity.

A sentence is covered by a passage (a docs paragraph, a config record) when the
passage holds nearly all of the sentence's content stems, each weighted by how rare it is
in the repo's passages (inverse document frequency). A name, number or word the repo
never uses weighs most, so a sentence that adds a reason, a person, a date or an outside
party to what the docs say is not covered; one that rewords the docs with the same
content words is. Pure functions of the repo's facts, built once per run.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_facts import KIND_WORDS, RepoFacts, Unit, derived, quantities
from cardindex.meaning.repo_groups import Block, BlockIndex, blocks, commands

COVERED = 0.8  # share of a sentence's weight a passage must hold
MIN_SHARED = 3  # content stems in common, at the least
_CANDIDATE_STEMS = 3  # passages are looked up by this many of the sentence's rarest stems
_MAX_POSTINGS = 4_000  # a stem in more passages than this is no use for finding candidates
_MAX_CANDIDATES = 1_500
_KIN_ROOT = 5  # letters two stems of one word family share, at the least ...
_KIN_SUFFIX = 3  # ... and the most by which they differ


# Light verbs, prepositions and the conjunctions and quantifiers the stop list keeps: a sentence rewording a
# passage brings its own ("goes through", "has to", "if … also …"); none of them says what the repo records.
LIGHT = frozenset(content_stems("has have had having go goes went gone going through get gets got onto within across use uses "
                                "using give gives gave given giving if whenever while also just any both ever already over once"))


def claim_stems(text: str) -> set[str]:
    """The content stems a sentence's claim is compared by: its content words, without the light ones."""
    return set(quantities(content_stems(text))) - LIGHT


class Cover(NamedTuple):
    unit: Unit
    coverage: float  # weighted share of the sentence's stems the unit holds
    missing: frozenset[str]  # the sentence's stems it lacks


class _Split:
    """Each unit's field (`stems` or `core`) as a frozenset, made when first asked for: a query reads a few."""

    __slots__ = ("_field", "_made", "_units")

    def __init__(self, units: Sequence[Unit], field: str) -> None:
        self._units = units
        self._field = field
        self._made: list[frozenset[str] | None] = [None] * len(units)

    def __getitem__(self, i: int) -> frozenset[str]:
        found = self._made[i]
        if found is None:
            found = self._made[i] = frozenset(getattr(self._units[i], self._field).split())
        return found

    def __len__(self) -> int:
        return len(self._units)


class UnitIndex:
    """An inverted index over the repo's passages, with each stem's weight.

    `plain()` and `of_plain` carry it between processes (`repo_facts.derived`): the
    postings and each passage's length; the stem sets of the passages a query reads are
    made from their units when first read.
    """

    def __init__(self, units: Sequence[Unit], plain: tuple[dict[str, list[int]], list[int]] | None = None) -> None:
        self.units = units
        self.sets = _Split(units, "stems")
        self.cores = _Split(units, "core")
        if plain is None:
            postings: dict[str, list[int]] = defaultdict(list)
            lengths = []
            for i in range(len(units)):
                stems = self.sets[i]
                lengths.append(len(stems))
                for stem in stems:
                    postings[stem].append(i)
            self.postings, self.lengths = dict(postings), lengths
        else:
            self.postings, self.lengths = plain
            if not isinstance(self.postings, dict) or not isinstance(self.lengths, list) or len(self.lengths) != len(units):
                raise ValueError("a kept passage index of other passages")
        self.df = {stem: len(ids) for stem, ids in self.postings.items()}
        self._top = math.log(len(units) + 1) + 1
        self._weights: dict[str, float] = {}
        self._sorted: list[str] = []
        self._kin: dict[str, str] = {}

    def plain(self) -> tuple[dict[str, list[int]], list[int]]:
        """The postings and lengths, in marshal's types (the units are the caller's to keep)."""
        return self.postings, self.lengths

    def weight(self, stem: str) -> float:
        found = self._weights.get(stem)
        if found is None:
            df = self.df.get(stem, 0)
            found = self._weights[stem] = self._top if df == 0 else math.log((len(self.units) + 1) / (df + 1)) + 1
        return found

    def kin(self, stem: str) -> str:
        """`stem`, or the stem of the same word family the passages use when they never use `stem` itself.

        Snowball leaves some derivations apart ("departs" depart, "departure" departur): a
        sentence saying with a verb what a passage says with its noun meets it by the stem
        that begins the other (or that it begins), when the two differ by a suffix of at most
        `_KIN_SUFFIX` letters and share at least `_KIN_ROOT`; the nearest in length wins.
        """
        if stem in self.df or len(stem) < _KIN_ROOT or not stem.isalpha():
            return stem
        found = self._kin.get(stem)
        if found is None:
            if not self._sorted:
                self._sorted = sorted(self.df)
            keys = self._sorted
            options = [stem[:n] for n in range(len(stem) - 1, max(_KIN_ROOT, len(stem) - _KIN_SUFFIX) - 1, -1)
                       if stem[:n] in self.df]
            at = bisect.bisect_left(keys, stem)
            while at < len(keys) and keys[at].startswith(stem) and not options:
                if len(keys[at]) - len(stem) <= _KIN_SUFFIX and keys[at].isalpha():
                    options.append(keys[at])
                at += 1
            found = self._kin[stem] = min(options, key=lambda k: (abs(len(k) - len(stem)), k)) if options else stem
        return found

    def best(self, stems: Sequence[str]) -> Cover | None:
        """The passage covering most of `stems` (by weight), if it shares at least `MIN_SHARED` of them."""
        wanted = {self.kin(s) for s in stems}
        if len(wanted) < MIN_SHARED:
            return None
        weights = {s: self.weight(s) for s in wanted}
        total = sum(weights.values())
        absent = [s for s in wanted if s not in self.df]
        if sum(weights[s] for s in absent) > (1 - COVERED) * total and len(absent) > max(2, 0.3 * len(wanted)):
            return None  # words no passage or record has: nothing can cover the sentence
        best: Cover | None = None
        for i in self._candidates(wanted):
            shared = wanted & self.sets[i]
            if self.cores[i]:
                found = _record_cover(wanted, shared, self.cores[i])
                if found is not None and (best is None or found > best.coverage):
                    best = Cover(self.units[i], found, frozenset(wanted - shared))
                continue
            if len(shared) < MIN_SHARED:
                continue
            # A passage far longer than the sentence holds its words by chance more often.
            if len(shared) < 6 and len(shared) < 0.25 * len(self.sets[i]):
                continue
            coverage = sum(weights[s] for s in shared) / total
            if best is None or coverage > best.coverage:
                best = Cover(self.units[i], coverage, frozenset(wanted - shared))
        return best


    def _candidates(self, wanted: set[str]) -> set[int]:
        """The passages holding one of the rarest stems of `wanted`: a covering passage holds most of them."""
        present = sorted((s for s in wanted if 0 < self.df.get(s, 0) <= _MAX_POSTINGS), key=lambda s: self.df[s])
        candidates: set[int] = set()
        for stem in present[:_CANDIDATE_STEMS]:
            if candidates and len(candidates) + self.df[stem] > _MAX_CANDIDATES:
                break  # the rarer stems found enough: a covering passage holds most of them
            candidates.update(self.postings[stem])
        return candidates

    def docs_holding(self, stems: Sequence[str], least: float) -> dict[str, Cover]:
        """Every docs file with a passage covering at least `least` of `stems` (by weight): its best such passage.

        A repo may keep a doc more than once (an archived version, a copy in a plugin's
        folder): a sentence of a card that copies it is each copy's, not only the one
        `best` happens to pick.
        """
        wanted = {self.kin(s) for s in stems}
        if len(wanted) < MIN_SHARED:
            return {}
        weights = {s: self.weight(s) for s in wanted}
        total = sum(weights.values())
        found: dict[str, Cover] = {}
        for i in self._candidates(wanted):
            unit = self.units[i]
            if unit.label:
                continue
            shared = wanted & self.sets[i]
            if len(shared) < MIN_SHARED or (len(shared) < 6 and len(shared) < 0.25 * len(self.sets[i])):
                continue
            coverage = sum(weights[s] for s in shared) / total
            if coverage >= least and (unit.path not in found or coverage > found[unit.path].coverage):
                found[unit.path] = Cover(unit, coverage, frozenset(wanted - shared))
        return found


def _record_cover(wanted: set[str], shared: set[str], core: frozenset[str]) -> float | None:
    """How well a sentence restates a config record: most of the record's own words, and little else.

    A record is a few words (a script's name and command); the words a sentence puts
    around them ("over the repo", "calls") are not judged by their rarity, only counted.
    """
    held = len(core & wanted)
    if held < min(2, len(core)) or held < 0.6 * len(core):
        return None
    extra = len(wanted - shared)
    if extra > max(2, 0.3 * len(wanted)):
        return None
    return max(COVERED, len(shared) / len(wanted))


_memo: list[tuple[list[Unit], UnitIndex]] = []


def unit_index(facts: RepoFacts) -> UnitIndex:
    """The index of `facts`' passages, built once for one set of facts (and kept, `repo_facts.derived`)."""
    if _memo and _memo[0][0] is facts.units:
        return _memo[0][1]
    index = derived(facts, "units", lambda: UnitIndex(facts.units), UnitIndex.plain,
                    lambda plain: UnitIndex(facts.units, plain))
    _memo[:] = [(facts.units, index)]
    return index


_KIND_STEMS = frozenset(s for words in KIND_WORDS.values() for s in content_stems(words))
_blocks: list[tuple[object, BlockIndex]] = []


def block_cover(facts: RepoFacts, stems: Sequence[str]) -> Cover | None:
    """A block of config records (a CI job, a tool's settings, CODEOWNERS) that restates the sentence of `stems`.

    See `repo_groups`: the sentence restates two or more of the block's records, or names
    one record and gives most of what it runs, and adds next to nothing. The block is
    given as one passage, labelled with its name ("ci web", "setting tool.ruff").
    """
    if not (_blocks and _blocks[0][0] is facts.records):
        made = derived(facts, "blocks", lambda: blocks(facts.records, commands(facts.records), KIND_WORDS),
                       lambda found: [tuple(b) for b in found], lambda plain: [Block(*b) for b in plain])
        _blocks[:] = [(facts.records, BlockIndex(made))]
    found = _blocks[0][1].best(stems, _KIND_STEMS)
    if found is None:
        return None
    b = found.block
    unit = Unit(b.path, b.line, " ".join(sorted(b.stems)), b.name, " ".join(sorted(frozenset().union(*b.members))))
    return Cover(unit, max(COVERED, found.share), found.missing)


_COMMIT_WORDS = " ".join(content_stems("commit commits committed git history log recent recently change changed changes "
                                        "introduced landed merged"))
_commits: list[tuple[object, UnitIndex]] = []


def commit_cover(facts: RepoFacts, stems: Sequence[str]) -> tuple[str, str] | None:
    """The commit (hash, subject) whose subject a sentence rewords: three or more of its content stems, little else.

    A subject is read as a config record is: the sentence holds most of its own stems
    (at least three: "Update dependencies" is no claim of anything) and adds at most a
    couple of words besides what one calls a commit.
    """
    if not (_commits and _commits[0][0] is facts.subjects):
        _commits[:] = [(facts.subjects, derived(facts, "commits", lambda: _commit_index(facts), _plain_index,
                                                _index_of_plain))]
    index = _commits[0][1]
    if not index.units:
        return None
    found = index.best(stems)
    if found is None or found.coverage < COVERED or len(set(found.unit.core.split()) & set(stems)) < 3:
        return None
    return found.unit.path, found.unit.label


def _commit_index(facts: RepoFacts) -> UnitIndex:
    """The commit subjects of three or more content stems, each a record of its stems and what one calls a commit."""
    units = []
    for commit_hash, subject, _, _ in facts.subjects:
        core = tuple(dict.fromkeys(quantities(content_stems(subject))))
        if len(core) >= 3:
            units.append(Unit(commit_hash, 0, f"{' '.join(core)} {_COMMIT_WORDS}", subject, " ".join(core)))
    return UnitIndex(units)


def _plain_index(index: UnitIndex) -> tuple[list[tuple[str, int, str, str, str]], dict[str, list[int]], list[int]]:
    """An index of units of its own (not the facts'), units included, in marshal's types."""
    return [tuple(u) for u in index.units], *index.plain()  # type: ignore[misc]


def _index_of_plain(plain: tuple[list[tuple[str, int, str, str, str]], dict[str, list[int]], list[int]]) -> UnitIndex:
    units, postings, lengths = plain
    return UnitIndex([Unit(*u) for u in units], (postings, lengths))


SUMMARY_MEAN = 0.32  # weighted share of a card's content stems, on average over its sentences, one named doc holds
SUMMARY_STRONG = 5  # sentences of the card at least half covered by a passage of that doc
_STRONG = 0.5


class Summary(NamedTuple):
    path: str
    line: int  # the passage of the doc that covers the card's first well-covered sentence
    sentence: int  # index of that sentence among those given
    strong: int
    mean: float


def summary_of(index: UnitIndex, docs: Sequence[str], said: Sequence[frozenset[str]]) -> Summary | None:
    """Whether the sentences `said` sum up one of `docs` (repo docs the card names as its source).

    A card that points to a doc ("full report: docs/incidents/…") and whose sentences
    each share a good part of their weighted content stems with one passage of it
    rewords that doc: on average `SUMMARY_MEAN` of every sentence, and at least
    `SUMMARY_STRONG` sentences half or more.
    """
    total = sum(len(stems) for stems in said)
    if not docs or len(said) < SUMMARY_STRONG or not total:
        return None
    by_path = _passages_by_path(index)
    best: Summary | None = None
    for path in docs:
        ids = by_path.get(path)
        if not ids:
            continue
        weighted = 0.0
        strong = 0
        first: tuple[int, int] | None = None
        for n, stems in enumerate(said):
            coverage, at = _cover_in(index, ids, stems)
            weighted += coverage * len(stems)
            if coverage >= _STRONG:
                strong += 1
                first = first or (n, at)
        mean = weighted / total
        if first is not None and strong >= SUMMARY_STRONG and mean >= SUMMARY_MEAN and (best is None or mean > best.mean):
            best = Summary(path, first[1], first[0], strong, mean)
    return best


def _cover_in(index: UnitIndex, ids: Sequence[int], stems: frozenset[str]) -> tuple[float, int]:
    """The best weighted coverage of `stems` by one of the passages `ids`, and that passage's line."""
    weights = {s: index.weight(s) for s in stems}
    total = sum(weights.values())
    best, line = 0.0, 0
    for i in ids:
        shared = stems & index.sets[i]
        if len(shared) < MIN_SHARED:
            continue
        coverage = sum(weights[s] for s in shared) / total
        if coverage > best:
            best, line = coverage, index.units[i].line
    return best, line


_by_path: list[tuple[UnitIndex, dict[str, list[int]]]] = []


def _passages_by_path(index: UnitIndex) -> dict[str, list[int]]:
    """Docs passages (not config records) by file, built once for one index."""
    if _by_path and _by_path[0][0] is index:
        return _by_path[0][1]
    out: dict[str, list[int]] = defaultdict(list)
    for i, unit in enumerate(index.units):
        if not unit.label:
            out[unit.path].append(i)
    _by_path[:] = [(index, dict(out))]
    return _by_path[0][1]
