"""Change signals: whether a card says that its value replaced an earlier one.

Consolidation lets a newer card without a key supersede an older one in the same slot
only when the newer one says it is a change (SPEC §7). A change is said in three shapes,
and this module reads the shapes rather than keeping a list of sentences:

- **the present set against the past**: "now" (not "for now", "right now", "until now"),
  "nowadays", "these days", "no longer", "not … anymore", "used to" (not "is used to"),
  "previously", "formerly", and "as of", "since", "starting", "effective" before a date
  or a version;
- **a verb of transition in a past form**, by its Snowball stem: switched, moved,
  migrated, changed, replaced, swapped, converted, upgraded, renamed, dropped, stopped,
  "has moved", "was replaced". Not the present passive of a procedure ("tickets are
  moved to Done") and not a participle used as an adjective ("lint the changed files").
  Verbs that name a retirement ("deprecated", "retired", "discontinued") count in any
  past form: "v1 is deprecated" is the result of a change;
- **a contrast that names the old value**: "instead of X", "rather than X", "in place
  of X", "from X to Y" count only when X names something the other card states. "Use
  pnpm instead of npm" is a preference on its own, and a change against a card saying
  "use npm".

Prose only: code spans, fenced code, URLs and quoted phrases are skipped. Pure functions.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from cardindex.lazy import lazy_pattern
from cardindex.meaning.stem import stem
from cardindex.meaning.words import CALENDAR, words

# Stems of verbs that move a slot from one value to another.
_TRANSITION = frozenset(["switch", "move", "migrat", "chang", "replac", "swap", "convert", "upgrad", "downgrad",
                         "renam", "transit", "drop", "stop", "abandon", "revert", "phase"])
# Stems of verbs whose past form is a state left by a change ("v1 is deprecated").
_RETIREMENT = frozenset(["deprec", "retir", "discontinu", "sunset", "obsolet", "decommiss"])
_NOT_NOW = frozenset(["for", "right", "just", "until", "till", "by", "up"])  # "for now" is temporary, not a change
_PRESENT_PASSIVE = frozenset(["is", "are", "be", "get", "gets", "being"])
_ATTRIBUTIVE = frozenset(["the", "a", "an", "any", "all", "every", "each", "only", "on", "in", "of", "for", "no",
                          "some", "these", "those", "its", "their", "our", "your", "with", "newly", "recently"])
_NEGATION = frozenset(["not", "never", "don't", "doesn't", "isn't", "aren't", "won't", "can't", "cannot", "nobody",
                       "hasn't", "haven't", "wasn't", "weren't", "didn't"])
_SINCE = frozenset(["since", "as-of", "starting", "effective", "beginning"])
_CONTRASTS = (("instead", "of"), ("rather", "than"), ("in", "place", "of"), ("in", "favour", "of"),
              ("in", "favor", "of"), ("from",))
_PAST_IRREGULAR = frozenset(["went", "gone", "became", "become"])
_WORD = lazy_pattern(r"[A-Za-z][A-Za-z0-9'\u2019]*(?:[.][A-Za-z0-9]+)*|\d[\w./:-]*")
_VERSION_OR_DATE = lazy_pattern(r"(?i)^(?:v?\d+(?:\.\d+)+|v\d+|\d{4}(?:-\d{2}){0,2}|q[1-4])$")
_FENCE = lazy_pattern(r"^\s*(```|~~~)")
_NON_PROSE = lazy_pattern(r"`[^`\n]*`|\b(?:https?|ftp|file)://\S+|\"[^\"\n]{1,80}\"|\u201c[^\u201d\n]{1,80}\u201d")
_SENTENCES = lazy_pattern(r"(?<=[.!?;:])\s+|\n+")
MAX_CHARS = 1500  # a change is said near the top; a long reference card's later history is not its value


def _sentences(text: str) -> Iterator[list[str]]:
    """The prose sentences of `text`, each as lower-cased word tokens."""
    fenced = False
    kept = []
    for line in text[:MAX_CHARS].splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(_NON_PROSE.sub(" ", line))
    for sentence in _SENTENCES.split("\n".join(kept)):
        tokens = [t.lower().replace("\u2019", "'") for t in _WORD.findall(sentence)]
        if tokens:
            yield _joined(tokens)


def _joined(tokens: list[str]) -> list[str]:
    """"as of" is one token, so "as of 2026" reads like "since 2026"."""
    out: list[str] = []
    for token in tokens:
        if token == "of" and out and out[-1] == "as":
            out[-1] = "as-of"
        else:
            out.append(token)
    return out


def _past(token: str) -> bool:
    return token.endswith("ed") or token in _PAST_IRREGULAR


def _strong(tokens: Sequence[str]) -> str | None:
    """A signal that says "this changed" by itself, or None."""
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token == "now" and before not in _NOT_NOW:
            return "now"
        if token == "nowadays" or (token == "these" and after == "days"):
            return token if token == "nowadays" else "these days"
        if token == "longer" and before == "no":
            return "no longer"
        if token == "anymore" or (token in ("longer", "more") and before == "any"
                                   and _NEGATION.intersection(tokens[max(0, i - 6):i])):
            return "anymore" if token == "anymore" else f"any {token}"
        if token == "used" and after == "to" and before not in _PRESENT_PASSIVE | {"was", "were", "been", "get"}:
            return "used to"
        if token in ("previously", "formerly"):
            return token
        if token in _SINCE and (after in CALENDAR or _VERSION_OR_DATE.match(after) is not None):
            return f"{token.replace('-', ' ')} {after}"
        if _past(token) and token.isalpha():
            root = stem(token)
            if root in _RETIREMENT:
                return token
            negated = _NEGATION.intersection(tokens[max(0, i - 3):i])
            if root in _TRANSITION and before not in _PRESENT_PASSIVE | _ATTRIBUTIVE and not negated:
                if root == "phase" and after != "out":
                    continue
                if i == 0 and not {"to", "from", "with", "over", "off"}.intersection(tokens[1:8]):
                    continue  # "Changed files are linted": a participle, not a change
                return token
    return None


def _contrast(tokens: Sequence[str], old: frozenset[str]) -> str | None:
    """"instead of X", "rather than X", "from X to Y", when X names something of `old`."""
    for i in range(len(tokens)):
        for phrase in _CONTRASTS:
            end = i + len(phrase)
            if tuple(tokens[i:end]) != phrase:
                continue
            named = _object(tokens[end:end + 4])
            if phrase == ("from",) and "to" not in tokens[end + 1:end + 5]:
                continue  # "from X to Y" only: "Data from the export" says nothing of a change
            if old.intersection(words(" ".join(named)).tokens):
                return " ".join(phrase)
    return None


_OBJECT_ENDS = frozenset(["at", "on", "in", "for", "to", "with", "by", "from", "when", "because", "and", "or", "since"])


def _object(tokens: Sequence[str]) -> list[str]:
    """The words a contrast names: up to the first preposition or conjunction after one word."""
    out: list[str] = []
    for token in tokens:
        if out and token in _OBJECT_ENDS:
            break
        out.append(token)
    return out


def change_signal(text: str, old: str | None = None) -> str | None:
    """The words in `text` that say its value replaced an earlier one, or None.

    `old`: the text of the card it may replace; with it, a contrast that names what
    `old` states ("instead of npm") counts too.
    """
    named = frozenset(words(old).tokens) if old else frozenset()
    for tokens in _sentences(text):
        found = _strong(tokens) or (_contrast(tokens, named) if named else None)
        if found:
            return found
    return None


# "no longer use X", "stopped using X", "moved off X", "dropped X", "X is deprecated",
# "instead of X", "switched from X to Y": the words of a card that name what it retires.
_RETIRING = frozenset(["drop", "retir", "deprec", "replac", "remov", "sunset", "decommiss", "abandon"])
_LEAVING = frozenset(["move", "migrat", "switch", "chang", "transit"])
_COPULA = frozenset(["is", "are", "was", "were", "been", "be", "got", "gets"])
_ARTICLES = frozenset(["the", "a", "an", "our", "their", "its"])


@functools.lru_cache(maxsize=4096)
def retired(text: str) -> frozenset[str]:
    """What `text` says is no longer used, as `words` tokens: "We no longer use Sentry" -> {sentri}.

    The shapes: "no longer [verb] X", "stopped [using] X", "moved/migrated off X" or
    "away from X", "switched/moved from X to Y", "dropped/retired/replaced X", "X is
    deprecated/retired/no longer used", "instead of X", "rather than X". Prose only, the
    first MAX_CHARS; X is one name or a short phrase, up to a preposition.
    """
    named: list[str] = []
    for tokens in _sentences(text):
        n = len(tokens)
        for i, token in enumerate(tokens):
            nxt = tokens[i + 1:i + 5]
            root = stem(token) if token.isalpha() else token
            if token == "longer" and i and tokens[i - 1] == "no":
                rest = list(nxt)
                if rest and rest[0] in ("used", "needed", "supported", "maintained") and i >= 3 \
                        and tokens[i - 2] in _COPULA:
                    named.append(tokens[i - 3])  # "Sentry is no longer used"
                    continue
                if rest and rest[0].isalpha() and stem(rest[0]) not in _ARTICLES:
                    rest = rest[1:]  # the verb: "no longer use X", "no longer run X"
                named += _named(rest)
            elif root == "stop" and _past(token) and nxt:
                rest = nxt[1:] if nxt[0].endswith("ing") else nxt
                named += _named(rest)
            elif root in _LEAVING and _past(token) and nxt:
                if nxt[0] == "off" or (nxt[:2] == ["away", "from"]):
                    named += _named(nxt[1 if nxt[0] == "off" else 2:])
                elif nxt[0] == "from" and "to" in tokens[i + 2:i + 7]:
                    named += _named(nxt[1:])
            elif root in _RETIRING and _past(token):
                if i >= 2 and tokens[i - 1] in _COPULA:
                    # "v1 is deprecated", "Redis was dropped"; not a procedure's present
                    # passive ("files are removed from the cache nightly")
                    if root in _RETIREMENT or tokens[i - 1] in ("was", "were", "been"):
                        named.append(tokens[i - 2])
                elif nxt and (i == 0 or tokens[i - 1] not in _COPULA):
                    named += _named(nxt)
            elif (token, tokens[i + 1] if i + 1 < n else "") in (("instead", "of"), ("rather", "than")):
                named += _named(tokens[i + 2:i + 6])
    return frozenset(words(" ".join(named)).tokens) if named else frozenset()


def _named(tokens: Sequence[str]) -> list[str]:
    """What a retiring phrase names: its object, unless the phrase names nothing in prose (the
    name was code, taken out: "rather than `os.path` in new code" leaves "rather than in")."""
    kept = [t for t in tokens if t not in _ARTICLES]
    if not kept or kept[0] in _OBJECT_ENDS or kept[0].endswith(("ly", "ing")):
        return []  # no name: "instead of manually running the tasks", "rather than waiting"
    return _object(kept)[:2]  # a name is a word or two: "Sentry", "GitHub Actions"

