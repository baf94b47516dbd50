"""D105's card-level judgement: one or two repo passages hold most of what the card says, and it adds nothing.

The card's description is part of what it says: a body that the repo holds word for word
("It applies to every environment") under a description naming something the repo does
not know is about that thing. The repo is a retrieval corpus (`meaning.repo_retrieval`): docs paragraphs and list items,
code comments and docstrings, config records. A card is a copy of the repo when the best
one or two passages hold `CARD_COVERED` of its weighted content stems and the rest brings
no outside reason, date or value: a sentence giving a reason (a why, a constraint,
someone's wish or decision), or dated, that the passages do not hold; a number they do
not hold; a name (a person, a place, another system) no passage uses. A reason the repo gives itself ("so messages published while it was down
still arrive") is the repo's, and so is a rule it states ("never talks to Postgres
directly" for "must go through the store layer; never queries Postgres itself"). A card
that rewords its passages sentence by sentence (each sentence half theirs, the swapped
words weighing most because the repo never uses them) is covered at `REWORDED`. The
message names the passages, file and line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import Hit
from cardindex.meaning.claims import Sentence, only_rule
from cardindex.meaning.content import content_stems, has_date
from cardindex.meaning.repo_facts import RepoFacts, Unit
from cardindex.meaning.repo_match import Cover, UnitIndex
from cardindex.meaning.repo_retrieval import card_cover, passage_index, sentence_share, where
from cardindex.store.card import Card

CARD_COVERED = 0.7  # weighted share of the card's content stems the passages must hold
REWORDED = 0.55  # ... when every sentence of the card follows them in other words
FOLLOWED = 0.5  # the share of each of its sentences the passages must then hold
SENTENCE_HELD = 0.8  # a reason or dated sentence held at least this much is the repo's own
MIN_STEMS = 4  # a shorter claim is too little to judge
# A name: a capitalised word or an acronym that does not open its sentence ("the Brest gauges", "NTP", "Kenji").
_RULE_STEMS = frozenset(("not", "must", "alway", "onli", "should"))  # a passage holding one states a rule
_NAME = lazy_pattern(r"(?<![.!?:;]\s)(?<!^)(?<![\w`'/.-])([A-Z][a-z]+|[A-Z]{2,}[a-z]?)(?![\w`'/-])")


def outside_name(index: UnitIndex, text: str) -> str | None:
    """A name in `text` that no repo passage uses: a person, a place, another system (None if it has none)."""
    for m in _NAME.finditer(text.lstrip()):
        stems = content_stems(m.group(1))
        if stems and stems[0] not in index.df:
            return m.group(1)
    return None


def covered_card(card: Card, repo: RepoFacts, said: Sequence[tuple[Sentence, set[str]]],
                 held: Mapping[Sentence, Cover]) -> Hit | None:
    """The finding for a card that one or two repo passages say, with nothing of its own.

    `held` gives the sentences that a passage, a config record or a block of records
    (`repo_match`) holds on its own, as that judges it (a record by most of its own words
    and little else): a card of a CI job's steps is said by one block, not by one passage.
    """
    said = [(s, stems) for s, stems in said if stems]
    if not said or sum(len(stems) for _, stems in said) < MIN_STEMS:
        return None
    index = passage_index(repo)
    cover = card_cover(index, [frozenset(stems) for _, stems in said], least=REWORDED if not held else 0.0)
    if cover is None:
        return None
    units: dict[Unit, set[str]] = {u: set(cover.held & set(u.stems.split())) for u in cover.units}
    first_held: Unit | None = None
    together = set(cover.held)
    for sentence, stems in said:
        found = held.get(sentence)
        first_held = first_held or (found.unit if found is not None else None)
        if found is None:
            continue
        # Held as `repo_match` judges a sentence against one passage, record or block (a record with the few words
        # said around it), but a number it lacks is the card's own value ("exposes port 8443" beside FROM's image).
        own = {stem for stem in found.missing if stem[:1].isdigit()}
        if sentence_share(index, frozenset(stems), cover.held) < SENTENCE_HELD:
            together |= stems - own
            units[found.unit] = units.get(found.unit, set()) | (stems - own)
        else:
            # The passages hold most of it; what its record or block holds besides (EXPOSE's port beside FROM's
            # image) is the repo's too.
            together |= stems - found.missing
    wanted = frozenset().union(*(stems for _, stems in said))
    share = sentence_share(index, wanted, frozenset(together))
    if share < CARD_COVERED and not (share >= REWORDED and _followed(index, said, frozenset(together))):
        return None
    if any(stem[:1].isdigit() for stem in wanted - together):
        return None  # a number the repo does not give: another value, or one of the card's own
    if any(outside_name(index, sentence.text) for sentence, _ in said):
        return None  # someone or something the repo never names: the card is about them
    rule = any(_RULE_STEMS & set(u.stems.split()) for u in cover.units)
    for sentence, stems in said:
        if not (sentence.reason or has_date(sentence.text)):
            continue
        # A rule the passages state themselves ("never talks to Postgres directly") is theirs in other words too.
        least = FOLLOWED if rule and not has_date(sentence.text) and only_rule(sentence) else SENTENCE_HELD
        if sentence_share(index, frozenset(stems), frozenset(together)) < least:
            return None  # a reason, constraint or date the repo does not hold
    # A sentence one record or block holds is told by it, as `repo_match` found it; else the passages that hold most.
    shown = [first_held] if first_held is not None else _fewest(units)
    if len(shown) == 1:
        verb = "records" if shown[0].label else "says"
    else:
        verb = "say"
    return Hit(said[0][0].line, f"{' and '.join(where(u) for u in shown)} already {verb} this", fix="archive")


def _followed(index: UnitIndex, said: Sequence[tuple[Sentence, set[str]]], together: frozenset[str]) -> bool:
    """Whether every sentence of the card (its description too) is half the passages': it follows them in its own words.

    A card that rewords a passage ("written in the imperative mood and kept below 72
    characters" for "use the imperative mood and stay under 72 characters") loses the
    weight of the words it swapped, words the repo never uses and so weighs most; when no
    sentence of it is its own, `REWORDED` of its weight in the passages is a copy.
    """
    body = [stems for sentence, stems in said if not sentence.description and stems]
    # The description too: a body the repo holds under a description naming something it does not know is about that.
    return bool(body) and all(sentence_share(index, frozenset(stems), together) >= FOLLOWED for _, stems in said if stems)


def _fewest(units: dict[Unit, set[str]]) -> list[Unit]:
    """The fewest of `units` (at most three, each named once) that between them hold what they all hold.

    `units` maps each passage, record or block to the card's stems it holds.
    """
    shown: list[Unit] = []
    named: set[str] = set()
    left = set().union(*units.values())
    while left and len(shown) < 3:
        best = max(units, key=lambda u: len(left & units[u]))
        gained = left & units[best]
        if not gained:
            break
        left -= gained
        if where(best) not in named:
            named.add(where(best))
            shown.append(best)
    return shown or list(units)[:1]
