"""What two cards in one slot are to consolidation, whatever the detector called them.

`similarity.find_pairs` says which cards state the same fact ("duplicate") and which
cannot both hold ("contradiction"). The planner decides on the cards themselves, so its
decisions hold whatever the detector finds:

- **apart**: different scopes, or a multi-valued key with another value, are different
  facts: never merged, superseded or marked, even when a pair for them arrives. Two long
  documents (`meaning.documents`) on one subject, or a short card stated again in a long
  one, are one fact like any duplicate: the merge keeps what each card adds
  (`meaning.union`), and a union too long for one card is left to the user;
- **change**: a newer card that carries a change signal (`meaning.change`: "now", "no
  longer", "switched to", "instead of" the old value …) and states a value the older
  one lacks replaces it: supersede, never merge the new value into the older card. With
  the same evidence date, a signal that also names the other card's value decides;
- **same**: the same fact reworded: an edge of a duplicate group;
- otherwise two values of one slot that time cannot decide: a conflict.

Duplicate groups are the connected components of the "same" edges (three reworded
copies merge as one), less any card that contradicts another member. The canonical card
holds the newest value: when every copy gives the same values (names, numbers,
versions), each states it and the best described stays (`best`: it says why, a fuller
description, then the newest); otherwise (no values to compare, or some differ) the
newest stays (`evidence_order`: `verified`, else `created`, else Claude Code's
`modified`; a file's mtime says when it was copied, not when the fact held), equal dates
falling to the best described. A locked member is canonical whatever its date: it is
never archived.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cardindex.lifecycle.evidence import best, evidence_order
from cardindex.meaning.change import change_signal
from cardindex.meaning.similarity import Pair
from cardindex.meaning.slots import scope_of
from cardindex.meaning.union import notes
from cardindex.meaning.words import statement, words
from cardindex.store.card import Card


class Change(NamedTuple):
    """`newer` replaces `older` in their slot, because of `signal`."""

    newer: Card
    older: Card
    signal: str


def apart(pair: Pair, multi_valued: frozenset[str]) -> str | None:
    """Why the pair's cards are different facts whatever the detector said, or None."""
    a, b = pair.a, pair.b
    if scope_of(a) != scope_of(b):  # lint still reports a global card beside a scoped one; merging them is the user's call
        return f"different scopes ({a.scope}, {b.scope})"
    # A card that retires the other's value names its slot itself; a reworded card with one value
    # swapped was aligned whole (`meaning.restatement.revalued`); `meaning.one_slot` aligned a slot with its values masked.
    # Two long documents were compared passage by passage (`meaning.passages`, `meaning.statements`):
    # the passages that give one thing two values are the slot, whatever the titles say.
    if pair.kind == "contradiction" and pair.reason not in ("same-key", "retired", "reworded", "slot") \
            and not (a.key and a.key == b.key) and not one_place(a, b) and not notes(a, b):
        return "too few words in common for one slot"
    multi = [k for k in (a.key, b.key) if k and k in multi_valued]
    if multi and (pair.kind == "contradiction" or own_values(a, b)):
        return f"values of multi-valued key {multi[0]!r}"
    return None


PLACE_SHARE = 0.5  # of the words of two descriptions (or two fact sentences) that agree, for one slot


def one_place(a: Card, b: Card) -> bool:
    """Whether two cards without a shared key can fill one slot: most words of their
    descriptions, or of their fact sentences, agree.

    A value is a few words in a sentence that otherwise agrees ("Builds run on Jenkins" /
    "… on Buildkite"). Two research notes whose Title Case descriptions differ in most
    words ("Theming reference" / "Performance patterns") are two subjects, however the
    detector aligned them: marking them as a conflict would be a write on a guess.
    """
    sa, sb = statement(a), statement(b)
    for x, y in ((sa.description.tokens, sb.description.tokens), (sa.fact.tokens, sb.fact.tokens)):
        both, either = set(x) & set(y), set(x) | set(y)
        if either and len(both) >= PLACE_SHARE * len(either):
            return True
    return False


def values(card: Card) -> frozenset[str]:
    """The values (names, numbers, versions, dates) the card's statement gives."""
    return statement(card).all.values


def _own(a: Card, b: Card) -> frozenset[str]:
    """The values of `a` that `b` never mentions, as a value or as a plain word.

    Capitals make a value ("Britosar"); the other card writing it in lower case still
    mentions it.
    """
    return values(a) - frozenset(statement(b).all.tokens)


