"""Similarity: which cards state the same fact, and which state facts that cannot both hold.

The one mechanism behind the duplicate and contradiction rules, the write gate of
`cards add`, `cards watch` and consolidation. Fuzzy scores alone cannot tell the two
apart (a rule and its negation score 100 on token_set_ratio), so this works in two steps:

1. **Block**: propose candidate pairs cheaply, never all pairs: cards sharing a
   single-valued key, cards with the same normalized description, descriptions sharing
   two of their three rarest words, and statements sharing two of their rarest words.
   Every block is capped, so the pairs grow with the number of cards, not its square.
2. **Classify** (`classify`): by slot first (`slots`: scope, key, description), value
   second (`values`): one slot and one value is a duplicate, one slot and another value
   (or the opposite polarity) a contradiction; different scopes and two values of a
   multi-valued key are different facts.
3. **Documents** (`documents`): long cards the statement model cannot judge (research
   notes, long how-tos) pair as one document written twice when their titles, their
   contents and their vocabularies agree; reported, never merged. Two long cards whose
   statements give one thing two values (`statements`) are a contradiction, reported.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import chain, combinations
from typing import Protocol

from cardindex.meaning import restatement, slots
from cardindex.meaning.classify import Pair, Side, classify_sides, side, swapped_values
from cardindex.meaning.documents import REASON as DOCUMENT_REASON
from cardindex.meaning.documents import Documents, document
from cardindex.meaning.hubs import is_hub
from cardindex.meaning.passages import contradicted
from cardindex.meaning.statements import contradicted as statements_contradicted
from cardindex.meaning.values import kind
from cardindex.meaning.words import CALENDAR, SYNONYMS, Statement, statement
from cardindex.store.card import Card

MAX_BLOCK = 60  # a word shared by more cards than this is not rare enough to block on
RARE_WORDS = 8  # each card is indexed under this many of its rarest words
DESCRIPTION_WORDS = 3  # and under each two of this many of its description's rarest words
OVERRULED = ("wording", "value")  # verdicts on two documents' descriptions that their contents can overrule
DESCRIPTION_BLOCK = 20  # two words shared by more descriptions than this say nothing about a pair

__all__ = ["Pair", "Partners", "candidates", "classify", "find_pairs", "measured_change", "pairs_among", "pairs_with",
           "probe_text", "weights"]


def measured_change(a: Card, b: Card) -> bool:
    """Whether two statements differ only in a measured value: a number, version, port, date or weekday.

    "Staging Postgres listens on port 5433" and "... port 6432" give one slot two values,
    so the newer evidence can settle it. A different name is not settled so: in "For code
    review in Rakinus, …" and "… in Komelar, …" the name may be the subject, not the value.
    """
    sa, sb = statement(a), statement(b)
    for wa, wb in ((sa.fact, sb.fact), (sa.description, sb.description)):
        found = swapped_values(wa, wb)
        if found:
            return all(not t.isalpha() or t in CALENDAR for t in (*found[0], *found[1]))
    # One description, and the bodies (however worded) differ only in measured values:
    # "The export runs every night at 02:00" / "Each night at 04:30 the export kicks off".
    if sa.description.tokens and set(sa.description.tokens) == set(sb.description.tokens):
        only_a = sa.fact.values - set(sb.fact.tokens)
        only_b = sb.fact.values - set(sa.fact.tokens)
        return bool(only_a and only_b) and all(kind(t) in _MEASURED for t in only_a | only_b)
    return False


_MEASURED = frozenset(["calendar", "number", "version"])


def classify(a: Card, b: Card, sa: Statement, sb: Statement, weight: Mapping[str, float], *, same_key: bool = False,
             multi_valued: frozenset[str] = frozenset()) -> Pair | None:
    """What two candidate cards are to each other: duplicate, contradiction, or nothing.

    `same_key` is kept for callers; the slot model reads the keys itself.
    """
    return classify_sides(side(a, sa, weight), side(b, sb, weight), weight, multi_valued)


def weights(statements: Sequence[Statement]) -> dict[str, float]:
    """Inverse document frequency of every word: rare words say more about a fact."""
    frequency: dict[str, int] = defaultdict(int)
    for st in statements:
        for token in set(st.all.tokens):
            frequency[token] += 1
    total = len(statements) + 1
    return {t: math.log(total / n) + 0.1 for t, n in frequency.items()}


def candidates(cards: Sequence[Card], statements: Sequence[Statement], weight: Mapping[str, float], multi_valued: frozenset[str]) -> Iterator[tuple[int, int, bool]]:
    """Index pairs worth comparing, each once: (i, j, share a single-valued key)."""
    keys = [c.key for c in cards]
    return _candidates(keys, statements, [frozenset(st.all.tokens) for st in statements], weight, multi_valued)


def _candidates(keys: Sequence[str | None], statements: Sequence[Statement], bags: Sequence[frozenset[str]],
                weight: Mapping[str, float], multi_valued: frozenset[str]) -> Iterator[tuple[int, int, bool]]:
    """`candidates`, given each card's key and the set of its statement's words."""
    by_key: dict[str, list[int]] = defaultdict(list)
    by_text: dict[str, list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        if key and key not in multi_valued:
            by_key[key].append(i)
        by_text[statements[i].description.text].append(i)
    same_key: set[tuple[int, int]] = set()
    for members in by_key.values():
        same_key.update(combinations(members, 2))
    others: set[tuple[int, int]] = set()
    for members in by_text.values():
        if 1 < len(members) <= MAX_BLOCK:
            others.update(combinations(members, 2))
    # Only words that two statements have can make a pair: rarest of those first; ties by
    # the word, so that the same vault always gives the same pairs.
    shared = [t for t, n in Counter(chain.from_iterable(bags)).items() if n > 1]
    rank = {t: r for r, t in enumerate(sorted(shared, key=lambda t: (-weight.get(t, 0.0), t)))}
    # Descriptions that share two of their rarest words: a reworded description keeps most
    # of its words, even when each is common on its own (a project name and an action).
    ranked = rank.keys()
    _shared_two(others, (sorted(ranked & set(st.description.tokens), key=rank.__getitem__)[:DESCRIPTION_WORDS]
                         for st in statements), DESCRIPTION_BLOCK)
    # Statements that share two of their rarest words, each rare enough to block on
    # (statements of one or two words: one such word).
    threshold = math.log((len(keys) + 1) / MAX_BLOCK) if len(keys) > MAX_BLOCK else 0.0
    indexed = [[t for t in sorted(ranked & bag, key=rank.__getitem__)[:RARE_WORDS] if weight.get(t, 0.0) >= threshold]
               for bag in bags]
    _shared_two(others, indexed, len(keys))
    short = [i for i, st in enumerate(statements) if len(st.all.tokens) <= 2 and indexed[i]]
    if short:
        index: dict[str, list[int]] = defaultdict(list)
        for i, rare in enumerate(indexed):
            for token in rare:
                index[token].append(i)
        for i in short:
            others.update((min(i, j), max(i, j)) for token in indexed[i] for j in index[token] if j != i)
    for i, j in sorted(same_key):
        yield i, j, True
    for i, j in sorted(others - same_key):
        yield i, j, False


def _shared_two(pairs: set[tuple[int, int]], chosen: Iterable[list[str]], limit: int) -> None:
    """Add the pairs of items whose chosen words share two (up to `limit` items sharing them)."""
    by_two: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, words_of in enumerate(chosen):
        for two in combinations(sorted(words_of), 2):
            by_two[two].append(i)
    for members in by_two.values():
        if 1 < len(members) <= limit:
            pairs.update(combinations(members, 2))


def find_pairs(cards: Sequence[Card], multi_valued: frozenset[str] = frozenset(),
               statements: Sequence[Statement] | None = None) -> list[Pair]:
    """Every duplicate and contradiction pair among `cards` (usable, live cards).

    A hub (`hubs`: a list of pointers to other cards, such as a sub-index) states no fact
    of its own and is in no pair, though its words still count in the vault's rarities.

    `statements`, one per card of `cards`, saves computing them (a cache has them).
    """
    if statements is None:
        usable = [c for c in cards if c.usable]
        statements = [statement(c) for c in usable]
    else:
        kept = [(c, st) for c, st in zip(cards, statements, strict=True) if c.usable]
        usable, statements = [c for c, _ in kept], [st for _, st in kept]
    weight = weights(statements)
    sides = [side(c, st, weight) for c, st in zip(usable, statements, strict=True)]
    out = []
    paired: set[tuple[int, int]] = set()
    duplicated: set[tuple[int, int]] = set()
    docs = Documents(usable)
    proposed = [(i, j) for i, j, _ in _candidates([s.key for s in sides], statements, [s.all for s in sides], weight,
                                                 multi_valued)]
    seen = set(proposed)
    reworded = restatement.candidates([restatement.content(s.card) for s in sides], [s.english for s in sides])
    for i, j in proposed + sorted(reworded - seen):
        pair = classify_sides(sides[i], sides[j], weight, multi_valued)
        if pair is not None and not (pair.reason in OVERRULED and docs.overrules(i, j)):
            out.append(pair)
            paired.add((i, j))
            if pair.kind == "duplicate":
                duplicated.add((i, j))
    out = _recast([*out, *_documents(docs, sides, statements, weight, multi_valued, paired, duplicated=duplicated)])
    out = [p for p in out if not (is_hub(p.a) or is_hub(p.b))]
    out.sort(key=lambda p: (p.a.path, p.b.path))
    return out


def _recast(pairs: list[Pair]) -> list[Pair]:
    """Without the duplicates between two long cards whose statements give one thing two values:
    a document written twice with another value in it is a contradiction, never a duplicate."""
    contradicting = {frozenset((p.a.path, p.b.path)) for p in pairs if p.kind == "contradiction"}
    return [p for p in pairs if not (p.kind == "duplicate" and frozenset((p.a.path, p.b.path)) in contradicting)]


def _documents(docs: Documents, sides: Sequence[Side], statements: Sequence[Statement], weight: Mapping[str, float],
               multi_valued: frozenset[str], paired: set[tuple[int, int]],
               wanted: set[tuple[int, int]] | None = None,
               duplicated: set[tuple[int, int]] | None = None) -> list[Pair]:
    """Long cards that are one document written twice (`documents`), among pairs not classified otherwise;
    and long cards whose statements contradict (`statements`), among pairs not classified or called duplicates."""
    duplicated = set() if duplicated is None else duplicated
    out = []
    for i, j, score in docs.pairs(statements, weight, wanted):
        a, b = sides[i], sides[j]
        if (i, j) in paired or slots.relate(a.scope, b.scope, a.key, b.key, lambda: False, multi_valued) == slots.APART:
            continue
        out.append(Pair(a.card, b.card, "duplicate", DOCUMENT_REASON, score,
                        "the same subject documented twice"))
        paired.add((i, j))
        duplicated.add((i, j))
    for i, j, score in docs.containments([s.card for s in sides], statements, weight, wanted):
        a, b = sides[i], sides[j]
        if (min(i, j), max(i, j)) in paired or \
                slots.relate(a.scope, b.scope, a.key, b.key, lambda: False, multi_valued) == slots.APART:
            continue
        first, second = (a, b) if a.card.path < b.card.path else (b, a)
        out.append(Pair(first.card, second.card, "duplicate", DOCUMENT_REASON, score,
                        f"one part of {b.card.path} states it again"))
        paired.add((min(i, j), max(i, j)))
    for i, j, detail in contradicted([s.card for s in sides], statements, docs, weight, wanted):
        a, b = sides[i], sides[j]
        if (min(i, j), max(i, j)) in paired or \
                slots.relate(a.scope, b.scope, a.key, b.key, lambda: False, multi_valued) == slots.APART:
            continue
        first, second = (a, b) if a.card.path < b.card.path else (b, a)
        out.append(Pair(first.card, second.card, "contradiction", "value", 100.0, detail))
        paired.add((min(i, j), max(i, j)))
    for i, j, detail in statements_contradicted([s.card for s in sides], docs, wanted):
        a, b = sides[i], sides[j]
        if ((i, j) in paired and (i, j) not in duplicated) or slots.relate(a.scope, b.scope, a.key, b.key, lambda: False, multi_valued) == slots.APART:
            continue
        out.append(Pair(a.card, b.card, "contradiction", "value", 100.0, detail))
    return out


def probe_text(card: Card) -> str:
    """What `pairs_with` looks for the new card's words in, in a vault card: its description and body head, lowered."""
    return f"{card.description}\n{card.body[:400]}".lower()


