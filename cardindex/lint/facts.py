"""F007: how many facts a card holds, from the shape of its body.

One fact is a statement and what supports it: its **Why:** and **How to apply:** lines,
its examples, the list of the items of that one fact, a table, code. Several facts show
themselves in two ways that need no guess about meaning:

- **several reasons**: a second `Why:` (or `Reason:`) or `How to apply:` label. Claude
  Code's card shape is one fact, one reason, one way to apply it; a card that gives two
  reasons, or two ways to apply, holds two facts (two rules, each with its own why);
- **a list of unrelated statements**: a bulleted list (a numbered one is the steps of one
  procedure) of four or more full statements, outside
  the Why / How-to-apply / example parts, of which at least three and at least half
  share no word stem with the rest of the list, the description, the name or the card's
  first statement. This one compares English words, so it is judged only on cards
  written in English (the first sign is structure, and holds in any language).

A section count is no sign: a reference card about one component (its scene, its
scripts, its flow) has many headings and is one fact.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import Hit, LintContext
from cardindex.meaning.stem import stems
from cardindex.meaning.text import body_lines
from cardindex.store.card import Card

# A label that opens a part of the card: `**Why:**`, `**Why**:`, `Why:`, `## How to apply`.
_LABEL = lazy_pattern(r"^\s*(?:#{1,6}\s*)?(?:[*_]{1,2})?\s*([A-Za-z][A-Za-z -]{1,24}?)\s*(?:[*_]{1,2})?\s*(?::|$|[*_]{1,2}\s*:)")
_REASON = frozenset({"why", "reason"})
_APPLY = frozenset({"how to apply"})
# Parts that support the fact before them, rather than state another.
_SUPPORT = frozenset({"why", "reason", "how to apply", "how", "example", "examples", "e.g", "for example",
                      "evidence", "context", "background", "incident", "source", "sources", "note", "notes",
                      "see also", "related", "details"})
MIN_ITEMS = 4  # statements in a list before it can be several facts
MIN_UNRELATED = 3  # and at least this many of them, and half, unrelated to the rest
_BULLET = lazy_pattern(r"^\s*(?:[-*+]|(\d+)[.)])\s+(?!\[[ xX]\])(.*)")
_LEAD = lazy_pattern(r"(?::|\u2014|\u2013|-)\s*(?:[*_]{1,2})?\s*$")  # a line that introduces what follows
_HEADING = lazy_pattern(r"^#{1,6}\s+\S")
_WORD = lazy_pattern(r"[a-z][a-z0-9'-]{3,}")
# Words too common to tie two statements together.
_COMMON_WORDS = (
    "this that with from they them their have will would should must never always when what which into about "
    "before after every also only than then there here does were been being make sure apply rule because user "
    "agent card"
)


@functools.cache
def _common() -> frozenset[str]:
    return frozenset(stems(_COMMON_WORDS.split()))


def _label(line: str) -> str | None:
    m = _LABEL.match(line)
    return m.group(1).strip().casefold() if m else None


def _stems(text: str) -> set[str]:
    return set(stems(_WORD.findall(text.casefold()))) - _common()


def many_facts(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card holds several facts: one card, one fact.

    Flagged when the card gives two reasons or two ways to apply (a second `Why:` or
    `How to apply:` label: two rules, each with its own), or when a list outside its Why, How-to-apply and example parts holds
    four or more full statements (bulleted: numbered steps are one procedure), at least
    three and half of which share no word with
    the rest, the description or the card's first statement (judged on English cards
    only). A rule
    followed by its examples, a list of the items of one fact, a table, or a reference
    card with many sections about one thing is one fact. Split a card with several
    into one card per fact, so each can be found, superseded and forgotten alone.
    Off by default: `cards lint --extend-select F007`.
    """
    if not card.usable:
        return
    topic = _stems(card.description) | _stems(card.name or "")
    items_of_one = False
    reasons: list[int] = []
    applies: list[int] = []
    lists: list[list[tuple[int, set[str]]]] = [[]]  # the full statements of each list, outside supporting parts
    lead: set[str] = set()
    supporting = False
    for number, line in body_lines(card):
        label = _label(line)
        if label in _REASON:
            reasons.append(number)
        elif label in _APPLY:
            applies.append(number)
        if label is not None:  # a new part: supporting the fact, or another
            supporting = label in _SUPPORT
        elif _HEADING.match(line):
            supporting = False
        m = _BULLET.match(line)
        if m:
            # a numbered list is the steps of one procedure; a bulleted one may be a grab-bag
            if not supporting and not items_of_one and not m.group(1) and len(m.group(2).split()) >= 5:
                lists[-1].append((number, _stems(m.group(2))))
        elif line.strip() and not line.startswith((" ", "\t")):  # a paragraph or heading ends a list
            if lists[-1]:
                lists.append([])
            if not lead and not _HEADING.match(line):
                lead = _stems(line)
            # "Supported regions:", "for each choice, four lines —": the list after it holds the items
            # of that one fact, unless the lead opens another topic ("Also worth knowing:")
            items_of_one = bool(_LEAD.search(line)) and bool(_stems(line) & (topic | lead))
    for found, label in ((reasons, "Why:"), (applies, "How to apply:")):
        if len(found) >= 2:
            yield Hit(found[1], f"{len(found)} '{label}' parts in one card: {len(found)} facts, each with its own; "
                                "split it into one card per fact")
            return
    lists = [items for items in lists if len(items) >= MIN_ITEMS]
    if not lists or ctx.language(card).kind != "english":
        return
    topic |= lead
    for items in lists:
        unrelated = 0
        for i, (_, words) in enumerate(items):
            others = set().union(*(w for j, (_, w) in enumerate(items) if j != i)) | topic
            if not words & others:
                unrelated += 1
        if unrelated >= MIN_UNRELATED and 2 * unrelated >= len(items):
            yield Hit(items[0][0], f"{unrelated} of the {len(items)} statements in this list share no word with "
                                   "the rest or the description: split it into one card per fact")
            return
