"""Control characters in a card: the one structure problem they make, and a readable copy for YAML.

A control character (other than tab and newline; `redaction.has_control`) in a field or
the body can rewrite a terminal (an escape sequence), hide text, or make git treat a file
as binary. Wherever it is, raw in the text or written as a YAML escape (`"\\e"`), the card
gets one `control` problem on the first line that holds one; such a card is never
rewritten until it is fixed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cardindex.redaction import has_control, printable
from cardindex.store.fields import Problem, line_of, nested

_NAMES = {0x07: "BEL", 0x08: "backspace", 0x0B: "vertical tab", 0x0C: "form feed", 0x0D: "carriage return",
          0x1B: "ESC", 0x7F: "DEL", 0x85: "NEL", 0x2028: "line separator", 0x2029: "paragraph separator"}
_ADVICE = "it can rewrite a terminal or hide text; delete it (cards will not rewrite this card until then)"


def label(char: str) -> str:
    name = _NAMES.get(ord(char))
    return f"{printable(char)} ({name})" if name else printable(char)


def _split_ending(line: str) -> tuple[str, str]:
    for ending in ("\r\n", "\n"):
        if line.endswith(ending):
            return line[: -len(ending)], ending
    return line, ""


def readable(fm_lines: list[str]) -> list[str]:
    """The frontmatter lines with raw control characters written as escapes, so YAML can read the rest."""
    out = fm_lines
    for i, line in enumerate(fm_lines):
        content, ending = _split_ending(line)
        if has_control(content):
            if out is fm_lines:
                out = list(fm_lines)
            out[i] = printable(content) + ending
    return out


def has_raw_control(text: str) -> bool:
    """Whether the text holds a control character itself (CRLF line endings are not one)."""
    return has_control(text) and has_control(text.replace("\r\n", "\n"))


def control_problem(text: str, meta: Mapping[str, Any] | None, fm_lines: list[str], *, raw: bool) -> list[Problem]:
    """One problem for the first control character in the card (raw, or in a field's value), else none."""
    if raw:
        found: list[tuple[int, str]] = []
        for number, line in enumerate(text.split("\n"), 1):
            content = line.removesuffix("\r")
            if has_control(content):
                found.append((number, next(c for c in content if has_control(c))))
        if found:
            (first, char), more = found[0], len(found) - 1
            also = f" (and on {more} more line{'s' if more > 1 else ''})" if more else ""
            return [Problem(first, f"control character {label(char)} in the card{also}: {_ADVICE}", kind="control")]
    if meta is None or not any("\\" in line for line in fm_lines):
        return []  # without a backslash no YAML escape can have written one into a value
    for path, value in _strings(meta, ()):
        flat = value.replace("\r\n", "\n")
        if has_control(flat):
            char = next(c for c in flat if has_control(c))
            top = path[0]
            key = path[1] if top == "metadata" and len(path) > 1 and nested(meta) is not None else top
            return [Problem(line_of(meta, fm_lines, key), f"'{'.'.join(path)}' holds control character {label(char)} (a YAML escape): {_ADVICE}",
                            kind="control")]
    return []


def _strings(value: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k, (*path, str(k)))
            yield from _strings(v, (*path, str(k)))
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, path)
