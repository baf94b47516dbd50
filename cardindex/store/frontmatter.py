"""The text of a card's frontmatter: where it ends, where a field is, and patching fields in place.

A field lives at the top level or, in Claude Code's nested form, one level down under
`metadata:` (a block mapping). Patching changes only the lines of the fields it is
given; every other byte (order, comments, quoting, the body) stays as it was.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from cardindex.lazy import lazy_pattern

NESTED = "metadata"


def frontmatter_span(lines: list[str]) -> int | None:
    """Index of the closing fence line, or None when there is no closed frontmatter."""
    if not lines or not _is_fence(lines[0]):
        return None
    for i in range(1, len(lines)):
        line = lines[i]
        if line[:1] in "-.\ufeff" and (_is_fence(line) or line.rstrip() == "..."):  # most lines start otherwise
            return i
    return None


def _is_fence(line: str) -> bool:
    return line.lstrip("\ufeff").rstrip() == "---"


def field_line(fm_lines: list[str], key: str) -> int | None:
    """File line (1-based) of a top-level field, counting the opening fence as line 1."""
    pattern = re.compile(rf"{re.escape(key)}\s*:")
    for i, line in enumerate(fm_lines):
        if pattern.match(line):
            return i + 2
    return None


def nested_line(fm_lines: list[str], key: str, parent: str = NESTED) -> int:
    """File line of `parent:` → `  key:`, else of `parent:`, else 1."""
    lines = ["---\n", *fm_lines]
    block = nested_block(lines, len(lines), parent)
    if block is None:
        start = field_line(fm_lines, parent)
        return start or 1
    found = _child(lines, block, key)
    return (found[0] if found else block.header) + 1


class Block(NamedTuple):
    """The block mapping under a top-level key: its header line, its children's lines and indent."""

    header: int  # index of the `metadata:` line
    start: int  # first line after the header
    end: int  # one past its last indented line
    indent: str  # the children's indentation ("" when the block has no children yet)


def nested_block(lines: list[str], close: int, parent: str = NESTED) -> Block | None:
    """Where the block mapping `parent:` is (lines[0] is the opening fence), or None.

    None also when `parent:` holds a value on its own line (a flow mapping `{...}`):
    such a mapping cannot be patched line by line.
    """
    header = _top_line(lines, close, parent)
    if header is None:
        return None
    rest = lines[header].rstrip("\r\n").split(":", 1)[1].strip()
    if rest and not rest.startswith("#"):
        return None
    end = header + 1
    last = end
    indent = ""
    while end < close:
        line = lines[end].rstrip("\r\n")
        stripped = line.strip()
        if stripped and line[0] not in " \t":
            if line.startswith("#"):
                end += 1
                continue
            break
        end += 1
        if stripped:
            last = end
            if not indent and not stripped.startswith("#"):
                indent = line[: len(line) - len(line.lstrip())]
    return Block(header, header + 1, last, indent)


def _top_line(lines: list[str], close: int, key: str) -> int | None:
    pattern = re.compile(rf"{re.escape(key)}[ \t]*:(?:[ \t]|$)")
    for i in range(1, close):
        if pattern.match(lines[i].rstrip("\r\n")):
            return i
    return None


def _child(lines: list[str], block: Block, key: str) -> tuple[int, int] | None:
    """The lines [start, end) of `key:` directly under the block, or None."""
    if not block.indent:
        return None
    pattern = re.compile(rf"{re.escape(block.indent)}{re.escape(key)}[ \t]*:(?:[ \t]|$)")
    width = len(block.indent)
    for i in range(block.start, block.end):
        if not pattern.match(lines[i].rstrip("\r\n")):
            continue
        end = i + 1
        last = end
        while end < block.end:
            line = lines[end].rstrip("\r\n")
            body = line.lstrip(" \t")
            depth = len(line) - len(body)
            if not body:
                end += 1
                continue
            if depth > width or (depth == width and (body == "-" or body.startswith("- "))):
                end += 1
                last = end
                continue
            break
        return i, last
    return None


def _top_extent(lines: list[str], close: int, key: str, removing: bool) -> tuple[int, int] | None:
    i = _top_line(lines, close, key)
    if i is None:
        return None
    # Whitespace-only lines after a removed field would join the field above it
    # if that one ends in a block scalar (`|`, `>`): they go with it.
    above = next((line for line in reversed(lines[1:i]) if line.strip()), "")
    removing = removing and above[:1] in (" ", "\t") and _in_block_scalar(lines, i)
    end = i + 1
    last = end
    while end < close:
        line = lines[end].rstrip("\r\n")
        if not line.strip():
            end += 1
            if line and removing:
                last = end
            continue
        if line[0] in " \t" or line == "-" or line.startswith("- "):
            end += 1
            last = end
            continue
        break
    return i, last


