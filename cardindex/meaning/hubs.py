"""Hub cards: a card that is a list of pointers to other cards (a sub-index, a map of content).

Vaults outgrow one index. Claude Code loads only the first 200 lines of MEMORY.md, so
careful users split it into category sub-indexes (`index-git.md`: one list item per card,
each a link and the card's hook), and research notes grow a "map" page. A hub restates
every card it points to by design: compared with them as statements, it looks like a
duplicate of each, or contradicts the one whose hook it abbreviated. It states no fact of
its own, so the model of what cards state (`similarity`) leaves hubs out of its pairs.

A card is a hub by the shape of its body, not by its name: most of its non-blank lines
are list items, and most of those list items point at another file (a Markdown link to a
`.md` file, a `[[wikilink]]`, or a bullet that opens
with a card's number, "- 50. Title — hook", for vaults whose files are numbered), at least `MIN_POINTERS`
of them. A how-to with a "See also" list, or a rule with three links among its prose,
stays a card.
"""

from __future__ import annotations

import functools

from cardindex.lazy import lazy_pattern
from cardindex.store.card import Card

MIN_POINTERS = 5  # fewer pointers than this is a card with a "see also" list
POINTING_ITEMS = 0.5  # the share of the list items that point at another file
LISTED_LINES = 0.6  # the share of the body's non-blank lines (headings aside) that are list items

_FENCE = lazy_pattern(r"^\s*(```|~~~)")
_ITEM = lazy_pattern(r"^\s{0,8}(?:[-*+]|\d{1,4}[.)])\s+\S")
_HEADING = lazy_pattern(r"^\s{0,3}#{1,6}\s|^\s*(?:-{3,}|\*{3,}|_{3,})\s*$|^\s*<!--.*-->\s*$")
_POINTER = lazy_pattern(
    r"\]\(\s*<?[^)\s]+\.md(?:#[^)\s]*)?>?\s*(?:\"[^\"]*\")?\)"  # [text](file.md) or [text](file.md#part)
    r"|\[\[[^\]\n]+\]\]"  # [[wikilink]]
    r"|^\s{0,8}[-*+]\s+\d{1,4}\.\s"  # "- 50. Title — hook": a bullet naming a numbered card
)


def is_hub(card: Card) -> bool:
    """Whether `card` is a list of pointers to other cards rather than a statement of a fact."""
    body = card.body
    return body.count("\n") >= MIN_POINTERS - 1 and _is_hub(body)


@functools.lru_cache(maxsize=4096)
def _is_hub(body: str) -> bool:
    text, items, pointing = _counts(body)
    return pointing >= MIN_POINTERS and pointing >= POINTING_ITEMS * items and items >= LISTED_LINES * text


def _counts(body: str) -> tuple[int, int, int]:
    """(non-blank lines outside code fences that are not headings, list items, list items that point at a file)."""
    text = items = pointing = 0
    fenced = False
    for line in body.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or not line.strip() or _HEADING.match(line):
            continue
        text += 1
        if _ITEM.match(line):
            items += 1
            pointing += bool(_POINTER.search(line))
    return text, items, pointing
