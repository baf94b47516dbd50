"""Similarity: which cards say the same thing, and which say opposite things.

The one mechanism behind the duplicate and contradiction rules, the write gate of
`cards add`, and consolidation. Fuzzy scores alone cannot tell the two apart (a rule and
its negation score 100 on token_set_ratio), so this works in three steps:

A card is compared by its **statement** (`words.statement`: the one model of what a card
states).

1. **Block**: propose candidate pairs cheaply, never all pairs: cards sharing a
   single-valued key, cards with the same normalized description, descriptions sharing
   two of their three rarest words, and statements sharing two of their rarest words.
   Every block is capped, so the pairs grow with the number of cards, not its square.
2. **Classify by what differs**: opposite polarity (a negation or an antonym on one side
   only, the rest the same, or one rule being the other with qualifiers added) or a
   different value in one aligned slot (a number, version, port, weekday, or a name)
   makes a contradiction; shared words weighted by rarity, covering most of the shorter
   statement and a good part of the longer one, with nothing opposed, make a duplicate.
"""

from __future__ import annotations

import difflib
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import chain, combinations
from typing import NamedTuple

from cardindex.meaning.words import (
    ANTONYMS,
    CALENDAR,
    NEGATIVE,
    NEGATORS,
    QUESTION,
    Statement,
    Words,
    statement,
)
from cardindex.store.card import Card

DUPLICATE_OVERLAP = 0.65  # rarity-weighted share of a statement's words the other one has
DUPLICATE_COVER = 0.4  # and of the longer one's: a short card is not the duplicate of a card about more
SAME_THING = 0.6  # two facts are about the same thing when this much of their non-value words agree
MAX_BLOCK = 60  # a word shared by more cards than this is not rare enough to block on
RARE_WORDS = 8  # each card is indexed under this many of its rarest words
DESCRIPTION_WORDS = 3  # and under each two of this many of its description's rarest words
DESCRIPTION_BLOCK = 20  # two words shared by more descriptions than this say nothing about a pair

class Pair(NamedTuple):
    """Two cards and what they are to each other."""

    a: Card
    b: Card
    kind: str  # "duplicate" or "contradiction"
    reason: str  # "same-key", "polarity", "value", "wording"
    score: float
    detail: str


def _polar(token: str) -> bool:
    return token in NEGATORS or token in ANTONYMS or token.endswith("n't")


def _opposed(only_a: AbstractSet[str], only_b: AbstractSet[str]) -> str | None:
    """Why two statements have opposite polarity, or None."""
    for word in sorted(only_a):
        for other in sorted(ANTONYMS.get(word, ())):
            if other in only_b:
                return f"'{word}' vs '{other}'"
    neg_a = {t for t in only_a if t in NEGATORS or t.endswith("n't")}
    neg_b = {t for t in only_b if t in NEGATORS or t.endswith("n't")}
    if bool(neg_a) != bool(neg_b):
        if not NEGATIVE.isdisjoint(only_b if neg_a else only_a):
            return None  # a negative word answers the negation: "does not work" and "day off"
        return f"'{min(neg_a or neg_b)}' on one side only"
    return None


_CONVERSES = {"before": "after", "after": "before"}


def _converse(wa: Words, wb: Words, only_a: AbstractSet[str], only_b: AbstractSet[str]) -> bool:
    """One order said both ways: "merged only after 2 approvals" and "2 approvals before merging".

    The words on each side of "after" in one are on the other sides of "before" in the
    other; "deploy before the migration" and "deploy after the migration" keep theirs.
    """
    for word in only_a & _CONVERSES.keys():
        other = _CONVERSES[word]
        if other not in only_b:
            continue
        i, j = wa.tokens.index(word), wb.tokens.index(other)
        left_a, right_a = set(wa.tokens[:i]), set(wa.tokens[i + 1:])
        left_b, right_b = set(wb.tokens[:j]), set(wb.tokens[j + 1:])
        crossed = len(left_a & right_b) + len(right_a & left_b)
        if left_a & right_b and right_a & left_b and crossed > len(left_a & left_b) + len(right_a & right_b):
            return True
    return False


def _value_slot(a: Words, b: Words) -> str | None:
    """The one aligned position where the two differ, and only in values (port, version, weekday…)."""
    found = _swapped_values(a, b)
    return f"{' '.join(found[0])!r} vs {' '.join(found[1])!r}" if found else None


def _swapped_values(a: Words, b: Words) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    matcher = difflib.SequenceMatcher(a=a.tokens, b=b.tokens, autojunk=False)
    changed = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = changed[0]
    left, right = a.tokens[i1:i2], b.tokens[j1:j2]
    if all(t in a.values for t in left) and all(t in b.values for t in right):
        return left, right
    return None


