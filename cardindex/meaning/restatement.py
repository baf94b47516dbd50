"""Restatement: one short card saying another's fact again in other words.

Reworded duplicates rarely share the sentence `classify` compares: "Ilka wants short
answers. No preamble." and "Keep replies to Ilka brief and skip the introductory fluff"
share one word of their fact sentences. So a pair the statement model leaves open is
compared once more, on the cards' whole **content** (description and the body's prose up
to its first reason line), in three steps, each of which can say no:

1. **One slot**: the shorter card's subject (the words its description and its body both
   say) is said by the other card, and at least a third of its description (by rarity).
2. **One value**: no marked value (a name, number, date, path, code) of one card stands
   against an unmatched value of the same sort in the other; no negation, on one side
   only, of a word the other card says plainly; no antonym across; no described subject
   the other card never names; not one body under two subjects; not a card whose
   description is about more. A paraphrase with another value is never a duplicate.
3. **Covered**: most of the shorter content, weighted by the words' rarity in the vault,
   is said by the longer one.

A word is said by the other card when it is there, or written another way (`values.
equivalent`: an abbreviation, a compound, a clipped or misspelt word), or when WordNet
gives the two one sense (`synonyms`). Synonyms only ever count towards coverage: they
never make two values one. English only (the word lists and WordNet are English).
Long cards are `documents`' concern, never compared here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, Protocol

from cardindex.lazy import lazy_pattern
from cardindex.meaning.polarity import denied_against, polarity
from cardindex.meaning.synonyms import synonymous
from cardindex.meaning.value_forms import GENERIC, MEASURED, by_kind, forms, normalized
from cardindex.meaning.values import abbreviation, equivalent, kind, one_word, same_kind
from cardindex.meaning.words import ANTONYMS, LIGHT, NEGATIVE, NEGATORS, QUESTION, Words, words
from cardindex.store.card import Card

REASON = "reworded"  # a pair's reason when this module found it: slot and values already checked
SLOT = 0.3  # rarity-weighted share of the shorter description the other card says
ANCHOR = 0.6  # of the shorter card's subject (words its description and body both say) that the other says
COVERED = 0.6  # of the shorter content that the longer one says
COVER_LONG = 0.12  # of the longer content that the shorter one says: not a card about much more
MAX_LINES = 6  # body lines read: a longer card is a document
MAX_TOKENS = 60

_REASON = lazy_pattern(r"(?i)^\W*(?:why|how to apply|source|see also|related|context|reason|because|example)\b[^:]{0,20}:")
_FENCE = lazy_pattern(r"^\s*(?:```|~~~)")
# A sentence that opens by illustrating ("For example a 1400x2240 cover is rejected.") shows the rule at work; it
# states nothing the rule does not, so it is not compared (a card's examples would dilute what it shares).
_EXAMPLE_SENTENCE = lazy_pattern(r"(?i)(?:^|(?<=[.!?])\s+)(?:for\s+example|for\s+instance|e\.\s?g\.|example:)[^.!?]*(?:[.!?]|$)")


class Content(NamedTuple):
    """What a short card says, as compared here."""

    description: Words
    body: Words
    all: Words
    text: str = ""  # the prose as compared, line by line (`polarity` reads its clauses)
    asks: str = ""  # the question word the description opens with ("who", "when"), casefolded


class Restatement(NamedTuple):
    """Why one card restates another: the shares measured."""

    slot: float
    covered: float
    cover_long: float
    anchor: float  # of the shorter card's subject words (`_anchors`) that the other says
    joined: tuple[tuple[str, str], ...]  # words paired as synonyms (shorter's, longer's)
    value: str = ""  # the typed values both give alike, when they settled the fact (`one_typed_value`)
    answer: str = ""  # the rare name both bodies answer with, when it settled the fact (`one_answer`)


@functools.lru_cache(maxsize=20_000)
def _content(description: str, body: str) -> Content | None:
    lines = []
    for line in body.splitlines():
        if _FENCE.match(line):
            break
        if _REASON.match(line):
            break
        if line.strip():
            lines.append(line.strip(" -*#>"))
    if len(lines) > MAX_LINES:
        return None
    lines = [kept for kept in (_EXAMPLE_SENTENCE.sub("", line).strip() for line in lines) if kept]
    if not lines:
        return None
    d = words(_plain(description))
    b = words(_plain(" ".join(lines)))
    tokens = d.tokens + b.tokens
    if len(tokens) > MAX_TOKENS or not b.tokens:
        return None
    text = "\n".join(_plain(line) for line in lines)  # a description asks ("When … may skip review"); the prose states
    asked = QUESTION.match(description)
    asks = asked.group().strip(" \t*_#>").casefold() if asked else ""
    return Content(d, b, Words(tokens, d.values | b.values, f"{d.text} {b.text}"), text, asks)


_SYMBOLS = {"<": " below ", ">": " above ", "\u2264": " max ", "\u2265": " min ", "~": " approximately "}
_SYMBOL = lazy_pattern(r"(?<![<>=\w-])[<>\u2264\u2265](?![<>=])|(?<![\w~])~(?=\s*\d)")
_CLOSER = lazy_pattern(r"[)\]\"'\u201d]+(?=[.!?](?:\s|$))")  # "… stack). Stubbing": the sentence still ends
_UNITS = {w: n for n, w in enumerate(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"], 1)}
_TENS = {w: 10 * n for n, w in enumerate(["ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                          "ninety"], 1)}
_SPELT = lazy_pattern(r"(?i)\b(?:({tens})(?:[\s-]({units}))?|({units}))\s+(hundred|thousand)\b".format(
    tens="|".join(_TENS), units="|".join(_UNITS)))


def _number(m: re.Match[str]) -> str:
    tens, unit, alone, scale = m.groups()
    value = (_TENS[tens.lower()] + (_UNITS[unit.lower()] if unit else 0)) if tens else _UNITS[alone.lower()]
    return str(value * (100 if scale.lower() == "hundred" else 1000))


def _plain(text: str) -> str:
    """Text as compared here: "four hundred" is 400, "< 400" is "below 400", a closing bracket ends no sentence."""
    if "hundred" in text or "thousand" in text:
        text = _SPELT.sub(_number, text)
    text = normalized(text)
    return _CLOSER.sub("", _SYMBOL.sub(lambda m: _SYMBOLS[m.group()], text))


def content(card: Card) -> Content | None:
    """The card's description and the body's prose before its first reason line; None for a long card."""
    return _content(card.description, card.body)


def signature(card: Card) -> str:
    """What `restates` reads of a card (for caches that must know when it changed)."""
    found = content(card)
    return "" if found is None else f"{found.all.text}\0{' '.join(sorted(found.all.values))}"


def explain(found: Restatement) -> str:
    """The finding's detail: how much of the shorter card the other says, and which words it says otherwise."""
    joined = ", ".join(f"{x!r} as {y!r}" for x, y in found.joined[:3])
    said = f"the same fact in other words ({round(found.covered * 100)}% of the shorter card said by the other"
    if found.value:
        said = f"{said}; the same value: {found.value}"
    if found.answer:
        said = f"{said}; one answer: {found.answer}"
    return f"{said}; {joined})" if joined else f"{said})"


