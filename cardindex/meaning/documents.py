"""Documents: two long cards about one subject, saved under two names.

A long card (a research dump, a how-to of many steps, a skill described twice) states many
things at once: its description and the body clause nearest to it are not "the fact", so
the statement model (`classify`) cannot tell two of them apart from two unrelated notes.
Two such cards are the same document written twice only when three different views of
them agree, because each alone also holds for two notes on neighbouring topics:

1. **One subject by name**: most words of the shorter title (the card's `name`, else its
   description) are in the other's, and not each title has a name the other lacks (words
   shaped as names in any case: "EXOS command index" / "VOSS command index" are two things).
2. **Each contains the other's statement**: some unit of one card (a bullet, a paragraph,
   a table row), with its description, holds most of the other's statement (its
   description and fact sentence, weighted by rarity), and the other way round.
3. **One vocabulary**: the cosine of the two bodies' rarity-weighted word counts, over the
   long cards of the vault, is high. Two bodies of one vocabulary through and through
   (`ALIKE`: one list said again in other words) need less of each statement held by the
   other (`ALIKE_MUTUAL`): their descriptions, written apart, tend to differ.

Between two documents the statement model's own verdicts on their descriptions (the same
fact reworded, another value in one place) stand only when the documents are alike
(`Documents.overrules`): one title over two contents is two notes.

A short card can also be **stated again inside a document**: one unit of a long card (a
bullet of a project card, a section of a how-to) holds most of the short card's
description and says little the short card does not (`Documents.containments`).

Three copies of one document are found as a group: two documents each found with a third
are one document too when their titles name one subject and their vocabularies are alike
(`THIRD_COSINE`; two halves of one long document, each restating part of it, are not).

Such a pair is reported as a duplicate with reason `restated`: lint and the write gate
name it; consolidation merges them without rewriting either: the canonical card keeps
its text and gains what the other adds (`meaning.union`), a short card into the long one
that states it again, and a union too long for one card is left to the user.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.words import Statement, words
from cardindex.store.card import Card

MIN_UNITS = 6  # a card of this many units (bullets, paragraphs, rows) is a document
MIN_UNIT_WORDS = 3  # shorter units (a label, a bare link) say nothing of their own
TITLE_SHARE = 0.5  # of the shorter title's words that the other title has
MUTUAL = 0.45  # rarity-weighted share of each statement that a unit of the other holds
COSINE = 0.25  # of the two bodies' rarity-weighted word counts
ALIKE = 0.45  # a cosine this high (one vocabulary through and through) ...
ALIKE_MUTUAL = 0.3  # ... needs less of each statement held by the other
THIRD_COSINE = 0.2  # and of two copies of one document each found with a third
CONTAINED = 0.7  # a unit holds this much of a short card's description, and says little else
CONTAINED_BLOCK = 60  # a word in more documents than this does not find where a short card is restated
TITLE_BLOCK = 40  # two title words shared by more documents than this say nothing
REASON = "restated"

_BULLET = lazy_pattern(r"^\s*(?:[-*+]|\d+[.)])\s+")
_NAME_SHAPE = lazy_pattern(r"[A-Z].*[A-Z]|\d")  # two capitals (an acronym, CamelCase) or a digit
_FENCE = lazy_pattern(r"^\s*(?:```|~~~)")

__all__ = ["COSINE", "MUTUAL", "REASON", "Document", "Documents", "document", "signature", "units"]


class Document(NamedTuple):
    """A long card as compared here: its title words, its units' words, its word counts."""

    title: frozenset[str]
    named: frozenset[str]  # title words shaped as names whatever the title's case: "EXOS", "FabricEngine", "v3"
    units: tuple[frozenset[str], ...]
    counts: Mapping[str, int]


def units(body: str) -> list[str]:
    """The units of a body: each bullet, table row and heading, each paragraph of plain lines.

    Code blocks are left out: code shared between two notes is boilerplate more often
    than a restated fact.
    """
    out: list[str] = []
    paragraph: list[str] = []
    fenced = False
    for line in body.splitlines():
        text = line.strip()
        if _FENCE.match(line):
            fenced = not fenced
            text = ""
        if fenced or not text or text.startswith(("#", "|")) or _BULLET.match(line):
            if paragraph:
                out.append(" ".join(paragraph))
                paragraph = []
            if text and not fenced:
                out.append(text)
            continue
        paragraph.append(text)
    if paragraph:
        out.append(" ".join(paragraph))
    return out


