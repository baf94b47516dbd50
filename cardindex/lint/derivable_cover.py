"""D105's card-level judgement: one or two repo passages hold most of what the card says, and it adds nothing.

The repo is a retrieval corpus (`meaning.repo_retrieval`): docs paragraphs and list items,
code comments and docstrings, config records. A card is a copy of the repo when the best
one or two passages hold `CARD_COVERED` of its weighted content stems and the rest brings
no outside reason, date or value: a sentence giving a reason (a why, a constraint,
someone's wish or decision), or dated, that the passages do not hold; a number they do
not hold. A reason the repo gives itself ("so messages published while it was down
still arrive") is the repo's. The message names the passages, file and line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardindex.lint.context import Hit
from cardindex.meaning.claims import Sentence
from cardindex.meaning.content import has_date
from cardindex.meaning.repo_facts import RepoFacts, Unit
from cardindex.meaning.repo_match import Cover
from cardindex.meaning.repo_retrieval import card_cover, passage_index, sentence_share, where
from cardindex.store.card import Card

CARD_COVERED = 0.7  # weighted share of the card's content stems the passages must hold
SENTENCE_HELD = 0.8  # a reason or dated sentence held at least this much is the repo's own
MIN_STEMS = 4  # a shorter claim is too little to judge


def covered_card(card: Card, repo: RepoFacts, said: Sequence[tuple[Sentence, set[str]]],
                 held: Mapping[Sentence, Cover]) -> Hit | None:
    """The finding for a card that one or two repo passages say, with nothing of its own.

    `held` gives the sentences that a passage, a config record or a block of records
    (`repo_match`) holds on its own: a card of a CI job's steps is said by one block,
    not by one passage.
    """
    said = [(s, stems) for s, stems in said if stems]
    if not said or sum(len(stems) for _, stems in said) < MIN_STEMS:
        return None
    index = passage_index(repo)
    cover = card_cover(index, [frozenset(stems) for _, stems in said], least=CARD_COVERED if not held else 0.0)
    if cover is None:
        return None
    units: dict[Unit, None] = dict.fromkeys(cover.units)
    together = set(cover.held)
    for sentence, stems in said:
        found = held.get(sentence)
        if found is not None and sentence_share(index, frozenset(stems), cover.held) < SENTENCE_HELD:
            together |= stems - found.missing
            units[found.unit] = None
    wanted = frozenset().union(*(stems for _, stems in said))
    if sentence_share(index, wanted, frozenset(together)) < CARD_COVERED:
        return None
    if any(stem[:1].isdigit() for stem in wanted - together):
        return None  # a number the repo does not give: another value, or one of the card's own
    for sentence, stems in said:
        if (sentence.reason or has_date(sentence.text)) and \
                sentence_share(index, frozenset(stems), frozenset(together)) < SENTENCE_HELD:
            return None  # a reason, constraint or date the repo does not hold
    shown = [u for u in units if together & set(u.stems.split())][:3]
    verb = "say" if len(shown) > 1 else "says"
    return Hit(said[0][0].line, f"{' and '.join(where(u) for u in shown)} already {verb} this", fix="archive")
