"""A merge that loses nothing from the live card: the canonical text, and what the others add.

Two cards that state one fact rarely say it the same way: each feedback card on one rule
has its own reasons and its own steps. Archiving one of them would put those out of
sight, so the canonical card keeps its text and gains, under a marked section per merged
card ("## Merged from ID"), the blocks of the other that it does not already say:

- a body is cut into **blocks**: paragraphs, list items (with their continuation lines),
  headings, tables, code fences (`blocks`);
- a block is **said** by the canonical card when one of its blocks (or its description)
  holds most of the block's words (`meaning.documents.UNIT_HELD`, the measure that tells
  two documents apart) and every value it gives (a name, a number: "retry 5 times" is not
  said by "retry 3 times"); a paragraph not said as a whole keeps only its sentences not said;
  a table keeps its head and the rows not said; code is said only when it is there verbatim;
  a heading comes along only with something kept under it;
- the merged card's description comes first when the canonical card does not say it.

The result must stay one card of bounded size: at most `MAX_ADDED` characters more, and
at most `MAX_BODY` in all (a long card that gains nothing merges as before); a union past
them is no merge (`Union.refused` says why) and is left to the user, as lint reports it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from cardindex.meaning.documents import MIN_UNIT_WORDS, UNIT_HELD, document
from cardindex.meaning.documents import REASON as DOCUMENT_REASON
from cardindex.meaning.paraphrase import paraphrase
from cardindex.meaning.words import statement, words
from cardindex.store.card import Card

if TYPE_CHECKING:
    from cardindex.meaning.classify import Pair

MAX_ADDED = 2000  # characters a merge may add to the canonical body
MAX_BODY = 6000  # characters of a merged body, unless the canonical one is already longer
SECTION = "## Merged from "

_FENCE = re.compile(r"^\s*(?:```|~~~)")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_LEAD = re.compile(r":\W*$")  # a paragraph that introduces what follows ("**How to apply:**", "All sessions share:")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_ABBREVIATION = re.compile(r"(?i)\b(?:e\.g|i\.e|etc|vs|cf|approx|no|fig|incl)\.$")


def sentences(text: str) -> list[str]:
    """A paragraph's sentences: cut after ". " before a capital, never after an abbreviation
    ("e.g.") nor inside a quotation or a code span."""
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        head = text[start:m.start()]
        if _ABBREVIATION.search(head) or head.count('"') % 2 or head.count("`") % 2 or \
                head.count("\u201c") != head.count("\u201d"):
            continue
        out.append(head)
        start = m.end()
    out.append(text[start:])
    return [t for t in out if t.strip()]


class Block(NamedTuple):
    kind: str  # paragraph, item, heading, table, code
    text: str  # as written (a heading: its line; a table: its lines)
    level: int = 0  # a heading's level


class Union(NamedTuple):
    """The canonical body with what the merged cards add (None: they add nothing), or why it is refused."""

    body: str | None
    added: int  # characters added
    refused: str | None


def blocks(body: str) -> list[Block]:
    """The blocks of a body, in order, each as written."""
    out: list[Block] = []
    current: list[str] = []
    kind = ""

    def close() -> None:
        nonlocal current, kind
        while current and not current[-1].strip():
            current.pop()
        if current:
            out.append(Block(kind, "\n".join(current)))
        current, kind = [], ""

    fenced = False
    item_fenced = False  # a code block indented under a list item belongs to the item
    for line in body.splitlines():
        if kind == "item" and (item_fenced or (line[:1] in (" ", "\t") and line.strip())):
            current.append(line)
            if _FENCE.match(line):
                item_fenced = not item_fenced
            continue
        if kind == "item" and not line.strip():
            current.append(line)  # a blank line may separate an item from its indented continuation
            continue
        if fenced:
            current.append(line)
            if _FENCE.match(line):
                fenced = False
                close()
            continue
        if _FENCE.match(line):
            close()
            kind, current, fenced = "code", [line], True
            continue
        stripped = line.strip()
        if not stripped:
            close()
            continue
        heading = _HEADING.match(stripped)
        if heading and not line.startswith((" ", "\t")):
            close()
            out.append(Block("heading", heading.group(2).strip(), len(heading.group(1))))
            continue
        if stripped.startswith("|"):
            if kind != "table":
                close()
                kind = "table"
            current.append(line)
            continue
        bullet = _BULLET.match(line)
        if bullet:
            close()
            kind, current = "item", [line]
            continue
        if kind == "paragraph" or (kind == "item" and current[-1].strip()):
            current.append(line)  # a paragraph's next line, or an item's lazy continuation
            continue
        close()
        kind, current = "paragraph", [line]
    close()
    return out


def _tokens(text: str) -> frozenset[str]:
    return frozenset(words(text).tokens)


class _Said:
    """What a card already says, block by block, to tell whether a block of another is said there."""

    def __init__(self, card: Card) -> None:
        self.units = [_tokens(card.description), *(_tokens(_plain(b)) for b in blocks(card.body))]
        self.units += [_tokens(s) for b in blocks(card.body) if b.kind == "paragraph" for s in sentences(b.text)]
        self.body = card.body

    def says(self, text: str) -> bool:
        """Most of the block's words are in one block here, and every value it gives (a name, a number)."""
        said = words(text)
        mine, values = frozenset(said.tokens), said.values
        if len(mine) < MIN_UNIT_WORDS:
            return True  # a label or a bare link says nothing of its own
        return any(len(mine & unit) >= UNIT_HELD * len(mine) and values <= unit for unit in self.units)

    def add(self, text: str) -> None:
        self.units.append(_tokens(text))


