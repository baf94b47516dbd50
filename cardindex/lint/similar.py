"""Duplicate and contradiction rules, over the pairs `cardindex.meaning.similarity` finds.

A pair's detail quotes words of both cards, case-folded ("'akia…' vs 'akia…'"): the
words of either card's secrets are redacted before they go into the message.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from cardindex.lint.context import Hit, LintContext
from cardindex.meaning.text import description_line
from cardindex.redaction import redact_words
from cardindex.store.card import Card

if TYPE_CHECKING:
    from cardindex.meaning.similarity import Pair


def _pairs(card: Card, ctx: LintContext, kind: str, reasons: tuple[str, ...]) -> Iterator[Hit]:
    for pair in ctx.pairs.get(card.path, ()):
        if pair.kind != kind or pair.reason not in reasons:
            continue
        other = pair.b if pair.a.path == card.path else pair.a
        detail = redact_words(pair.detail, pair.a.text, pair.b.text)
        yield Hit(description_line(card), f"{detail} as {other.path}", (other.path,),
                  "archive" if kind == "duplicate" else None)


DUPLICATE_REASONS = ("wording", "same-key", "restated", "reworded")


GROUPED = ("wording", "same-key", "reworded")  # one fact said again; "restated" is a part of a long card


def _copies(card: Card, ctx: LintContext, direct: list[Pair]) -> list[str]:
    """Every other card of `card`'s duplicate group, sorted: its partners, and the cards reachable
    from it over pairs of one fact said again. A long card that restates several short ones
    (a sub-index, a topic page) joins none of them into a group."""
    seen = {card.path}
    todo = [card.path]
    while todo:
        path = todo.pop()
        for pair in ctx.pairs.get(path, ()):
            if pair.kind != "duplicate" or pair.reason not in GROUPED:
                continue
            for other in (pair.a.path, pair.b.path):
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
    return sorted((seen | {c.path for p in direct for c in (p.a, p.b)}) - {card.path})


def duplicate(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The same fact as another live card, however reworded: one slot, one value.

    Two copies drift apart and one of them goes stale. Keep the better-described card
    (consolidation merges them, recording `merged_from`) and archive the other. Cards in
    two scopes (`path:apps/web`, `path:services/api`) and two values of a key listed in
    `multi_valued_keys` are different facts, never duplicates. Two long cards (research
    notes, long how-tos) whose titles, contents and vocabularies agree are one document
    saved twice. When each copy says something the other does not, consolidation keeps
    the canonical card's text and adds the rest under "## Merged from …" (the message says
    so); a union too long for one card is left for you to merge by hand. Three or more
    copies are one group: each is reported once, with all the others in `related`.
    """
    direct = [p for p in ctx.pairs.get(card.path, ()) if p.kind == "duplicate" and p.reason in DUPLICATE_REASONS]
    if not direct:
        return
    pair = min(direct, key=lambda p: (p.b.path if p.a.path == card.path else p.a.path))
    other = pair.b if pair.a.path == card.path else pair.a
    detail = redact_words(pair.detail, pair.a.text, pair.b.text)
    copies = _copies(card, ctx, direct)
    group = f" (one of {len(copies) + 1} copies: {', '.join(copies)})" if len(copies) > 1 else ""
    yield Hit(description_line(card), f"{detail} as {other.path}{group}{_merged(pair)}", tuple(copies), "archive")


def _merged(pair: Pair) -> str:
    """What `cards consolidate` does with a pair of one fact (`meaning.union`: the planner asks the same)."""
    from cardindex.meaning.union import one_fact, pair_refused, union

    if pair.reason == "same-key" or not one_fact(pair):
        return ""
    refused = pair_refused(pair)
    if refused:
        return f"; too much for one card ({refused}): merge by hand"
    if union(pair.a, [pair.b]).body is not None or union(pair.b, [pair.a]).body is not None:
        return "; consolidate merges them into one card, keeping what each adds"
    return ""


def same_key(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Two live cards hold one single-valued `key` with different values.

    Only one can be current. Supersede the older one (`cards supersede OLD NEW`, or
    `cards consolidate`), or list the key in `multi_valued_keys` if it may hold many.
    """
    yield from _pairs(card, ctx, "contradiction", ("same-key",))


def opposite(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Two live cards say opposite things: a rule and its negation, or antonyms.

    ("Always squash-merge" and "Never squash-merge".) Time cannot decide which holds;
    ask the user, then archive the wrong one or mark both `status: conflict`.
    """
    yield from _pairs(card, ctx, "contradiction", ("polarity",))


def other_value(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Two live cards give different values for the same thing: a number, version, port, weekday, name or tool.

    ("Deploys happen on Thursdays" and "Deploys happen on Tuesdays"; one description
    with "Run one-off CLIs with pnpm dlx" and "… with bunx".) A value may be many words.
    Keep the current value, supersede the other.
    """
    yield from _pairs(card, ctx, "contradiction", ("value", "retired", "reworded", "slot"))  # "slot": `meaning.one_slot`