ABBREVIATION = 5  # letters at most of a word that may abbreviate words another of mine abbreviates too


def _said(mine: Iterable[str], theirs: frozenset[str], seq_mine: tuple[str, ...], seq_theirs: tuple[str, ...],
          joined: list[tuple[str, str]]) -> set[str]:
    """Which of `mine` the other side says: the word, one written another way, or a synonym."""
    mine = set(mine)
    present = mine & theirs
    if not NEGATORS.isdisjoint(theirs):
        present |= mine & NEGATORS  # polarity is compared apart (`_conflict`): any negation says another's
    others = theirs - mine
    left, _ = equivalent(mine - theirs, others, seq_mine, seq_theirs)
    short = {x for x in left if len(x) <= ABBREVIATION}
    if len(left) > 1 and short:  # two of mine may both be said by one of theirs ("PR" and "PRs" by "pull request")
        left = (left - short) | {x for x in short if equivalent({x}, others, seq_mine, seq_theirs)[0]}
    # A word the other card says cut short or abbreviated, beside the word both cards say ("DB" beside "database"
    # in one card, "database" in the other) is said too: the pairing above matches unshared words only.
    left = {x for x in left if not any(abbreviation(x, y) for y in present)} if present else left
    out = mine - left
    for x in sorted(left):
        y = next((y for y in sorted(theirs) if synonymous(x, y)), None)
        if y is not None:
            out.add(x)
            joined.append((x, y))
    return out | present


def _share(tokens: frozenset[str], said: set[str], weight: Mapping[str, float], default: float) -> float:
    total = sum(weight.get(t, default) for t in tokens)
    return sum(weight.get(t, default) for t in tokens & said) / total if total else 0.0


def _swapped(a: Words, b: Words, said_a: set[str], said_b: set[str]) -> tuple[str, str] | None:
    """A marked value of one content against an unmatched one of the same sort in the other (quoted), or None.

    A value that is a part of one the other card gives ("PostHog" and "EU" of
    `eu.posthog.com`, "api" of `services/api`) is said by it; "e.g." is no value.
    """
    lost_a = _unmatched(a.values - said_a, b.values)
    lost_b = _unmatched(b.values - said_b, a.values)
    if lost_a and lost_b and same_kind(" ".join(lost_a), " ".join(lost_b)):
        return " ".join(lost_a), " ".join(lost_b)
    return None


_NO_VALUE = frozenset({"e.g", "i.e", "etc", "vs", "a.m", "p.m"})
_PARTS = lazy_pattern(r"[./:@_#-]+")


def _unmatched(lost: Iterable[str], theirs: frozenset[str]) -> list[str]:
    parts = {p for t in theirs if _PARTS.search(t) for p in _PARTS.split(t) if p}
    return sorted(t for t in lost if t not in _NO_VALUE and t not in parts)


