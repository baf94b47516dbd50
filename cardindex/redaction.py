"""The one redaction: what every output shows of a text that may hold a secret or control characters.

Everything that prints, serves or writes card text somewhere other than the card file
itself (INDEX.md, context, search, show, list, status, the journal and its output,
finding messages, errors, the lock file, every MCP tool and resource) passes it through
`shown()` first. What is a secret is `secrets.find_secrets`, which the secret lint rules
(K1xx) report too, so what the linter flags and what every output hides are the same
thing by construction. Standard library only: every output path imports this module.
"""

from __future__ import annotations

import functools
import re

from cardindex.lazy import lazy_pattern
from cardindex.secrets import allow_comment, find_secrets, has_secret

REDACTED = "[redacted]"


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
_CONTROL = lazy_pattern("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


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


# A word as messages quote it: what `similarity` keeps of a token (letters, digits and
# the punctuation inside one), so a quoted value is replaced whole.
_QUOTED_WORD = lazy_pattern(r"[A-Za-z0-9@._+/:=~-]+")


MIN_QUOTED = 5  # shorter fragments of a secret say nothing usable, and ordinary words are that short
MIN_FRAGMENT = 8  # a word found inside a secret is only a piece of it from this length: `secret` inside `WebhookSecret…` is a word


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
        if len(word) >= MIN_QUOTED and any(v in word or (len(word) >= MIN_FRAGMENT and word in v) for v in values):
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
    if "-----BEGIN" in text or allow_comment(text):
        return False  # a key block or an allow comment in one string could reach into the next: scan each
    return not has_control(text) and not has_secret(text)
