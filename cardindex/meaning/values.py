"""Values: what a statement says about its slot, and whether two statements say the same.

Within one slot two statements either give one value (a duplicate) or two (a
contradiction). A value may be many words: a tool or command ("yarn dlx" / "npx"), a
place ("the Asana board" / "the Trello board"), a person's name, a number with its unit,
a date, weekday, version or port. So values are read two ways:

- **Marked values** (`Words.values`): numbers, versions, dates, weekdays, paths, code and
  names (a capital inside a sentence). Numbers, dates, code and paths are
  language-neutral (`neutral`); names count in English text only.
- **What differs**: the words each statement has that the other lacks, once words that
  are one word written two ways are paired (`equivalent`: "on-call" / "oncall", a typo,
  a British spelling). A few words swapped on each side while most of the statement
  agrees is another value; many words on each side is another wording.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from itertools import pairwise

from cardindex.meaning.stem import stem
from cardindex.meaning.words import CALENDAR, NEGATORS, SYNONYMS, Words

_MEANS = frozenset([SYNONYMS["uses"]])  # the verb that names a means ("uses X") is no value: the X is
FUZZY = 88  # rapidfuzz ratio above which two longer words are one word misspelt or spelt another way


def neutral(w: Words) -> frozenset[str]:
    """The values of `w` that mean the same in every language: numbers, versions, dates, code, paths, weekdays."""
    return frozenset(t for t in w.values if not t.isalpha() or t in CALENDAR)


@functools.lru_cache(maxsize=50_000)
def _fuzzy(x: str, y: str) -> bool:
    from rapidfuzz.fuzz import ratio  # only reached when two candidate cards differ in a long word

    return ratio(x, y) >= FUZZY


def _same_word(x: str, y: str) -> bool:
    if x == y:
        return True
    if "/" in x or "/" in y:  # a path names its last part: "owner/5320-onboarding" is "5320-onboarding"
        return x.endswith("/" + y) or y.endswith("/" + x)
    if not (x.isalpha() and y.isalpha()) or x[0] != y[0]:
        return False
    if x in CALENDAR or y in CALENDAR:  # "Sun" is "Sunday", "Thurs" "Thursday"; "mar" is "March" but not "Mon"
        short, long = sorted((x, y), key=len)
        return len(short) >= 3 and long in CALENDAR and long.startswith(short)
    if len(x) > 1 and (x == y + "s" or y == x + "s") and min(len(x), len(y)) <= 4:
        return True  # a plural abbreviation: "PRs" / "PR"
    if _clipped(x, y) or _clipped(y, x) or _abbreviates(x, y) or _abbreviates(y, x):
        return True
    return min(len(x), len(y)) >= 6 and _fuzzy(x, y)


def one_word(x: str, y: str) -> bool:
    """Whether two lower-cased words are one word written two ways: misspelt, cut short, abbreviated ("pg" / "postgres")."""
    return _same_word(x, y)


def abbreviation(x: str, y: str) -> bool:
    """Whether one of two words is the other cut short or abbreviated ("env" / "environment", "db" / "database")."""
    return x != y and x.isalpha() and y.isalpha() and x[:1] == y[:1] and (
        _clipped(x, y) or _clipped(y, x) or _abbreviates(x, y) or _abbreviates(y, x))


def _abbreviates(short: str, long: str) -> bool:
    """`short` is `long` written with its first letter and the heads of its later parts, as engineers write
    "db" for "database", "pg" for "postgres", "gh" for "github", "ts" for "typescript".

    Two or three letters, consonants after the first, in order in the long word, the second well past its
    start (so "pr" is not "project", nor "db" "debug"): the shape of an abbreviation, not a list of them.
    """
    if not 2 <= len(short) <= 3 or len(long) < 6 or not short.isalpha() or short[0] != long[0] \
            or any(c in "aeiouy" for c in short[1:]):
        return False
    at = 0
    for n, c in enumerate(short[1:]):
        at = long.find(c, at + 1)
        if at < 0 or (n == 0 and at < 3):
            return False
    return True


def _clipped(short: str, long: str) -> bool:
    """`short` is `long` cut short, as people abbreviate: "env" / "environ", "repo" / "repositori", "perf" / "perform".

    Three letters at least, and a good part of the word cut (so "log" is not "login", nor "app" "appli").
    """
    return 3 <= len(short) <= 6 and long.startswith(short) and len(long) - len(short) >= max(3, 9 - len(short))


def _initials(x: str, seq: tuple[str, ...]) -> tuple[str, ...] | None:
    """The first run of words in `seq` whose first letters spell `x` ("pr": "pull request", "vq": "video qualiti").

    Two to four ASCII letters, each word of the run longer than one letter. Looked up in the
    runs of `seq` spelt once per statement (`_runs`), not by walking `seq` for every word.
    """
    if not 2 <= len(x) <= 4 or not x.isalpha() or not x.isascii():
        return None
    return _runs(seq).get(x)


@functools.lru_cache(maxsize=4096)
def _runs(seq: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """What each run of two to four words of `seq` spells by first letters → the first such run."""
    out: dict[str, tuple[str, ...]] = {}
    for n in (2, 3, 4):
        for i in range(len(seq) - n + 1):
            run = seq[i:i + n]
            if all(len(w) > 1 for w in run):
                out.setdefault("".join(w[0] for w in run), run)
    return out


def equivalent(only_a: Iterable[str], only_b: Iterable[str], seq_a: tuple[str, ...] = (),
               seq_b: tuple[str, ...] = ()) -> tuple[set[str], set[str]]:
    """The words of `only_a` and `only_b` that have no counterpart on the other side.

    A word's counterpart is the same word misspelt or spelt otherwise, the word cut short
    ("env" / "environment"), a path ending in it, the words its letters abbreviate ("PR" /
    "pull request"), or two adjacent words of the other statement written as one ("oncall"
    and "on call" → "call", whose stop word was dropped; "payroll" / "pay roll").
    """
    left, right = set(only_a), set(only_b)
    ordered = sorted(right)
    for x in sorted(left):
        match = next((y for y in ordered if y in right and _same_word(x, y)), None)
        if match is not None:
            left.discard(x)
            right.discard(match)
    for mine, theirs, seq in ((left, right, seq_b), (right, left, seq_a)):
        joined = _joined(seq)
        for x in sorted(mine):
            parts = joined.get(x)
            if parts is not None:
                mine.discard(x)
                theirs.difference_update(parts)
                continue
            runs = (_initials(x, seq), _initials(x[:-1], seq) if len(x) > 2 and x.endswith("s") else None)
            run = next((r for r in runs if r is not None and theirs.issuperset(r)), None)
            if run is not None:
                mine.discard(x)  # an abbreviation of words only the other side has ("PR" / "pull request")
                theirs.difference_update(run)
                continue
            whole = _compound_of(x, seq) if x.startswith(_COMPOUND_HEADS) else None
            if whole is not None:
                mine.discard(x)
                theirs.discard(whole)
    return left, right


# Stop words that open closed compounds ("oncall", "online"), and never a negating prefix:
# "in"active, "a"sync and "un"safe are not their stems.
_COMPOUND_HEADS = ("on", "at", "by", "to", "with", "for", "over", "out")


def _prefixed(x: str, y: str) -> bool:
    """`x` is `y` with a stop word written onto its front ("oncal", the stem of "oncall", and "call")."""
    if len(y) < 3 or x == y or not x.isalpha():
        return False
    for head in _COMPOUND_HEADS:
        tail = x[len(head):]
        if x.startswith(head) and len(tail) >= 3 and (
            (y.startswith(tail) and len(y) - len(tail) <= 1) or (tail.startswith(y) and len(tail) - len(y) <= 1)
        ):
            return True
    return False


def _compound_of(x: str, seq: tuple[str, ...]) -> str | None:
    """The first word of `seq` that `x` writes with a stop word on its front (`_prefixed`), looked up, not walked."""
    first, chopped = _positions(seq)
    found: list[tuple[int, str]] = []
    for head in _COMPOUND_HEADS:
        tail = x[len(head):]
        if x.startswith(head):  # the tail itself, the tail less its last letter, or one letter more
            for y, at in ((tail, first.get(tail)), (tail[:-1], first.get(tail[:-1])), *chopped.get(tail, ())):
                if at is not None and _prefixed(x, y):
                    found.append((at, y))
    return min(found)[1] if found else None


@functools.lru_cache(maxsize=4096)
def _positions(seq: tuple[str, ...]) -> tuple[dict[str, int], dict[str, tuple[tuple[str, int], ...]]]:
    """Each word of `seq` → where it first stands; each word less its last letter → (word, where) of those words."""
    first: dict[str, int] = {}
    for at, y in enumerate(seq):
        first.setdefault(y, at)
    chopped: dict[str, list[tuple[str, int]]] = {}
    for y, at in first.items():
        if len(y) > 1:
            chopped.setdefault(y[:-1], []).append((y, at))
    return first, {k: tuple(v) for k, v in chopped.items()}


@functools.lru_cache(maxsize=4096)
def _joined(seq: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Two adjacent words written as one, as written and as stemmed ("hand over": "handover", "handov").

    Made once per statement (a long card meets many candidates); the callers only read it.
    """
    out: dict[str, tuple[str, str]] = {}
    for a, b in pairwise(seq):
        out[a + b] = (a, b)
        if (a + b).isalpha():
            out.setdefault(stem(a + b), (a, b))
    return out


