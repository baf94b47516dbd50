"""A reworded card with another measured value: one slot, two values, however much else it adds.

`restatement.revalued` finds a card that says the other's whole content with one value
swapped. A real second card of one slot usually says more around its value: "CI fails
services/api below 80% line coverage" / "pytest-cov gate for the api is 85 percent;
anything under that fails the job". Here the value is compared by its kind and normal form
(`value_forms`: a percentage, a duration, a size, a clock time, a set of days, a version),
and the rest by the measures `restatement` takes, with the values weighing nothing:

- a measured kind both cards give, its normal values disjoint ("80" / "85" percent; a
  count is left out: "four crew" / "two lifeboats" count two things);
- the slot and the subject anchor of `restatement` hold, and the shorter card is said by
  the other for `restatement.MEASURED_COVERED` at least (what one value is not);
- nothing else stands against it (a negation, antonyms, another subject, a card about more).

Then the two are a contradiction, the message naming both values in their normal form.
"""

from __future__ import annotations

from collections.abc import Mapping

from cardindex.meaning import restatement
from cardindex.meaning.one_slot import versions_apart
from cardindex.meaning.value_forms import MEASURED, by_kind, forms
from cardindex.meaning.words import words

COMPARED = MEASURED - {"count"}  # a count of one noun is no value of another's: "four crew" / "four lifeboats"


def _tokens(text: str, kind: str, values: frozenset[str]) -> tuple[frozenset[str], str]:
    """The normalized words of the forms of `kind` with these values (a version: not its tool), and the forms as written."""
    chosen = [f for f in forms(text) if f.kind == kind and f.value in values]
    # A version's tool is what the version is of (the subject: "Go 1.22" is a version of Go), not the value.
    said = frozenset(t for f in chosen for t in words(f.written).tokens
                     if kind != "version" or t not in words(f.value.rsplit(" ", 1)[0]).tokens)
    return said, ", ".join(dict.fromkeys(f.written for f in chosen))


def measured_apart(a: restatement.Content, b: restatement.Content, weight: Mapping[str, float]) -> tuple[str, str] | None:
    """The two values as written, when two short English cards fill one slot with two measured values; else None."""
    va, vb = by_kind(a.text), by_kind(b.text)
    for kind in sorted(k for k in va if k in vb and k in COMPARED and va[k].isdisjoint(vb[k])
                       and (k != "version" or versions_apart(va[k], vb[k]))):  # not "Sprint 2" / "Simulator v2"
        tokens_a, written_a = _tokens(a.text, kind, va[kind])
        tokens_b, written_b = _tokens(b.text, kind, vb[kind])
        if not tokens_a or not tokens_b:
            continue
        found, conflict = restatement.measures(a, b, weight, aligned=(tokens_a, tokens_b))
        if conflict is None and found.slot >= restatement.SLOT and found.anchor >= restatement.ANCHOR \
                and found.covered >= restatement.MEASURED_COVERED and found.cover_long >= restatement.COVER_LONG:
            return written_a, written_b
    return None
