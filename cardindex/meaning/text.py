"""The words of a card that rules read, with their file line numbers."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from cardindex.lazy import lazy_pattern
from cardindex.meaning.words import words
from cardindex.store.card import Card, field_line
from cardindex.store.frontmatter import nested_line

_FENCE = lazy_pattern(r"^\s*(```|~~~)")
_INLINE_CODE = lazy_pattern(r"`[^`\n]*`")
_URL = lazy_pattern(r"\b(?:https?|ftp|file)://\S+|\bwww\.\S+")
_QUOTED = lazy_pattern(r"\"[^\"\n]{1,80}\"|“[^”\n]{1,80}”|(?<![\w])'[^'\n]{1,80}'(?![\w])")
# A wikilink names a card; its name is not prose (`[[ship-blocked-by-ci]]`). A Markdown
# link keeps its shape here: the session rules take link titles out whole
# (`session_words.statement_lines`), and the derivable rules read its target as a path.
_WIKILINK = lazy_pattern(r"!?\[\[[^\]\n]*\]\]")
_IGNORE_COMMENT = lazy_pattern(r"<!--\s*cards:\s*ignore\s+([A-Za-z0-9_, ]+?)\s*-->")


def body_start_line(card: Card) -> int:
    return card.text.count("\n", 0, card.body_offset) + 1


def description_line(card: Card) -> int:
    return _description_line(card.text, card.body_offset)


@functools.lru_cache(maxsize=1024)
def _description_line(text: str, body_offset: int) -> int:
    fm = text[:body_offset].splitlines(keepends=True)[1:]
    return field_line(fm, "description") or nested_line(fm, "description")


def body_lines(card: Card, *, code: bool = False) -> Iterator[tuple[int, str]]:
    """Body lines with their file line numbers; fenced code blocks only when `code`."""
    start = body_start_line(card)
    fenced = False
    for offset, line in enumerate(card.body.splitlines()):
        if _FENCE.match(line):
            fenced = not fenced
            if not code:
                continue
        if fenced and not code:
            continue
        yield start + offset, line


def prose(card: Card) -> Iterator[tuple[int, str]]:
    """Description and body as prose: no code, no URLs, no quoted phrases."""
    if card.description:
        yield description_line(card), strip_non_prose(card.description)
    for number, line in body_lines(card):
        yield number, strip_non_prose(line)


def statements(card: Card) -> Iterator[tuple[int, str]]:
    """Description and body lines with inline code kept (names in backticks matter)."""
    if card.description:
        yield description_line(card), card.description
    yield from body_lines(card)


def strip_non_prose(line: str) -> str:
    line = _INLINE_CODE.sub(" ", line)
    line = _URL.sub(" ", line)
    if "[[" in line:
        line = _WIKILINK.sub(" ", line)
    return _QUOTED.sub(" ", line)


def all_lines(card: Card) -> Iterator[tuple[int, str]]:
    """Every line of the file, frontmatter included."""
    yield from enumerate(card.text.splitlines(), 1)


def ignored_on_lines(card: Card) -> dict[int, set[str]]:
    """`<!-- cards: ignore CODE -->` comments: on their own line they cover the next line too."""
    out: dict[int, set[str]] = {}
    if "cards:" not in card.text:
        return out
    for number, line in all_lines(card):
        m = _IGNORE_COMMENT.search(line)
        if m:
            codes = {c.strip().upper() for c in re.split(r"[,\s]+", m.group(1)) if c.strip()}
            out.setdefault(number, set()).update(codes)
            if line.strip() == m.group(0):
                out.setdefault(number + 1, set()).update(codes)
    return out


_HEX = lazy_pattern(r"\b[0-9a-f]{7,40}\b")


_SENTENCE_END = lazy_pattern(r"(?<=[.!?;])\s+")


def said(card: Card) -> tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]:
    """Each statement line of `card`: its number, the hex strings in it, the normalized text of each sentence.

    What the commit and docs rules compare. It depends on the card alone, so the lint
    cache keeps it: when a commit or a doc changes, those rules run again without
    normalizing every card's sentences again.
    """
    return tuple(
        (number, tuple(m.group() for m in _HEX.finditer(line)), tuple(words(s).text for s in _SENTENCE_END.split(line)))
        for number, line in statements(card)
    )
