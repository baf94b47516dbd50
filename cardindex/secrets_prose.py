"""Credentials people write in prose: `admin / Tr0ub4dor&3`, "the fixed pw `Lak3side#9`".

`secrets` finds machine formats (known prefixes, `password=…` assignments, URLs with a
password, random tokens). A person noting a login writes neither: a user and a password
joined by a slash ("login: ops / Kestrel-42!"), or a password word followed a few words
later by the value in backticks or quotes ("the seeded users share the pw `Fjord!2024`"),
or further on in its sentence when the value is strong (upper, lower, digit and special
character: "keeps the SA password; the healthcheck reads `Db_Local#2026`").
This module finds those two shapes, and only where the value has the shape of a
password someone chose: letters and digits, and a special character or both cases, no
spaces, not a path, version, date, hash, environment variable name or placeholder.

A slash pair needs a credential word near it (on its line or one of the two lines above:
a "Test credentials" heading), unless the value is strong enough to be nothing else
(upper, lower, digit and special character, eight or more). Policies ("rotate the
password every 90 days", "at least 12 characters") hold no value of that shape, so they
stay clean. Standard library only: `secrets` calls it, and every output path imports that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cardindex.lazy import lazy_pattern

# Words that say a credential is being given. "pass" alone is left out: "tests pass".
_CUE = lazy_pattern(
    r"(?<![\w-])(?:passwords?|passwd|passphrases?|passcodes?|pw|pwd|credentials?|creds|logins?|log-?in|sign-?in|"
    r"auth|authentication|account|user ?name|username)(?![\w-])",
    re.IGNORECASE,
)
# A password word as a word of its own (`UPDATE_PASSWORD`, `password_hash` are names).
_KEYWORD = lazy_pattern(r"(?<![\w-])(?:passwords?|passwd|passphrases?|passcodes?|pw|pwd)(?![\w-])", re.IGNORECASE)
# After the keyword: up to four short words, then the value quoted or in backticks.
_QUOTED_AFTER = lazy_pattern(r"(?:[ \t]+[\w()/.-]{1,20}){0,4}?[ \t]*(?:[:=(]|\bis\b|\bto\b)?[ \t]*[`\"'](?P<value>[^`\"'\s]{6,64})[`\"']")
# Any quoted or backticked word, and where the sentence of a password word ends (a full stop
# and a space, or a line break): "the SA password … (`deploy/.env` = `Acmp_Local#2026`)".
_QUOTED = lazy_pattern(r"[`\"'](?P<value>[^`\"'\s]{8,64})[`\"']")
_SENTENCE_END = lazy_pattern(r"[.!?](?:\s|$)|\n")
_REACH = 400  # characters after the password word that its sentence is read for
# `user / password`: a user name or e-mail address, a slash, the password; the pair starts
# a word (never inside a base64 run or a path).
_PAIR = lazy_pattern(
    r"(?<![^\s(\[*:|\"'>])(?P<user>[A-Za-z][\w.-]{0,31}(?:@[\w-]+(?:\.[\w-]+)+)?)[ \t]?/[ \t]?"
    r"(?P<value>[A-Za-z0-9!@#$%^&*?~+=._-]{6,64})(?![\w/+=])"
)
_TRAILING = ".,;:'\"`*"
_SPECIAL = lazy_pattern(r"[!@#$%^&*?~+=]")
# What a password-shaped word still is not.
_NOT_PASSWORD = lazy_pattern(
    r"^v?\d+(?:\.\d+)+"  # a version
    r"|^(?:19|20)\d\d[-./]?\d\d"  # a date
    r"|^[0-9a-f]{7,64}$"  # a hash
    r"|^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$"  # an environment variable's name
    r"|\.[a-z]{1,5}(?:[#?:].*)?$"  # a file name, with an anchor or a line
    r"|^[a-z][\w.-]*@v?\d[\w.]*$"  # a package or action at a version: `login@v2`
    r"|^[\w-]+\([^)]*\)?$"  # a call
    r"|^\d+[a-z]{0,3}[+]?$",  # a number with a unit: 12+, 90d
    re.IGNORECASE,
)
_PLACEHOLDER = lazy_pattern(
    r"x{3,}|\*{3,}|\.{3}|…|<|>|\$\{|\{\{|\$[A-Z_]{3,}|changeme|change[-_]?me|example|placeholder|dummy|"
    r"your\w{0,20}(?:password|pass|pwd|secret|token|key)|redacted|hunter2|password123|letmein|qwerty|12345",
    re.IGNORECASE,
)


def password_shaped(value: str, strong: bool = False) -> bool:
    """Whether `value` reads as a password someone chose; `strong`: upper, lower, digit and special, 8+."""
    if not (6 <= len(value) <= 64) or _NOT_PASSWORD.search(value) or _PLACEHOLDER.search(value):
        return False
    if len(set(value)) <= 3 or not re.search(r"[A-Za-z]", value) or not re.search(r"\d", value):
        return False
    upper, lower, special = re.search(r"[A-Z]", value), re.search(r"[a-z]", value), _SPECIAL.search(value)
    if strong:
        return len(value) >= 8 and bool(upper and lower and special)
    return bool(special or (upper and lower))


def _name_like(user: str) -> bool:
    """A user name or an address, not a piece of a random token: short, or mostly one case."""
    if "@" in user or len(user) <= 12:
        return True
    return not (re.search(r"[A-Z]", user) and re.search(r"[a-z]", user) and re.search(r"\d", user))


def _cued(text: str, at: int) -> bool:
    """A credential word on the line of `at` or on one of the two lines above it."""
    start = text.rfind("\n", 0, at) + 1
    for _ in range(2):
        if start == 0:
            break
        start = text.rfind("\n", 0, start - 1) + 1
    end = text.find("\n", at)
    return _CUE.search(text, start, len(text) if end < 0 else end) is not None


def prose_credentials(text: str) -> Iterator[tuple[int, int]]:
    """The spans of passwords written in prose in `text` (see the module's docstring)."""
    lowered = text.lower()
    if "/" in text and _SPECIAL.search(text):  # every pair's value has a special character
        for m in _PAIR.finditer(text):
            value = m.group("value").rstrip(_TRAILING)
            if (not value or text.startswith("/", m.end("value")) or not _name_like(m.group("user"))
                    or text.startswith("](", m.start() - 2)):  # a path, a link target, a slash inside a token
                continue
            if password_shaped(value, strong=True) or (
                    password_shaped(value) and _SPECIAL.search(value) and _cued(text, m.start())):
                yield m.start("value"), m.start("value") + len(value)
    if "p" in lowered and any(w in lowered for w in ("pass", "pw")):
        for k in _KEYWORD.finditer(text):
            q = _QUOTED_AFTER.match(text, k.end())
            if q and password_shaped(q.group("value")):
                yield q.start("value"), q.end("value")
            else:  # further on in the sentence: only a value that can be nothing but a password
                stop = min(len(text), k.end() + _REACH)  # bounded: many password words stay linear
                end = _SENTENCE_END.search(text, k.end(), stop)
                for q in _QUOTED.finditer(text, k.end(), end.start() if end else stop):
                    if password_shaped(q.group("value"), strong=True):
                        yield q.start("value"), q.end("value")
                        break
