"""Two means for one job (issue 14, known miss): "uses X for it" and "does it with Y" in one slot.

The value of "the web app uses pnpm for installs" is the tool, wherever the other card puts
its own ("installs packages with yarn"): one word swapped on each side, the rest the same
words in another order, and one side names its word as a means. Hard negatives: a verb
reworded ("sent by email" / "gets by email"), one means said twice in another order, an
adverb against its noun ("nightly" / "each night").
"""

from __future__ import annotations

from typing import Any

import pytest

from cardindex.meaning.similarity import find_pairs
from cardindex.store.card import Card


def _card(path: str, description: str, body: str) -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n---\n{body}\n")


def _kinds(a: tuple[str, str], b: tuple[str, str]) -> list[tuple[str, str]]:
    return [(p.kind, p.reason) for p in find_pairs([_card("a.md", *a), _card("b.md", *b)])]


@pytest.mark.parametrize(("a", "b"), [
    (("Kiln firing fuel", "The pottery kiln uses propane for firing."),
     ("Kiln firing fuel", "The pottery kiln does its firing with wood.")),
    (("Ferry ticket sales", "The ferry office uses cash for ticket sales."),
     ("Ferry ticket sales", "Ticket sales at the ferry office go through cards.")),
])
def test_two_means_in_one_slot_contradict(a: tuple[str, str], b: tuple[str, str]) -> None:
    assert _kinds(a, b) == [("contradiction", "value")]


@pytest.mark.parametrize(("a", "b"), [
    (("Where the minutes go", "Meeting minutes are sent by post to the parish council."),
     ("Where the minutes go", "The parish council gets the meeting minutes by post.")),
    (("Kiln firing fuel", "The pottery kiln uses propane for firing."),
     ("Kiln firing fuel", "Firing in the pottery kiln runs on propane.")),
    (("Greenhouse watering", "The nightly timer waters the greenhouse beds."),
     ("Greenhouse watering", "Each night the timer waters the greenhouse beds.")),
])
def test_one_means_reworded_stays_a_duplicate(a: tuple[str, str], b: tuple[str, str]) -> None:
    assert _kinds(a, b) == [("duplicate", "wording")]


def test_lint_reports_two_means_as_a_contradiction(invoke: Any, vault: Any, write_card: Any, make_card: Any) -> None:
    write_card(vault, "kiln-gas.md", make_card("Kiln firing fuel", body="The pottery kiln uses propane for firing."))
    write_card(vault, "kiln-wood.md", make_card("Kiln firing fuel", body="The pottery kiln does its firing with wood."))
    result = invoke("lint", "--select", "duplicate,contradiction")
    assert result.exit_code == 1
    assert "C103" in result.stdout and "'propan' vs 'wood'" in result.stdout, result.stdout
