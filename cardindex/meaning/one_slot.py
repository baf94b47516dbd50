"""One slot, told by what two cards say with their values masked; then one value or two.

A slot is what a statement says with its value taken out: "When DB backups run" /
"Backups run at 02:00" and "Nightly backup schedule" / "The database is backed up at
03:30" are one slot ("backups run at <time>") with two values. `classify` leaves such a
pair open (no key, descriptions worded differently), and the wording alone then reads a
value conflict as two facts. Here:

1. **Values, masked and typed** (`value_forms`): each card's description and prose give
   values of kinds (a duration, a size, a time of day, a set of days, a version, a count,
   a name, code); what remains of the descriptions is the slot's wording.
2. **One slot**: each card's masked description is mostly said by the other card (its
   description or its masked prose), weighted by rarity; a word is said when it is there,
   written another way (`values.equivalent`) or a synonym (`synonyms`); and the two
   descriptions themselves agree on a rare word at least.
3. **One value or two**: of the kinds both cards give, a kind whose normal values are
   disjoint ("30 s" against "two minutes") is another value: a contradiction. When every
   measured kind both give is equal after normalisation ("30 minutes" / "1800 seconds"),
   the two are one value said two ways, never a contradiction.

English only (the masked wording is compared with English synonyms and stems); the rules
that call this (`classify.classify_sides`) pass only English pairs. Scopes and keys were
decided before (`slots.relate`): different scopes never come here, and two values of a
multi-valued key are two facts.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import NamedTuple, Protocol

from cardindex.lazy import lazy_pattern
from cardindex.meaning import slots, value_forms
from cardindex.meaning.change import change_signal, retired
from cardindex.meaning.polarity import denied_against
from cardindex.meaning.synonyms import synonymous
from cardindex.meaning.values import equivalent, one_word
from cardindex.meaning.words import QUESTION, Statement, Words, words
from cardindex.store.card import Card

REASON = "slot"  # a contradiction's reason when this module found it: one slot shown by the masked wording
SLOT = 0.5  # rarity-weighted share of each masked description the other card says
MIN_SAID = 2  # words of each masked description the other card says (all of a shorter one)
SHARED = 0.34  # and of the shorter masked description the other description says
MEASURED = value_forms.MEASURED
MAX_LINES = 6  # prose lines read: a longer card is a document (`documents`)

_REASON = lazy_pattern(r"(?i)^\W*(?:why|how to apply|source|see also|related|context|reason|because|example)\b[^:]{0,20}:")
_FENCE = lazy_pattern(r"^\s*(?:```|~~~)")


class Verdict(NamedTuple):
    """What the masked comparison says of two cards: "contradiction" or "one-value", and why."""

    kind: str
    detail: str
    of: str  # the kind of value that decided ("duration", "name"; "" for several)


def prose(card: Card) -> str | None:
    """The body's prose before its first reason line or fence; None for a long card."""
    lines = []
    for line in card.body.splitlines():
        if _FENCE.match(line) or _REASON.match(line):
            break
        if line.strip():
            lines.append(line.strip(" -*#>"))
    return None if len(lines) > MAX_LINES else " ".join(lines)


def _said(mine: Words, theirs: frozenset[str], seq: tuple[str, ...]) -> set[str]:
    """Which of my words the other side says: the word, one written another way, or a synonym."""
    own = set(mine.tokens)
    present = own & theirs
    left, _ = equivalent(own - theirs, theirs - own, mine.tokens, seq)
    out = present | (own - theirs - left)
    out |= {x for x in left if any(synonymous(x, y) for y in theirs)}
    return out


def _share(w: Words, said: set[str], weight: Mapping[str, float], default: float) -> float:
    tokens = set(w.tokens)
    total = sum(weight.get(t, default) for t in tokens)
    return sum(weight.get(t, default) for t in tokens & said) / total if total else 0.0


_ASKS = lazy_pattern(r"(?i)\b(?:how\s+(?:long|often|many|much|fast|soon)|what|which|when|where|who|whom|whose)\b")


