"""A short card against one passage of a long topic page (issue 14, failure class 4 on real
vaults): another value in the passage about the card's slot is a contradiction; the same
value, a passage about another slot, or a value of another sort is not."""

from __future__ import annotations

from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.store.card import Card

PAGE = """# Night routine in the glasshouses

- Vents close at 21:00 each evening, before the heaters start.
- The heaters hold 16 °C until sunrise in the tomato house.
- Sensor logs are kept for 90 days on the farm server.
- The seed inventory is counted every Monday morning by the night curator.
- Irrigation pauses overnight unless the soil sensors report dry soil.
- Frost warnings go to the #frost channel and wake whoever is on duty.
- Doors of the cold room stay shut between 22:00 and 06:00.
"""


def card(path: str, description: str, body: str, extra: str = "") -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def page(extra: str = "") -> Card:
    return card("night-routine.md", "What happens in the glasshouses at night", PAGE, extra)


def kinds(short: Card, long: Card | None = None) -> set[str]:
    long = long or page()
    found = {p.kind for p in find_pairs([long, short]) if {p.a.path, p.b.path} == {long.path, short.path}}
    gate = {p.kind for p in pairs_with(short, [long]) if long.path in (p.a.path, p.b.path)}
    assert found == gate  # lint and the write gate: one model
    return found


def test_another_time_in_the_passage_about_the_card_is_a_contradiction() -> None:
    assert kinds(card("vents.md", "When the glasshouse vents close", "The vents close at 22:30.")) == {"contradiction"}


def test_another_weekday_in_the_passage_about_the_card_is_a_contradiction() -> None:
    found = kinds(card("count.md", "Day the seed inventory is counted", "The seed inventory is counted on Fridays."))
    assert found == {"contradiction"}


def test_the_same_value_as_the_passage_is_no_contradiction() -> None:
    assert "contradiction" not in kinds(card("vents.md", "When the glasshouse vents close",
                                             "The vents close at 21:00."))


def test_a_passage_about_another_slot_is_no_contradiction() -> None:
    assert kinds(card("footage.md", "How long camera footage is kept", "Camera footage is deleted after 14 days.")) == set()


def test_a_value_of_another_sort_is_no_contradiction() -> None:
    assert kinds(card("who.md", "Who closes the glasshouse vents", "Marta Kowalczyk closes the vents.")) == set()


def test_a_page_in_another_scope_is_another_fact() -> None:
    short = card("vents.md", "When the glasshouse vents close", "The vents close at 22:30.", "scope: path:east\n")
    assert kinds(short, page("scope: path:west\n")) == set()


def test_a_card_without_a_value_is_not_compared_with_passages() -> None:
    assert kinds(card("vents.md", "When the glasshouse vents close", "The vents close in the evening.")) == set()
