"""Three-way merge of index texts, line by line keyed on card path (SPEC §8).

It works from the three texts git hands the merge driver and nothing else: git runs
the driver before the other branch's cards are in the working tree, so reading cards
(or regenerating the index) would see a half-merged vault.

A generated index is a preamble (the header comment), then groups (a heading, then its
entry lines sorted by title and link; the last group, "Notes", links files that are not
cards), then a trailer (the budget's "N more" line). An entry line is keyed on the card path it links to and split into fields: its group, the
title, the link, and the rest (separator, conflict mark, description). Each field merges
three-way on its own, so one side's type change and the other side's description edit
both land; only both sides changing one field of one card differently is a conflict.
A card that one side removed and the other edited is removed: the index follows the
card, and the merge of the card file decides whether it lives (which the post-merge
`cards index --check` confirms).

Texts that do not have that shape (an index kept by hand, conflict markers from a
recursive merge) are not restructured: `merge3` returns None and the caller falls back
to git's own line merge. Only light standard modules are imported: git runs this per merge.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple, TypeVar
from urllib.parse import unquote

# The group headings of the shipped template, in the generator's order (index.TYPE_TITLES;
# a test keeps the two equal). Importing index.py would load the vault, cards and YAML.
TYPE_HEADINGS = ("User", "Feedback", "Project", "Reference")
# The group of linked files that are not cards (takeover.NOTES_TITLE), after the types; its
# lines are keyed by the path they link, like card lines.
NOTES_HEADING = "Notes"

_ENTRY = re.compile(
    r"(?P<lead>[ \t]*[-*+][ \t]+)\[(?P<title>(?:[^\]\\]|\\.)*)\]\((?P<link><[^<>]*>|[^()\s]*)\)(?P<rest>.*)",
    re.DOTALL,
)
_REST = re.compile(r"(?P<sep>\s+—\s+)(?P<mark>conflict: )?(?P<description>.*)", re.DOTALL)
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_HEADING_TITLE = re.compile(r"#+\s*(.*?)\s*#*\s*$")
_NUMBER = re.compile(r"\d+")

T = TypeVar("T")


class Entry(NamedTuple):
    """One index line, split into the fields that merge independently."""

    group: str | None  # the heading line it sits under (None: before any heading)
    lead: str
    title: str
    link: str
    sep: str
    mark: str
    description: str

    def line(self) -> str:
        return f"{self.lead}[{self.title}]({self.link}){self.sep}{self.mark}{self.description}"

    def order(self) -> tuple[str, str]:
        """Where the generator puts the line inside its group: by title, then link."""
        return (self.title.casefold(), self.link)


class Document(NamedTuple):
    """An index text taken apart; joining the parts in order gives the text back."""

    preamble: tuple[str, ...]
    groups: tuple[str | None, ...]  # in the order they appear
    frames: dict[str | None, tuple[str, ...]]  # a group's lines before its first entry
    entries: dict[str, Entry]  # card path -> its line
    trailer: tuple[str, ...]
    final_newline: bool


class Conflict(NamedTuple):
    """Both sides changed one part differently: git-style markers around both versions."""

    ours: tuple[str, ...]
    theirs: tuple[str, ...]


class Merged(NamedTuple):
    text: str
    conflicts: tuple[str, ...]  # what carries conflict markers: card paths, "header", "trailer"
    notes: tuple[str, ...]  # what a person should check after the merge


class _Unset:
    """A merge outcome that is a conflict rather than a value."""


_CONFLICT = _Unset()


def _pick(base: T, ours: T, theirs: T) -> T | _Unset:
    if ours == theirs:
        return ours
    if ours == base:
        return theirs
    if theirs == base:
        return ours
    return _CONFLICT


def card_path(link: str) -> str:
    """The vault-relative card path an index link points at."""
    target = unquote(link[1:-1] if link.startswith("<") else link)
    while target.startswith("./"):
        target = target[2:]
    return target


def parse_entry(line: str, group: str | None) -> Entry | None:
    m = _ENTRY.match(line)
    if m is None:
        return None
    rest = _REST.fullmatch(m["rest"])
    sep, mark, description = (rest["sep"], rest["mark"] or "", rest["description"]) if rest else ("", "", m["rest"])
    return Entry(group, m["lead"], m["title"], m["link"], sep, mark, description)


def _is_heading(line: str) -> bool:
    return _HEADING.match(line) is not None


def _split_gap(gap: list[str]) -> tuple[list[str], str | None, list[str]]:
    """Split the lines before a run of entries into (before, heading, frame).

    The frame is the last heading with the blank lines just above it and whatever
    follows it up to the entries; without a heading the frame is empty.
    """
    headings = [i for i, line in enumerate(gap) if _is_heading(line)]
    if not headings:
        return gap, None, []
    start = headings[-1]
    while start > 0 and not gap[start - 1].strip():
        start -= 1
    return gap[:start], gap[headings[-1]].strip(), gap[start:]


def parse(text: str) -> Document | None:
    """Take a generated index apart; None when the text does not have that shape."""
    final_newline = text.endswith("\n")
    lines = text.split("\n")
    if final_newline or not text:
        lines.pop()
    groups: list[str | None] = []
    frames: dict[str | None, tuple[str, ...]] = {}
    entries: dict[str, Entry] = {}
    preamble: list[str] = []
    group: str | None = None
    gap: list[str] = []
    first = True
    previous: Entry | None = None
    for line in lines:
        found = parse_entry(line, group)
        if found is None:
            gap.append(line)
            continue
        if gap or first:
            before, heading, frame = _split_gap(gap)
            if first:
                preamble = before
            elif before or heading is None:
                return None  # text between two entries that is not a group heading
            if heading in frames or any(kept.strip() not in ("", heading) for kept in frame):
                return None  # a group twice, or text of its own under a heading: kept by hand
            group, previous, first = heading, None, False
            groups.append(group)
            frames[group] = tuple(frame)
            gap = []
            found = found._replace(group=group)
        path = card_path(found.link)
        if path in entries or (previous is not None and previous.order() >= found.order()):
            return None  # a card listed twice, or not in the generator's order: kept by hand
        entries[path] = previous = found
    if first:
        preamble, gap = gap, []
    return Document(tuple(preamble), tuple(groups), frames, entries, tuple(gap), final_newline)


EMPTY = Document((), (), {}, {}, (), False)


def merge3(base: str, ours: str, theirs: str, *, labels: tuple[str, str] = ("ours", "theirs")) -> Merged | None:
    """Merge two index texts that both descend from `base`; None when one is not a generated index.

    The result lists the groups and lines in the generator's order. Conflicts get
    git-style markers around both sides' versions of the one line (or part) concerned.
    """
    b = parse(base) if base else EMPTY
    o = parse(ours)
    t = parse(theirs)
    if b is None or o is None or t is None:
        return None
    conflicts: list[str] = []
    notes: list[str] = []

    picked = _pick(b.preamble, o.preamble, t.preamble)
    preamble = Conflict(o.preamble, t.preamble) if isinstance(picked, _Unset) else picked
    if isinstance(preamble, Conflict):
        conflicts.append("header")

    merged: dict[str, Entry | Conflict] = {}
    for path in sorted(b.entries.keys() | o.entries.keys() | t.entries.keys()):
        result = _merge_entry(b.entries.get(path), o.entries.get(path), t.entries.get(path))
        if isinstance(result, Conflict):
            conflicts.append(path)
        if result is not None:
            merged[path] = result

    by_group: dict[str | None, list[tuple[tuple[str, str], Entry | Conflict]]] = {}
    for path, result in merged.items():
        line = o.entries[path] if isinstance(result, Conflict) else result
        by_group.setdefault(line.group, []).append((line.order(), result))
    order = _group_order(by_group.keys(), (o.groups, t.groups, b.groups))

    trailer = _merge_trailer(b.trailer, o.trailer, t.trailer)
    if isinstance(trailer, Conflict):
        conflicts.append("trailer")
    if any(part for part in (b.trailer, o.trailer, t.trailer)) and o != t:
        notes.append("the index is over its budget: which cards fit depends on the cards themselves; "
                     "run `cards index` after the merge")

    out: list[str] = []
    _emit(out, preamble, labels)
    for group in order:
        frame = _merge_frame(group, b, o, t)
        _emit(out, frame, labels)
        if isinstance(frame, Conflict):
            conflicts.append(f"heading {group}")
        for _, result in sorted(by_group[group], key=lambda pair: pair[0]):
            _emit(out, (result.line(),) if isinstance(result, Entry) else result, labels)
    _emit(out, trailer, labels)
    final_newline = bool(_pick(b.final_newline, o.final_newline, t.final_newline))
    text = "\n".join(out) + ("\n" if out and final_newline else "")
    return Merged(text, tuple(conflicts), tuple(notes))


def _merge_entry(base: Entry | None, ours: Entry | None, theirs: Entry | None) -> Entry | Conflict | None:
    picked = _pick(base, ours, theirs)
    if not isinstance(picked, _Unset):
        return picked
    if ours is None or theirs is None:
        return None  # edited on one side, removed on the other: the card left the index
    fields = [_pick(b, x, y) for b, x, y in zip(base or (None,) * len(ours), ours, theirs, strict=True)]
    if any(isinstance(field, _Unset) for field in fields):
        if ours.group != theirs.group:  # the lines alone would not show what differs
            return Conflict((ours.group or "", ours.line()), (theirs.group or "", theirs.line()))
        return Conflict((ours.line(),), (theirs.line(),))
    return Entry(*fields)  # type: ignore[arg-type]  # every field is a value here


def _merge_frame(group: str | None, b: Document, o: Document, t: Document) -> tuple[str, ...] | Conflict:
    """A group's heading lines: the side that has the group, or the three-way pick of both."""
    if group in o.frames and group in t.frames:
        # A group's frame holds its heading, so () stands for "no such group in the base".
        picked = _pick(b.frames.get(group, ()), o.frames[group], t.frames[group])
        return Conflict(o.frames[group], t.frames[group]) if isinstance(picked, _Unset) else picked
    for doc in (o, t, b):
        if group in doc.frames:
            return doc.frames[group]
    return ("", group or "", "")  # not reached: a merged line's group is on one side


