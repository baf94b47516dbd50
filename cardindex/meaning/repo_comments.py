"""What a code file says in prose: its comment blocks and docstrings, each a passage with its line.

A doc comment ("Subscribe connects with a persistent session and QoS 1, so messages
published while the service was down are delivered when it reconnects") records
behaviour and its reason as plainly as a docs paragraph; a card rewording it is a copy
of the code. A block is a run of `//`, `#` or `--` line comments, a `/* … */` or
`/** … */` comment, or a Python docstring, read with the declaration that follows it
(so the name it documents, not its value, is part of the passage). Pure functions of a file's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cardindex.lazy import lazy_pattern

_LINE = {
    "//": re.compile(r"^\s*///?!?\s?(.*)$"),
    "#": re.compile(r"^\s*#(?![!\[])\s?(.*)$"),
    "--": re.compile(r"^\s*--\s?(.*)$"),
}
_BY_SUFFIX = {
    ".py": "#", ".sh": "#", ".rb": "#", ".ex": "#", ".exs": "#", ".lua": "--", ".sql": "--",
}
_BLOCK_OPEN = lazy_pattern(r"^\s*/\*\*?\s?(.*)$")
_BLOCK_LINE = lazy_pattern(r"^\s*\*?\s?(.*?)\s*$")
_DOCSTRING = lazy_pattern(r'^\s*(?:[rRbBuU]?)("""|\'\'\')(.*)$')
_DECLARATION = lazy_pattern(r"^\s*(?:export\s+|pub(?:\([^)]*\))?\s+|async\s+|public\s+|private\s+|static\s+)*"
                          r"(?:def|class|func|fn|function|const|let|var|type|struct|enum|trait|interface|impl)\s+"
                          r"(?:\([^)]*\)\s*)?([A-Za-z_]\w*)")
# Comments that are machinery, not prose: licence headers, linters' and compilers' pragmas, build tags.
_PRAGMA = lazy_pattern(r"(?i)^\s*(?:\+build|go:|nolint|noqa|type:\s*ignore|eslint|prettier|ts-|@ts-|istanbul|pylint|"
                     r"fmt:|isort:|pragma|region|endregion|\+goose|-\*-|copyright|spdx-license|licensed under)")
MAX_BLOCK_LINES = 30


def comment_blocks(rel: str, text: str) -> Iterator[tuple[int, str]]:
    """Each comment block or docstring of a code file, with its first line, and the declaration after it."""
    suffix = rel[rel.rfind("."):].lower() if "." in rel else ""
    marker = _BY_SUFFIX.get(suffix, "//")
    line_comment = _LINE[marker]
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        block: list[str] = []
        first = i + 1
        if suffix == ".py" and (m := _DOCSTRING.match(line)):
            quote, rest = m.group(1), m.group(2)
            if quote in rest:
                block.append(rest[:rest.index(quote)])
                i += 1
            else:
                block.append(rest)
                i += 1
                while i < len(lines) and quote not in lines[i] and len(block) < MAX_BLOCK_LINES:
                    block.append(lines[i].strip())
                    i += 1
                if i < len(lines) and quote in lines[i]:
                    block.append(lines[i][:lines[i].index(quote)].strip())
                i += 1
            yield from _some(first, _joined(block, ""))
            continue
        if marker == "//" and (m := _BLOCK_OPEN.match(line)):
            rest = m.group(1)
            if "*/" in rest:
                block.append(rest[:rest.index("*/")])
                i += 1
            else:
                block.append(rest)
                i += 1
                while i < len(lines) and "*/" not in lines[i] and len(block) < MAX_BLOCK_LINES:
                    block.append(_in_block(lines[i]))
                    i += 1
                if i < len(lines):
                    block.append(_in_block(lines[i].split("*/", 1)[0]))
                i += 1
            yield from _some(first, _joined(block, _next_declaration(lines, i)))
            continue
        m = line_comment.match(line)
        if m is None:
            i += 1
            continue
        while m is not None and len(block) < MAX_BLOCK_LINES:
            block.append(m.group(1))
            i += 1
            m = line_comment.match(lines[i]) if i < len(lines) else None
        while m is not None:  # the rest of an over-long run is skipped, not read as another block
            i += 1
            m = line_comment.match(lines[i]) if i < len(lines) else None
        yield from _some(first, _joined(block, _next_declaration(lines, i)))


def _some(first: int, text: str) -> Iterator[tuple[int, str]]:
    if text:
        yield first, text


def _in_block(line: str) -> str:
    """A line inside `/* … */` without its leading ` * `."""
    m = _BLOCK_LINE.match(line)
    return m.group(1) if m else line.strip()


def _next_declaration(lines: list[str], i: int) -> str:
    """The name a comment documents (declared on the line after it), or "".

    Only the name: a constant's value is what D102 reads from the code, not a passage.
    """
    m = _DECLARATION.match(lines[i]) if i < len(lines) else None
    return m.group(1) if m else ""


def _joined(block: list[str], declaration: str) -> str:
    prose = [b for b in block if b.strip() and not _PRAGMA.match(b)]
    return "\n".join([*prose, declaration] if prose and declaration else prose)