def document(card: Card) -> Document | None:
    """The card as a document, or None when it is too short to be one (most cards)."""
    body = card.body
    if body.count("\n") + 1 < MIN_UNITS:
        return None  # cheap test first: a document has at least as many lines as units
    found = [_parts(words(u).tokens) for u in units(body)]
    kept = tuple(u for u in found if len(u) >= MIN_UNIT_WORDS)
    if len(kept) < MIN_UNITS:
        return None
    title_text = card.name or card.description
    named = frozenset(t for raw in title_text.split() if _NAME_SHAPE.search(raw) for t in words(raw).tokens)
    return Document(frozenset(words(title_text).tokens), named, kept, Counter(words(body).tokens))


UNIT_HELD = 0.5  # of a unit's words that one unit of the other document has, for that unit to be said there


def units_held(a: Document, b: Document) -> float:
    """The share of `a`'s units that some unit of `b` says again (most of its words in one unit).

    Two documents that each hold units the other does not say are two notes on one subject
    (`Documents`); a merge keeps both (`meaning.union` measures the same way).
    """
    if not a.units:
        return 1.0
    said = sum(any(len(u & v) >= UNIT_HELD * len(u) for v in b.units) for u in a.units)
    return said / len(a.units)


def _parts(tokens: Sequence[str]) -> frozenset[str]:
    """The words of a unit, a word written with slashes also as its parts ("locked/protected", "feature/x")."""
    out = set(tokens)
    for token in tokens:
        if "/" in token and "://" not in token:
            out.update(words(token.replace("/", " ")).tokens)
    return frozenset(out)


def signature(card: Card) -> str:
    """What this module reads of a card beyond its statement (for caches): its body and name, when it is a document."""
    if document(card) is None:
        return ""
    return hashlib.blake2b(f"{card.name}\0{card.body}".encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _contains(statement: Statement, other: Document, other_description: frozenset[str],
              weight: Mapping[str, float]) -> float:
    """The rarity-weighted share of `statement` that one unit of `other` (with its description) holds."""
    said = frozenset(statement.all.tokens)
    total = sum(weight.get(t, 1.0) for t in said)
    if not total:
        return 0.0
    best = 0.0
    for unit in other.units:
        held = said & (unit | other_description)
        if held:
            best = max(best, sum(weight.get(t, 1.0) for t in held) / total)
    return best


def _one_subject(a: Document, b: Document) -> bool:
    """Whether two titles name one subject: most words shared, and not each a name the other lacks."""
    if not a.title or not b.title:
        return False
    shared = len(a.title & b.title)
    if shared < 2 or shared < TITLE_SHARE * min(len(a.title), len(b.title)):
        return False
    return not (a.named - b.title and b.named - a.title)


def _cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(t, 0.0) for t, v in a.items())


def _vector(counts: Mapping[str, int], idf: Mapping[str, float]) -> dict[str, float]:
    raw = {t: (1 + math.log(n)) * idf[t] for t, n in counts.items() if idf.get(t)}
    norm = math.sqrt(sum(v * v for v in raw.values())) or 1.0
    return {t: v / norm for t, v in raw.items()}


def weigher(weight: Mapping[str, float]) -> Callable[[frozenset[str]], float]:
    """The rarity weight of a set of words; a word `weight` lacks counts as the rarest."""
    rare_default = max(weight.values(), default=1.0)

    def w(tokens: frozenset[str]) -> float:
        return sum(weight.get(t, rare_default) for t in tokens)

    return w