_BLOCK_SCALAR = lazy_pattern(r"(?:^|:|-)[ \t]*[|>][-+1-9]{0,2}[ \t]*(?:#.*)?$")


def _in_block_scalar(lines: list[str], i: int) -> bool:
    """Whether the top-level field above line i holds a block scalar (`key: |`, `- >`, ...)."""
    for j in range(i - 1, 0, -1):
        line = lines[j].rstrip("\r\n")
        if _BLOCK_SCALAR.search(line):
            return True
        if line[:1] not in ("", " ", "\t", "#"):
            return False
    return False


def patch_fields(text: str, updates: Mapping[str, Any], *, nestable: frozenset[str], home_nested: bool) -> str:
    """Rewrite the lines of `updates` wherever each field lives; keep every other byte.

    A field in `nestable` is patched at the top level and under `metadata:`, wherever it
    is; a new one goes under `metadata:` when `home_nested`, else last before the closing
    fence. None removes a field from both places. The result ends with a newline.
    """
    lines = text.splitlines(keepends=True)
    close = frontmatter_span(lines)
    if close is None:
        raise ValueError("no closed frontmatter")
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    for key, value in updates.items():
        places: list[tuple[int, int, str]] = []
        top = _top_extent(lines, close, key, value is None)
        if top is not None:
            places.append((*top, ""))
        block = nested_block(lines, close) if key in nestable else None
        if block is not None:
            child = _child(lines, block, key)
            if child is not None:
                places.append((*child, block.indent))
        if not places:
            if value is None:
                continue
            if home_nested and block is not None and block.indent:
                at, indent = block.end, block.indent
            else:
                at, indent = close, ""
            lines[at:at] = [f"{indent}{key}: {yaml_value(value)}{newline}"]
            close += 1
            continue
        for start, end, indent in sorted(places, reverse=True):  # bottom first: earlier indices stay valid
            new = [] if value is None else [f"{indent}{key}: {yaml_value(value)}{newline}"]
            lines[start:end] = new
            close += len(new) - (end - start)
    out = "".join(lines)
    if not out.endswith("\n"):
        out += newline
    return out


# --------------------------------------------------------------------------- values


def quote(text: str) -> str:
    """A YAML double-quoted scalar for `text` (JSON's escapes are YAML's too).

    Characters that are not printable, including the ones YAML reads as line breaks
    (NEL, LS, PS), are escaped, so the value stays on its line.
    """
    quoted = json.dumps(text, ensure_ascii=False)
    if quoted.isprintable():
        return quoted
    return "".join(c if c.isprintable() else _escape(c) for c in quoted)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


_DATE = lazy_pattern(r"\d{4}-\d\d-\d\d")
WORDS: dict[str, Any] = {
    **dict.fromkeys(("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
    **dict.fromkeys(("null", "Null", "NULL", "~"), None),
}
_RESOLVED_START = "-+.0123456789<=~"
_INDICATOR_START = "[]{}'\"&*!|>%@`#,?:-"
NO = object()  # "not a plain value the fast path can read": YAML decides


def plain(value: str) -> Any:
    """What YAML reads the plain scalar `value` as, or NO when only YAML can tell."""
    if value[0] in _INDICATOR_START or " #" in value or ": " in value or value[-1] == ":" or not value.isprintable():
        return NO
    if value[0] in _RESOLVED_START:
        if _DATE.fullmatch(value):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                return NO
        return NO
    if value in WORDS:
        return WORDS[value]
    return value


def yaml_value(value: Any, *, flow: bool = False) -> str:
    """Serialize one field value the way a person would write it, and YAML reads it back."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value)
        if "e" in text and "." not in text:  # YAML 1.1 floats need a dot: 1.0e+16
            text = text.replace("e", ".0e", 1)
        return text
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_value(v, flow=True) for v in value) + "]"
    if isinstance(value, str):
        plain_ok = value == value.strip() and value and plain(value) is value
        if plain_ok and flow and any(c in value for c in ",[]{}"):
            plain_ok = False
        return value if plain_ok else quote(value)
    raise TypeError(f"cannot write {type(value).__name__} to a card")
