"""A card's fact in one paragraph: what `cards context`, `cards search` and the MCP tools show of its body;
and the order they list the sides of a conflict in.

Kept apart from `context` so that a search, which shows facts and nothing of the
session-start view, does not load the index renderer.
"""

from __future__ import annotations

import re

from cardindex.store.card import Card

MAX_FACT = 400
_REASON_LINE = re.compile(r"(?i)^\W*(?:why|how to apply)\b")
_MARKUP = re.compile(r"^\s*(?:#+|[-*+]|\d+[.)])\s+")


def fact(card: Card) -> str:
    """The card's fact in one paragraph: its body without the Why/How lines, cut to MAX_FACT."""
    lines = []
    for line in card.body.splitlines():
        if _REASON_LINE.match(line):
            break
        lines.append(_MARKUP.sub("", line).strip())
    text = " ".join(" ".join(lines).split())
    if len(text) > MAX_FACT:
        text = text[:MAX_FACT].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
    return text


def conflict_order(card: Card) -> tuple[bool, int]:
    """How the sides of a conflict are listed: what the user locked first (it holds), then the
    newest evidence (the likelier current value); all of them marked, none dropped."""
    evidence = card.evidence
    return (not card.locked, -(evidence.toordinal() if evidence else 0))
