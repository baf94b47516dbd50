"""Splitting existing memory into candidate cards: monolithic Markdown files and daily logs.

Pure functions of text: no vault, no disk, no model. `split_markdown` turns a long
MEMORY.md / CLAUDE.md / notes file into one candidate per fact (a bullet with its
continuation lines and nested bullets, or a paragraph, with any code block or table it
introduces), typed by the headings above it. `extract_log` reads a daily raw log and
keeps only explicit durable statements: corrections, decisions, preferences and
"remember that" requests. What is not a fact (headings, link lines of an existing
index, a table or code block standing alone) is reported as skipped, with the reason.
"""

from __future__ import annotations

import re
from typing import NamedTuple

TYPES = ("user", "feedback", "project", "reference")
MAX_PARAGRAPH = 1_200  # characters: a longer paragraph holds more than one fact
SHORT_DESCRIPTION_WORDS = 4  # a first line this short gets its section heading as context


class Candidate(NamedTuple):
    """One fact found in an input file, not yet reviewed."""

    source: str  # the file as named on the command line ("stdin" for -)
    line: int  # where the fact starts (1-based)
    text: str  # the card body
    type: str  # user, feedback, project or reference
    section: str = ""  # the headings above it ("Project > Deploys")
    origin: str = "split"  # split (a Markdown file), log (--from-log), llm (the llm command)
    kind: str = ""  # for log statements: correction, decision, preference, remember
    card: str = ""  # the input file itself, when it is already a card (frontmatter naming it): kept whole

    @property
    def where(self) -> str:
        """FILE:LINE, or FILE when the line is not known (a statement of the llm command)."""
        return f"{self.source}:{self.line}" if self.line else self.source


class Skipped(NamedTuple):
    """Something in an input file that is not a fact, and why it was not made a card."""

    source: str
    line: int
    reason: str

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}"


# --------------------------------------------------------------------------- headings -> types

# Checked innermost heading first; within a heading, in this order. A heading that names
# none of them leaves the decision to the next heading out, and finally to the default.
_SECTION_TYPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("reference", re.compile(
        r"\b(?:references?|links?|resources?|docs|documentation|bookmarks?|urls?|dashboards?|contacts?|"
        r"where to find|runbooks?)\b")),
    ("feedback", re.compile(
        r"\b(?:feedback|corrections?|lessons?(?: learned)?|guidelines?|instructions?|rules?|behaviou?r|"
        r"do'?s and don'?ts|don'?ts|mistakes?|working with me|how to work with me|how i work)\b")),
    ("user", re.compile(
        r"\b(?:preferences?|prefs|about me|about the user|personal|profile|who i am|"
        r"user(?![- ](?:facing|interface|data|input|stor(?:y|ies)|flows?|api|management|accounts?)))\b")),
    ("project", re.compile(
        r"\b(?:project|architecture|stack|infrastructure|infra|decisions?|conventions?|code style|"
        r"build|deploy\w*|testing|tests|tooling|services?|environment|setup|gotchas)\b")),
)


def section_type(headings: list[str], default: str) -> str:
    """The card type the headings above a fact suggest (innermost first), else `default`."""
    for heading in reversed(headings):
        lowered = heading.casefold()
        for card_type, pattern in _SECTION_TYPES:
            if pattern.search(lowered):
                return card_type
    return default


# --------------------------------------------------------------------------- Markdown

ATX = re.compile(r"^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(?:=+|-+)\s*$")
_RULE = re.compile(r"^ {0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_BULLET = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*$)")
_TABLE = re.compile(r"^\s*\|")
_CHECKBOX = re.compile(r"^\[[ xX]\](?:\s|$)")
# `- [Title](file.md) — hook`: a line of a MEMORY.md index, pointing to a card.
# `[Title](card.md) — hook`, also behind the marks hand-kept indexes put first (`★★`, `⚠`,
# an emoji) and with the link in bold (`**[Title](card.md)**`).
_INDEX_LINE = re.compile(r"^(?:[^\w\s\[\]()*]{1,8}\s*)?(?:\*\*|__)?\[(?:[^\]\\]|\\.)*\]\(<?([^)>\s]+)>?\)(?:\*\*|__)?"
                         r"\s*(?:(?:\u2014|\u2013|-|:)\s*(.*))?$")
