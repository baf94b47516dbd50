"""One document written three times (issue 14: groups of three; two research notes of one
subject each found with a fuller third). Two copies each found with a third are a pair
too when their titles name one subject and their vocabularies are alike; two halves of
one long document, each restating a part of it, are not."""

from __future__ import annotations

from cardindex.meaning.documents import Documents
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