def _count(trailer: tuple[str, ...]) -> int | None:
    """The number in a budget line trailer ("… 3 more cards not shown"); None for other text."""
    text = [line for line in trailer if line.strip()]
    if not text:
        return 0
    m = _NUMBER.search(text[0]) if len(text) == 1 else None
    return int(m.group()) if m else None


def _merge_trailer(base: tuple[str, ...], ours: tuple[str, ...], theirs: tuple[str, ...]) -> tuple[str, ...] | Conflict:
    picked = _pick(base, ours, theirs)
    if not isinstance(picked, _Unset):
        return picked
    counts = (_count(ours), _count(theirs))
    if counts[0] is not None and counts[1] is not None:
        # Both sides left different numbers of cards out. The right number needs the
        # cards; the larger one is the closer guess and `cards index` settles it.
        return ours if counts[0] >= counts[1] else theirs
    return Conflict(ours, theirs)


def _group_order(groups: Iterable[str | None], orders: Sequence[Sequence[str | None]]) -> list[str | None]:
    """The groups in the order the versions agree on; the shipped type order breaks ties."""
    needed = set(groups)
    seen: dict[str | None, int] = {}
    after: dict[str | None, set[str | None]] = {g: set() for g in needed}
    for order in orders:
        present = [g for g in order if g in needed]
        for g in present:
            seen.setdefault(g, len(seen))
        for earlier, later in itertools.pairwise(present):
            after[later].add(earlier)

    def rank(group: str | None) -> tuple[int, int]:
        if group is None:
            return (-1, 0)
        m = _HEADING_TITLE.match(group)
        title = m.group(1) if m else group
        headings = (*TYPE_HEADINGS, NOTES_HEADING)
        known = headings.index(title) if title in headings else len(headings)
        return (known, seen.get(group, len(seen)))

    result: list[str | None] = []
    left = set(needed)
    while left:
        ready = [g for g in left if not (after[g] & left)] or list(left)  # a cycle: versions disagree
        chosen = min(ready, key=rank)
        result.append(chosen)
        left.remove(chosen)
    return result


def _emit(out: list[str], part: Sequence[str] | Conflict, labels: tuple[str, str]) -> None:
    if isinstance(part, Conflict):
        out += [f"<<<<<<< {labels[0]}", *part.ours, "=======", *part.theirs, f">>>>>>> {labels[1]}"]
    else:
        out += part