def _conflict(ca: Content, cb: Content, said_a: set[str], said_b: set[str], weight: Mapping[str, float],
              values: bool = True) -> str | None:
    """Why two contents cannot give one value: a marked value against another of its sort, polarity, antonyms.

    A negation counts when it denies a predicate the other card affirms (`polarity`: said
    in a clause of the other card with no negation and no denying word: "no longer uses
    Flash" / "uses Flash"), and a word that says something (rare enough: "never run"
    against "where encoding may run" is two clauses about one verb everyone uses). A
    negation the other card answers with one of its own ("never on weekends" / "weekends
    = no deploys") or with a denying word ("Friday deploys are frozen") is one rule said
    two ways. `values=False` leaves out the first test (for `revalued`, which asks it apart).
    """
    a, b = ca.all, cb.all
    if values:
        alike_a, alike_b = _alike_values(ca.text, cb.text)
        said_a, said_b = said_a | alike_a, said_b | alike_b
    swapped = _swapped(a, b, said_a, said_b) if values else None
    if swapped:
        return f"{swapped[0]!r} vs {swapped[1]!r}"
    set_a, set_b = frozenset(a.tokens), frozenset(b.tokens)
    top = max((weight.get(t, 0.0) for t in set_a | set_b), default=0.0)
    default = max(weight.values(), default=1.0)
    for mine, theirs, their_words in ((ca, cb, set_b), (cb, ca, set_a)):
        if not NEGATIVE.isdisjoint(their_words):
            continue  # a negative word answers the negation: "never on weekends" / "weekends off"
        denied = [w for w in denied_against(mine.text, theirs.text) if weight.get(w, default) >= DENIED_RARITY * top]
        if denied:
            return f"{NEGATED}: {' '.join(denied)!r}"
    for word in sorted(set_a - set_b):
        if ANTONYMS.get(word, set()) & (set_b - set_a):
            return f"antonyms: {word!r}"
    return None


@functools.lru_cache(maxsize=20_000)
def _measured_words(text: str) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """Each measured value `text` gives: its kind, its normal form, and the words that write it."""
    return tuple((f.kind, f.value, frozenset(words(f.written).tokens)) for f in forms(text) if f.kind in MEASURED)


def _alike_values(text_a: str, text_b: str) -> tuple[set[str], set[str]]:
    """The words of the measured values both texts give alike: "1600 x 2560 px" and "1600 pixels wide and 2560
    tall" are one value (`value_forms`), so their unit words are no two values swapped."""
    fa, fb = _measured_words(text_a), _measured_words(text_b)
    both = {(k, v) for k, v, _ in fa} & {(k, v) for k, v, _ in fb}
    if not both:
        return set(), set()
    return ({t for k, v, ts in fa if (k, v) in both for t in ts}, {t for k, v, ts in fb if (k, v) in both for t in ts})


NEGATED = "negation on one side only"  # a conflict `_conflict` names: one card denies what the other affirms
DENIED_RARITY = 0.5  # of the pair's rarest word's weight, for a word whose negation on one side counts


def restates(a: Content, b: Content, weight: Mapping[str, float], one_question: bool = False) -> Restatement | None:
    """Whether one of two short English cards states the other's fact again (the measures), or None.

    `one_question`: the two descriptions ask no two questions ("Who …" / "How fast …"); then
    one measured value both give alike ("2 GB" / "2048 MB") is half the evidence of one fact.
    """
    found, conflict = measures(a, b, weight)
    if conflict is None and found.slot >= SLOT and found.cover_long >= COVER_LONG and not typed_apart(a, b):
        anchor, covered = (MEASURED_ANCHOR, MEASURED_COVERED) if one_question and _one_measure(a, b) else (ANCHOR, COVERED)
        if found.anchor >= anchor and found.covered >= covered:
            return found
        answer = one_answer(a, b, weight) if one_question else None
        if answer is not None and found.anchor >= ANSWER_ANCHOR and found.covered >= ANSWER_COVERED \
                and found.cover_long >= ANSWER_COVER_LONG:
            return found._replace(answer=answer)
    value = one_typed_value(a, b, weight) if one_question else None
    return found._replace(value=value) if value is not None else None


ANSWER_ANCHOR = 0.5  # of the shorter card's subject the other says, when both bodies give one rare answer
ANSWER_COVERED = 0.3  # of the shorter content the longer one says, then
ANSWER_COVER_LONG = 0.2  # and of the longer content the shorter one says: not a work log naming the answer in passing
ANSWER_RARITY = 0.6  # of the pair's rarest word's weight, for a name both bodies give to be their answer
ANSWER_SLOT = 0.2  # of each description the other card says, then (both ways: neither asks a question of its own)
ANSWER_LETTERS = 3  # letters at least of a name that answers ("X" of an "X-" prefix is none)


