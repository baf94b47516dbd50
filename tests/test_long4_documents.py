"""One document written three times (issue 14: groups of three; two research notes of one
subject each found with a fuller third). Two copies each found with a third are a pair
too when their titles name one subject and their vocabularies are alike; two halves of
one long document, each restating a part of it, are not."""

from __future__ import annotations

from cardindex.meaning.documents import ALIKE, Documents
from cardindex.meaning.similarity import find_pairs
from cardindex.store.card import Card

FULL = """# Pressing cider at Orchard Lane

- Apples are washed in the stone trough before they reach the mill.
- The mill grinds the apples to a coarse pomace, never to a paste.
- Pomace rests for two hours so the juice darkens before pressing.
- The rack and cloth press takes eight layers of pomace per pressing.
- Juice runs into food-grade barrels through a linen sieve.
- Wild yeast ferments the juice; no sulphite is added at the press.
- Barrels are racked off the lees after the first hard frost.
- Pressing days are booked on the barn calendar a week ahead.
"""

MILL = """# Orchard Lane cider pressing: the mill

- Wash the apples in the stone trough before milling.
- Grind to a coarse pomace with the mill, not a paste.
- Let the pomace rest two hours before it is pressed so the juice darkens.
- Eight layers of pomace go into the rack and cloth press each pressing.
- The mill is cleaned with cold water only, at the end of the day.
- Spare mill blades hang on the barn wall beside the trough.
"""

BARRELS = """# Orchard Lane cider pressing: the barrels

- The juice goes into food-grade barrels through the linen sieve.
- Fermentation is by wild yeast; the press adds no sulphite.
- After the first hard frost the barrels are racked off the lees.
- Book pressing days on the barn calendar one week ahead.
- Barrel bungs are boiled before every use in the season.
- Empty barrels are stored upside down in the cool north shed.
"""

RETOLD = """# Orchard Lane cider pressing, retold

- Apples get a wash in the stone trough, then go to the mill.
- Milling gives a coarse pomace; a paste is a mistake.
- The pomace rests two hours and the juice darkens.
- Each pressing stacks eight layers of pomace in the rack and cloth press.
- A linen sieve strains the juice into food-grade barrels.
- The juice ferments on wild yeast, without sulphite.
"""


def card(path: str, description: str, body: str) -> Card:
    return Card.from_text(path, f"---\nname: {path[:-3]}\ndescription: {description}\ntype: reference\n---\n{body}")


def duplicates(cards: list[Card]) -> set[frozenset[str]]:
    return {frozenset((p.a.path, p.b.path)) for p in find_pairs(cards) if p.kind == "duplicate"}


def test_two_halves_of_one_document_are_not_duplicates_of_each_other() -> None:
    cards = [card("cider-pressing.md", "How cider is pressed at Orchard Lane: mill, press, barrels, booking", FULL),
             card("cider-pressing-mill.md", "How cider is pressed at Orchard Lane: washing, milling, pressing", MILL),
             card("cider-pressing-barrels.md", "How cider is pressed at Orchard Lane: barrels, yeast, racking", BARRELS)]
    found = duplicates(cards)
    assert frozenset(("cider-pressing.md", "cider-pressing-mill.md")) in found  # each half restates the whole
    assert frozenset(("cider-pressing-mill.md", "cider-pressing-barrels.md")) not in found  # but not each other


def test_two_copies_each_found_with_a_third_are_one_document() -> None:
    cards = [card("cider-pressing.md", "How cider is pressed at Orchard Lane", FULL),
             card("cider-pressing-notes.md", "Notes on how cider is pressed at Orchard Lane",
                  RETOLD.replace("retold", "notes").replace("without sulphite", "and nothing is added")),
             card("cider-pressing-retold.md", "How cider is pressed at Orchard Lane, retold", RETOLD)]
    docs = Documents(cards)
    assert docs.cosine(1, 2) >= 0.2  # one vocabulary
    added = docs._third([(0, 1, 60.0), (0, 2, 70.0)], None)
    assert added == [(1, 2, 60.0)]  # the weaker link's score
    assert docs._third([(0, 1, 60.0), (0, 2, 70.0)], {(0, 1), (0, 2)}) == []  # the write gate asks about one card


# ---------------------------------------------------------------- one vocabulary through and through

OVEN_CARE = """# Deck oven care at the Millrace bakery

- The deck oven is brushed out every evening once the stones have cooled below 80 degrees.
- Baking stones are never washed with water; a cracked stone is replaced, not glued.
- The steam injector is descaled on the first Monday of each month with citric acid.
- Door seals are checked weekly; a torn seal lets the bottom deck run cold.
- The thermocouple for each deck is calibrated against a probe every quarter.
- Ash and flour dust under the decks are vacuumed on Saturdays after the last bake.
- Burner service is booked with the gas engineer each autumn before the busy season.
"""

OVEN_JOBS = """# Millrace bakery deck oven: weekly and monthly jobs

- Every evening, once the stones are below 80 degrees, brush the decks out.
- Never put water on the baking stones; replace a cracked stone rather than glue it.
- Descale the steam injector with citric acid on the first Monday of the month.
- Check the door seals each week, since a torn seal leaves the bottom deck cold.
- Each quarter, calibrate every deck thermocouple against a probe.
- On Saturdays after the last bake, vacuum the ash and flour dust from under the decks.
- Book the gas engineer for the burner service every autumn, ahead of the busy season.
"""

OVEN_BUYING = """# Millrace bakery deck oven: buying the next one

- Quotes came from three makers; two build stone decks, one steel decks only.
- The new oven must fit through the back door, which is 1.1 metres wide.
- Three-phase power is already in the bake room; gas would need a new meter.
- A stone deck holds heat for the long bake of rye; steel recovers faster between loads.
- The bank wants the quote and the installer's insurance before it lends.
- The old oven is sold to the bakery school in town once the new one is fired.
"""


def oven(path: str, name: str, description: str, body: str) -> Card:
    return Card.from_text(path, f"---\nname: {name}\ndescription: {description}\ntype: reference\n---\n{body}")


def test_two_notes_of_one_subject_and_one_vocabulary_are_one_document() -> None:
    # Each description is held less by the other than `MUTUAL` asks, but the bodies say one list again.
    care = oven("deck-oven-care.md", "Deck oven care", "Stones, steam injector, seals and burners of the deck oven",
                OVEN_CARE)
    jobs = oven("deck-oven-jobs.md", "Deck oven jobs", "Which jobs keep the deck oven stones and seals in order, and when",
                OVEN_JOBS)
    docs = Documents([care, jobs])
    assert docs.cosine(0, 1) >= ALIKE
    assert {(p.kind, p.reason) for p in find_pairs([care, jobs])} == {("duplicate", "restated")}


def test_one_subject_with_another_vocabulary_is_two_notes() -> None:
    care = oven("deck-oven-care.md", "Deck oven care", "Stones, steam injector, seals and burners of the deck oven",
                OVEN_CARE)
    buying = oven("deck-oven-buying.md", "Deck oven buying", "Which deck oven the bakery buys next, stone or steel",
                  OVEN_BUYING)
    assert Documents([care, buying]).cosine(0, 1) < ALIKE
    assert find_pairs([care, buying]) == []
