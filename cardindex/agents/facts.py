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
    """The card's fact in one paragraph: its body without the Why/How lines, cut to MAX_FACT.

    Lines are joined as the text reads: a wrapped sentence with a space, while a heading, a
    list item or a new paragraph that follows words with no closing mark gets ": " or "; ",
    so "Rules" over "- build both" and "- push always" reads "Rules: build both; push always".
    """
    parts: list[str] = []
    kind = ""  # what the last part was: "heading", "item" (of a list) or "text"
    paragraph = False  # a blank line since the last part
    for line in card.body.splitlines():
        if _REASON_LINE.match(line):
            break
        marked = _MARKUP.match(line)
        text = " ".join(_MARKUP.sub("", line).split())
        if not text:
            paragraph = bool(parts)
            continue
        now = "text" if not marked else "heading" if marked.group(0).lstrip().startswith("#") else "item"
        if parts and not parts[-1].rstrip("*_`~").endswith(_CLOSED):  # "**Done:**" is closed
            if kind == "heading" or (now == "item" and kind == "text"):
                parts[-1] += ":"  # a heading, or words that open a list: what follows is their content
            elif now != "text" or kind == "item" or paragraph:
                parts[-1] += ";"
        parts.append(text)
        kind, paragraph = now, False
    text = " ".join(parts)
    if len(text) > MAX_FACT:
        text = text[:MAX_FACT].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
    return text


_CLOSED = (".", ":", ";", "!", "?", ",", "。", "…", "—", "-", "(", "\uff1a", "\uff1b")  # full-width colon and semicolon


def conflict_order(card: Card) -> tuple[bool, int]:
    """How the sides of a conflict are listed: what the user locked first (it holds), then the
    newest evidence (the likelier current value); all of them marked, none dropped."""
    evidence = card.evidence
    return (not card.locked, -(evidence.toordinal() if evidence else 0))