def one_answer(a: Content, b: Content, weight: Mapping[str, float]) -> str | None:
    """The rare name two one-sentence cards both give and neither description asks about (their answer), or None.

    "Who approves database migrations: Priya signs off …" / "Approval needed for schema
    changes: … need Priya Raman's approval": the descriptions ask one question in other
    words, and the bodies answer it with one name few cards of the vault say. A name a
    description says is the subject, not the answer ("Where the Postmark key lives").
    """
    if _sentences(a) > 1 or _sentences(b) > 1:
        return None  # a card of more sentences states more than its answer: the words left unsaid may be another fact
    described = frozenset(a.description.tokens) | frozenset(b.description.tokens)
    named = (a.all.values | b.all.values) - described - GENERIC - _NO_VALUE
    shared = {t for t in named & frozenset(a.body.tokens) & frozenset(b.body.tokens) if _answers(t)}
    if not shared:
        return None
    default = max(weight.values(), default=1.0)
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    top = max(weight.get(t, default) for t in set_a | set_b)
    rare = sorted(t for t in shared if weight.get(t, default) >= ANSWER_RARITY * top)
    if len(rare) != 1:
        return None  # "Portugal and Germany are migrated, France is not": names a card works through, not its answer
    # Each description is asked by the other card too: "When a security fix may be deployed" is
    # a question of its own, though its answer names the weekdays of the deploy schedule.
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, [])
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    if min(_share(frozenset(a.description.tokens), said_a, weight, default),
           _share(frozenset(b.description.tokens), said_b, weight, default)) < ANSWER_SLOT:
        return None
    # A person has many roles: "Who owns the public API" is not answered by "… reviewed by Marek".
    if any(role is not None and role not in said for role, said in ((_role(a), said_a), (_role(b), said_b))):
        return None
    return rare[0]


_AUXILIARY = frozenset({"must", "should", "can", "may", "might", "will", "would", "get", "need", "ha", "has", "have"})


def _sentences(c: Content) -> int:
    """How many sentences a card's prose states (before its reason lines).

    A sentence that opens by refusing ("Don't add an SMTP client …", "Not npm, not yarn")
    refuses the alternatives to the answer: it states no fact of its own.
    """
    from cardindex.meaning.session_words import sentences

    return sum(1 for line in c.text.splitlines() for said in sentences(line)
               if words(said).tokens[:1] != ("not",))


def _answers(token: str) -> bool:
    """Whether a marked word can be an answer: a name of `ANSWER_LETTERS` letters or a number of two digits.

    Letters and digits in one word ("e2e", "k8s") name a kind of thing, which a description
    may ask about in other words ("browser tests"), not the one value a fact gives.
    """
    if token.isdigit():
        return len(token) > 1  # "1" of a numbered step, "2 approvals": a small number many facts share
    return len(token) >= ANSWER_LETTERS and not any(ch.isdigit() for ch in token)


def _role(c: Content) -> str | None:
    """The role a "Who …" description asks about (its first verb: "Who must approve …" asks "approv"), or None."""
    if c.asks not in ("who", "whom", "whose"):
        return None
    return next((t for t in c.description.tokens if t not in _AUXILIARY), None)


TYPED_SLOT = 0.2  # of the shorter description the other card says, when the typed values settle the value
TYPED_COVERED = 0.2  # of the shorter content the longer one says, then: the wording around a value is free
EVIDENCE = frozenset(MEASURED - {"count"})  # "four crew" / "four lifeboats": a count alone shows no value


def _numbers(w: Words) -> Words:
    kept = frozenset(t.removesuffix(".x") for t in w.values if any(ch.isdigit() for ch in t))  # "3.1.x" is "3.1"
    return Words(w.tokens, kept, w.text)


def typed(c: Content, slot: frozenset[str]) -> dict[str, frozenset[str]]:
    """The values a card's prose gives, by kind (`value_forms.by_kind`), without those the slot names.

    A name the descriptions say ("Which TTL idle sessions get") is what the cards are
    about, not what could differ between two cards about it.
    """
    out = {}
    for k, values in by_kind(c.text).items():
        kept = frozenset(v for v in values if k in MEASURED or not set(words(v).tokens) <= slot)
        if kept:
            out[k] = kept
    return out