def changed(wa: Words, wb: Words, slot: frozenset[str] = frozenset(), *, one_place: bool = False) -> tuple[str, str] | None:
    """The two values, when two statements of one slot give different values; None when they agree or cannot tell.

    Marked values decide first: both statements have some, and they differ (one side's
    weekday, number or name is not the other's). Else the words that differ: one run of
    words swapped for another between shared words; or, unless both name the same marked
    values, some words on each side in the same place and no more of them than of the
    words both share (plus two). Words that differ in many places are another wording.
    Words of the `slot` (what both descriptions name) are never the value: "The billing
    service runs Python 3.11" and "In production it runs Python 3.11", both under "the
    billing service … in production", say one thing. `one_place`: only a run swapped in one
    place counts (for cards whose slot is not known to be one).
    """
    set_a, set_b = frozenset(wa.tokens), frozenset(wb.tokens)
    if not set_a or not set_b or set_a == set_b:
        return None
    va, vb = wa.values - slot, wb.values - slot  # a name both descriptions give is the subject, not the value
    marked_agree = False
    if va and vb:
        left, right = equivalent(va - vb, vb - va, wa.tokens, wb.tokens)
        if left and right:
            return _said(wa, left), _said(wb, right)
        marked_agree = not (left or right)
    left, right = equivalent(set_a - set_b, set_b - set_a, wa.tokens, wb.tokens)
    left, right = left - NEGATORS - slot, right - NEGATORS - slot  # polarity is judged apart
    if not (left and right):
        return None  # one side only adds words: a qualifier, not another value
    shared = len(set_a & set_b)
    if shared < 2 and not (shared and len(left) + len(right) <= 3):
        return None
    swapped = in_one_place(wa.tokens, wb.tokens)
    if not one_place and not marked_agree and _means_swapped(wa.tokens, wb.tokens, left - _MEANS, right - _MEANS) \
            and shared >= 2:
        # One word each, the rest the same words in another order, and one side names it as the
        # means ("uses pnpm for installs" / "installs packages with yarn"): the means is the value.
        return _said(wa, left - _MEANS), _said(wb, right - _MEANS)
    if swapped or (not one_place and not marked_agree and len(left) + len(right) <= shared + 2 and _aligned(wa.tokens, wb.tokens, left, right)):
        return _said(wa, left), _said(wb, right)
    return None  # the words differ in many places: the same thing said another way


