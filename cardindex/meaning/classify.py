"""Classify two candidate cards: the same fact, two facts that cannot both hold, or unrelated.

The model (SPEC §7 step 0): a card states a **value** in a **slot** (`slots`). Cards in
different slots (other scopes, unrelated keys) are never a pair. Within one slot (one
single-valued key, one multi-valued key, one description written twice) the values
decide: the same value is a duplicate; another value (`values.changed`) or the opposite
polarity is a contradiction, except that two values of a multi-valued key are two facts.
Without a structural slot, the wording has to show that two cards are about one thing:
most of their rarity-weighted words agree (a duplicate, unless a value differs), or the
aligned clauses differ only in a value or in polarity.

Polarity (negators, antonyms) is judged only when both cards are English
(`slots.english`); values that are numbers, dates, code or paths in every language.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from cardindex.meaning import one_slot, restatement, slots
from cardindex.meaning.change import retired
from cardindex.meaning.paraphrase import paraphrase, restated, values_agree
from cardindex.meaning.polarity import denied_against
from cardindex.meaning.retyped import measured_apart
from cardindex.meaning.synonyms import synonymous
from cardindex.meaning.value_forms import normalized
from cardindex.meaning.values import added_value, changed, equivalent, neutral, same_kind
from cardindex.meaning.words import ANTONYMS, NEGATIVE, NEGATORS, QUESTION, Statement, Words, words
from cardindex.store.card import Card

DUPLICATE_OVERLAP = 0.65  # rarity-weighted share of a statement's words the other one has
DUPLICATE_COVER = 0.4  # and of the longer one's: a short card is not the duplicate of a card about more
SAME_SLOT_OVERLAP = 0.5  # within one slot, this much agreeing (and no other value) is the same fact
KEY_OVERLAP = 0.8  # and for one single-valued key, where two live cards are a contradiction unless plainly one value
DESCRIBED_SUBJECT = 0.6  # descriptions agreeing this much name one subject: a value they differ in contradicts


class Pair(NamedTuple):
    """Two cards and what they are to each other."""

    a: Card
    b: Card
    kind: str  # "duplicate" or "contradiction"
    reason: str  # "same-key", "polarity", "value", "retired" (one retires the other's value), "wording",
    # "reworded" (`restatement`: a duplicate, or a contradiction when one value is swapped), "restated" (`documents`)
    score: float
    detail: str


class Side(NamedTuple):
    """One card as classify compares it: its statement's word sets, computed once per run."""

    card: Card
    key: str | None
    statement: Statement
    fact: frozenset[str]
    description: frozenset[str]
    all: frozenset[str]
    total: float  # rarity weight of all its words
    english: bool
    scope: str  # as `slots.scope_of` gives it


def side(card: Card, st: Statement, weight: Mapping[str, float]) -> Side:
    every = frozenset(st.all.tokens)
    return Side(card, card.key, st, frozenset(st.fact.tokens), frozenset(st.description.tokens), every,
                sum([weight.get(t, 1.0) for t in every]), slots.english(card), slots.scope_of(card))


def classify_sides(a: Side, b: Side, weight: Mapping[str, float], multi_valued: frozenset[str]) -> Pair | None:
    """What two cards are to each other, by slot first and value second; then their values masked (`one_slot`)."""
    if slots.named_apart(a.card, b.card):
        return None  # "tree 17" / "tree 51": the number names which thing, so two slots
    found = _classify_sides(a, b, weight, multi_valued)
    said = one_slot.revise(a, b, weight, multi_valued, found)
    return found if said is None else Pair(a.card, b.card, said[0], said[1], 100.0, said[2])


def _classify_sides(a: Side, b: Side, weight: Mapping[str, float], multi_valued: frozenset[str]) -> Pair | None:
    sa, sb = a.statement, b.statement
    relation = slots.relate(a.scope, b.scope, a.key, b.key,
                            lambda: slots.same_description(a.card, b.card, sa, sb), multi_valued)
    if relation == slots.APART:
        return None
    if relation == slots.DESCRIBED and _other_questions(a.card.description, b.card.description):
        relation = slots.OPEN  # "Who waters the seedlings" / "What waters …": one set of words, two questions
    if relation == slots.OPEN and _reworded(sa.description, sb.description, a.description, b.description) \
            and not _other_questions(a.card.description, b.card.description):
        relation = slots.DESCRIBED  # one description, a word or two added: one slot
    if relation != slots.OPEN:
        found = _same_slot(a, b, weight, relation)
        if relation == slots.KEY and found is not None and found.kind == "contradiction" and found.reason == "same-key" \
                and a.english and b.english:
            return _one_value(a, b, weight) or found
        return found
    found = _open(a, b, weight)
    if found is None and a.english and b.english and not _two_questions(a, b):
        return _restated(a, b, weight) or _retires(a, b)
    if found is not None and found.kind == "duplicate" and a.english and b.english and not _same_statement(a, b) \
            and _boilerplate(a, b):
        return None
    return found


