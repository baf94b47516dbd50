"""Reading the common shape of frontmatter without YAML, or declining so YAML decides.

Most frontmatter is a handful of `key: scalar` lines, `key: [a, b]` flow lists, a
`metadata:` block of the same (Claude Code's nested form) and `key:` followed by
`- item` lines. `fast_fields` reads exactly that subset and returns what
`yaml.safe_load` returns for it: the same keys in the same order, the same values of
the same types (str, int, bool, None, date, datetime, list, dict). For anything else
(quotes with escapes, block scalars, anchors, tags, floats, multi-line values, odd
indentation, tabs, repeated keys, an unquoted `: ` inside a value) it returns None,
and the YAML path reads the card, reporting repeated keys and leniently read colons as
it always has. tests/test_fastparse_equivalence.py holds the two paths to that.
"""

from __future__ import annotations

import datetime as dt
import re
from sys import intern
from typing import Any

from cardindex.lazy import lazy_pattern
from cardindex.store.frontmatter import NO, WORDS, plain

_KEY_LINE = lazy_pattern(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*?))? *")
_CHILD_LINE = lazy_pattern(r"( +)([A-Za-z_][A-Za-z0-9_-]*): +(.*?) *")
_ITEM_LINE = lazy_pattern(r"( *)- +(.*?) *")

