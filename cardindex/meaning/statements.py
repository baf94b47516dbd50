"""Statements of long cards: two topic notes that give one thing two values.

Two long cards (audit reports of a series, two reference notes on one system, a summary
and its findings note) state dozens of facts each; comparing them whole finds nothing,
and comparing them with the statement model of short cards (`classify`) reads only their
descriptions. So each long card is split into **statements** (a sentence, a bullet, a
table row, a heading) and the statements of two long cards are compared one against one:

1. **Blocked**: only statements sharing two words that few long cards of the vault have
   are compared (an identifier such as a finding's number, a file, a host, a product
   name), each such word in at most `BLOCK` statements, and at most `PER_PAIR` statement
   pairs per two cards: the work grows with the statements, never with their square.
2. **One subject**: one statement of the two is short, and it is held by the other
   except for its values: every word of it that is no value (a name, number, date) is in
   the other statement, so both say something of one thing.
3. **Another value of one sort** (`values.kind`), standing in one place: a number
   against a number, a version against a version, one or two each
   side, neither side's value anywhere in the other statement (`values.equivalent` pairs
   words written two ways first), and a shared word beside each on the same side ("open
   findings: 18" / "open findings: 29"), and neither card giving the other's value of
   that thing in another statement (a card that says "the 4-step flow" and elsewhere
   "the 5-stage flow" gives both values: it disagrees with nothing). Names, paths and hosts are left out: in a topic
   note a name is as often the subject as the value, statements name the files they
   refer to far more often than they give a file as a slot's value, and line numbers of
   one file drift from report to report; a date says when a thing happened (two notes
   date two events), not what it is. So this holds in every language: numbers and
   versions are read the same in all.

4. **Said missing, then there**: one statement says a named piece of code is missing
   ("No `target-added` / `target-gone` handler", "`flushQueue()` is never called",
   "no `retry_budget`"), and a statement of another card says it is there now: a change
   signal of the present (`change.change_signal` reads "now calls …", not "for now") or a
   word of arrival ("added", "wired", "implemented", "fixed") with no negation or removal
   of its own ("still not", "nothing", "removed"), naming every identifier the first
   says is missing. An identifier is written as code: a code span, or a bare word shaped
   as one (`snake_case`, `camelCase`, with `()`), in at most `RARE_DOCS` long cards. Both
   statements English. The note that said it was missing went stale, or the other is
   wrong; a card that says both itself (an update note) disagrees with nothing.

A pair is reported as a contradiction (reason "value") with the two statements quoted
briefly; consolidation marks both as a conflict (no rewrite of a topic note), so the
user decides which holds. Of a dated series, the newer statement is
usually the one that holds; the message says which card is newer when the dates tell.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.change import change_signal
from cardindex.meaning.documents import Documents, units
from cardindex.meaning.slots import english_text
from cardindex.meaning.values import equivalent, kind
from cardindex.meaning.words import CALENDAR, Words, words
from cardindex.redaction import shown
from cardindex.store.card import Card

BLOCK = 24  # a word in more statements of long cards than this says nothing of which two are about one thing
RARE_DOCS = 6  # and a word in more long cards than this is no identifier of one thing
PER_PAIR = 400  # statement pairs compared between two long cards, at most
SUBJECT_WORDS = 2  # words of the shorter statement that are no value: what it is about
SHORT_WORDS = 14  # the shorter statement of a pair names one thing: at most this many words
LONG_WORDS = 30  # and the longer one is a sentence, not a paragraph of many facts
MIN_WORDS = 2  # a statement of fewer words says nothing to compare
VALUES = 2  # a side that differs in more values than this lists things, it gives no one value
SORTS = ("number", "version")  # measured values: names, paths and hosts are more often the subject or a reference
RECORD_WORDS = 3  # plain words a record says of its identifier, at least, to be compared
RECORD_SHARED = 0.2  # two records sharing more of their plain words than this are one record
QUOTE = 90  # characters of each statement quoted in a finding

_MONTHS = CALENDAR | {"may"}  # the calendar words leave out the month that is also a verb
_ISO_DAY = lazy_pattern(r"^\d{4}-\d\d(?:-\d\d)?$")
_IDENTIFIER = lazy_pattern(r"^[a-z]{1,8}-\d{1,5}[a-z]?$")  # as `words` gives it: "sev-45", "req-12", "inc-2031"
_LABELLED = lazy_pattern(r"^[\W_]*([A-Za-z]{1,8}-\d{1,5}[a-z]?)[\W_]+([A-Z]{3,})\b")  # "**SEV-45** HIGH", "| SEV-45 | HIGH |"
_CAPITALS = lazy_pattern(r"\b[A-Z]{3,}\b")
_SENTENCE = lazy_pattern(r"(?<=[.!?])\s+(?=[A-Z`*(\[])")
_ASIDE = lazy_pattern(r"\s*(\([^()]{3,}\))\s*")  # a parenthesis is a statement of its own: "18 open (10 carried + 8 new)"
_MARKER = lazy_pattern(r"^\s*\d+[.)]\s+")
_SHOWN_MARK = lazy_pattern(r"^\s*(?:[-*+]|#+)\s+")  # a bullet or heading mark: not quoted
_RULE_ROW = lazy_pattern(r"^\|[\s|:-]*$")
# A name written as code: a code span, or a bare snake_case / camelCase word (with "()" of a call).
_CODE = lazy_pattern(r"`([^`\n]{4,60})`|(?<![\w`./-])([A-Za-z_]\w*(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*)(?:\(\))?"
                     r"(?![\w`/-])")
_CAMEL = lazy_pattern(r"[a-z][A-Z]")
_CODE_SPAN = lazy_pattern(r"`[^`\n]*`")
_NO_BEFORE = lazy_pattern(r"(?i)(?<![\w-])no\s*$")  # "no `retry_budget`"
# "`flushQueue()` is never called", "`X` not wired": a negated verb of use right after the name
_NOT_AFTER = lazy_pattern(r"(?i)^[^.;,`]{0,20}?(?<![\w-])(?:never|not)\s+(?:called|wired|used|invoked|implemented|handled|"
                          r"registered|checked|enforced|set)\b")
_LEADING_NO = lazy_pattern(r"(?i)^[\W_]*no\s+[`A-Za-z_]")  # "No `a` / `b` handler → …": each name of its first clause
_CLAUSE_END = lazy_pattern(r"[\u2192\u2014;.]|\s-\s|->")
_NEGATED = lazy_pattern(r"(?i)(?<![\w-])(?:no|not|never|nothing|none|nobody|neither|nor|missing|without|cannot|can't|"
                        r"doesn't|isn't|don't|won't|still|removed|dropped|deleted|reverted|disabled)(?![\w-])")
_NOW = lazy_pattern(r"(?i)\bnow\b")
_ARRIVED = lazy_pattern(r"(?i)\b(?:added|implemented|wired|fixed|introduced|registered)\b")

__all__ = ["Said", "contradicted", "said"]


class Said(NamedTuple):
    """One statement of a long card: its text as written and its words."""

    text: str
    words: Words
    heading: bool = False

    @property
    def text_id(self) -> str:
        """The identifier leading a record statement, as written ("SEV-45")."""
        m = _LABELLED.match(self.text)
        return m.group(1) if m else self.words.tokens[0]


def said(body: str) -> list[Said]:
    """The statements of a body: each sentence of a paragraph, each bullet, heading and table row."""
    out = []
    for unit in units(body):
        if _RULE_ROW.match(unit):
            continue
        heading = unit.startswith("#")
        unit = _MARKER.sub("", unit, count=1)  # "3." of a numbered step is where it stands, not what it says
        parts = [part for sentence in _SENTENCE.split(unit) for part in _ASIDE.split(sentence)]
        for part in parts:
            w = words(part)  # a unit of one statement is tokenized once per run (documents read it first)
            if len(w.tokens) >= MIN_WORDS:
                out.append(Said(_SHOWN_MARK.sub("", part).strip(" ()"), w, heading))
    return out


def contradicted(cards: Sequence[Card], docs: Documents,
                 wanted: set[tuple[int, int]] | None = None) -> list[tuple[int, int, str]]:
    """(i, j, detail), i < j: two long cards with a statement each that give one thing two values."""
    if len(docs.docs) < 2:
        return []
    index = sorted(docs.docs)
    if wanted is not None:
        involved = {k for pair in wanted for k in pair}
        if not involved & set(index):
            return []
    stated = {i: said(cards[i].body) for i in index}
    doc_freq = {t: len(ps) for t, ps in docs.postings.items()}
    postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for i in index:
        for n, s in enumerate(stated[i]):
            for token in set(s.words.tokens):
                if doc_freq.get(token, 0) <= RARE_DOCS:
                    postings[token].append((i, n))
    shared: dict[tuple[int, int], dict[tuple[int, int], int]] = defaultdict(lambda: defaultdict(int))
    for members in postings.values():
        if len(members) > BLOCK:
            continue
        for x, (i, n) in enumerate(members):
            for j, m in members[x + 1:]:
                if i == j:
                    continue
                if wanted is not None and (min(i, j), max(i, j)) not in wanted:
                    continue
                key, at = ((i, j), (n, m)) if i < j else ((j, i), (m, n))
                shared[key][at] += 1
    out = {}
    said_in = {i: {s.words.tokens for s in found} for i, found in stated.items()}
    for (i, j), found in sorted(shared.items()):
        pairs = sorted(at for at, count in found.items() if count >= 2)[:PER_PAIR]
        for n, m in pairs:
            a, b = stated[i][n], stated[j][m]
            if a.words.tokens in said_in[j] or b.words.tokens in said_in[i]:
                continue  # a card that also says the other's statement gives both values, it does not disagree
            other = _other_value(a.words, b.words)
            if other and not (_says_too(stated[j], other[0], a.words, b.words)
                              or _says_too(stated[i], other[1], a.words, b.words)):
                out[(i, j)] = _detail(cards[i], cards[j], a, b, other)
                break
    for (i, j), (a, b, other) in _relabelled(stated, wanted).items():
        out.setdefault((i, j), _detail(cards[i], cards[j], a, b, other, f"{a.text_id} names two records: "))
    for (i, j), (a, b, other) in _arrived(stated, wanted).items():
        out.setdefault((i, j), _detail(cards[i], cards[j], a, b, other))
    return [(i, j, detail) for (i, j), detail in sorted(out.items())]


def _relabelled(stated: Mapping[int, Sequence[Said]], wanted: set[tuple[int, int]] | None
                ) -> dict[tuple[int, int], tuple[Said, Said, tuple[str, str]]]:
    """Two long cards that give one identifier to two different records: "SEV-66 LOW: the
    light client skips the proof check" / "SEV-66 HIGH: grid orders are not authenticated".

    An identifier (letters, a hyphen, digits) leading a statement is the subject of a
    record, and a word in capitals right after it the record's label (a severity, a
    status, a priority). When two cards label one identifier differently *and* say nothing
    alike of it (their words beyond the identifier, labels, numbers and paths share at most
    `RECORD_SHARED` of the shorter's), the identifier names two things: a report renumbered
    its findings, or a record was filed twice. One record re-rated or given a status in
    another report ("SEV-41: OPEN — guardian.zig …" / "SEV-41 HIGH: guardian.zig …") says the
    same things of it and is left alone: a status and a severity are two attributes, and
    which a label is, is not in the words. A heading's record goes on in the next statement.
    """
    by_id: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    for i, found in stated.items():
        for n, s in enumerate(found):
            label = _label(s)
            if label:
                by_id[s.words.tokens[0]].append((i, n, label))
    out: dict[tuple[int, int], tuple[Said, Said, tuple[str, str]]] = {}
    for ident, members in by_id.items():
        if len(members) > BLOCK:
            continue
        for x, (i, n, first) in enumerate(members):
            for j, m, second in members[x + 1:]:
                key = (min(i, j), max(i, j))
                if i == j or first == second or key in out or (wanted is not None and key not in wanted):
                    continue
                said_a, said_b = _record(stated[i], n, ident), _record(stated[j], m, ident)
                if len(said_a) < RECORD_WORDS or len(said_b) < RECORD_WORDS:
                    continue
                if len(said_a & said_b) > RECORD_SHARED * min(len(said_a), len(said_b)):
                    continue  # one record said twice, re-rated or given a status: not two things
                a, b = stated[i][n], stated[j][m]
                out[key] = (a, b, (first, second)) if i < j else (b, a, (second, first))
    return out


def _arrived(stated: Mapping[int, Sequence[Said]], wanted: set[tuple[int, int]] | None
             ) -> dict[tuple[int, int], tuple[Said, Said, tuple[str, str]]]:
    """Two long cards, one saying named code is missing and the other that it is there now (4. of the module)."""
    missing: list[tuple[int, int, frozenset[str]]] = []
    there: dict[str, list[tuple[int, int]]] = defaultdict(list)
    cards_of: dict[str, set[int]] = defaultdict(set)
    for i, found in stated.items():
        for n, s in enumerate(found):
            names = _names(s.text)
            for name in names:
                cards_of[name].add(i)
            if not names:
                continue
            gone = _missing(s.text) if _NEGATED.search(s.text) else frozenset()
            if gone and english_text(s.text):
                missing.append((i, n, gone))
            elif not gone and _there(s.text) and english_text(s.text):
                for name in names:
                    there[name].append((i, n))
    out: dict[tuple[int, int], tuple[Said, Said, tuple[str, str]]] = {}
    for i, n, gone in missing:
        if any(len(cards_of[name]) > RARE_DOCS or len(there[name]) > BLOCK for name in gone):
            continue  # a name in many cards is no identifier of one thing
        holders: dict[tuple[int, int], int] = defaultdict(int)
        for name in gone:
            for at in there[name]:
                holders[at] += 1
        naming = sorted(at for at, count in holders.items() if count == len(gone))
        if any(j == i for j, _ in naming):
            continue  # the card says both itself: an update note, it disagrees with nothing
        for j, m in naming:
            key = (min(i, j), max(i, j))
            if key in out or (wanted is not None and key not in wanted):
                continue
            a, b = stated[i][n], stated[j][m]
            said = ("missing: " + ", ".join(sorted(gone)), "there now")
            out[key] = (a, b, said) if i < j else (b, a, (said[1], said[0]))
    return out


def _names(text: str) -> frozenset[str]:
    """The names written as code in a statement, case-folded."""
    if "`" not in text and "_" not in text and not _CAMEL.search(text):
        return frozenset()  # most statements name no code: skip the slower pattern
    return frozenset(_name(m) for m in _CODE.finditer(text))


def _name(m: re.Match[str]) -> str:
    """A name as written in code, case-folded, without the "()" of a call: `flushQueue()` is flushqueue."""
    return (m.group(1) or m.group(2)).casefold().removesuffix("()")


def _missing(text: str) -> frozenset[str]:
    """The names a statement says are missing: "no `X`", "`X` is never called", "No `X` / `Y` handler"."""
    out = set()
    for m in _CODE.finditer(text):
        if _NO_BEFORE.search(text[max(0, m.start() - 12):m.start()]) or _NOT_AFTER.match(text[m.end():m.end() + 40]):
            out.add(_name(m))
    if _LEADING_NO.match(text):
        masked = _CODE_SPAN.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)  # a "." inside code ends nothing
        end = _CLAUSE_END.search(masked)
        out |= _names(text[:end.start() if end else len(text)])
    return frozenset(out)


def _there(text: str) -> bool:
    """Whether a statement says something is there now: "now" (as `change.change_signal` reads it, not "for
    now") or a word of arrival, and no negation. Other change signals ("dropped", "replaced") say it left."""
    prose = _CODE_SPAN.sub(" ", text)
    if _NEGATED.search(prose):
        return False
    return _ARRIVED.search(prose) is not None or (_NOW.search(prose) is not None and change_signal(text) == "now")


def _record(found: Sequence[Said], n: int, ident: str) -> frozenset[str]:
    """What record statement n says of its identifier: its plain words (no identifier, label,
    number or path), with the next statement's when it is a heading ("### SEV-45 — HIGH")."""
    said = list(found[n].words.tokens)
    if found[n].heading and n + 1 < len(found):
        said += found[n + 1].words.tokens
    labels = {t for raw in _CAPITALS.findall(found[n].text) for t in words(raw).tokens}
    return frozenset(t for t in said if t != ident and t not in labels and kind(t) == "name")


def _label(s: Said) -> str | None:
    """The label of a record statement ("SEV-45 — HIGH — …" gives "high"), or None."""
    tokens = s.words.tokens
    if len(tokens) < 2 or not _IDENTIFIER.match(tokens[0]) or _IDENTIFIER.match(tokens[1]):
        return None
    m = _LABELLED.match(s.text)
    if m is None or words(m.group(2)).tokens != (tokens[1],):
        return None
    return tokens[1]


def _other_value(a: Words, b: Words) -> tuple[str, str] | None:
    """Values of one sort that two statements about one thing give differently, or None."""
    set_a, set_b = frozenset(a.tokens), frozenset(b.tokens)
    if min(len(set_a), len(set_b)) > SHORT_WORDS or max(len(set_a), len(set_b)) > LONG_WORDS:
        return None  # a long sentence states many things; one of values only names them
    # The shorter says nothing of its subject that the other does not (of two as long, either).
    if not any(len(subject := mine - short.values) >= SUBJECT_WORDS and subject <= other
               for short, mine, other in ((a, set_a, set_b), (b, set_b, set_a)) if len(mine) <= len(other)):
        return None  # each says something of its subject the other does not: two things
    only_a, only_b = equivalent(set_a - set_b, set_b - set_a, a.tokens, b.tokens)
    mine, theirs = only_a & a.values - _dates(a.tokens), only_b & b.values - _dates(b.tokens)
    for sort in SORTS:
        left = sorted(t for t in mine if kind(t) == sort)
        right = sorted(t for t in theirs if kind(t) == sort)
        if left and right and len(left) <= VALUES and len(right) <= VALUES \
                and _beside(a.tokens, set(left), set_a & set_b) & _beside(b.tokens, set(right), set_a & set_b):
            return " ".join(left), " ".join(right)
    return None


def _says_too(found: Sequence[Said], value: str, a: Words, b: Words) -> bool:
    """Whether a card also gives the other card's value of the thing two statements are about: a
    statement of it holds the value and every plain word the two share ("… the 4-step framework" beside
    "… — 5-stage triage flow"). A card that gives both values disagrees with nothing."""
    subject = (frozenset(a.tokens) & frozenset(b.tokens)) - a.values - b.values
    wanted = frozenset(value.split()) | subject
    return bool(subject) and any(wanted <= frozenset(s.words.tokens) for s in found)


def _dates(tokens: tuple[str, ...]) -> set[str]:
    """The tokens of a statement that date it ("2026-05-08", the 4 of "May 4"): when, not what."""
    return {t for n, t in enumerate(tokens) if _ISO_DAY.match(t) or (n and tokens[n - 1] in _MONTHS and t.isdigit())}


def _beside(tokens: tuple[str, ...], chosen: set[str], shared: frozenset[str]) -> set[tuple[str, str]]:
    """The shared word right before and right after each chosen value: where in the statement it stands.

    Two values stand in one place when one has the same shared word beside it on the same
    side ("total open 18" / "total open 29"); a number elsewhere in the sentence counts
    something else ("SSID 1: Employee" / "Stage 2: deploy the Employee SSID").
    """
    out: set[tuple[str, str]] = set()
    for n, token in enumerate(tokens):
        if token not in chosen:
            continue
        before = next((t for t in reversed(tokens[:n]) if t not in chosen), None)
        after = next((t for t in tokens[n + 1:] if t not in chosen), None)
        if before in shared:
            out.add(("before", before))
        if after in shared:
            out.add(("after", after))
    return out


def _detail(first: Card, second: Card, a: Said, b: Said, other: tuple[str, str], lead: str = "") -> str:
    """The message: both statements quoted briefly (redacted), the values, and which card is newer."""
    newer = ""
    da, db = _dated(first), _dated(second)
    if da and db and da != db:
        newer = f"; {(second if db > da else first).path} is newer"
    return (f"{lead}{first.path} says {_quote(a.text)}, {second.path} says {_quote(b.text)} "
            f"({other[0]!r} vs {other[1]!r}{newer})")


def _quote(text: str) -> str:
    text = shown(" ".join(text.split()))
    return repr(text if len(text) <= QUOTE else text[:QUOTE - 1] + "…")


_DATE = lazy_pattern(r"(?<!\d)(20\d\d-[01]\d-[0-3]\d)(?!\d)")


def _dated(card: Card) -> str | None:
    """The date a card is of: its evidence date, else one in its file name (a dated report)."""
    if card.evidence is not None:
        return card.evidence.isoformat()
    m = _DATE.search(card.path)
    return m.group(1) if m else None