def _means_swapped(ta: tuple[str, ...], tb: tuple[str, ...], left: set[str], right: set[str]) -> bool:
    """One word on each side, and one of them is what a "uses" names: two means of one job."""
    if len(left) != 1 or len(right) != 1:
        return False
    return any(_MEANS.intersection(tokens[max(0, tokens.index(w) - 1):tokens.index(w)])
               for tokens, (w,) in ((ta, tuple(left)), (tb, tuple(right))))


def _opcodes(ta: tuple[str, ...], tb: tuple[str, ...]) -> Sequence[tuple[str, int, int, int, int]]:
    import difflib

    return difflib.SequenceMatcher(a=ta, b=tb, autojunk=False).get_opcodes()


def in_one_place(ta: tuple[str, ...], tb: tuple[str, ...]) -> bool:
    """Whether the statements differ in one place only, a run of words swapped for another between shared words."""
    changed_ops = [op for op in _opcodes(ta, tb) if op[0] != "equal"]
    return len(changed_ops) == 1 and changed_ops[0][0] == "replace"


def _aligned(ta: tuple[str, ...], tb: tuple[str, ...], left: set[str], right: set[str]) -> bool:
    """Whether some differing word of each side stands in the same place among the shared words.

    The same place: one replaced run in the diff of the two, or the same shared word next to
    it ("… uses prettier" / "… uses yapf for code formatting", however the rest is ordered).
    """
    if any(op == "replace" and left.intersection(ta[i1:i2]) and right.intersection(tb[j1:j2])
           for op, i1, i2, j1, j2 in _opcodes(ta, tb)):
        return True
    shared = set(ta) & set(tb)
    return bool(_neighbours(ta, left, shared) & _neighbours(tb, right, shared))