def _plain(block: Block) -> str:
    return block.text


def _table(block: Block, said: _Said) -> str | None:
    rows = block.text.splitlines()
    head = rows[:2] if len(rows) > 1 and set(rows[1].replace("|", "").strip()) <= set("-: ") else rows[:1]
    new = [r for r in rows[len(head):] if not said.says(r.replace("|", " "))]
    return "\n".join([*head, *new]) if new else None


def _paragraph(block: Block, said: _Said) -> str | None:
    if not said.says(block.text):
        every = sentences(block.text)
        new = [s for s in every if not said.says(s)]
        if len(new) == len(every):
            return block.text
        return " ".join(" ".join(s.split()) for s in new) or None
    return None


def added(canonical: Card, other: Card, said: _Said | None = None) -> str:
    """The blocks of `other` that `canonical` does not say, as text (empty: nothing)."""
    said = said or _Said(canonical)
    kept: list[Block] = []
    if not said.says(other.description):
        kept.append(Block("paragraph", " ".join(other.description.split())))
        said.add(other.description)
    pending: list[Block] = []  # headings and leads ("How to apply:") waiting for something kept under them
    for block in blocks(other.body):
        if block.kind == "heading":
            pending = [h for h in pending if h.kind == "heading" and h.level < block.level] + [block]
            continue
        if block.kind == "paragraph" and _LEAD.search(block.text):
            pending = [h for h in pending if h.kind == "heading"] + [block]
            continue
        if block.kind != "item":
            pending = [h for h in pending if h.kind == "heading"]  # a lead introduces the list right after it
        if block.kind == "code":
            text: str | None = None if block.text.strip() in said.body else block.text
        elif block.kind == "table":
            text = _table(block, said)
        elif block.kind == "item":
            text = None if said.says(block.text) else block.text
        else:
            text = _paragraph(block, said)
        if text is None:
            continue
        kept.extend(pending)
        pending = []
        kept.append(block._replace(text=text))
        said.add(text)
    return _render(kept)


def _render(kept: Sequence[Block]) -> str:
    out: list[str] = []
    previous = ""
    for block in kept:
        if block.kind == "heading":
            text = f"{'#' * min(6, max(3, block.level + 1))} {block.text}"
        else:
            text = block.text
        if out and not (block.kind == "item" and previous == "item"):
            out.append("")
        out.append(text)
        previous = block.kind
    return "\n".join(out)