_URL_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_WORDLIKE = re.compile(r"\w")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())  # a tab counts as one column


class _Block:
    """The fact being read: a list item or a paragraph, with what it introduces."""

    def __init__(self, kind: str, start: int, indent: int = 0, content: int = 0) -> None:
        self.kind = kind  # "item", "para" or "code" (a code block with no statement)
        self.start = start
        self.indent = indent  # the list marker's column (items)
        self.content = content  # the column the item's text starts at
        self.lines: list[str] = []
        self.gap = False  # a blank line since the last line read

    def add(self, line: str) -> None:
        if self.gap and self.lines:
            self.lines.append("")
        self.lines.append(line)
        self.gap = False

    def ends_with_colon(self) -> bool:
        prose = [line for line in self.lines if line.strip()]
        return bool(prose) and prose[-1].rstrip().endswith(":")


def split_markdown(text: str, source: str, default_type: str = "project") -> tuple[list[Candidate], list[Skipped]]:
    """One candidate per fact of a monolithic Markdown memory file, and what was skipped.

    A file that is already a card (one memory of a Claude Code memory folder: frontmatter
    with a `description`, `name`, `type` or `metadata:`) is one candidate, kept whole: its
    fields and body are the writer's, and splitting its "Why:" and "How to apply:" lines
    into cards of their own would shred one fact into several.
    """
    whole = _as_card(text, source, default_type)
    if whole is not None:
        return [whole], []
    lines = text.splitlines()
    candidates: list[Candidate] = []
    skipped: list[Skipped] = []
    headings: list[tuple[int, str]] = []  # (level, title)
    block: _Block | None = None

    def flush() -> None:
        nonlocal block
        if block is not None:
            _emit(block, source, [t for _, t in headings], default_type, candidates, skipped)
        block = None

    def set_heading(level: int, title: str) -> None:
        while headings and headings[-1][0] >= level:
            headings.pop()
        if title:
            headings.append((level, title))

    i = frontmatter_end(lines)
    if i:
        skipped.append(Skipped(source, 1, f"frontmatter (lines 1-{i}) is not a fact"))
    n = len(lines)
    while i < n:
        line = lines[i]
        number = i + 1
        stripped = line.strip()
        if not stripped:
            if block is not None:
                block.gap = True
            i += 1
            continue
        if stripped.startswith("<!--"):
            while i < n and "-->" not in lines[i]:
                i += 1
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            end = _fence_end(lines, i, fence.group(1))
            code = lines[i : end + 1]
            if block is not None and block.kind != "code":
                for code_line in code:
                    block.add(_dedent(code_line, block.content))
            else:
                flush()
                block = _Block("code", number)
                block.lines.extend(code)
            i = end + 1
            continue
        heading = ATX.match(line)
        if heading:
            flush()
            set_heading(len(heading.group(1)), (heading.group(2) or "").strip())
            i += 1
            continue
        if (block is not None and block.kind == "para" and not block.gap and _SETEXT.match(line)
                and len(block.lines) == 1):
            title = block.lines[0].strip()
            block = None
            set_heading(1 if stripped.startswith("=") else 2, title)
            i += 1
            continue
        if _RULE.match(line):
            flush()
            i += 1
            continue
        if _TABLE.match(line):
            end = i
            while end + 1 < n and _TABLE.match(lines[end + 1]):
                end += 1
            if block is not None and block.kind != "code" and (not block.gap or block.ends_with_colon()):
                for table_line in lines[i : end + 1]:
                    block.add(_dedent(table_line, block.content))
            else:
                flush()
                skipped.append(Skipped(source, number, f"a table ({end - i + 1} lines) is not one fact; "
                                                       "add what it says as cards by hand"))
            i = end + 1
            continue
        bullet = _BULLET.match(line)
        if bullet:
            indent = _indent(line)
            if block is not None and block.kind == "item" and indent > block.indent:
                block.add(_dedent(line, block.content))  # a nested bullet belongs to its parent
            else:
                flush()
                content = bullet.start(3) if bullet.group(3) else indent + len(bullet.group(2)) + 1
                block = _Block("item", number, indent, content)
                block.lines.append(bullet.group(3) or "")
            i += 1
            continue
        if block is not None and block.kind == "item" and (not block.gap or _indent(line) >= block.content):
            block.add(_dedent(line, block.content) if _indent(line) >= block.content else stripped)
        elif block is not None and block.kind == "para" and not block.gap:
            block.add(line.rstrip())
        else:
            flush()
            block = _Block("para", number)
            block.lines.append(line.rstrip())
        i += 1
    flush()
    return candidates, skipped