def measured_change(a: Card, b: Card) -> bool:
    """Whether two statements differ only in a measured value: a number, version, port, date or weekday.

    "Staging Postgres listens on port 5433" and "... port 6432" give one slot two values,
    so the newer evidence can settle it. A different name is not settled so: in "For code
    review in Rakinus, …" and "… in Komelar, …" the name may be the subject, not the value.
    """
    sa, sb = statement(a), statement(b)
    for wa, wb in ((sa.fact, sb.fact), (sa.description, sb.description)):
        found = _swapped_values(wa, wb)
        if found:
            return all(not t.isalpha() or t in CALENDAR for t in (*found[0], *found[1]))
    return False


def _keys_compatible(key_a: str | None, key_b: str | None) -> bool:
    """Cards with unrelated keys fill different slots: not contradictory by wording."""
    if not key_a or not key_b or key_a == key_b:
        return True
    short, long = sorted((key_a, key_b), key=len)
    return long.startswith(short) and not long[len(short)].isalnum()  # deploy-day and deploy-day-2, not deploy-days


def _contradiction(wa: Words, wb: Words, set_a: frozenset[str] | None = None,
                   set_b: frozenset[str] | None = None) -> tuple[str, str] | None:
    """(reason, detail) when two statements about the same thing cannot both hold."""
    set_a = frozenset(wa.tokens) if set_a is None else set_a
    set_b = frozenset(wb.tokens) if set_b is None else set_b
    if not set_a or not set_b:
        return None
    only_a, only_b = set_a - set_b, set_b - set_a
    if not only_a and not only_b:
        return None
    core_a = {t for t in only_a if not _polar(t)}
    core_b = {t for t in only_b if not _polar(t)}
    agreeing = len(set_a | set_b) - len(core_a) - len(core_b)
    if len(core_a) + len(core_b) > agreeing + 2 and not (core_a <= wa.values and core_b <= wb.values):
        return None  # more differs than agrees: neither polarity test below can pass (a cheap test first)
    opposed = _opposed(only_a, only_b)
    if opposed and _converse(wa, wb, only_a, only_b):
        opposed = None
    if opposed and not (core_a & wa.values or core_b & wb.values):
        plain_a = {t for t in set_a if not _polar(t)}
        plain_b = {t for t in set_b if not _polar(t)}
        if len(core_a) + len(core_b) <= max(2, len(plain_a | plain_b) // 3):
            return "polarity", f"opposite polarity: {opposed}"
        # One rule is the other with qualifiers added: "Never run or schedule a migration
        # against production on a Friday" and "Run production migrations on Fridays".
        if not (core_a and core_b) and len(plain_a & plain_b) >= max(3, len(plain_a | plain_b) // 2):
            return "polarity", f"opposite polarity: {opposed}"
    if core_a and core_b and core_a <= wa.values and core_b <= wb.values:
        slot = _value_slot(wa, wb)
        if slot:
            return "value", f"different value in the same place: {slot}"
    return None


def _overlap(wa: Words, wb: Words, weight: Mapping[str, float]) -> float:
    """Rarity-weighted share of the smaller statement's words that the other one has."""
    return _coverage(frozenset(wa.tokens), frozenset(wb.tokens), weight)[0]


def _coverage(set_a: frozenset[str], set_b: frozenset[str], weight: Mapping[str, float],
              total_a: float | None = None, total_b: float | None = None) -> tuple[float, float]:
    """Rarity-weighted shares of the smaller and of the larger statement's words that both have."""
    if not set_a or not set_b:
        return 0.0, 0.0
    shared = sum([weight.get(t, 1.0) for t in set_a & set_b])
    if total_a is None:
        total_a = sum([weight.get(t, 1.0) for t in set_a])
    if total_b is None:
        total_b = sum([weight.get(t, 1.0) for t in set_b])
    smaller, larger = min(total_a, total_b), max(total_a, total_b)
    return (shared / smaller if smaller else 0.0), (shared / larger if larger else 0.0)


class _Side(NamedTuple):
    """One card as classify compares it: its statement's word sets, computed once per run."""

    card: Card
    key: str | None
    statement: Statement
    fact: frozenset[str]
    description: frozenset[str]
    all: frozenset[str]
    total: float  # rarity weight of all its words


def _side(card: Card, st: Statement, weight: Mapping[str, float]) -> _Side:
    every = frozenset(st.all.tokens)
    return _Side(card, card.key, st, frozenset(st.fact.tokens), frozenset(st.description.tokens), every,
                 sum([weight.get(t, 1.0) for t in every]))


def classify(a: Card, b: Card, sa: Statement, sb: Statement, weight: Mapping[str, float], *, same_key: bool) -> Pair | None:
    """What two candidate cards are to each other: duplicate, contradiction, or nothing."""
    return _classify(_side(a, sa, weight), _side(b, sb, weight), weight, same_key)


def _classify(a: _Side, b: _Side, weight: Mapping[str, float], same_key: bool) -> Pair | None:
    sa, sb = a.statement, b.statement
    if _keys_compatible(a.key, b.key):
        found = ((_contradiction(sa.fact, sb.fact, a.fact, b.fact) if _anchored(a, b) else None)
                 or _contradiction(sa.description, sb.description, a.description, b.description))
        if found:
            return Pair(a.card, b.card, "contradiction", found[0], 100.0, found[1])
        smaller, larger = _coverage(a.all, b.all, weight, a.total, b.total)
        if _reworded(sa.description, sb.description, a.description, b.description) or (
            not same_key and smaller >= DUPLICATE_OVERLAP and larger >= DUPLICATE_COVER
            and not _conflict(sa.all, sb.all, a.all, b.all)
        ):
            return Pair(a.card, b.card, "duplicate", "same-key" if same_key else "wording",
                        round(smaller * 100, 1), "the same fact in other words")
    if same_key:
        return Pair(a.card, b.card, "contradiction", "same-key", 0.0, "two live cards hold one single-valued key")
    return None


def _anchored(a: _Side, b: _Side) -> bool:
    """Whether the body clauses taken as the two cards' facts state what their descriptions name.

    Each clause shares a word with its description (or answers a description that is a
    question), and one of them shares two (or all of a shorter description). Two clauses
    that each share one word are no statements of the facts: "Confirmed during the April
    review with the team" under "User's review style preference for documentation" does
    not contradict "Confirmed during the January review" under "For code review in
    Mitania, the user wants Pacific mornings".
    """
    def anchor(side: _Side) -> tuple[int, int]:
        shared = len(side.description & side.fact)
        if QUESTION.match(side.card.description):
            return max(shared, 1), 1  # the clause answers the question ("How pull requests are merged")
        return shared, min(2, len(side.description))

    (shared_a, strong_a), (shared_b, strong_b) = anchor(a), anchor(b)
    return shared_a >= 1 and shared_b >= 1 and (shared_a >= strong_a or shared_b >= strong_b)


def _conflict(wa: Words, wb: Words, set_a: frozenset[str], set_b: frozenset[str]) -> bool:
    """Something differs that a duplicate cannot differ in: a value on each side, or polarity."""
    only_a, only_b = set_a - set_b, set_b - set_a
    return (bool(only_a & wa.values) and bool(only_b & wb.values)) or (
        _opposed(only_a, only_b) is not None and not _converse(wa, wb, only_a, only_b))


def _reworded(wa: Words, wb: Words, set_a: frozenset[str] | None = None, set_b: frozenset[str] | None = None) -> bool:
    """The same words once synonyms, fillers and negation forms are folded (at most two differ)."""
    set_a = frozenset(wa.tokens) if set_a is None else set_a
    set_b = frozenset(wb.tokens) if set_b is None else set_b
    only_a, only_b = set_a - set_b, set_b - set_a
    if len(only_a) + len(only_b) > 2 or (only_a and only_b) or not set_a:
        return False  # a word swapped for an unrelated one is another value, not another wording
    return not (only_a & wa.values or only_b & wb.values or _opposed(only_a, only_b))


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

    `statements`, one per card of `cards`, saves computing them (a cache has them).
    """
    if statements is None:
        usable = [c for c in cards if c.usable]
        statements = [statement(c) for c in usable]
    else:
        kept = [(c, st) for c, st in zip(cards, statements, strict=True) if c.usable]
        usable, statements = [c for c, _ in kept], [st for _, st in kept]
    weight = weights(statements)
    sides = [_side(c, st, weight) for c, st in zip(usable, statements, strict=True)]
    out = []
    for i, j, same_key in _candidates([s.key for s in sides], statements, [s.all for s in sides], weight, multi_valued):
        pair = _classify(sides[i], sides[j], weight, same_key)
        if pair is not None:
            out.append(pair)
    out.sort(key=lambda p: (p.a.path, p.b.path))
    return out


def pairs_with(new: Card, cards: Sequence[Card], multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """Pairs between one new card and a vault: what the write gate asks.

    Looks only at cards that could pair with `new`: those holding its key, and those
    whose text contains two of its rarest words (a substring scan, so the vault's other
    cards are only tokenized when they are candidates).
    """
    others = [c for c in cards if c.usable and c.path != new.path]
    mine = statement(new)
    lowered = [f"{c.description}\n{c.body[:400]}".lower() for c in others]
    total = len(others) + 2
    probes = {t: _probe(t) for t in set(mine.all.tokens)}
    frequency = {t: sum(probe in d for d in lowered) for t, probe in probes.items()}
    weight = {t: math.log(total / (n + 1)) + 0.1 for t, n in frequency.items()}
    rare = [probes[t] for f, t in sorted((f, t) for t, f in frequency.items() if f <= MAX_BLOCK)][:RARE_WORDS]
    side = _side(new, mine, weight)
    out = []
    for card, text in zip(others, lowered, strict=True):
        same_key = bool(new.key) and card.key == new.key and new.key not in multi_valued
        shared = sum(t in text for t in rare)
        if not (same_key or shared >= 2 or (shared and len(mine.all.tokens) <= 2)):
            continue
        pair = _classify(side, _side(card, statement(card), weight), weight, same_key)
        if pair is not None:
            out.append(pair)
    return out


def _probe(token: str) -> str:
    """What a normalized word looks like inside raw text: "write" is in "writing" as "writ"."""
    return token[:-1] if len(token) > 4 and token.endswith("e") else token
