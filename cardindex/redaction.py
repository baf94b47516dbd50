"""Secrets and control characters: where they are in a text, and the one redaction.

Everything that prints, serves or writes card text somewhere other than the card file
itself (INDEX.md, context, search, show, list, status, the journal and its output,
finding messages, errors, the lock file, every MCP tool and resource) passes it through
`shown()` first. The secret lint rules (K1xx) report what `find_secrets` finds, so what
the linter flags and what every output hides are the same thing by construction.

Detection is deterministic: known token formats, private key blocks, and a keyword
assigned a random-looking value, with detect-secrets' filters for placeholders,
templates, UUIDs and repeated characters. A line carrying (or following) an
allow comment (`cards: allow-secret`, `pragma: allowlist secret`) holds a deliberate
example and is neither flagged nor redacted.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import NamedTuple

REDACTED = "[redacted]"

_ALLOW = re.compile(r"cards:\s*allow-secret|pragma:\s*allowlist secret", re.IGNORECASE)
_PLACEHOLDER = re.compile(
    r"x{4,}|X{4,}|\*{3,}|\.{3}|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\$[A-Z_]{3,}|%\([a-z_]+\)s|"
    r"(?i:example|dummy|placeholder|changeme|your[-_]?(?:key|token|secret|password)|redacted|fake|sample)"
)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)

FAMILIES: dict[str, re.Pattern[str]] = {
    "aws": re.compile(r"\b((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16})\b"),
    "github": re.compile(r"\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    "slack": re.compile(r"\b(xox[abposr]-[A-Za-z0-9-]{10,})\b"),
    "slack webhook": re.compile(r"hooks\.slack\.com/services/(T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,})"),
    "stripe webhook": re.compile(r"\b(whsec_[A-Za-z0-9]{20,})\b"),
    "stripe": re.compile(r"\b((?:sk|rk)_live_[A-Za-z0-9]{16,})\b"),
    "url": re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s@/]{3,})@[^\s]+", re.IGNORECASE),
}
_KEY_BLOCK = re.compile(r"-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----")
_KEY_END = re.compile(r"-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----")
_ASSIGNMENT = re.compile(
    r"(?i)(?<![a-z])(?:password|passwd|pwd|secret|token|api[-_ ]?key|apikey|access[-_ ]?key|private[-_ ]?key|"
    r"client[-_ ]?secret|auth[-_ ]?token|credentials?)\b[\"']?\s*(?:[:=]|=>|\bis\b)\s*[\"'`]?([^\s\"'`,;]{8,})"
)

# Cheap substring checks first: most texts hold nothing that could be a secret.
_ANCHORS = (
    "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "apka", "ghp_", "gho_",
    "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "k_live_", "whsec_", "hooks.slack", "private key", "password",
    "passwd", "pwd", "secret", "token", "apikey", "api_key", "api-key", "api key", "access_key", "access-key",
    "access key", "credential", "@",
)


class Secret(NamedTuple):
    """One secret in a text: where it is (offsets into the text, 1-based line) and what kind."""

    line: int
    start: int
    end: int
    kind: str  # "aws credential", "rsa private key block", "secret value", ...

    def label(self, text: str) -> str:
        """How a finding names it: the kind and a redacted form, never the value."""
        return f"{self.kind} {hint(text[self.start:self.end])}"


def hint(value: str) -> str:
    """Enough to find a value in the file, never enough to use it."""
    return f"{value[:4]}…({len(value)} chars, redacted)"


def entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _plausible(value: str) -> bool:
    """Filter placeholders, templates, UUIDs and repeated characters out."""
    return not (_PLACEHOLDER.search(value) or _UUID.match(value) or len(set(value)) <= 3)


@functools.lru_cache(maxsize=256)
def find_secrets(text: str) -> tuple[Secret, ...]:
    """Every secret in `text`, in order; lines with an allow comment (or after one) are skipped."""
    lowered = text.lower()
    if not any(anchor in lowered for anchor in _ANCHORS):
        return ()
    out: list[Secret] = []
    offset = 0
    previous = ""
    in_key: tuple[int, int, str] | None = None  # an open private key block: its line, start offset, kind
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        allowed = bool(_ALLOW.search(line) or _ALLOW.search(previous))
        previous = line
        start, offset = offset, offset + len(line)
        if in_key is not None:
            closing = _KEY_END.search(line)
            if closing:
                out.append(Secret(in_key[0], in_key[1], start + closing.end(), in_key[2]))
                in_key = None
            continue
        if allowed:
            continue
        block = _KEY_BLOCK.search(line)
        if block:
            end = _KEY_END.search(line, block.end())
            if end:
                out.append(Secret(number, start + block.start(), start + end.end(), f"{block.group(1).lower()} block"))
            else:
                in_key = (number, start + block.start(), f"{block.group(1).lower()} block")
            continue
        known = False
        for family, pattern in FAMILIES.items():
            for m in pattern.finditer(line):
                if _plausible(m.group(1)):
                    out.append(Secret(number, start + m.start(1), start + m.end(1), f"{family} credential"))
                    known = True
        if known:
            continue
        for m in _ASSIGNMENT.finditer(line):
            value = m.group(1)
            mixed = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
            if _plausible(value) and ((entropy(value) >= 3.0 and mixed >= 2) or entropy(value) >= 3.5):
                out.append(Secret(number, start + m.start(1), start + m.end(1), "secret value"))
    if in_key is not None:  # never closed: everything after the header is the key
        out.append(Secret(in_key[0], in_key[1], len(text), in_key[2]))
    return tuple(out)


def has_secret(text: str) -> bool:
    return bool(find_secrets(text))


def redact(text: str) -> str:
    """`text` with every secret replaced by `[redacted]`."""
    found = find_secrets(text)
    if not found:
        return text
    parts = []
    pos = 0
    for secret in sorted(found, key=lambda s: s.start):
        if secret.start < pos:
            continue  # overlapping spans: the first covers it
        parts += [text[pos:secret.start], REDACTED]
        pos = secret.end
    parts.append(text[pos:])
    return "".join(parts)


# C0 controls but tab and newline, DEL, C1 controls, and the line/paragraph separators
# that YAML and some terminals read as line breaks.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


def printable(text: str) -> str:
    """`text` with control characters (but tab and newline) shown as escapes: `\\x1b`, never raw."""
    if not has_control(text):
        return text
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) <= 0xFF else f"\\u{ord(m.group()):04x}", text)


def shown(text: str) -> str:
    """What may leave the tool of a card's text: secrets redacted, control characters escaped."""
    return printable(redact(text))