def _masked_words(text: str) -> Words:
    """The words of `text` with its measured values taken out, and the question words that ask for one ("how long").

    Names and code stay: in a description they name the subject ("the staging Redis")."""
    text = _ASKS.sub(" , ", text)
    out, last = [], 0
    for f in value_forms.forms(text):
        if f.kind not in MEASURED:
            continue
        out.append(text[last:f.start])
        out.append(" , ")
        last = f.end
    out.append(text[last:])
    return words("".join(out))


def slot_share(a: Card, b: Card, weight: Mapping[str, float]) -> float:
    """How far two cards name one slot, values masked: the lower of the two shares each card's description
    (or its first sentence, when that says more) the other card says."""
    pa, pb = prose(a), prose(b)
    if pa is None or pb is None:
        return 0.0
    da, db = _masked_words(a.description), _masked_words(b.description)
    if not da.tokens or not db.tokens:
        return 0.0
    default = max(weight.values(), default=1.0)
    ba, bb = _masked_words(pa), _masked_words(pb)
    all_a, all_b = frozenset(da.tokens + ba.tokens), frozenset(db.tokens + bb.tokens)
    seq_a, seq_b = da.tokens + ba.tokens, db.tokens + bb.tokens
    said_a, said_b = _said(da, all_b, seq_b), _said(db, all_a, seq_a)
    if min(len(said_a & set(da.tokens)), len(said_b & set(db.tokens))) < min(MIN_SAID, len(set(da.tokens)), len(set(db.tokens))):
        return 0.0  # "To-do list for this week" shares one word with a card about a flaky list test: no slot
    whole = min(_share(da, said_a, weight, default), _share(db, said_b, weight, default))
    shorter, longer = sorted((da, db), key=lambda w: len(set(w.tokens)))
    described = _share(shorter, _said(shorter, frozenset(longer.tokens), longer.tokens), weight, default)
    if described < SHARED:
        return 0.0
    # The statements, values masked, say one thing too: "The catalogue sync runs every night at
    # <time>" / "The nightly catalogue sync starts at <time>", under "When … runs" / "… schedule".
    fa, fb = _masked_words(_first(pa)), _masked_words(_first(pb))
    if not fa.tokens or not fb.tokens:
        return whole
    stated = min(_share(fa, _said(fa, all_b, seq_b), weight, default), _share(fb, _said(fb, all_a, seq_a), weight, default))
    return max(whole, stated)


_SENTENCE = lazy_pattern(r"(?<=[.!?])\s+(?=[A-Z`*_(\"'])")


def _first(text: str) -> str:
    """The first sentence of a card's prose: its statement."""
    return _SENTENCE.split(text, maxsplit=1)[0]


def _own(description: Words, body: str) -> set[str]:
    """The description's words its own body says again, a word cut short counting ("Prod" for "production")."""
    said = words(body).tokens
    return {t for t in description.tokens
            if any(x == t or (len(x) >= 3 and len(t) >= 3 and (x.startswith(t) or t.startswith(x))) for x in said)}


def _other_questions(a: str, b: str) -> bool:
    """Two descriptions asking two questions ("What deploys …" / "Who approves …"): two slots."""
    qa, qb = QUESTION.match(a), QUESTION.match(b)
    return qa is not None and qb is not None and qa.group().strip(" \t*_#>").casefold() != qb.group().strip(" \t*_#>").casefold()


def two_subjects(a: Card, b: Card, weight: Mapping[str, float]) -> bool:
    """`_two_subjects` of two cards' masked descriptions."""
    default = max(weight.values(), default=1.0)
    return _two_subjects(a, b, _masked_words(a.description), _masked_words(b.description), weight, default)


SUBJECT_RARITY = 0.5  # of the rarest description word's weight, for a swapped word that names a subject
SWAP = 2  # words at most on each side of the one place two descriptions differ in, for a swapped subject


