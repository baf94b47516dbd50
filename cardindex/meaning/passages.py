"""Passages: a short card that one passage of a long card contradicts.

A topic page (an on-call handbook, a storage lifecycle, a table of environments) states
many facts, one per bullet, row or paragraph. A short card about one of them may give
another value: "On-call handover is Tuesday at 10:00" against the handbook's bullet "The
rotation hands over on Monday at 10:00 CET". Comparing the whole texts finds nothing (the
page is about much more), so the page is compared passage by passage:

- the passage is **about the card's slot**: it holds most of the card's description
  (rarity-weighted, with the page's title) and most of the other words of its fact;
- and it gives **another value of one sort** (`values.kind`): a weekday against a
  weekday, a number against a number, a name against a name (names in English only),
  while the card's own value is nowhere in the passage. A passage is short (a bullet, a
  row, a sentence-sized paragraph) and gives one or two such values: a paragraph naming
  a dozen things states no one value. Paths and hosts are left out: a passage names files
  it refers to far more often than it gives a slot's value.

Found pairs are contradictions with reason "value" (C103); consolidation leaves both cards
as they are (`lifecycle.decide.apart`: a page and a card share too few words for one slot),
so the user decides which holds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from cardindex.meaning import slots
from cardindex.meaning.documents import MIN_UNIT_WORDS, Documents, units, weigher
from cardindex.meaning.values import equivalent, kind
from cardindex.meaning.words import Statement, Words, words
from cardindex.store.card import Card

HELD = 0.6  # rarity-weighted share of the card's description that the passage (with the page's title) holds
SAID = 0.5  # and share of the card's fact words, values aside, that the passage says
PAGES = 40  # a description word in more pages than this does not find the pages to read
PASSAGE_WORDS = 30  # a passage of more words is a paragraph of many facts: it states no one value
OTHER_VALUES = 2  # nor does a passage that gives more values of the sort than this

__all__ = ["contradicted"]


def contradicted(cards: Sequence[Card], statements: Sequence[Statement], docs: Documents,
                 weight: Mapping[str, float], wanted: set[tuple[int, int]] | None = None) -> list[tuple[int, int, str]]:
    """(i, j, detail): short card i gives another value than one passage of long card j."""
    if not docs.docs:
        return []
    w = weigher(weight)
    postings = docs.postings
    out = []
    for i, card in enumerate(cards):
        st = statements[i]
        if i in docs.docs or not st.fact.values:
            continue
        described = frozenset(st.description.tokens)
        if len(described) < 2:
            continue
        hits: dict[int, int] = defaultdict(int)
        for token in described:
            pages = postings.get(token, [])
            if len(pages) <= PAGES:
                for j in pages:
                    hits[j] += 1
        english = slots.english(card)
        plain = frozenset(st.fact.tokens) - st.fact.values - described
        for j in sorted(j for j, n in hits.items() if n >= 2):  # pages holding two of its description's words
            if wanted is not None and (min(i, j), max(i, j)) not in wanted:
                continue
            found = _passage(st, plain, cards[j], docs.docs[j].title, w, english and slots.english(cards[j]))
            if found:
                out.append((i, j, f"one passage of {cards[j].path} gives another value: {found}"))
    return out


def _passage(st: Statement, plain: frozenset[str], page: Card, title: frozenset[str],
             w: Callable[[frozenset[str]], float],
             names: bool) -> str | None:
    """The first passage of `page` about the slot of `st` that gives another value of one sort, quoted."""
    described = frozenset(st.description.tokens)
    mine = frozenset(st.all.tokens)
    for text in units(page.body):
        unit = words(text)
        said = frozenset(unit.tokens)
        if not MIN_UNIT_WORDS <= len(said) <= PASSAGE_WORDS or w(described & (said | title)) < HELD * w(described):
            continue
        if plain:
            unsaid, _ = equivalent(plain - said, said - plain, st.fact.tokens, unit.tokens)
            if w(plain - unsaid) < SAID * w(plain):
                continue
        found = _other(st.fact, unit, mine, said, names)
        if found:
            return found
    return None


def _other(fact: Words, unit: Words, mine: frozenset[str], said: frozenset[str], names: bool) -> str | None:
    """Values of one sort, the card's absent from the passage and the passage's absent from the card."""
    only_mine = {t for t in fact.values if t not in said}
    only_unit = {t for t in unit.values if t not in mine}
    for sort in ("calendar", "number", "version", "name"):  # paths and hosts are more often references than values
        if sort == "name" and not names:
            continue
        left = sorted(t for t in only_mine if kind(t) == sort)
        right = sorted(t for t in only_unit if kind(t) == sort)
        if left and right and len(right) <= OTHER_VALUES:
            return f"{' '.join(left)!r} vs {' '.join(right)!r}"
    return None