def _as_mine(mine: Mapping[str, frozenset[str]], theirs: dict[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """`theirs` with each version's tool spelt as mine spells it when it is one tool ("pg 16" as "postgres 16")."""
    if "version" not in mine or "version" not in theirs:
        return theirs
    tools = [v.rpartition(" ")[0] for v in mine["version"]]
    respelt = set()
    for v in theirs["version"]:
        tool, _, number = v.rpartition(" ")
        respelt.add(f"{next((t for t in tools if t != tool and one_word(t, tool)), tool)} {number}")
    return {**theirs, "version": frozenset(respelt)}


def typed_apart(a: Content, b: Content) -> str | None:
    """A kind of `EVIDENCE` both cards give, each with a value the other lacks ("UTC" / "CET"), as "kind: a vs b".

    One value beside more of its kind ("off on Wednesdays" / "Wednesday off, replies on
    Thursday") may be a consequence, not another value: None.
    """
    va = by_kind(a.text)
    vb = _as_mine(va, by_kind(b.text))
    for k in sorted(EVIDENCE & va.keys() & vb.keys()):
        if va[k] - vb[k] and vb[k] - va[k]:
            return f"{k}: {' '.join(sorted(va[k]))} vs {' '.join(sorted(vb[k]))}"
    return None


def one_typed_value(a: Content, b: Content, weight: Mapping[str, float]) -> str | None:
    """The value two short cards give alike (as written in normal form), when that settles one fact, or None.

    The value of a statement is what could differ between two cards of one slot: an amount
    with its unit, a time, a day, a version, a zone, a name, a path or code. When the two
    cards give the same values of every kind both give (one of them measured, `EVIDENCE`),
    one of them perhaps giving a kind more (more precision: a time beside the weekday),
    polarity and every other test of `measures` agreeing, and the slot still agrees (a fifth
    of the descriptions, `TYPED_SLOT`), the wording around the value is free: "web sessions
    expire after 30 minutes idle" / "idle users are logged out after half an hour".
    A card one of whose descriptions names a subject the other card never says is
    another subject only when the other's description names one of its own (`_other_subject`).
    """
    slot = frozenset(a.description.tokens) | frozenset(b.description.tokens)
    va = typed(a, slot)
    vb = _as_mine(va, typed(b, slot))
    shared = va.keys() & vb.keys()
    # A kind one card adds that the other gives none of is more precision ("Sunday" / "Sunday around 23:00");
    # both adding one, or one kind with two values, is more than one fact can be.
    if any(va[k] != vb[k] for k in shared) or not (va.keys() <= vb.keys() or vb.keys() <= va.keys()) \
            or EVIDENCE.isdisjoint(shared):
        return None
    # A kind one card adds (not a count: "one engineer holds it" is wording, no value) needs the slot said as for any
    # restatement, and a zone is no value alone.
    more = bool({k for k in va.keys() ^ vb.keys() if k != "count"})
    if more and not (EVIDENCE - {"zone"}) & shared:
        return None
    na, nb = _numbers(a.all), _numbers(b.all)
    if _swapped(na, nb, set(na.values & nb.values), set(na.values & nb.values)):
        return None  # a number no kind reads ("port 5432" / "port 5433") still differs
    # The values weigh nothing in the slot and the coverage: "… on Fridays" in two descriptions is no one subject.
    # A version's tool is what the version is of (the subject: "Go 1.22" is a version of Go), not the value.
    written = {t for c in (a, b) for f in forms(f"{c.description.text}\n{c.text}") if f.kind in EVIDENCE
               for t in words(f.written).tokens if f.kind != "version" or any(ch.isdigit() for ch in t)}
    default = max(weight.values(), default=1.0)  # every other word weighs what `measures` gives it
    unweighted = {**dict.fromkeys(a.all.tokens + b.all.tokens, default), **weight, **dict.fromkeys(written, 0.0)}
    for x, y in ((a, b), (b, a)):  # both ways: on a tie in length `measures` reads the first as the shorter
        found, conflict = measures(x, y, unweighted, named=True)
        if conflict is not None or found.slot < (SLOT if more else TYPED_SLOT) or found.covered < TYPED_COVERED \
                or found.cover_long < COVER_LONG or (more and found.anchor < ANCHOR):
            return None
    shown = [f.written for f in forms(a.text) if f.value in va.get(f.kind, ()) and f.kind in shared]
    return ", ".join(dict.fromkeys(shown)) or "; ".join(" ".join(sorted(va[k])) for k in sorted(shared))


MEASURED_ANCHOR = ANCHOR  # the subject must still be said: "tickets … a week before" is not "parts … a week ahead"
MEASURED_COVERED = 0.45


def _one_measure(a: Content, b: Content) -> bool:
    """Both prose texts give a measured value, and every measured kind both give is the same value (`value_forms`)."""
    va, vb = by_kind(a.text), by_kind(b.text)
    # "four crew" / "four lifeboats"; "02:00 UTC" / "stored in UTC": a count or a zone alone is no amount of one slot
    shared = [k for k in va if k in vb and k in MEASURED and k not in ("count", "zone")]
    return bool(shared) and all(va[k] == vb[k] for k in shared)


SWAPPED = 2  # words at most of each value in one place (a number and its unit)


def revalued(a: Content, b: Content, weight: Mapping[str, float]) -> tuple[str, str] | None:
    """The two values, when one short English card restates the other's slot with another value in it.

    "Raw sensor logs are kept for 90 days" / "We keep raw sensor logs 60 days before
    deleting them": every measure of `restates` passes once the two values are taken as
    the one place they fill (a value of one sort against one of the same sort: two
    amounts in one unit, two weekdays, two names; at most `SWAPPED` words each), and
    nothing else stands against it (a negation on one side, antonyms, another subject, a
    card about more). A contradiction.
    """
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    if not set_a or not set_b:
        return None
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, [])
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    turned = alternatives(a.text, b.all) | alternatives(b.text, a.all)  # a refused value is none of the card's
    swapped = _swapped(a.all, b.all, said_a | (turned & set_a), said_b | (turned & set_b))
    if swapped is None or len(swapped[0].split()) > SWAPPED or len(swapped[1].split()) > SWAPPED:
        return None
    found, conflict = measures(a, b, weight, aligned=(frozenset(swapped[0].split()), frozenset(swapped[1].split())))
    if conflict is not None or found.slot < SLOT or found.anchor < ANCHOR or found.covered < COVERED \
            or found.cover_long < COVER_LONG:
        return None
    return swapped


def measures(a: Content, b: Content, weight: Mapping[str, float],
             aligned: tuple[frozenset[str], frozenset[str]] | None = None,
             named: bool = False) -> tuple[Restatement, str | None]:
    """The measures `restates` takes, and the conflict it found (for `bench/why_pairs.py`).

    `aligned`: values of each card that fill the one place of the other's (`revalued`): they
    weigh nothing, so the rest of each card must be said by the other as for any restatement.
    """
    default = max(weight.values(), default=1.0)
    if aligned is not None:
        weight = {**weight, **{t: 0.0 for t in aligned[0] | aligned[1]}}
    turned = alternatives(a.text, b.all) | alternatives(b.text, a.all)
    if turned:  # "RabbitMQ is the broker; never Kafka": the refused alternative weighs nothing
        weight = {**weight, **{t: 0.0 for t in turned}}
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    if not set_a or not set_b:
        return Restatement(0.0, 0.0, 0.0, 0.0, ()), "nothing to compare"
    joined: list[tuple[str, str]] = []
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, joined)
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    if turned:  # a refused value is no value of the card's: never "another value" against the other's
        said_a, said_b = said_a | (turned & set_a), said_b | (turned & set_b)
    share_a, share_b = _share(set_a, said_a, weight, default), _share(set_b, said_b, weight, default)
    total_a = sum(weight.get(t, default) for t in set_a)
    total_b = sum(weight.get(t, default) for t in set_b)
    short_share, long_share = (share_a, share_b) if total_a <= total_b else (share_b, share_a)
    slot_a = _share(frozenset(a.description.tokens), said_a, weight, default)
    slot_b = _share(frozenset(b.description.tokens), said_b, weight, default)
    slot = max(min(slot_a, slot_b), slot_a if total_a <= total_b else slot_b)
    short, said_short = (a, said_a) if total_a <= total_b else (b, said_b)
    anchors = _anchors(short)  # counted, not weighted: a small vault's rarities are noise on three or four words
    anchor = len(anchors & said_short) / len(anchors) if anchors else 0.0
    conflict = _conflict(a, b, said_a, said_b, weight, values=aligned is None and not named) \
        or _other_subject(a, said_a, b if named else None) or _other_subject(b, said_b, a if named else None) \
        or _two_subjects(a, b, said_a, said_b) or _about_more(a, b, said_a, said_b, total_a <= total_b)
    return Restatement(round(slot, 2), round(short_share, 2), round(long_share, 2), round(anchor, 2),
                       tuple(joined)), conflict


