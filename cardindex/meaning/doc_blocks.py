"""How a docs file's passages are read together: a table row with its header, a list with its lead-in.

A passage alone can miss what it says. A table row (`| web-720p | 720 | 2800 | 128 |`)
means its header's words ("video kbps", "audio kbps"); a list item ("`apps/web` — the
customer dashboard") is one of a list a sentence before it introduces ("This monorepo
holds:"), and a card restating the list says all its items in one sentence. So a row is
read with its table's header, and a short list (with the paragraph that leads into it)
is read as one more passage, beside its items. Pure functions of a file's passages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from cardindex.lazy import lazy_pattern

_ROW = lazy_pattern(r"^\s*\|")
_RULE = lazy_pattern(r"^\s*\|?[\s:|-]+\|?\s*$")  # | --- | :---: |
_ITEM = lazy_pattern(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")
MAX_ITEMS = 12  # a longer list is a catalogue: its items are read one by one


class Read(NamedTuple):
    line: int
    text: str
    whole: bool  # read as one passage, however long (a list with its lead-in)


def read(found: Iterable[tuple[int, str]]) -> Iterator[Read]:
    """Each passage (a table's rows with its header), and each short list with its lead-in as one more."""
    header = ""
    last_end = -2
    lead: tuple[int, str] | None = None  # the passage just before, when it ends with a colon
    items: list[tuple[int, str]] = []
    intro: tuple[int, str] | None = None  # the lead-in of the list being read

    def flush() -> Iterator[Read]:
        if 2 <= len(items) <= MAX_ITEMS:
            first = intro[0] if intro else items[0][0]
            yield Read(first, "\n".join(([intro[1]] if intro else []) + [t for _, t in items]), True)

    for first, text in found:
        contiguous = first == last_end + 1
        near = first <= last_end + 2  # at most one blank line between
        last_end = first + text.count("\n")
        if _ROW.match(text):
            yield from flush()
            items, lead = [], None
            if not (contiguous and header):
                header = text  # the first row of a table names its columns
                yield Read(first, text, False)
            elif not _RULE.match(text):
                yield Read(first, f"{header}\n{text}", False)
            continue
        header = ""
        if _ITEM.match(text):
            if not (items and near):
                yield from flush()
                items, intro = [], (lead if near else None)
            items.append((first, text))
            lead = None
        else:
            yield from flush()
            items, intro = [], None
            lead = (first, text) if text.rstrip().endswith(":") else None
        yield Read(first, text, False)
    yield from flush()