RETIRED_SUBJECT = 4  # letters of a shared description word that makes the two cards one subject


def _retires(a: Side, b: Side) -> Pair | None:
    """One card says a value the other states is no longer used, about one subject: a change.

    "We no longer use Sentry for the slicer; crash reports now go to GlitchTip" against
    "Errors from the slicer app are reported to Sentry": their descriptions differ, but the
    first retires the second's value (`change.retired`) and both are about the slicer, so
    the second's fact changed. A contradiction; consolidation supersedes the older card
    when the newer one is the card that says it (its change signal decides).
    """
    described = a.description | b.description
    for mine, theirs in ((a, b), (b, a)):
        gone = retired(f"{mine.card.description}\n{mine.card.body}") & theirs.statement.all.values
        if not gone:
            continue
        # The subject: a word both cards say that a description names ("slicer"), not only
        # a word of the bodies ("project", "report").
        subject = [t for t in (mine.all & theirs.all & described) - gone if len(t) >= RETIRED_SUBJECT]
        if subject:
            return Pair(a.card, b.card, "contradiction", "retired", 100.0,
                        f"one card says {_as_written(sorted(gone), mine.card)!r} is no longer used; the other "
                        f"states it (about {_as_written(sorted(subject)[:3], mine.card)!r})")
    return None


def _as_written(tokens: list[str], card: Card) -> str:
    """Tokens as the card writes them ('sentri' -> 'Sentry'), for a message."""
    written: dict[str, str] = {}
    for word in re.findall(r"[\w][\w.-]*", f"{card.description} {card.body}"):
        for token in words(word).tokens:
            written.setdefault(token, word.rstrip(".-"))
    return " ".join(written.get(t, t) for t in tokens)


def _boilerplate(a: Side, b: Side) -> bool:
    """One body under two descriptions that each name what the other card never says (`restatement.two_subjects`)."""
    ca, cb = restatement.content(a.card), restatement.content(b.card)
    return ca is not None and cb is not None and restatement.two_subjects(ca, cb) is not None


def _one_value(a: Side, b: Side, weight: Mapping[str, float]) -> Pair | None:
    """Two cards of one single-valued key whose contents give the same values, however reworded: one fact.

    Not one fact sentence with a word swapped ("… runs on vitest" / "… runs on unittest"):
    for a key, the word swapped is the value, whether or not it is written as one.
    """
    ca, cb = restatement.content(a.card), restatement.content(b.card)
    if ca is None or cb is None or _one_place(a.statement.fact, b.statement.fact):
        return None
    found = restatement.same_values(ca, cb, weight) or restatement.same_typed(ca, cb, weight)
    if found is None:
        return None
    return Pair(a.card, b.card, "duplicate", restatement.REASON, 100.0,
                f"the same value in other words ({found}); one key")


def _restated(a: Side, b: Side, weight: Mapping[str, float]) -> Pair | None:
    """Two short cards left open by their statements: whether one's whole content restates the other's."""
    ca, cb = restatement.content(a.card), restatement.content(b.card)
    if ca is None or cb is None or _swapped_subject(a.statement, b.statement):
        return None  # "Runbook for the billing outage" / "… the search outage": two subjects, one body
    found = restatement.restates(ca, cb, weight, one_question=not _other_questions(a.card.description, b.card.description))
    if found is None:
        denied = restatement.denies(ca, cb, weight)
        if denied is not None:  # "… run on Vitest" / "… run on Jest, not Vitest"
            return Pair(a.card, b.card, "contradiction", "polarity", 100.0, f"one fact in other words, {denied}")
        other = restatement.revalued(ca, cb, weight)
        if other is None:
            typed = measured_apart(ca, cb, weight) if not _other_questions(a.card.description, b.card.description) else None
            if typed is None:
                return None
            return Pair(a.card, b.card, "contradiction", restatement.REASON, 100.0,
                        f"one fact in other words with another value: {typed[0]!r} vs {typed[1]!r}")
        return Pair(a.card, b.card, "contradiction", restatement.REASON, 100.0,
                    f"one fact in other words with another value: {_as_written(other[0].split(), a.card)!r} vs "
                    f"{_as_written(other[1].split(), b.card)!r}")
    return Pair(a.card, b.card, "duplicate", restatement.REASON, round(found.covered * 100, 1), restatement.explain(found))


