"""Session-start context: what an agent should read first, within a character budget.

Live cards whose scope matches where the agent works, most important first (locked,
then conflicts, then user and feedback, then the newest evidence), each as its
description and its fact. A conflict is shown once with every side and a "verify
before acting" mark. A card in conflict with a *locked* one is not a side: the user
stated the locked card (SPEC §7: it holds, and a newer card disagreeing with it becomes
the conflict), so the locked card is shown as the fact with a line naming the cards that
dispute it, and their value is not given as a competing fact. Expired, stale (older than
`max_age`), superseded and archived cards are left out. When the budget runs out, a last line says how many cards were
left out and how to find them.

A card holding a secret (`withhold.holding_secrets`: `has_secret` over its whole text) is withheld, and a
line after the header says how many were and to run `cards lint`: this text is loaded
into every agent session (and often written to a file), so a secret is not redacted
here but kept out. Everything else passes `redaction.shown`, which escapes control
characters.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.agents.facts import conflict_order, fact
from cardindex.agents.scopes import scope_matches
from cardindex.index.build import by_type_first
from cardindex.index.withhold import holding_secrets
from cardindex.redaction import printable, shown, shown_data
from cardindex.store.card import Card, id_list
from cardindex.store.remembered import Memo, digest
from cardindex.store.vault import Vault, today

DEFAULT_BUDGET = 6000
RESERVE = 120  # room kept for the closing "N more" line


class Item(NamedTuple):
    """One entry of the context: a card, or a conflict with all its sides."""

    cards: tuple[Card, ...]
    conflict: bool
    text: str
    disputed_by: tuple[Card, ...] = ()  # newer cards in conflict with this locked one (not shown as facts)


class Context(NamedTuple):
    text: str
    items: list[Item]
    omitted: list[Card]
    scope: str | None
    as_of: dt.date
    withheld: tuple[Card, ...] = ()


def entry(card: Card) -> str:
    said = fact(card)
    tag = "locked, " if card.locked else ""
    line = f"- {card.description} ({tag}{card.type}: {card.path})"
    return shown(f"{line}\n  {said}" if said and said != card.description else line)


def withheld_line(count: int) -> str:
    """What `cards context` says in place of the cards it withheld for holding a secret."""
    held = "1 card withheld: it holds" if count == 1 else f"{count} cards withheld: they hold"
    return f"({held} a secret; run `cards lint`)"


def build(
    cards: Sequence[Card],
    *,
    today: dt.date,
    scope: str | None = None,
    budget: int = DEFAULT_BUDGET,
    max_age: Mapping[str, int] | None = None,
    repo_name: str | None = None,
    header: str = "",
    state_dir: Path | None = None,
    relevance: Mapping[str, float] | None = None,
) -> Context:
    """Choose and render the context from `cards` (the live folders, as of `today`).

    `state_dir`: the vault's `.cardindex/`, where which cards hold a secret is remembered.
    `relevance` (path -> score, from `cards context --query`): the cards it scores come
    first, best first; the rest follow in the usual order while the budget lasts.
    """
    max_age = max_age or {}
    live = [
        c for c in cards
        if c.live(today) and scope_matches(c.scope, scope, repo_name) and not _too_old(c, today, max_age)
    ]
    secret = holding_secrets(live, state_dir)
    withheld = tuple(c for c in live if c.path in secret)
    live = [c for c in live if c.path not in secret]
    live.sort(key=by_type_first)
    if relevance:
        live.sort(key=lambda c: -relevance.get(c.path, -1.0))  # stable: unmatched cards keep their order
    by_id = {c.id: c for c in live}
    disputes = _disputes(live, by_id)
    disputing = {c.id for cards in disputes.values() for c in cards}
    everyone = live  # the disputing cards are placed with their locked card, or left out with it
    live = [c for c in live if c.id not in disputing]
    chosen: list[Item] = []
    placed: set[str] = set()
    header = printable(header)
    if withheld:
        header += withheld_line(len(withheld)) + "\n"
    used = len(header)
    for pos, card in enumerate(live):
        if card.id in placed:
            continue
        item = _item(card, by_id, placed, disputes.get(card.id, ()))
        # Room for this item, and for the closing "N more" line unless nothing would be left.
        rest = len(live) - pos - len(item.cards)
        if used + len(item.text) + 1 + (RESERVE if rest > 0 else 0) > budget:
            break
        placed.update(c.id for c in item.cards)
        chosen.append(item)
        used += len(item.text) + 1
    placed |= {c.id for item in chosen for c in item.disputed_by}
    omitted = [c for c in everyone if c.id not in placed]
    parts = [header] if header else []
    parts += [item.text for item in chosen]
    if omitted:
        parts.append(f"({len(omitted)} more card(s) left out to fit {budget:,} characters: `cards search QUERY` finds them)")
    return Context("\n".join(parts) + "\n" if parts else "", chosen, omitted, scope, today, withheld)


def _sides(card: Card, by_id: Mapping[str, Card]) -> list[Card]:
    """The live cards a conflict card names in `conflicts_with`."""
    layer = card.path.partition(":")[0] + ":" if ":" in card.path else ""  # a card of another vault names its sides there
    named = [layer + i if layer + i in by_id else i for i in id_list(card.fields.get("conflicts_with"))]
    return [by_id[i] for i in named if i in by_id]


def _disputes(live: Sequence[Card], by_id: Mapping[str, Card]) -> dict[str, tuple[Card, ...]]:
    """Locked card id -> the unlocked conflict cards that name it: notes disputing what the user stated."""
    out: dict[str, list[Card]] = {}
    for card in live:
        if card.status == "conflict" and not card.locked:
            for side in _sides(card, by_id):
                if side.locked:
                    out.setdefault(side.id, []).append(card)
    return {k: tuple(v) for k, v in out.items()}


def disputed_line(cards: Sequence[Card]) -> str:
    names = ", ".join(c.path for c in cards)
    return (f"  disputed by {names}: unresolved; the locked card holds "
            f"(`cards show` to read, `cards archive` or `cards supersede` to settle)")


def _item(card: Card, by_id: Mapping[str, Card], placed: set[str], disputed_by: Sequence[Card] = ()) -> Item:
    if card.status != "conflict":
        text = entry(card)
        if disputed_by:
            text += "\n" + shown(disputed_line(disputed_by))
        return Item((card,), False, text, tuple(disputed_by))
    sides = [card, *(c for c in _sides(card, by_id) if c.id not in placed)]
    sides.sort(key=conflict_order)  # what the user locked first, then the newest evidence
    body = "\n".join(entry(c) for c in sides)
    return Item(tuple(sides), True, f"- CONFLICT, verify before acting ({len(sides)} sides):\n" + _indent(body))


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _too_old(card: Card, today: dt.date, max_age: Mapping[str, int]) -> bool:
    limit = max_age.get(card.type or "")
    return limit is not None and card.evidence is not None and (today - card.evidence).days > limit


def as_json(ctx: Context) -> dict[str, Any]:
    def card_json(c: Card) -> dict[str, Any]:
        return {
            "id": c.id, "path": c.path, "type": c.type, "description": c.description, "fact": fact(c),
            "key": c.key, "scope": c.scope, "status": c.status, "lock": c.locked,
            "evidence": c.evidence.isoformat() if c.evidence else None,
        }

    out = {
        "as_of": ctx.as_of.isoformat(),
        "scope": ctx.scope,
        "chars": len(ctx.text),
        "items": [{"conflict": i.conflict, "cards": [card_json(c) for c in i.cards],
                   "disputed_by": [c.id for c in i.disputed_by]} for i in ctx.items],
        "omitted": [c.id for c in ctx.omitted],
        "withheld": [c.id for c in ctx.withheld],
        "text": ctx.text,
    }
    return shown_data(out)  # type: ignore[return-value]


def render(
    vault: Vault,
    *,
    scope: str | None = None,
    budget: int = DEFAULT_BUDGET,
    as_of: dt.date | None = None,
    output_format: str = "text",
    query: str | None = None,
    others: Sequence[Vault] = (),
) -> str:
    """The session-start context as text or JSON: what `cards context` prints and the MCP tool returns.

    `others` (a user-level vault, say) are read beside `vault`: their cards join the same
    ranking and budget, each named `FOLDER:ID` after its vault's folder.
    """
    day = as_of or today()
    memo = None
    if as_of is None:  # an unchanged vault answers from the memo without loading a card
        prints = [v.fingerprint() for v in (vault, *others)]
        key = None if None in prints else digest(*prints, day.isoformat(), vault.config, scope, budget,
                                                 output_format, str(vault.root), query,
                                                 *(str(v.real_root) for v in others))
        memo = Memo(vault.state_dir / "cache" / "context.marshal", key)
        remembered = memo.get()
        if isinstance(remembered, str):
            return remembered
    if as_of is not None:
        from cardindex.lifecycle.asof import live_at

        cards = live_at(vault, as_of)
    else:
        cards = vault.cards
    layered = [(f"{other.root.name}:", other, other.cards) for other in others]
    when = f"as of {day.isoformat()}" if as_of else day.isoformat()
    where = f", scope {scope}" if scope else ""
    task = ""
    relevance = None
    if query is not None and query.strip():
        from cardindex.agents.search import relevance as rank_cards

        task = f", ranked for: {' '.join(query.split())}"
        relevance = rank_cards(vault, query, cards if as_of is not None else None)
        for label, other, _ in layered:
            relevance.update((label + path, score) for path, score in rank_cards(other, query).items())
    for label, _, theirs in layered:
        cards = [*cards, *(c._replace(path=label + c.path) for c in theirs)]
    also = "".join(f", with {label[:-1]}" for label, _, _ in layered)
    header = f"# Memory (cards context, {when}{where}{task}{also})\n"
    built = build(cards, today=day, scope=scope, budget=budget, max_age=vault.config.max_age,
                          repo_name=_repo_name(vault), header=header, state_dir=vault.state_dir, relevance=relevance)
    text = json.dumps(as_json(built), indent=1, ensure_ascii=False) + "\n" if output_format == "json" else built.text
    if memo is not None:
        memo.put(text)
    return text


def _repo_name(vault: Vault) -> str | None:
    root = vault.repo_root()
    return root.name if root else None