def _as_card(text: str, source: str, default_type: str) -> Candidate | None:
    """`text` as one candidate when it is a card file, else None (a notes file to split)."""
    if not text.startswith("---"):
        return None
    from cardindex.store.card import Card

    card = Card.from_text("import.md", text)
    if card.body_offset == 0 or not any(k in card.meta for k in ("description", "name", "type", "metadata")):
        return None
    kind = card.type if card.type in TYPES else default_type
    return Candidate(source, 1, card.body.strip("\n"), kind, origin="card", card=text)


def frontmatter_end(lines: list[str]) -> int:
    """The number of lines a leading YAML frontmatter block takes (0: none)."""
    if not lines or lines[0].strip() != "---":
        return 0
    for j in range(1, min(len(lines), 200)):
        if lines[j].strip() in ("---", "..."):
            return j + 1
    return 0


def _fence_end(lines: list[str], start: int, marker: str) -> int:
    """The closing fence of the code block opened at `start` (the last line if unclosed)."""
    for j in range(start + 1, len(lines)):
        stripped = lines[j].strip()
        if stripped.startswith(marker[0] * len(marker)) and not stripped.strip(marker[0]):
            return j
    return len(lines) - 1


def _dedent(line: str, columns: int) -> str:
    """Remove up to `columns` leading spaces (a continuation line of a list item)."""
    width = _indent(line)
    return line[min(width, columns):].rstrip()


def _emit(block: _Block, source: str, headings: list[str], default_type: str,
          candidates: list[Candidate], skipped: list[Skipped]) -> None:
    lines = block.lines
    while lines and not lines[-1].strip():
        lines.pop()
    if block.kind == "code":
        skipped.append(Skipped(source, block.start, "a code block with no statement before it is not a fact"))
        return
    if not lines or not _WORDLIKE.search("\n".join(lines)):
        return  # an empty bullet
    first = lines[0].strip()
    if block.kind == "item":
        if len(lines) == 1 or not "".join(lines[1:]).strip():
            link = _INDEX_LINE.match(first)
            if link and not _URL_SCHEME.match(link.group(1)) and link.group(1).split("#")[0].endswith(".md"):
                skipped.append(Skipped(source, block.start, f"an index line pointing to {link.group(1)}: "
                                                            "that fact lives in its card, not here"))
                return
        if _CHECKBOX.match(first):
            lines = ["- " + first, *lines[1:]]  # keep the marker: the gate knows a to-do list by it
    text = "\n".join(line.rstrip() for line in lines).strip("\n")
    if block.kind == "para" and len(text) > MAX_PARAGRAPH:
        skipped.append(Skipped(source, block.start, f"a paragraph of {len(text):,} characters holds more than one "
                                                    "fact; split it by hand, or add it with `cards add`"))
        return
    candidates.append(Candidate(source, block.start, text, section_type(headings, default_type),
                                " > ".join(headings)))


def index_lines(skipped: list[Skipped]) -> int:
    """How many of the skipped lines were links of an existing memory index."""
    return sum(1 for s in skipped if s.reason.startswith("an index line"))


# --------------------------------------------------------------------------- daily logs