def _same_slot(a: Side, b: Side, weight: Mapping[str, float], relation: str) -> Pair | None:
    """Two cards in one slot: one value (duplicate), or two (contradiction; two facts for a multi-valued key)."""
    sa, sb = a.statement, b.statement
    if a.english and b.english:  # a value refused beside the one stated ("Biome, not ESLint") is no value of the card's
        refused_a, refused_b = _refused(a.card, sb.all), _refused(b.card, sa.all)
        if refused_a or refused_b:
            sa = Statement(sa.description, _less(sa.fact, refused_a), _less(sa.all, refused_a))
            sb = Statement(sb.description, _less(sb.fact, refused_b), _less(sb.all, refused_b))
    # The body clauses are the statements only when they state what the descriptions name;
    # else ("Related cards cover the job queue") the descriptions are all either card states.
    stated = bool(sa.fact.tokens and sb.fact.tokens) and _anchored(a, b)
    wa, wb = (sa.fact, sb.fact) if stated else (sa.description, sb.description)
    english = a.english and b.english
    reason = "same-key" if relation == slots.KEY else "value"
    if english and relation != slots.MULTI:
        found = _polarity(wa, wb) or _polarity(sa.description, sb.description)
        if found and not _negation_stands(a.card, b.card, found):
            found = None
        if found:
            return Pair(a.card, b.card, "contradiction", "polarity", 100.0, found)
    slot_words = a.description & b.description
    other = _other_value(wa, wb, english, slot_words) or (
        _other_value(sa.description, sb.description, english, slot_words) if relation == slots.KEY and stated else None)
    if not other and relation == slots.KEY and english and sa.fact.tokens and sb.fact.tokens:
        other = _one_place(sa.fact, sb.fact)
    if other:
        if relation == slots.MULTI:
            return None  # two values of a multi-valued key: two facts
        if relation == slots.DESCRIBED and not same_kind(*other):
            return None  # a weekday and a tool's name answer two questions: two slots under alike descriptions
        detail = (f"two live cards hold one single-valued key: {other[0]!r} vs {other[1]!r}" if relation == slots.KEY
                  else f"different value in the same place: {other[0]!r} vs {other[1]!r}")
        return Pair(a.card, b.card, "contradiction", reason, 100.0, detail)
    # The values must agree for one fact: what the bodies say beyond the slot's words. A
    # shared description says nothing of the value ("Container runtime …": Podman / Docker).
    va, vb = _without(sa.fact, slot_words), _without(sb.fact, slot_words)
    if relation == slots.MULTI and (va.values - frozenset(vb.tokens) or vb.values - frozenset(va.tokens)):
        return None  # a multi-valued key holds several values: one the other card never names is another of them
    # Only bodies that name something give a value: a marked one (a name, number, code) on
    # one side at least, and rare words on both. A note said across the vault ("Related
    # cards cover the python sdk", "It applies to every environment") is no value of anything.
    named = bool(va.tokens and vb.tokens and (va.values or vb.values)) and _names(va, a, b, weight) \
        and _names(vb, a, b, weight)
    agree = values_agree(sa.fact, sb.fact, slot_words, weight) if english and named else None
    if agree is False:
        if relation == slots.MULTI:
            return None
        if relation == slots.DESCRIBED and a.description != b.description and not (frozenset(va.tokens) & frozenset(vb.tokens)) and not (
                len(set(va.tokens)) <= BARE_VALUE and len(set(vb.tokens)) <= BARE_VALUE
                and any(same_kind(x, y) for x in va.values for y in vb.values)):
            # Two descriptions alike but not one, nothing in common beyond their words, and no two values
            # of one sort: no place that holds one value here and another there, only two facts under one
            # topic ("recorded only with written consent" / "moved to Thursday"). One description said
            # twice is one slot, and what its bodies say differently is its two values.
            return None
        return Pair(a.card, b.card, "contradiction", reason, 100.0,
                    f"different value in the same place: {_differ(sa.fact, sb.fact, slot_words)}")
    smaller, _ = _coverage(a, b, weight)
    # Both bodies name something beyond the slot's words, and whether it is one value is open.
    valued = agree is None and named and relation in (slots.DESCRIBED, slots.KEY)
    if valued:
        smaller = min(smaller, restated(va, vb, weight).covered)
    # When the bodies give the value, one of them saying no more than the other is one value;
    # one description said twice is not.
    fact_a, fact_b = (frozenset(sa.fact.tokens), frozenset(sb.fact.tokens)) if valued else (frozenset(wa.tokens), frozenset(wb.tokens))
    # Two live cards for one single-valued key are a contradiction unless plainly one value.
    needed = (KEY_OVERLAP if relation == slots.KEY else SAME_SLOT_OVERLAP) + (0 if english else 0.1)
    # Outside English one changed word ("목요일" for "화요일") is no paraphrase we can tell:
    # one key's two cards are one value only when one says no more than the other.
    overlap_decides = english or relation != slots.KEY
    # The descriptions reworded say one slot; they say one value only when outside a key or
    # in English, where the facts were compared above (a key's two cards share their description).
    if relation == slots.MULTI and not (fact_a and fact_b and (fact_a <= fact_b or fact_b <= fact_a)):
        return None  # in a multi-valued key the words one card adds are another of its values, unless one says no more
    if (overlap_decides and smaller >= needed) or (fact_a and fact_b and (fact_a <= fact_b or fact_b <= fact_a)) or (
            overlap_decides and not valued and _reworded(sa.description, sb.description, a.description, b.description)):
        if relation == slots.DESCRIBED and not stated and (sa.fact.tokens or sb.fact.tokens):
            # Only the descriptions agree ("layout" / "experiment layout"): a topic named twice is one
            # slot, not one value. Whether the bodies say one thing is for their contents to show.
            return _restated(a, b, weight) if english else None
        added = added_value(sa.fact, sb.fact) if relation in (slots.KEY, slots.DESCRIBED) else None
        if added is None:
            kind_reason = "same-key" if relation == slots.KEY else "wording"
            return Pair(a.card, b.card, "duplicate", kind_reason, round(smaller * 100, 1), "the same fact in other words")
        if relation == slots.KEY:
            return Pair(a.card, b.card, "contradiction", "same-key", 100.0,
                        f"two live cards hold one single-valued key: one adds {added!r}")
        return None
    if relation == slots.KEY:
        return Pair(a.card, b.card, "contradiction", "same-key", 0.0, "two live cards hold one single-valued key")
    return None