def _two_subjects(a: Card, b: Card, da: Words, db: Words, weight: Mapping[str, float], default: float) -> bool:
    """Each description names a subject its own body is about and the other card never says ("The day
    of the week for production releases" / "The user's weekly day off"), or the two are one phrase with
    a word swapped in one place ("Address of the production Redis" / "… the staging Redis", "How long
    the audit log is kept" / "How long application logs are kept"). Two things, one question."""
    text_a, text_b = words(f"{a.name} {a.description} {a.body}"), words(f"{b.name} {b.description} {b.body}")
    unsaid_a = set(da.tokens) - _said(da, frozenset(text_b.tokens), text_b.tokens)
    unsaid_b = set(db.tokens) - _said(db, frozenset(text_a.tokens), text_a.tokens)
    top = max([weight.get(t, default) for t in da.tokens + db.tokens], default=default)

    own_a, own_b = _own(da, prose(a) or ""), _own(db, prose(b) or "")

    def named(tokens: tuple[str, ...], unsaid: set[str], own: set[str]) -> bool:
        # all unsaid by the other card, said again by its own body (what it is about), one of them rare
        return set(tokens) <= unsaid and bool(set(tokens) & own) \
            and any(weight.get(t, default) >= SUBJECT_RARITY * top for t in tokens)

    if named(tuple(unsaid_a & own_a), unsaid_a, own_a) and named(tuple(unsaid_b & own_b), unsaid_b, own_b):
        return True  # each is about something the other never says: "production releases" / "the user's day off"
    matcher = difflib.SequenceMatcher(a=da.tokens, b=db.tokens, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and i2 - i1 <= SWAP and j2 - j1 <= SWAP and named(da.tokens[i1:i2], unsaid_a, own_a) \
                and named(db.tokens[j1:j2], unsaid_b, own_b):
            return True
    return False


def values_of(card: Card) -> dict[str, frozenset[str]]:
    """The card's normal values by kind: its prose's, and its description's measures and code
    (a capitalised word of a description names the subject or is title case: "The From address")."""
    found = {k: set(v) for k, v in value_forms.by_kind(prose(card) or "").items()}
    for kind, values in value_forms.by_kind(card.description).items():
        if kind != "name":
            found.setdefault(kind, set()).update(values)
    return {k: frozenset(v) for k, v in found.items()}


def _written(card: Card, kind: str, values: frozenset[str]) -> str:
    shown = [f.written for f in value_forms.forms(f"{card.description}\n{prose(card) or ''}")
             if f.kind == kind and f.value in values]
    return ", ".join(dict.fromkeys(shown))


def compare(a: Card, b: Card, named: bool = True) -> Verdict | None:
    """Two values of one kind that differ (a contradiction), or every measured kind equal (one value), or None.

    `named`: whether names and code may be the values that differ (not when each description
    names a subject the other card never says: two things, one question).
    """
    va, vb = values_of(a), values_of(b)
    if "version" in va and "version" in vb:
        vb = {**vb, "version": _same_tools(va["version"], vb["version"])}
    shared = [k for k in va if k in vb]
    for kind in [k for k in shared if k in MEASURED] + [k for k in shared if k not in MEASURED and named]:
        if kind == "version" and va[kind].isdisjoint(vb[kind]) and not versions_apart(va[kind], vb[kind]):
            continue  # versions of two tools: two subjects, no value against another
        if va[kind].isdisjoint(vb[kind]) and (kind in MEASURED or _named_apart(a, b, va[kind], vb[kind])):
            return Verdict("contradiction", f"{_written(a, kind, va[kind])!r} vs {_written(b, kind, vb[kind])!r}", kind)
        moved = _moved(a, b, va[kind], vb[kind]) or _moved(b, a, vb[kind], va[kind])
        if moved:
            return Verdict("contradiction", moved, kind)
    # One value: every measure both give is equal, every name or code both give is shared
    # (or one card's are all written by the other), and some value is common to both.
    agree = all(va[k] == vb[k] if k in MEASURED else not _named_apart(a, b, va[k], vb[k]) for k in shared)
    described = f"{a.description}\n{b.description}".casefold()  # a value both descriptions name is the subject
    # a name both give is as often the subject ("the SDK"); a measure or code in common is a value
    common = [k for k in shared if k != "name" and any(v not in described for v in va[k] & vb[k])]
    if common and agree:
        return Verdict("one-value", "; ".join(
            f"{_written(a, k, va[k] & vb[k])!r} = {_written(b, k, va[k] & vb[k])!r}" for k in common), "")
    return None


def versions_apart(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Two sets of versions that say two versions of one tool, not versions of two tools ("Sprint 2" / "Simulator v2")."""
    theirs = _same_tools(mine, theirs)
    tools = {v.rpartition(" ")[0] for v in mine}
    return mine.isdisjoint(theirs) and any(v.rpartition(" ")[0] in tools for v in theirs)


def _same_tools(mine: frozenset[str], theirs: frozenset[str]) -> frozenset[str]:
    """`theirs` with each version's tool written as mine writes it when it is one tool ("pg 16" as "postgres 16")."""
    tools = [v.rsplit(" ", 1)[0] for v in mine]
    out = set()
    for v in theirs:
        tool, _, number = v.rpartition(" ")
        same = next((t for t in tools if t != tool and one_word(t, tool)), tool)
        out.add(f"{same} {number}")
    return frozenset(out)


def _moved(old: Card, new: Card, was: frozenset[str], now: frozenset[str]) -> str | None:
    """The newer statement gives the old value and another, and says it changed ("moved to #incidents; #ops is archived")."""
    if not was < now or change_signal(f"{new.description}\n{prose(new) or ''}") is None:
        return None
    kind = next(f.kind for f in value_forms.forms(f"{new.description}\n{prose(new) or ''}") if f.value in now)
    return f"{_written(new, kind, now - was)!r} now, vs {_written(old, kind, was)!r}"


def _named_apart(a: Card, b: Card, names_a: frozenset[str], names_b: frozenset[str]) -> bool:
    """Two names (or code) for one value: each card gives one the other never writes."""
    text_a, text_b = f"{a.name} {a.description} {a.body}".casefold(), f"{b.name} {b.description} {b.body}".casefold()
    return any(n not in text_b for n in names_a) and any(n not in text_a for n in names_b)


def judge(a: Card, b: Card, weight: Mapping[str, float], described: bool) -> Verdict | None:
    """`compare`, for two cards of one slot: given (`described`: one key or one description), or shown by `slot_share`."""
    if prose(a) is None or prose(b) is None:
        return None
    found = compare(a, b)  # the values first: cheap, and most candidate pairs give none of one kind
    if found is None or described:
        return found
    # Weighted by the vault's rarity and counted alike: the write gate knows the rarity of one new card only,
    # and lint and the gate must see one slot alike.
    if _other_questions(a.description, b.description) or min(slot_share(a, b, weight), slot_share(a, b, {})) < SLOT:
        return None
    if two_subjects(a, b, weight) or two_subjects(a, b, {}):
        return None  # "How long the audit log is kept" / "… application logs are kept": two things, one question
    return found


class _Side(Protocol):
    """What `revise` reads of a `classify.Side`."""

    @property
    def card(self) -> Card: ...
    @property
    def key(self) -> str | None: ...
    @property
    def statement(self) -> Statement: ...
    @property
    def english(self) -> bool: ...
    @property
    def scope(self) -> str: ...


class _Found(Protocol):
    """What `revise` reads of a `classify.Pair`."""

    @property
    def kind(self) -> str: ...
    @property
    def reason(self) -> str: ...


def revise(a: _Side, b: _Side, weight: Mapping[str, float], multi_valued: frozenset[str],
           found: _Found | None) -> tuple[str, str, str] | None:
    """What the masked comparison changes in `classify`'s verdict: (kind, reason, detail), or None to keep it.

    Another value in one slot is a contradiction where the wording found nothing or a
    "same fact in other words"; one value said two ways is never a contradiction of values.
    Multi-valued keys, scopes and cards outside English are left as they are.
    """
    if found is not None and found.kind == "duplicate" and found.reason in _SAID_TWICE:
        return _measured_apart(a.card, b.card)
    if not (a.english and b.english) or (found is not None and found.reason not in _REVISED):
        return None
    relation = slots.relate(a.scope, b.scope, a.key, b.key,
                            lambda: slots.same_description(a.card, b.card, a.statement, b.statement), multi_valued)
    if relation in (slots.APART, slots.MULTI):
        return None
    # "What waters …" / "Who waters …": one set of words, two questions; the wording must show one slot
    described = relation != slots.OPEN and not _other_questions(a.card.description, b.card.description)
    verdict = judge(a.card, b.card, weight, described)
    if verdict is None:
        return None
    reason = "same-key" if relation == slots.KEY else REASON
    if verdict.kind == "contradiction" and (found is None or found.kind == "duplicate"):
        return "contradiction", reason, f"one slot ({slot_text(a.card, b.card)!r}), another value: {verdict.detail}"
    if verdict.kind == "one-value" and found is not None and found.kind == "contradiction" and found.reason == "value" \
            and not _retires_a_value(a, b):
        return "duplicate", "wording", f"one slot, one value said two ways: {verdict.detail}"
    if verdict.kind == "one-value" and found is None and relation == slots.OPEN and not _retires_a_value(a, b) \
            and values_conflict(a.card, b.card) is None:
        # The masked wording showed one slot and every value both give is one value: the same fact. Its reason
        # is one lint reports and consolidate merges ("slot" names a contradiction of this module's).
        return "duplicate", "wording", f"one slot ({slot_text(a.card, b.card)!r}), one value said two ways: {verdict.detail}"
    return None


_SAID_TWICE = frozenset({"wording", "reworded", "same-key"})  # duplicates the wording found (not `documents`)


DENIES = "one card denies what the other affirms"


def values_conflict(a: Card, b: Card) -> str | None:
    """Why two cards taken for one slot cannot give one value (the detail), or None: the one test of it.

    A measured kind both give whose normal forms are disjoint (`value_forms`: "02:00" /
    "2am" is one value, "02:00" / "03:30" two), or a negation of a predicate the other card
    affirms (`polarity`: "no longer uses Flash" / "uses Flash"; not "never on Fridays" /
    "Friday deploys are frozen"). Names and code are left to the wording (a name is as often
    the subject as the value). Lint and the write gate read it through `revise`;
    consolidation never merges two cards it names, in a pair or in a group.
    """
    pa, pb = prose(a), prose(b)
    if pa is None or pb is None:
        return None
    found = compare(a, b, named=False)
    if found is not None and found.kind == "contradiction":
        return f"another {found.of}: {found.detail}"
    ta, tb = value_forms.normalized(pa or a.description), value_forms.normalized(pb or b.description)
    denied = denied_against(ta, tb) or denied_against(tb, ta)
    if denied and slots.english(a) and slots.english(b):
        return f"{DENIES}: {' '.join(denied)!r}"
    return None


def _measured_apart(a: Card, b: Card) -> tuple[str, str, str] | None:
    """A duplicate whose values conflict (`values_conflict`): one slot, two values, a contradiction."""
    found = values_conflict(a, b)
    if found is None:
        return None
    return "contradiction", REASON, f"the same slot ({slot_text(a, b)!r}), {found}"


def _retires_a_value(a: _Side, b: _Side) -> bool:
    """Whether one card says a value the other gives is no longer used ("We moved off sentry.io …").

    The value both name is then the old one and the new card's own: two values, never one
    said two ways (merging them would keep the retired value).
    """
    return any(retired(f"{mine.card.description}\n{mine.card.body}") & theirs.statement.all.values
               for mine, theirs in ((a, b), (b, a)))


_REVISED = frozenset({"value", "wording", "same-key"})  # verdicts of values and wording; not polarity, retirements, documents


def slot_text(a: Card, b: Card) -> str:
    """The slot as a message names it: the shorter description, its values masked by kind."""
    shorter = min((a.description, b.description), key=len)
    return " ".join(value_forms.masked(shorter).split())