# What YAML 1.1 (PyYAML's resolver) reads as a number or a time when a plain scalar
# starts with a digit; anything else that starts with one (a version, a UUID) is text.
_RESOLVED_NUMBER = lazy_pattern(
    r"""[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?0b[0-1_]+
    |[-+]?0[0-7_]+
    |[-+]?(?:0|[1-9][0-9_]*)
    |[-+]?0x[0-9a-fA-F_]+
    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
    |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
     (?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
     (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?""",
    re.VERBOSE,
)
_INT = lazy_pattern(r"0|[1-9][0-9]*")
_DATE = lazy_pattern(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_STAMP = lazy_pattern(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z?)")
_DIGITS = "0123456789"
_NESTED_OR_QUOTED = lazy_pattern(r"[\[\]{}'\"]")  # in a flow list: YAML decides
_KEY = lazy_pattern(r"[A-Za-z_][A-Za-z0-9_-]*")
_KEYS: dict[str, bool] = {}  # field name -> whether it is one `_KEY_LINE` reads (most cards use the same few)


def fast_fields(fm_lines: list[str]) -> dict[str, Any] | None:
    """The fields YAML would read from `fm_lines`, or None when only YAML can tell."""
    text = "".join(fm_lines)
    if not text.replace("\n", "").replace("\r", "").isprintable():  # tabs, control characters, odd spaces: YAML decides
        return None
    flat = _flat(text)
    if flat is not None:
        return flat or None
    lines = text.splitlines()  # only \n and \r are left to split on
    out: dict[str, Any] = {}
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if not line or line[0] == "#" or (line[0] == " " and _skipped(line)):
            continue
        m = _KEY_LINE.fullmatch(line)
        if m is None:
            return None
        key, value = m.groups()
        key = intern(key)  # one string per field name, not one per card: 100k cards hold the same few
        if key in WORDS or key in out:  # a repeated key: YAML reads it, and it is reported
            return None
        if value:
            result = value_of(value)
            if result is NO:
                return None
            out[key] = result
            continue
        block_lines = []
        while i < n:  # the block: indented lines, `- ` lines, and the blanks and comments among them
            line = lines[i]
            if not line or line[0] == "#":
                pass
            elif line[0] == " ":
                if not _skipped(line):
                    block_lines.append(line)
            elif line == "-" or line.startswith("- "):
                block_lines.append(line)
            else:
                break
            i += 1
        block = _block(block_lines)
        if block is NO:
            return None
        out[key] = block
    return out or None  # nothing but comments: YAML says None, and load_fields reports it


def _flat(text: str) -> dict[str, Any] | None:
    """`fast_fields` of frontmatter in the flat shape (nothing but `key: value` lines: no blank, comment,
    indented or `- ` line, no `\r`), read with string methods instead of a regular expression per line
    (most cards); None when `text` is not in that shape, and the line-by-line loop reads it.

    Answers what that loop answers: the same keys, `value_of` of the same values, and {}
    where the loop declines (a repeated key, a value only YAML can read)."""
    if "\r" in text:
        return None
    lines = text.split("\n")
    if lines[-1]:
        return None  # no final newline: the loop reads it
    out: dict[str, Any] = {}
    keys = _KEYS
    for line in lines[:-1]:
        key, _, value = line.partition(": ")
        ok = keys.get(key)
        if ok is None:
            ok = bool(_KEY.fullmatch(key))
            if len(keys) < 10_000:
                keys[key] = ok
        if not ok:
            return None
        value = value.strip(" ")
        if not value:
            return None  # `key:` and a block below it: the loop reads that
        key = intern(key)
        if key in WORDS or key in out:
            return {}
        result = value_of(value)
        if result is NO:
            return {}
        out[key] = result
    return out


def _skipped(line: str) -> bool:
    stripped = line.lstrip(" ")
    return not stripped or stripped[0] == "#"


def _block(lines: list[str]) -> Any:
    """The value of `key:` whose indented (or `- `) lines are `lines`; None for no lines."""
    if not lines:
        return None
    first = lines[0]
    indent = first[: len(first) - len(first.lstrip(" "))]
    if first[len(indent) :].startswith("- ") or first[len(indent) :] == "-":
        items = []
        for line in lines:
            m = _ITEM_LINE.fullmatch(line)
            if m is None or m.group(1) != indent:
                return NO
            item = m.group(2)
            if not item or item[0] in "[{":
                return NO
            value = value_of(item)
            if value is NO:
                return NO
            items.append(value)
        return items
    if not indent:
        return NO
    children: dict[str, Any] = {}
    for line in lines:
        m = _CHILD_LINE.fullmatch(line)
        if m is None or m.group(1) != indent:
            return NO
        _, key, text = m.groups()
        key = intern(key)
        if not text or key in WORDS or key in children:
            return NO
        value = value_of(text)
        if value is NO:
            return NO
        children[key] = value
    return children


def value_of(value: str) -> Any:
    """What YAML reads the one-line value `value` (stripped, not empty) as, or NO."""
    first = value[0]
    if first == '"':
        inner = value[1:-1]
        if len(value) < 2 or value[-1] != '"' or "\\" in inner or '"' in inner:
            return NO
        return inner
    if first == "'":
        inner = value[1:-1]
        if len(value) < 2 or value[-1] != "'" or "'" in inner:
            return NO
        return inner
    if first == "[":
        if value[-1] != "]":
            return NO
        inner = value[1:-1].strip()
        if not inner:
            return []
        if _NESTED_OR_QUOTED.search(inner):
            return NO
        items = [item.strip() for item in inner.split(",")]
        for item in items:
            if not item or value_of(item) is not item:
                return NO
        return items
    if first in _DIGITS:
        return _from_digit(value)
    return plain(value)


def _from_digit(value: str) -> Any:
    """A plain scalar starting with a digit: a decimal int, a date, a UTC or naive time, or text."""
    if " #" in value or ": " in value or value[-1] == ":":
        return NO
    if len(value) == 10 and _DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:  # 2026-02-30: YAML refuses it, and says so
            return NO
    if not _RESOLVED_NUMBER.fullmatch(value):
        return value
    if _INT.fullmatch(value):
        return int(value)
    m = _STAMP.fullmatch(value)
    if m is None:
        return NO
    year, month, day, hour, minute, second, fraction, zone = m.groups()
    micro = int((fraction or "0")[:6].ljust(6, "0"))
    try:
        return dt.datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), micro,
                           tzinfo=dt.timezone.utc if zone else None)
    except ValueError:
        return NO