def _one_place(wa: Words, wb: Words) -> tuple[str, str] | None:
    """The words two fact sentences of one key differ in, when they differ in one place only and agree in
    two words at least: "… is lit with pine needles" / "… is lit with hessian". For a key, that
    place is the value, whether or not it is written as one (a tool's name in lower case);
    two words one WordNet sense joins ("quick" / "fast") are one value said two ways."""
    matcher = difflib.SequenceMatcher(a=wa.tokens, b=wb.tokens, autojunk=False)
    ops = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    kept = sum(i2 - i1 for op, i1, i2, _, _ in matcher.get_opcodes() if op == "equal")
    if len(ops) != 1 or ops[0][0] != "replace" or kept < 2:
        return None
    _, i1, i2, j1, j2 = ops[0]
    left, right = wa.tokens[i1:i2], wb.tokens[j1:j2]
    if set(left) & set(right) or (len(left) == len(right) == 1 and synonymous(left[0], right[0])):
        return None
    unpaired_a, unpaired_b = equivalent(set(left), set(right), wa.tokens, wb.tokens)
    if len(unpaired_a) < len(set(left)) or len(unpaired_b) < len(set(right)):
        return None  # one value written two ways, maybe more precisely ("Tuesdays" / "Tue evenings from 19:30")
    return " ".join(left), " ".join(right)


def _differ(wa: Words, wb: Words, slot: frozenset[str]) -> str:
    """The words each clause has that the other lacks, quoted: what the two values are."""
    only_a = [t for t in dict.fromkeys(wa.tokens) if t not in slot and t not in wb.tokens]
    only_b = [t for t in dict.fromkeys(wb.tokens) if t not in slot and t not in wa.tokens]
    return f"{' '.join(only_a)!r} vs {' '.join(only_b)!r}"