def alternatives(text: str, other: Words) -> frozenset[str]:
    """The alternatives `text` refuses beside what it affirms, that the other card never names, and their negators.

    "Use pnpm, not npm", "RabbitMQ is the broker; never Kafka", "Meilisearch instead of Elasticsearch"
    affirm pnpm, RabbitMQ, Meilisearch: the refused word says which value this is not, and a card
    that names only the value says the same fact. Only a value is an alternative (a name, number or
    code: `words`' marked values); a refused act is part of the fact. A refused word the other card says is no
    alternative but a denial of its value (`polarity.denied_against`); a text that only denies
    ("Never deploy on Fridays") refuses its whole fact and has none.
    """
    said = polarity(text)
    if not said.affirmed or not said.denied:
        return frozenset()
    # A value refused (a name, a number, code): "Don't push on the strength of 'it compiled'" refuses an act.
    marked = words(text).values
    heads = {head for head, _ in said.denied if head not in other.tokens and head in marked}
    # the rest of a name refused alone: "never Argo CD", "not GitLab CI"
    heads |= {t for head, rest in said.denied if head in heads and len(rest) <= ALTERNATIVE for t in rest & marked
              if t not in other.tokens}
    return frozenset(heads | NEGATORS) if heads else frozenset()


ALTERNATIVE = 2  # words at most beside the refused word in its clause, for a name refused alone


def _denied_words(conflict: str) -> list[str]:
    """The words a `NEGATED` conflict quotes."""
    return conflict.removeprefix(f"{NEGATED}: ").strip("'\"").split()


def _anchors(c: Content) -> frozenset[str]:
    """The words a card says both in its description and in its body: what it is about (its subject).

    A light verb ("uses", "stored", "runs": `words.LIGHT`) names no subject when another word does:
    "Which package manager the dashboard uses" / "The dashboard installs … with pnpm" is about the dashboard.
    """
    described = frozenset(c.description.tokens)
    both = (described & frozenset(c.body.tokens)) or described
    return (both - LIGHT) or both