def own_values(a: Card, b: Card) -> bool:
    """Each card gives a value the other never mentions: two values, not one fact restated.

    When both descriptions name values and they agree ("… runs on PostgreSQL 15"), the
    descriptions state the fact, and what else a body compares it with is no other value.
    """
    da, db = statement(a).description, statement(b).description
    if da.values and db.values and not (da.values - set(db.tokens)) and not (db.values - set(da.tokens)):
        return False
    return bool(_own(a, b)) and bool(_own(b, a))


def _introduces(new: Card, old: Card) -> bool:
    """`new` states something `old` does not: a value, or (neither has one) a word of its fact."""
    if values(new) or values(old):
        return bool(_own(new, old))
    return bool(set(statement(new).fact.tokens) - set(statement(old).all.tokens))


def stated(card: Card) -> str:
    """Where a card states its fact: the description and the body's first paragraph.

    A change signal counts there only: a long reference card's history section ("renamed
    in 2024", "as of April") is not a change of what the card states.
    """
    paragraph = card.body.strip().split("\n\n", 1)[0].splitlines()[:6]
    return "\n".join([card.description, *paragraph])


def _names(new: Card, old: Card) -> bool:
    """`new` mentions what `old` states: one of its values ("… Jenkins is no longer used"),
    or, when it has none, every word of its fact ("… the paper rota is no longer used")."""
    said = set(words(stated(new)).tokens)
    if values(old):
        return bool(values(old) & said)
    fact = set(statement(old).fact.tokens)
    return bool(fact) and fact <= said


def signal(new: Card, old: Card) -> str | None:
    """The change signal `new` carries against `old`, when it also states something `old` lacks."""
    found = change_signal(stated(new), old=stated(old))
    return found if found and _introduces(new, old) else None


def change(a: Card, b: Card) -> Change | None:
    """Which of two cards in one slot replaced the other, as their texts and dates say; None: they do not say.

    A newer card with a change signal replaces the older one. With the same evidence
    date, only a signal that names the other card's value decides, and only on one side.
    """
    ea, eb = evidence_order(a), evidence_order(b)
    if ea != eb:
        newer, older = (a, b) if ea > eb else (b, a)
        found = signal(newer, older)
        return Change(newer, older, found) if found else None
    sides = [(x, y, s) for x, y in ((a, b), (b, a)) if (s := signal(x, y)) and _names(x, y)]
    return Change(*sides[0]) if len(sides) == 1 else None


def components(edges: Iterable[tuple[Card, Card]]) -> list[list[Card]]:
    """The connected components of `edges`, each sorted by path, in order of their first path."""
    parent: dict[str, str] = {}
    cards: dict[str, Card] = {}

    def root(path: str) -> str:
        while parent[path] != path:
            parent[path] = parent[parent[path]]
            path = parent[path]
        return path

    for a, b in edges:
        for card in (a, b):
            parent.setdefault(card.path, card.path)
            cards[card.path] = card
        ra, rb = root(a.path), root(b.path)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[Card]] = defaultdict(list)
    for path in sorted(parent):
        groups[root(path)].append(cards[path])
    return sorted(groups.values(), key=lambda g: g[0].path)


def contradicting(members: Sequence[Card], multi_valued: frozenset[str]) -> set[frozenset[str]]:
    """The paths of each two members of a duplicate group that contradict each other.

    A group joins cards through others ("90 days" ≈ "three months" ≈ "60 days" as a stale
    cache or a looser rule said): its ends were maybe never compared, and merging them
    would merge a value away. Each two members are compared by the one value judgement
    (`one_slot.values_conflict`: measured values of one kind that differ, a negation of
    what the other affirms), and a group of three or more by the detector too.
    """
    from cardindex.meaning.one_slot import values_conflict

    found = {frozenset((a.path, b.path)) for i, a in enumerate(members) for b in members[i + 1:]
             if not (a.key and a.key == b.key and a.key in multi_valued) and values_conflict(a, b) is not None}
    if len(members) < 3:
        return found
    from cardindex.meaning.similarity import find_pairs

    return found | {frozenset((p.a.path, p.b.path)) for p in find_pairs(members, multi_valued) if p.kind == "contradiction"}


def canonical(members: Sequence[Card]) -> Card:
    """The card a duplicate group merges into: a locked one; else, when every copy gives
    the same values, the best described (each states the newest value); else the newest."""
    locked = [c for c in members if c.locked]
    pool = locked or list(members)
    if one_value(pool):
        return best(pool)
    newest = max(evidence_order(c) for c in pool)
    return best(c for c in pool if evidence_order(c) == newest)


def one_value(cards: Sequence[Card]) -> bool:
    """Every card mentions every value any of them gives (and there is one): one value, restated."""
    given = frozenset().union(*(values(c) for c in cards))
    return bool(given) and all(given <= frozenset(statement(c).all.tokens) for c in cards)
