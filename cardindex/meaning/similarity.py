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

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Protocol

from cardindex.meaning import blocking, restatement, slots
from cardindex.meaning.classify import Pair, Side, classify_sides, side, swapped_values
from cardindex.meaning.documents import REASON as DOCUMENT_REASON
from cardindex.meaning.documents import Documents, document
from cardindex.meaning.hubs import is_hub
from cardindex.meaning.passages import contradicted
from cardindex.meaning.statements import contradicted as statements_contradicted
from cardindex.meaning.values import kind
from cardindex.meaning.words import CALENDAR, Statement, statement
from cardindex.store.card import Card

OVERRULED = ("wording", "value")  # verdicts on two documents' descriptions that their contents can overrule

__all__ = ["Pair", "Partners", "candidates", "classify", "find_pairs", "measured_change", "pairs_among", "pairs_with",
           "plain_record", "record_of", "record_with", "remember_records", "remembered_record", "weights"]


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
    """Inverse document frequency of every word (`blocking.rarity`): rare words say more about a fact."""
    return blocking.rarity(Counter(chain.from_iterable(set(st.all.tokens) for st in statements)), len(statements))


def candidates(cards: Sequence[Card], statements: Sequence[Statement], weight: Mapping[str, float], multi_valued: frozenset[str]) -> Iterator[tuple[int, int, bool]]:
    """Index pairs worth comparing, each once: (i, j, share a single-valued key). `weight` is kept for callers:
    the blocks count the words themselves (`blocking.Vocabulary`)."""
    vocabulary = blocking.Vocabulary([record_with(c, st) for c, st in zip(cards, statements, strict=True)])
    for i, j in blocking.all_pairs(vocabulary, multi_valued):
        a, b = cards[i].key, cards[j].key
        yield i, j, bool(a and a == b and a not in multi_valued)


def record_with(card: Card, st: Statement) -> blocking.Record:
    """What the blocks read of a card whose statement is `st` (`blocking.Record`)."""
    return blocking.record(card.key, st, restatement.content(card), slots.english(card))


# card text -> its record (plain): a record is made of the card's text alone, and `cards watch` pairs the
# changed cards with every other on each pass; bounded, for a long-running process.
_RECORDS: dict[str, blocking.Plain] = {}
_RECORDS_MAX = 200_000


def remembered_record(card: Card, statement_of: Callable[[Card], Statement] = statement) -> blocking.Plain:
    """`record_of(card)`, plain, remembered by the card's text for the life of the process."""
    found = _RECORDS.get(card.text)
    if found is None:
        if len(_RECORDS) >= _RECORDS_MAX:
            _RECORDS.clear()
        found = _RECORDS[card.text] = blocking.plain(record_with(card, statement_of(card)))
    return found


def remember_records(cards: Sequence[Card]) -> None:
    """Remember the records of the usable `cards` (`remembered_record`), those not remembered yet made many at
    a time (`many_records`: in two forked children when thousands, so this process's memos stay small)."""
    from cardindex.meaning.many_records import records

    missing = list({c.text: c for c in cards if c.usable and c.text not in _RECORDS}.values())
    if len(_RECORDS) + len(missing) > _RECORDS_MAX:
        _RECORDS.clear()
    for card, found in zip(missing, records(missing, plain_record), strict=True):
        _RECORDS[card.text] = found


def plain_record(card: Card) -> blocking.Plain:
    """`record_of(card)` as plain tuples (`blocking.plain`): what the postings and the process memo keep."""
    return blocking.plain(record_of(card))


def record_of(card: Card) -> blocking.Record:
    """What the blocks read of a card (`blocking.Record`): the gate's postings keep it."""
    return record_with(card, statement(card))


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
    vocabulary = blocking.Vocabulary([record_with(c, st) for c, st in zip(usable, statements, strict=True)])
    weight = vocabulary.weight
    sides = [side(c, st, weight) for c, st in zip(usable, statements, strict=True)]
    out = []
    paired: set[tuple[int, int]] = set()
    duplicated: set[tuple[int, int]] = set()
    docs = Documents(usable)
    for i, j in blocking.all_pairs(vocabulary, multi_valued):
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
    # Every pair of documents, then those wanted: a third copy of one document is found through the
    # two others (`Documents._third`), which a search for one card's pairs alone would not see.
    for i, j, score in docs.pairs(statements, weight):
        if wanted is not None and (i, j) not in wanted:
            continue
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