def denies(a: Content, b: Content, weight: Mapping[str, float]) -> str | None:
    """The denial, when one short English card restates the other's fact but denies what the other affirms.

    "The mobile app's unit tests run on Vitest" / "Mobile unit tests run on Jest, not Vitest": every
    measure of `restates` passes, and the only thing that stands against one fact is a negation on one
    side of a word the other card states (`polarity`): one slot, opposite polarity, a contradiction.
    """
    found, conflict = measures(a, b, weight)
    if conflict is None or not conflict.startswith(NEGATED):
        return None
    # The denied word is a value the other card gives (a name, a number): "not Vitest". A verb denied
    # ("must not open pull requests as drafts") is the statement's polarity, judged with its clause.
    values = a.all.values | b.all.values
    if not any(w in values for w in _denied_words(conflict)):
        return None
    if found.slot < SLOT or found.cover_long < COVER_LONG or found.anchor < ANCHOR or found.covered < COVERED:
        return None
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, [])
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    total_a = sum(weight.get(t, max(weight.values(), default=1.0)) for t in set_a)
    total_b = sum(weight.get(t, max(weight.values(), default=1.0)) for t in set_b)
    if _swapped(a.all, b.all, said_a, said_b) or _other_subject(a, said_a) or _other_subject(b, said_b) \
            or _two_subjects(a, b, said_a, said_b) or _about_more(a, b, said_a, said_b, total_a <= total_b):
        return None
    return conflict


def same_values(a: Content, b: Content, weight: Mapping[str, float]) -> str | None:
    """The values two cards of one single-valued key both give (quoted), when neither gives another.

    For a key the slot is settled, so only the value can differ: both cards name a value
    the other says too (a word written two ways counts: "Sun" / "Sunday"), and any value
    one card adds is of a sort the other gives none of (a time beside a weekday is more
    precision, a second weekday is another value: `values.kind`); nothing else stands
    against it (a negation on one side, antonyms). Anything less stays the contradiction
    it is.
    """
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, [])
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    shared = a.all.values & said_a
    if not shared or not b.all.values & said_b:
        return None
    turned = alternatives(a.text, b.all) | alternatives(b.text, a.all)  # "not in the DB": a refused value is none
    for mine, said, theirs in ((a.all.values, said_a, b.all.values), (b.all.values, said_b, a.all.values)):
        sorts = {kind(t) for t in theirs - turned}
        if any(kind(t) in sorts for t in mine - said - turned):
            return None
    if _conflict(a, b, said_a, said_b, weight) is not None:
        return None
    return " ".join(sorted(shared))


def same_typed(a: Content, b: Content, weight: Mapping[str, float]) -> str | None:
    """The typed values two cards of one single-valued key both give, when they give the same ones and no other.

    For a key the slot is settled, so the value is all that can differ, and a value read in
    normal form (`value_forms.by_kind`) is one value however it is written: "every weekday,
    never on weekends" / "Monday to Friday only; Saturday and Sunday are off-limits", "two
    approving reviews" / "2 approvals". Every kind either card gives must be given by both,
    with the same values (a count counts here: the key says what is counted); a card that
    gives a kind more, or one value more, may state another value. A negation on one side
    or antonyms still stand against it (`_conflict`).
    """
    va, vb = by_kind(a.text), by_kind(b.text)
    if not va or va != vb or not (MEASURED & va.keys()):
        return None
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    if _denies(set_a) != _denies(set_b):
        return None  # "fired Monday to Friday" / "never lit Monday to Friday": the same days, one side denying
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, [])
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    if _conflict(a, b, said_a, said_b, weight) is not None:
        return None  # "vitest, 4 workers" / "Jest with four workers": a name the value reader does not type still differs
    return "; ".join(f"{k} {' '.join(sorted(v))}" for k, v in sorted(va.items()))


def _denies(tokens: frozenset[str]) -> bool:
    """Whether a card denies anything: a negator or a denying word ("never", "off")."""
    return not (NEGATORS.isdisjoint(tokens) and NEGATIVE.isdisjoint(tokens))


BOILERPLATE = 0.8  # share of their body words two cards have in common, for one body written twice


def two_subjects(a: Content, b: Content) -> str | None:
    """`_two_subjects` of two contents (a veto on any "same fact in other words")."""
    set_a, set_b = frozenset(a.all.tokens), frozenset(b.all.tokens)
    said_a = _said(set_a, set_b, a.all.tokens, b.all.tokens, [])
    said_b = _said(set_b, set_a, b.all.tokens, a.all.tokens, [])
    return _two_subjects(a, b, said_a, said_b)


def _two_subjects(a: Content, b: Content, said_a: set[str], said_b: set[str]) -> str | None:
    """One body under two descriptions that each name something the other card never says: two subjects.

    "Dashboard for the germination lab" and "… for the drying room", both "Built by the data
    team, hosted on the lab server": the bodies are boilerplate, the descriptions the facts.
    """
    ba, bb = frozenset(a.body.tokens), frozenset(b.body.tokens)
    if not ba or not bb or len(ba & bb) < BOILERPLATE * len(ba | bb):
        return None
    own_a = frozenset(a.description.tokens) - said_a
    own_b = frozenset(b.description.tokens) - said_b
    if own_a and own_b:
        return f"one body under two subjects: {' '.join(sorted(own_a))!r} vs {' '.join(sorted(own_b))!r}"
    return None


ABOUT_MORE = 5  # words of the longer card's description the shorter card never says, for a card about more