def _neighbours(tokens: tuple[str, ...], chosen: set[str], shared: set[str]) -> set[tuple[str, str]]:
    """The nearest shared word before and after each chosen word, marked with its side."""
    out: set[tuple[str, str]] = set()
    for i, t in enumerate(tokens):
        if t not in chosen:
            continue
        before = next((u for u in reversed(tokens[:i]) if u in shared), None)
        after = next((u for u in tokens[i + 1:] if u in shared), None)
        if before:
            out.add(("before", before))
        if after:
            out.add(("after", after))
    return out


def _said(w: Words, chosen: set[str]) -> str:
    """The chosen words in the order the statement says them."""
    return " ".join(dict.fromkeys(t for t in w.tokens if t in chosen))


def kind(token: str) -> str:
    """What sort of value a token is: a day or month, a version, a number, a path or host, or a name.

    Two values fill one slot only when they are of one sort: a weekday and a tool's name
    answer two questions ("which day production deploys happen" / "what deploys production").
    """
    if token in CALENDAR:
        return "calendar"
    if (token[:1] == "v" and token[1:].replace(".", "").isdigit()) or (
            "." in token and token.replace(".", "").isdigit()):
        return "version"
    if token[:1].isdigit():
        return "number"  # "30", "360p", "23:00"; a name may hold digits ("h264", "c6i")
    if "/" in token or "." in token or "@" in token or "_" in token:
        return "path"
    return "name"


def same_kind(left: str, right: str) -> bool:
    """Whether two values (each one or more words) have a sort in common (`kind`).

    Words beside a number are its unit ("10 s", "30 minutes"): such a value is a measure, not a name.
    """
    return bool(_kinds(left) & _kinds(right))


def _kinds(value: str) -> set[str]:
    found = {kind(t) for t in value.split()}
    return found - {"name"} if found - {"name", "path"} else found


def added_value(wa: Words, wb: Words) -> str | None:
    """A measured value (a day, number, version) one fact clause adds beside one of its sort that both give.

    "Full rehearsals happen on Tuesdays" and "… on Tuesdays and Thursdays" give one slot two
    values; a time beside the weekday ("Tue, 19:30") only says it more precisely.
    """
    for mine, theirs in ((wa.values, wb.values), (wb.values, wa.values)):
        extra = sorted(mine - theirs)
        sorts = {kind(t) for t in mine & theirs} - {"name", "path"}  # a second name is as often a detail
        found = [t for t in extra if kind(t) in sorts]
        if found:
            return " ".join(found)
    return None