class Partners(Protocol):
    """The vault's usable cards other than the new one, as `pairs_among` asks about them.

    `pairs_with` scans the cards it is given; the write gate answers from postings kept in
    the cache (`lint.gate_postings`), loading only the cards that could pair. Both must
    give the same answers, in the vault's order.
    """

    def __len__(self) -> int: ...

    def frequency(self, probe: str) -> int:
        """How many of the cards' `probe_text` contain `probe`."""
        ...

    def matching(self, rare: Sequence[str], said: Sequence[str], key: str | None) -> list[tuple[Card, int, int, bool]]:
        """(card, how many of `rare` its text contains, how many of `said`, whether it holds `key`) for
        every card that contains one of them or holds `key`, in order."""
        ...

    def long_cards(self, every: bool) -> list[Card]:
        """The cards that are documents (`documents.document`), or every card when `every`, in order."""
        ...


class _Scanned:
    """`Partners` over cards in memory: a substring scan of each card's text."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = cards
        self.lowered = [probe_text(c) for c in cards]

    def __len__(self) -> int:
        return len(self.cards)

    def frequency(self, probe: str) -> int:
        return sum(probe in d for d in self.lowered)

    def matching(self, rare: Sequence[str], said: Sequence[str], key: str | None) -> list[tuple[Card, int, int, bool]]:
        out = []
        for card, text in zip(self.cards, self.lowered, strict=True):
            same_key = key is not None and card.key == key
            shared = sum(t in text for t in rare)
            again = sum(t in text for t in said)
            if same_key or shared or again:
                out.append((card, shared, again, same_key))
        return out

    def long_cards(self, every: bool) -> list[Card]:
        return list(self.cards) if every else [c for c in self.cards if document(c) is not None]


def pairs_with(new: Card, cards: Sequence[Card], multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """Pairs between one new card and a vault: what the write gate asks.

    Looks only at cards that could pair with `new`: those holding its key, and those
    whose text contains two of its rarest words (a substring scan, so the vault's other
    cards are only tokenized when they are candidates).
    """
    if is_hub(new):
        return []
    return pairs_among(new, _Scanned([c for c in cards if c.usable and c.path != new.path]), multi_valued)


def pairs_among(new: Card, others: Partners, multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """`pairs_with`, the vault given as `Partners` (the usable cards other than `new`)."""
    if is_hub(new):
        return []
    mine = statement(new)
    total = len(others) + 2
    reworded = restatement.content(new)  # a reworded copy shares words with the whole card, not one sentence
    probes = {t: _probe(t) for t in set(mine.all.tokens) | set(reworded.all.tokens if reworded else ())}
    counted: dict[str, int] = {}

    def count(probe: str) -> int:
        if probe not in counted:
            counted[probe] = others.frequency(probe)
        return counted[probe]

    # A word the statement model writes for a group ("uses" for "runs", "relies", "built")
    # is found in raw text by any of the group's words: as common as its most common one,
    # as lint counts it (else "runs on Fridays" weighs "uses" as a word no card has).
    frequency = {t: max([count(_probe(w)) for w in _SPELLINGS.get(t, ())] + [count(probe)])
                 for t, probe in probes.items()}
    weight = {t: math.log(total / (n + 1)) + 0.1 for t, n in frequency.items()}
    # The rarest words some other card has (a word no other card has finds no partner),
    # as `candidates` ranks only words that two statements share.
    stated = set(mine.all.tokens)
    rare = [probes[t] for f, t in sorted((f, t) for t, f in frequency.items() if 0 < f <= MAX_BLOCK and t in stated)]
    rare = rare[:RARE_WORDS]
    said = [probes[t] for f, t in sorted((f, t) for t, f in frequency.items() if 0 < f <= MAX_BLOCK)][:RARE_WORDS]
    me = side(new, mine, weight)
    out = []
    key = new.key if new.key and new.key not in multi_valued else None
    for card, shared, again, same_key in others.matching(rare, said, key):
        if not (same_key or shared >= 2 or (shared and len(mine.all.tokens) <= 2) or (reworded and again >= 2)):
            continue
        theirs = statement(card)
        # The partner's values ("on Mondays") weigh as lint weighs them, by how many cards say
        # them: whether a value is rare decides a contradiction, and the gate must find the ones lint does.
        for t in theirs.all.values - weight.keys():
            weight[t] = math.log(total / (max(count(_probe(w)) for w in (t, *_SPELLINGS.get(t, ()))) + 1)) + 0.1
        pair = classify_sides(me, side(card, theirs, weight), weight, multi_valued)
        if pair is not None:
            out.append(pair)
    # Long cards are also compared as documents, and a short card with the parts of long ones.
    mine_long = document(new) is not None
    pool = [new, *others.long_cards(mine_long)]
    if len(pool) < 2:
        return [p for p in out if not is_hub(p.b)]
    docs = Documents(pool)
    index = {c.path: i for i, c in enumerate(pool)}
    out = [p for p in out if not (p.reason in OVERRULED and p.b.path in index and docs.overrules(0, index[p.b.path]))]
    found = {c.path for p in out for c in (p.a, p.b)} - {new.path}
    sts = [statement(c) for c in pool]
    doc_weight = weights(sts)
    more = _documents(docs, [side(c, st, doc_weight) for c, st in zip(pool, sts, strict=True)], sts, doc_weight,
                      multi_valued, set(), {(0, j) for j in range(1, len(pool))})
    recast = {p.b.path if p.a.path == new.path else p.a.path for p in more if p.kind == "contradiction"}
    out.extend(p for p in more if ({p.a.path, p.b.path} - {new.path}).isdisjoint(found - recast))
    return [p for p in _recast(out) if not (is_hub(p.a) or is_hub(p.b))]


_SPELLINGS: dict[str, tuple[str, ...]] = {}
for _word, _head in SYNONYMS.items():
    _SPELLINGS[_head] = (*_SPELLINGS.get(_head, ()), _word)


def _probe(token: str) -> str:
    """What a normalized word looks like inside raw text: "write" is in "writing" as "writ"."""
    return token[:-1] if len(token) > 4 and token.endswith("e") else token