class Documents:
    """The long cards among `cards`, with what comparing them needs (rarity over the documents alone)."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.docs = {i: d for i, c in enumerate(cards) if (d := document(c)) is not None}
        df: Counter[str] = Counter()
        for d in self.docs.values():
            df.update(d.counts.keys())
        total = len(self.docs) + 1
        self.idf = {t: math.log(total / n) for t, n in df.items()}
        self._vectors: dict[int, dict[str, float]] = {}

    @functools.cached_property
    def postings(self) -> dict[str, list[int]]:
        """word -> the documents whose title or a unit holds it (ascending)."""
        out: dict[str, list[int]] = defaultdict(list)
        for j, d in self.docs.items():
            for token in d.title.union(*d.units):
                out[token].append(j)
        return out

    def cosine(self, i: int, j: int) -> float:
        """How alike the vocabularies of documents i and j are."""
        vectors = [self._vectors.get(k) or self._vectors.setdefault(k, _vector(self.docs[k].counts, self.idf))
                   for k in (i, j)]
        return _cosine(*vectors)

    def overrules(self, i: int, j: int) -> bool:
        """Whether two documents are too unlike for a pair the statement model gave on their
        descriptions and first clauses (one title over two contents; two named things)."""
        a, b = self.docs.get(i), self.docs.get(j)
        if a is None or b is None:
            return False
        return bool(a.named - b.title and b.named - a.title) or self.cosine(i, j) < COSINE

    def pairs(self, statements: Sequence[Statement], weight: Mapping[str, float],
              wanted: set[tuple[int, int]] | None = None) -> list[tuple[int, int, float]]:
        """The index pairs (i, j, score) that are one document written twice.

        Candidates are documents whose titles share two words (blocked, never all pairs);
        `wanted`, when given, keeps only those index pairs (the write gate asks about one card).
        """
        docs = self.docs
        by_two: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, d in docs.items():
            for two in combinations(sorted(d.title), 2):
                by_two[two].append(i)
        candidates: set[tuple[int, int]] = set()
        for members in by_two.values():
            if 1 < len(members) <= TITLE_BLOCK:
                candidates.update(combinations(sorted(members), 2))
        if wanted is not None:
            candidates &= wanted
        out = []
        for i, j in sorted(candidates):
            a, b = docs[i], docs[j]
            if not _one_subject(a, b):
                continue
            da, db = frozenset(statements[i].description.tokens), frozenset(statements[j].description.tokens)
            mutual = min(_contains(statements[i], b, db, weight), _contains(statements[j], a, da, weight))
            if mutual < ALIKE_MUTUAL:
                continue
            cosine = self.cosine(i, j)
            if cosine >= COSINE and (mutual >= MUTUAL or cosine >= ALIKE):
                out.append((i, j, round(min(mutual, cosine * 2) * 100, 1)))
        return out + self._third(out, wanted)

    def _third(self, found: Sequence[tuple[int, int, float]],
               wanted: set[tuple[int, int]] | None) -> list[tuple[int, int, float]]:
        """One document written three times: two copies of one document, each found with a
        third, are one document too when their titles name one subject and their
        vocabularies are alike (the two may share less with each other than each shares
        with the fuller third; two halves of one document share little vocabulary)."""
        linked: dict[int, dict[int, float]] = defaultdict(dict)
        for i, j, score in found:
            linked[i][j] = linked[j][i] = score
        out = []
        for k in sorted(linked):
            for i, j in combinations(sorted(linked[k]), 2):
                if j in linked[i] or (wanted is not None and (i, j) not in wanted):
                    continue
                if _one_subject(self.docs[i], self.docs[j]) and self.cosine(i, j) >= THIRD_COSINE:
                    score = min(linked[k][i], linked[k][j])
                    linked[i][j] = linked[j][i] = score
                    out.append((i, j, score))
        return out

    def containments(self, cards: Sequence[Card], statements: Sequence[Statement], weight: Mapping[str, float],
                     wanted: set[tuple[int, int]] | None = None) -> list[tuple[int, int, float]]:
        """(i, j, score): short card i stated again in one unit of document j.

        One unit of j (a bullet, a paragraph), with j's title, holds most of i's description
        (rarity-weighted), and most of that unit is words card i has: a bullet that names the
        short card's subject but says something else about it is no restatement. Candidates:
        the documents holding the two rarest words of the short card's description.
        """
        if not self.docs:
            return []
        w = weigher(weight)
        postings = self.postings
        out = []
        for i, card in enumerate(cards):
            if i in self.docs:
                continue
            described = frozenset(statements[i].description.tokens)
            if len(described) < MIN_UNIT_WORDS:
                continue
            rarest = sorted(described, key=lambda t: (-w(frozenset((t,))), t))[:2]
            lists = [postings.get(t, []) for t in rarest]
            if any(not ps or len(ps) > CONTAINED_BLOCK for ps in lists):
                continue
            whole: frozenset[str] | None = None
            for j in sorted(set(lists[0]).intersection(*lists[1:])):
                if wanted is not None and (min(i, j), max(i, j)) not in wanted:
                    continue
                doc = self.docs[j]
                if whole is None:
                    whole = frozenset(words(f"{card.description}\n{card.body}").tokens)
                best = 0.0
                for unit in doc.units:
                    held = w(described & (unit | doc.title)) / w(described)
                    if held >= CONTAINED:
                        best = max(best, min(held, w(unit & whole) / (w(unit) or 1.0)))
                if best >= CONTAINED:
                    out.append((i, j, round(best * 100, 1)))
        return out