BARE_VALUE = 3  # words beyond the slot's of a body that gives the value and little else ("on Sundays only")
VALUE_RARITY = 0.5  # of the rarity of the pair's rarest word, for a word that can be a value


def _names(part: Words, a: Side, b: Side, weight: Mapping[str, float]) -> bool:
    """Whether a clause's words beyond the slot include a rare one (as rare as half the pair's rarest)."""
    top = max([weight.get(t, 1.0) for t in a.all | b.all], default=1.0)
    # A word no statement counts (a body sentence that names nothing of its description) is rare.
    return any(weight.get(t, top) >= VALUE_RARITY * top for t in part.tokens)


def _without(w: Words, slot: frozenset[str]) -> Words:
    """What a clause says beyond the slot's words (what both descriptions name): its value."""
    return Words(tuple(t for t in w.tokens if t not in slot), w.values - slot, "")


def _other_value(wa: Words, wb: Words, english: bool, slot_words: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """Another value in one slot; outside English only numbers, dates, code and paths count."""
    if english:
        return changed(wa, wb, slot_words)
    va, vb = neutral(wa), neutral(wb)
    if va and vb and va != vb and va - vb and vb - va:
        return " ".join(sorted(va - vb)), " ".join(sorted(vb - va))
    return None


def _open(a: Side, b: Side, weight: Mapping[str, float]) -> Pair | None:
    """Two cards with no structural slot in common: the wording must show one subject."""
    sa, sb = a.statement, b.statement
    english = a.english and b.english
    # A value a card refuses beside the one it states ("Biome, not ESLint") is no value it gives.
    refused_a, refused_b = (_refused(a.card, sb.all), _refused(b.card, sa.all)) if english else (frozenset(), frozenset())
    found = ((_contradiction(_less(sa.fact, refused_a), _less(sb.fact, refused_b), a.fact - refused_a, b.fact - refused_b,
                             english) if _anchored(a, b) else None)
             or _contradiction(sa.description, sb.description, a.description, b.description, english))
    if found and found[0] == "polarity" and not _negation_stands(a.card, b.card, found[1]):
        found = None
    if found:
        return Pair(a.card, b.card, "contradiction", found[0], 100.0, found[1])
    if _two_questions(a, b):
        return None
    smaller, larger = _coverage(a, b, weight)
    if _same_statement(a, b):
        return Pair(a.card, b.card, "duplicate", "wording", round(max(smaller, DUPLICATE_OVERLAP) * 100, 1),
                    "the same fact in other words")
    if (smaller < DUPLICATE_OVERLAP or larger < DUPLICATE_COVER) and not (
            paraphrase(sa.all, sb.all, weight, (sa.description, sb.description)) and not _swapped_subject(sa, sb)):
        return None
    if english and _opposed_sets(sa.all, sb.all, a.all, b.all):
        return None
    # Without a slot in common only marked values (names, numbers, dates) show another value:
    # two descriptions of one rule may well swap an ordinary word.
    other = _marked_values_differ(_less(sa.all, refused_a), _less(sb.all, refused_b), a.all - refused_a,
                                  b.all - refused_b) if english else _other_value(sa.all, sb.all, False)
    if not other and english and sa.fact.tokens and sb.fact.tokens:
        # The clauses that state the facts swap a word in one place: another value ("uses pnpm" / "with yarn").
        # Checked before any "same fact": a paraphrase with another value is never a duplicate.
        other = changed(_less(sa.fact, refused_a), _less(sb.fact, refused_b), a.description | b.description,
                        one_place=True)
    if other:
        # Whether the descriptions name one subject is counted in words, not rarity: the
        # write gate, which estimates rarity from the new card alone, decides it the same.
        shared = len(a.description & b.description)
        if a.description and b.description and shared >= DESCRIBED_SUBJECT * min(len(a.description), len(b.description)) \
                and same_kind(*other) and not _other_questions(a.card.description, b.card.description):
            return Pair(a.card, b.card, "contradiction", "value", 100.0,
                        f"different value in the same place: {other[0]!r} vs {other[1]!r}")
        return None
    return Pair(a.card, b.card, "duplicate", "wording", round(smaller * 100, 1), "the same fact in other words")


def _refused(card: Card, other: Words) -> frozenset[str]:
    """The values `card` refuses beside what it states, that the other card never names (`restatement.alternatives`)."""
    found = restatement.content(card)
    return (restatement.alternatives(found.text, other) - NEGATORS) if found is not None else frozenset()


def _less(w: Words, tokens: frozenset[str]) -> Words:
    """`w` without `tokens`."""
    if not tokens:
        return w
    return Words(tuple(t for t in w.tokens if t not in tokens), w.values - tokens, w.text)


def _two_questions(a: Side, b: Side) -> bool:
    """One description asked as two questions ("Who hands out the scores" / "When the scores are handed out"):
    one topic, two slots, whatever the bodies share."""
    return a.description == b.description and _other_questions(a.card.description, b.card.description)


def _other_questions(a: str, b: str) -> bool:
    """Two descriptions that ask different questions ("Who approves …" / "What deploys …"): two slots."""
    qa, qb = QUESTION.match(a), QUESTION.match(b)
    if qa is None or qb is None:
        return False
    return qa.group().strip(" \t*_#>").casefold() != qb.group().strip(" \t*_#>").casefold()


def _swapped_subject(sa: Statement, sb: Statement) -> bool:
    """The descriptions (or the fact clauses) are one sentence with one run of words swapped:
    another subject or value ("Runbook for the billing outage" / "… the search outage")."""
    return any(_swap(x.tokens, y.tokens) for x, y in ((sa.description, sb.description), (sa.fact, sb.fact)))


def _swap(ta: tuple[str, ...], tb: tuple[str, ...]) -> bool:
    """One sentence, one or two words in one place replaced by as many others, at least two kept."""
    if len(ta) != len(tb) or ta == tb or len(ta) < 3:
        return False
    differ = [i for i, (x, y) in enumerate(zip(ta, tb, strict=True)) if x != y]
    if any(ta[i] in tb or tb[i] in ta for i in differ):
        return False  # a word moved, not swapped: "… manager the dashboard uses" / "… manager for the web dashboard"
    return len(differ) <= 2 and differ[-1] - differ[0] == len(differ) - 1 and len(ta) - len(differ) >= 2


def _same_statement(a: Side, b: Side) -> bool:
    """Both bodies state one fact in the same words, a specific one (a name, number or
    four words), each stating what its own description names: one fact however the
    descriptions differ ("Draw.io reference research, 2026-03-14" under two summaries)."""
    if not a.fact or a.fact != b.fact or not _anchored(a, b):
        return False
    return len(a.fact) >= 4 or bool(a.fact & a.statement.fact.values)


def _marked_values_differ(wa: Words, wb: Words, set_a: frozenset[str], set_b: frozenset[str]) -> tuple[str, str] | None:
    only_a, only_b = (set_a - set_b) & wa.values, (set_b - set_a) & wb.values
    left, right = equivalent(only_a, only_b, wa.tokens, wb.tokens)
    return (" ".join(sorted(left)), " ".join(sorted(right))) if left and right else None


def _coverage(a: Side, b: Side, weight: Mapping[str, float]) -> tuple[float, float]:
    """Rarity-weighted shares of the smaller and larger statement that both say, words written two ways paired."""
    set_a, set_b = a.all, b.all
    if not set_a or not set_b:
        return 0.0, 0.0
    shared = sum([weight.get(t, 1.0) for t in set_a & set_b])
    smaller, larger = min(a.total, b.total), max(a.total, b.total)
    if smaller and shared / smaller >= DUPLICATE_OVERLAP and shared / larger >= DUPLICATE_COVER:
        return shared / smaller, shared / larger  # enough already: pairing words written two ways can wait
    only_a, only_b = set_a - set_b, set_b - set_a
    left, right = equivalent(only_a, only_b, a.statement.all.tokens, b.statement.all.tokens)
    paired = (sum([weight.get(t, 1.0) for t in only_a - left]) + sum([weight.get(t, 1.0) for t in only_b - right])) / 2
    shared += paired
    return (shared / smaller if smaller else 0.0), (shared / larger if larger else 0.0)


# ---------------------------------------------------------------- polarity and aligned values


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
    """One order said both ways: "merged only after 2 approvals" and "2 approvals before merging"."""
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


def _negation_stands(a: Card, b: Card, detail: str) -> bool:
    """Whether a negation on one side only denies a predicate the other card affirms (`polarity`).

    Antonyms ("always" / "never") decide alone; a "not" on one side counts only when the
    other card says what it negates in a clause of its own ("The kiosk no longer uses
    Flash" / "The kiosk uses Flash"), not when it says it as a ban or a negation of its
    own ("Never deploy on Fridays" / "Friday deploys are frozen").
    """
    if "on one side only" not in detail:
        return True
    # The prose states; a description often asks ("When payouts are sent"), but where it
    # states the rule and the body only gives its background, the denial is in the descriptions.
    for ta, tb in ((normalized(one_slot.prose(c) or c.description) for c in (a, b)),
                   (normalized(c.description) for c in (a, b))):
        if denied_against(ta, tb) or denied_against(tb, ta):
            return True
    return False


def _polarity(wa: Words, wb: Words) -> str | None:
    """Opposite polarity between two statements of one slot (the detail), or None."""
    found = _contradiction(wa, wb, english=True)
    return found[1] if found and found[0] == "polarity" else None


def _opposed_sets(wa: Words, wb: Words, set_a: frozenset[str], set_b: frozenset[str]) -> bool:
    only_a, only_b = set_a - set_b, set_b - set_a
    return _opposed(only_a, only_b) is not None and not _converse(wa, wb, only_a, only_b)


def swapped_values(a: Words, b: Words) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The one aligned position where two statements differ, and only in marked values."""
    matcher = difflib.SequenceMatcher(a=a.tokens, b=b.tokens, autojunk=False)
    ops = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    left, right = a.tokens[i1:i2], b.tokens[j1:j2]
    if all(t in a.values for t in left) and all(t in b.values for t in right):
        return left, right
    return None


def _contradiction(wa: Words, wb: Words, set_a: frozenset[str] | None = None, set_b: frozenset[str] | None = None,
                   english: bool = True) -> tuple[str, str] | None:
    """(reason, detail) when two statements about the same thing cannot both hold."""
    set_a = frozenset(wa.tokens) if set_a is None else set_a
    set_b = frozenset(wb.tokens) if set_b is None else set_b
    if not set_a or not set_b:
        return None
    only_a, only_b = set_a - set_b, set_b - set_a
    if not only_a and not only_b:
        return None
    core_a = {t for t in only_a if not _polar(t)} if english else set(only_a)
    core_b = {t for t in only_b if not _polar(t)} if english else set(only_b)
    agreeing = len(set_a | set_b) - len(core_a) - len(core_b)
    values_a, values_b = (wa.values, wb.values) if english else (neutral(wa), neutral(wb))
    if len(core_a) + len(core_b) > agreeing + 2 and not (core_a <= values_a and core_b <= values_b):
        return None  # more differs than agrees: neither test below can pass (a cheap test first)
    opposed = _opposed(only_a, only_b) if english else None
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
    if core_a and core_b and core_a <= values_a and core_b <= values_b:
        found = swapped_values(wa, wb)
        if found and (english or (all(t in values_a for t in found[0]) and all(t in values_b for t in found[1]))):
            return "value", f"different value in the same place: {' '.join(found[0])!r} vs {' '.join(found[1])!r}"
    return None


def _anchored(a: Side, b: Side) -> bool:
    """Whether the body clauses taken as the two cards' facts state what their descriptions name.

    Each clause shares a word with its description (or answers a description that is a
    question), and one of them shares two (or all of a shorter description).
    """
    def anchor(s: Side) -> tuple[int, int]:
        shared = len(s.description & s.fact)
        if QUESTION.match(s.card.description):
            return max(shared, 1), 1
        return shared, min(2, len(s.description))

    (shared_a, strong_a), (shared_b, strong_b) = anchor(a), anchor(b)
    return shared_a >= 1 and shared_b >= 1 and (shared_a >= strong_a or shared_b >= strong_b)


def _reworded(wa: Words, wb: Words, set_a: frozenset[str] | None = None, set_b: frozenset[str] | None = None) -> bool:
    """The same words once synonyms, fillers and negation forms are folded (at most two added on one side)."""
    set_a = frozenset(wa.tokens) if set_a is None else set_a
    set_b = frozenset(wb.tokens) if set_b is None else set_b
    only_a, only_b = set_a - set_b, set_b - set_a
    if len(only_a) + len(only_b) > 2 or (only_a and only_b) or not set_a or not set_b:
        return False
    return not (only_a & wa.values or only_b & wb.values or _opposed(only_a, only_b))