# ----------------------------------------------------------------------------- helpers over `shown`

# A word as messages quote it: what `similarity` keeps of a token (letters, digits and
# the punctuation inside one), so a quoted value is replaced whole.
_QUOTED_WORD = re.compile(r"[A-Za-z0-9@._+/:=~-]+")
MIN_QUOTED = 5  # shorter fragments of a secret say nothing usable, and ordinary words are that short


def secret_values(*texts: str) -> tuple[str, ...]:
    """The secrets in `texts`, case-folded: for `redact_words`. A private key block gives its key lines."""
    values: list[str] = []
    for text in texts:
        for secret in find_secrets(text):
            value = text[secret.start:secret.end]
            if any(ch.isspace() for ch in value):  # a key block: its key lines, not BEGIN RSA PRIVATE KEY
                values += [p.casefold() for p in value.split() if len(p) >= 8 and not p.strip("-").isalpha()]
            else:
                values.append(value.casefold())
    return tuple(values)


def redact_words(text: str, *sources: str) -> str:
    """`text` with every word that is part of a secret of `sources` replaced by `[redacted]`, in any case.

    For messages that quote card words after normalizing them (case-folded, stemmed):
    `redact` no longer recognizes `akia…` as an AWS key once it is lowercased, but the
    card it came from still holds the key as written.
    """
    values = secret_values(*sources)
    if not values:
        return text

    def replace(m: re.Match[str]) -> str:
        word = m.group().casefold()
        if len(word) >= MIN_QUOTED and any(word in v or v in word for v in values):
            return REDACTED
        return m.group()

    return _QUOTED_WORD.sub(replace, text)


@functools.lru_cache(maxsize=1024)
def _assigning(key: str) -> bool:
    """Whether `key: VALUE` reads as a secret assignment (`password`, `api_key`): then its value is one."""
    return has_secret(f"{key}: Zq8xK2mW9pLr7TbVn4Hs")


def shown_data(value: object) -> object:
    """`shown` over every string of a JSON-like value: what JSON output and MCP results carry.

    Only strings change, so the result dumps to valid JSON (values redacted, never the
    JSON escaped). A string under a key is redacted as the line `key: value` too, so a
    field `password: …` loses its value although the value alone looks like nothing.
    """
    return _shown_data(value, {})


def _shown_data(value: object, done: dict[str, str]) -> object:
    if isinstance(value, str):
        out = done.get(value)
        if out is None:  # listings repeat their types, statuses, scopes and dates
            out = done[value] = shown(value)
        return out
    if isinstance(value, dict) and _clean(value):
        return value  # one scan of a listing's row instead of one for each of its strings
    if isinstance(value, dict):
        fields: dict[object, object] = {}
        for key, item in value.items():
            if isinstance(key, str) and isinstance(item, str) and item and _assigning(key):
                line = redact(f"{key}: {item}")
                item = line[len(key) + 2:] if line.startswith(f"{key}: ") else REDACTED
            fields[_shown_data(key, done)] = _shown_data(item, done)
        return fields
    if isinstance(value, (list, tuple)):
        return [_shown_data(item, done) for item in value]
    return value


def _clean(value: object) -> bool:
    """Whether no string of `value` (and no `key: value` line of it) holds a secret or a control character.

    The strings are scanned as one text, each after a blank line, so no allow comment
    reaches from one to the next: a secret alone in any of them is a secret in the whole.
    """
    leaves: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            leaves.append(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                if isinstance(inner, str):
                    leaves.append(f"{key}: {inner}")  # holds the value whole, and reads as an assignment
                else:
                    leaves.append(str(key))
                    if isinstance(inner, (dict, list, tuple)):
                        stack.append(inner)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    text = "\n\n".join(leaves)
    return not has_control(text) and not has_secret(text)