def _about_more(a: Content, b: Content, said_a: set[str], said_b: set[str], a_shorter: bool) -> str | None:
    """The longer card's description names more than the shorter card says: it is about more than one fact."""
    short, long, said_long = (a, b, said_b) if a_shorter else (b, a, said_a)
    unsaid = [t for t in dict.fromkeys(long.description.tokens) if t not in said_long]
    if len(unsaid) > max(ABOUT_MORE, len(set(short.all.tokens)) // 2):
        return f"the other card is about more: {' '.join(unsaid)!r}"
    return None


def _other_subject(mine: Content, said: set[str], other: Content | None = None) -> str | None:
    """A description that names its subject (a name, number, code) that the other card never says: another subject.

    "Which kind of Stripe key staging may use" is not what "Where load tests may run" is
    about, however many common words ("test", "staging", "only") the two agree on.
    """
    named = mine.description.values - GENERIC  # "Lifetime of API access tokens": the tokens are the subject
    if other is not None and not other.description.values - GENERIC:
        return None  # "Timezone of stored timestamps" / "… in Postgres columns": one names where, the other no subject
    if named and named.isdisjoint(said):
        return f"another subject: {' '.join(sorted(named))!r}"
    return None


BLOCK_WORDS = 8  # each short card is indexed under this many of its rarest content words
MAX_BLOCK = 60  # a word more cards than this have is not rare enough to block on


@functools.lru_cache(maxsize=50_000)
def _synonym_keys(token: str) -> tuple[str, ...]:
    from cardindex.meaning.synonyms import groups_of

    return tuple(f"~{g}" for g in sorted(groups_of(token))[:3])


@functools.lru_cache(maxsize=20_000)
def _value_keys(text: str) -> tuple[str, ...]:
    """A key for each typed value of `EVIDENCE` kinds the text gives, in its normal form."""
    return tuple(f"={k}:{v}" for k, vs in sorted(by_kind(text).items()) if k in EVIDENCE for v in sorted(vs))


class BlockWords(NamedTuple):
    """What the restatement block reads of one card (`blocking`): plain values, kept in the gate's postings."""

    plain: tuple[str, ...]  # the content's words (none for a card not in English)
    initials: str  # initials of two or three words in a row that are no word of its own ("pr"), `joined`
    keyed: str  # a key for each synonym sense of its words, and for each typed value in its normal form, `joined`
    shorts: tuple[str, ...]  # its words of two or three letters, which other cards' initials may abbreviate


SEP = "\x00"  # between the keys of a `joined` list: no word or value holds it


def joined(keys: Iterable[str]) -> str:
    """Keys as one string, each between two `SEP`s (`SEP + key + SEP in` it finds one); empty for none.

    A card has dozens of initials and senses, asked of every card only by whether it holds
    one key: one string each is what the gate's postings keep of them, not dozens of objects.
    """
    found = SEP.join(keys)
    return f"{SEP}{found}{SEP}" if found else ""


def parts(keys: str) -> list[str]:
    """The keys of a `joined` string."""
    return keys.split(SEP)[1:-1] if keys else []


NO_WORDS = BlockWords((), "", "", ())


class Frequency(Protocol):
    """How many cards have a key (`blocking.Vocabulary.frequency`)."""

    def __getitem__(self, key: str) -> int: ...


def block_words(c: Content | None, english: bool) -> BlockWords:
    """The words a short card blocks on; nothing for a long card (`documents`' concern)."""
    if c is None:
        return NO_WORDS
    tokens = c.all.tokens
    shorts = tuple(dict.fromkeys(t for t in tokens if 2 <= len(t) <= 3 and t.isalpha()))
    if not english:
        return BlockWords((), "", "", shorts)
    found = set(tokens)
    initials: dict[str, None] = {}
    for n in (2, 3):
        for i in range(len(tokens) - n + 1):
            letters = "".join(t[0] for t in tokens[i:i + n])
            if letters not in found:
                initials[letters] = None
    keyed: dict[str, None] = {}
    for t in dict.fromkeys(tokens):
        keyed.update(dict.fromkeys(_synonym_keys(t)))
    keyed.update(dict.fromkeys(_value_keys(c.text)))  # "30 minutes" / "half an hour": one duration, one key
    return BlockWords(tuple(dict.fromkeys(tokens)), joined(initials), joined(keyed), shorts)


def rarest_words(plain: Sequence[str], other: frozenset[str], frequency: Frequency) -> list[str]:
    """What a short English card is indexed under: its rarest words (`plain`), and its rarest other keys:
    the initials that abbreviate a two- or three-letter word some card has ("pr" / "pull request"),
    the synonym senses and the typed values (`blocking.Vocabulary` gives them).

    The statement blocks of `similarity` look at one sentence: a reworded card rarely keeps
    its rare words in that one. Rare is counted over the vault's words and keys (`frequency`).
    """
    def rarest(ks: Iterable[str], n: int) -> list[str]:
        return sorted((k for k in ks if 1 < frequency[k] <= MAX_BLOCK), key=lambda k: (frequency[k], k))[:n]

    return rarest(plain, BLOCK_WORDS) + rarest(other, BLOCK_WORDS // 2)
