"""Paraphrase: one card restating another in other, often more, words.

A reworded fact rarely keeps the other card's length: "`/page` in #ops wakes the on-call
engineer" and "Whoever is on call gets woken when someone runs the page command in the
ops channel" share every specific word of the short one, while the long one adds only
wording ("whoever", "someone", "command"). So the test is asymmetric:

- the shorter statement is **covered**: most of its rarity-weighted words (irregular
  forms, compounds and spellings paired, `values.equivalent`) are in the longer one, and
  at most one word in `MISSING` of it (at least one word) is not: a word left behind
  may be the value;
- the longer one adds **no value**: none of its extra words is a marked value (a name,
  number, date, path, code) and no negation stands on one side only;
- and the two say it with at least `MIN_SHARED` words in common, so two one-word notes
  are never a paraphrase of each other.

Only proposes "the same fact": `classify` still checks the values first (another value in
one place, opposite polarity), so a paraphrase with another value is never a duplicate.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from cardindex.meaning.values import equivalent, same_kind
from cardindex.meaning.words import NEGATORS, Words

COVERED = 0.65  # rarity-weighted share of the shorter statement that the longer one says (classify's DUPLICATE_OVERLAP)
MIN_SHARED = 3  # words both say, at the least
MISSING = 4  # one word in this many of the shorter one may be missing from the longer (at least one may)


class Restated(NamedTuple):
    """How far the shorter of two statements is said again by the longer."""

    covered: float  # rarity-weighted share of the shorter one's words the longer one has
    shared: int  # words both have (pairs of one word written two ways count)
    missing: int  # words of the shorter one the longer one lacks
    added_values: frozenset[str]  # marked values only the longer one gives
    lost_values: frozenset[str]  # marked values only the shorter one gives


def restated(wa: Words, wb: Words, weight: Mapping[str, float]) -> Restated:
    """How the shorter of `wa` and `wb` (by rarity weight) is said again by the longer."""
    set_a, set_b = frozenset(wa.tokens), frozenset(wb.tokens)
    total_a = sum(weight.get(t, 1.0) for t in set_a)
    total_b = sum(weight.get(t, 1.0) for t in set_b)
    short, long, short_set, long_set = (wa, wb, set_a, set_b) if total_a <= total_b else (wb, wa, set_b, set_a)
    if not short_set:
        return Restated(0.0, 0, 0, frozenset(), frozenset())
    left, right = equivalent(short_set - long_set, long_set - short_set, short.tokens, long.tokens)
    unpaired_short = frozenset(left)
    unpaired_long = frozenset(right)
    total = sum(weight.get(t, 1.0) for t in short_set)
    said = sum(weight.get(t, 1.0) for t in short_set - unpaired_short)
    shared = len(short_set) - len(unpaired_short)
    return Restated(said / total if total else 0.0, shared, len(unpaired_short), unpaired_long & long.values, unpaired_short & short.values)


def paraphrase(wa: Words, wb: Words, weight: Mapping[str, float],
               descriptions: tuple[Words, Words] | None = None) -> bool:
    """Whether one statement says the other again: covered, nothing added that is a value, polarity kept.

    `descriptions` (of the cards of `wa` and `wb`): the longer card must not be about more;
    a description naming several things ("Which weekday the committee meets, where the
    minutes are kept, who brings the key") is not the duplicate of a card about one of them.
    """
    found = restated(wa, wb, weight)
    if descriptions is not None and _about_more(wa, wb, descriptions, weight):
        return False
    if found.covered < COVERED or found.shared < MIN_SHARED or found.missing > max(1, (found.shared + found.missing) // MISSING) or found.added_values or found.lost_values:
        return False
    neg_a, neg_b = NEGATORS.intersection(wa.tokens), NEGATORS.intersection(wb.tokens)
    return bool(neg_a) == bool(neg_b)


AGREE = 0.5  # rarity-weighted share of the shorter value the longer one says, for one value
SHORT_VALUE = 4  # value parts of at most this many words each, that share none, are two values


def values_agree(fa: Words, fb: Words, slot: frozenset[str], weight: Mapping[str, float]) -> bool | None:
    """Whether two fact clauses of one slot give one value: True, False (two values), None (cannot tell).

    The value is what a clause says beyond the slot's words (what both descriptions name).
    One value: every marked value (name, number, code) of each is in the other, or most of
    the shorter value is in the longer and neither adds or loses a marked value. Two
    values: a marked value replaced by another of its sort, or short value parts that
    share no word ("pnpm dlx" / "npx"). Undecided: a longer rewording that shares
    nothing, and a marked value on one side only (a reason, a note, or a second value).
    """
    va = Words(tuple(t for t in fa.tokens if t not in slot), fa.values - slot, "")
    vb = Words(tuple(t for t in fb.tokens if t not in slot), fb.values - slot, "")
    if not va.tokens or not vb.tokens:
        return None
    set_a, set_b = frozenset(va.tokens), frozenset(vb.tokens)
    marked = va.values | vb.values
    if marked and va.values <= set_b and vb.values <= set_a:
        return True
    found = restated(va, vb, weight)
    if found.lost_values and found.added_values and same_kind(" ".join(found.lost_values), " ".join(found.added_values)):
        return False  # a value replaced by another of its sort: "InfluxDB" / "TimescaleDB"
    left, right = equivalent(set_a - set_b, set_b - set_a, va.tokens, vb.tokens)
    if left and right and not (set_a & set_b) and max(len(set_a), len(set_b)) <= SHORT_VALUE:
        return False  # two short values with no word in common: "pnpm dlx" / "npx"
    if found.lost_values or found.added_values:
        return None  # a value on one side only: a reason, a note, or a second value
    return True if found.covered >= AGREE else None


def _about_more(wa: Words, wb: Words, descriptions: tuple[Words, Words], weight: Mapping[str, float]) -> bool:
    """Whether the longer statement's description names more than the shorter statement says."""
    total_a = sum(weight.get(t, 1.0) for t in set(wa.tokens))
    total_b = sum(weight.get(t, 1.0) for t in set(wb.tokens))
    short, long_description = (wa, descriptions[1]) if total_a <= total_b else (wb, descriptions[0])
    short_set, named = frozenset(short.tokens), frozenset(long_description.tokens)
    unsaid, _ = equivalent(named - short_set, short_set - named, long_description.tokens, short.tokens)
    return len(unsaid) > max(3, len(short_set) // 2)