def union(canonical: Card, merged: Sequence[Card]) -> Union:
    """The canonical card's body with a section per merged card for what it adds."""
    said = _Said(canonical)
    sections = []
    for card in merged:
        text = added(canonical, card, said)
        if text:
            sections.append(f"{SECTION}{card.id}\n\n{text}")
    if not sections:
        return Union(None, 0, None)
    base = canonical.body.rstrip("\n")
    body = "\n\n".join([base, *sections]) + "\n" if base.strip() else "\n\n".join(sections) + "\n"
    grown = len(body) - len(canonical.body)
    if grown > MAX_ADDED:
        return Union(None, grown, f"one card would gain {grown} characters of the others' text (at most {MAX_ADDED})")
    if len(body) > MAX_BODY:
        return Union(None, grown, f"the merged card would be {len(body)} characters long (at most {MAX_BODY})")
    return Union(body, grown, None)


# ---------------------------------------------------------------- which pairs merge (lint says what consolidate does)


def notes(a: Card, b: Card) -> bool:
    """Two cards of many units each (`meaning.documents`): a rule with its reasons and steps, a long note."""
    return document(a) is not None and document(b) is not None


def each_says_more(a: Card, b: Card) -> bool:
    """Each description names something the other card never mentions: two facts in one frame.

    "Trevelex scheduler runs on Rust" and "Trevelex billing service uses Rust for
    implementation language" share most words, but each has a subject the other lacks. A
    fact reworded keeps every word of one side somewhere in the other ("Production deploys
    happen on Tuesdays only" / "Only deploy to production on Tuesdays"). A merge archives a
    card, so it asks for more than the linter's duplicate warning does.
    """
    sa, sb = statement(a), statement(b)
    return bool(set(sa.description.tokens) - set(sb.all.tokens)) and bool(set(sb.description.tokens) - set(sa.all.tokens))


def swapped(a: str, b: str, longest: int = 2) -> bool:
    """The same sentence with one run of up to `longest` words replaced by others: another
    subject or value ("the cache layer uses X" / "the billing service uses X"), not a rewording."""
    ta, tb = words(a).tokens, words(b).tokens
    if len(ta) != len(tb) or len(ta) <= longest:
        return False
    differ = [i for i, (x, y) in enumerate(zip(ta, tb, strict=True)) if x != y]
    return bool(differ) and len(differ) <= longest and differ[-1] - differ[0] == len(differ) - 1


def facts_restated(a: Card, b: Card) -> bool:
    """The bodies' fact clauses say one thing twice (`meaning.paraphrase`), however the descriptions differ.

    Descriptions are often reworded more than the facts ("How long seeds soak before a
    germination test" / "Germination test preparation"); two notes about two subjects
    under alike descriptions ("Related cards cover …" / "It applies to every environment")
    have facts that share nothing.
    """
    fa, fb = statement(a).fact, statement(b).fact
    return bool(fa.tokens and fb.tokens) and paraphrase(fa, fb, {})


def one_fact(pair: Pair) -> bool:
    """Whether a duplicate pair without a shared key is one fact that consolidation merges.

    Each description naming what the other card never says is two subjects in one frame,
    for one-statement cards; two notes of many units each say more (their own reasons,
    their own steps), and a long card that states a short one again holds its fact: the
    merge keeps both texts (`union`). The planner (`lifecycle.plan`) and lint's U101
    message (`lint.similar`) both ask this.
    """
    a, b = pair.a, pair.b
    return pair.kind == "duplicate" and (pair.reason == DOCUMENT_REASON or not each_says_more(a, b)
                                         or facts_restated(a, b) or notes(a, b)) and not swapped(a.description, b.description)


def container(pair: Pair) -> Card | None:
    """The long card of a pair where one part of it states the short one again: it keeps its text.

    Merged the other way, a short rule would take in a whole note about something larger.
    """
    long = [c for c in (pair.a, pair.b) if document(c) is not None]
    return long[0] if pair.reason == DOCUMENT_REASON and len(long) == 1 else None


def pair_refused(pair: Pair) -> str | None:
    """Why two cards cannot merge into one of bounded size either way (None: one way fits).

    A container keeps its text (`container`); otherwise the canonical card is tried first
    and the other when its union is too long. Lint and the planner ask this alike.
    """
    top = container(pair)
    sides = [(top, pair.b if top is pair.a else pair.a)] if top else [(pair.a, pair.b), (pair.b, pair.a)]
    refused = None
    for first, second in sides:
        why = None if first.locked else union(first, [second]).refused  # a locked card is never edited
        if why is None:
            return None
        refused = refused or why
    return refused