class Partners(Protocol):
    """The vault's usable live cards other than the new one, as `pairs_among` asks about them.

    `pairs_with` gives the cards it is given; the write gate answers from postings kept in
    the cache (`lint.gate_postings`), loading only the cards a block proposes. Both must
    give the same answers, in the vault's order.
    """

    @property
    def records(self) -> Sequence[blocking.Plain]:
        """Each card's `blocking.Record`, in order."""
        ...

    @property
    def counts(self) -> blocking.Counts:
        """`blocking.Counts.of(records)` (never changed by the caller)."""
        ...

    def cards(self, places: Sequence[int]) -> list[Card]:
        """The cards at these places (indices into `records`), in that order."""
        ...

    def long_places(self) -> list[int]:
        """The places of the cards that are documents (`documents.document`), ascending."""
        ...


class _Given:
    """`Partners` over cards in memory: each card's record made (or remembered) once, and their counts."""

    def __init__(self, cards: Sequence[Card], record_of: Callable[[Card], blocking.Plain]) -> None:
        self._cards = cards
        self._records = [record_of(c) for c in cards]
        self._counts = blocking.Counts.of(self._records)

    @property
    def records(self) -> Sequence[blocking.Plain]:
        return self._records

    @property
    def counts(self) -> blocking.Counts:
        return self._counts

    def cards(self, places: Sequence[int]) -> list[Card]:
        return [self._cards[j] for j in places]

    def long_places(self) -> list[int]:
        return [j for j, c in enumerate(self._cards) if document(c) is not None]


def pairs_with(new: Card, cards: Sequence[Card], multi_valued: frozenset[str] = frozenset(),
               statement_of: Callable[[Card], Statement] = statement) -> list[Pair]:
    """Pairs between one new card and a vault: what the write gate and `cards watch` ask.

    Exactly the pairs `find_pairs` finds with `new` among `cards` and `new`: the blocks
    (`blocking.pairs_of`) and the rarity weights are the whole vault's, and only the cards
    a block proposes are classified. `statement_of` saves computing each card's statement (a
    cache has them); each card's record is remembered by its text (`remembered_record`).
    """
    if is_hub(new):
        return []

    def record_of(card: Card) -> blocking.Plain:
        return remembered_record(card, statement_of)

    return pairs_among(new, _Given([c for c in cards if c.usable and c.path != new.path], record_of),
                       multi_valued, statement_of)


def pairs_among(new: Card, others: Partners, multi_valued: frozenset[str] = frozenset(),
                statement_of: Callable[[Card], Statement] = statement) -> list[Pair]:
    """`pairs_with`, the vault given as `Partners` (the usable live cards other than `new`)."""
    if is_hub(new):
        return []
    mine = statement_of(new)
    n = len(others.records)
    record = record_with(new, mine)
    counts = others.counts.copy()
    blocking.add(counts, record)
    vocabulary = blocking.Vocabulary([*others.records, record], counts)
    weight = vocabulary.weight
    me = side(new, mine, weight)
    proposed = blocking.pairs_of(vocabulary, n, multi_valued)
    long_places = others.long_places()
    every = document(new) is not None  # a long card may state again what any short card says
    pool_places = list(range(n)) if every else long_places
    wanted = sorted({*proposed, *pool_places})
    loaded = dict(zip(wanted, others.cards(wanted), strict=True))
    pool = [new, *(loaded[j] for j in pool_places)]
    at = {j: k for k, j in enumerate(pool_places, 1)}  # a vault place -> its place in the pool
    docs = Documents(pool)
    found: list[Pair] = []
    paired: set[tuple[int, int]] = set()
    duplicated: set[tuple[int, int]] = set()
    for j in proposed:
        card = loaded[j]
        theirs = side(card, statement_of(card), weight)
        a, b = (me, theirs) if new.path < card.path else (theirs, me)  # as `find_pairs` orders them: by path
        pair = classify_sides(a, b, weight, multi_valued)
        if pair is None or (pair.reason in OVERRULED and j in at and docs.overrules(0, at[j])):
            continue
        found.append(pair)
        if j in at:
            paired.add((0, at[j]))
            if pair.kind == "duplicate":
                duplicated.add((0, at[j]))
    if len(pool) > 1:
        sts = [mine, *(statement_of(c) for c in pool[1:])]
        sides = [me, *(side(c, st, weight) for c, st in zip(pool[1:], sts[1:], strict=True))]
        found.extend(_documents(docs, sides, sts, weight, multi_valued, paired, {(0, k) for k in range(1, len(pool))},
                                duplicated))
    return [p for p in _recast(found) if not (is_hub(p.a) or is_hub(p.b))]
