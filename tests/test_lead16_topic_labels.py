"""A description that only names a topic is one slot at most, never one value (lead, session 16).

Real memories often carry a bare label as their description ("layout", "cleanup", "handoff")
over a body that never repeats it. Two such cards whose labels nest ("billing" / "billing
notes") were called duplicates because, with no body anchored to its description, only the
descriptions were compared, and one held the other. Two facts filed under one topic are two
facts: whether they say one thing is for their bodies to show. Cards of a community
garden's memory, a domain unlike the corpora's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import pair_findings, write_cards

Invoke = Callable[..., Result]

BACKGROUND = [
    ("bg-keys.md", "Who holds the shed keys", "Marta and Jonas hold the two shed keys."),
    ("bg-fee.md", "Plot fee of the garden", "Each plot costs 30 euros a season."),
    ("bg-water.md", "When the water is turned on", "The mains water is turned on in the first week of April."),
    ("bg-compost.md", "Where compost goes", "Green waste goes in the left bay, woody waste in the right one."),
]

APART = {
    "nested labels, two facts": [
        ("tools-a.md", "tools", "The wheelbarrows are chained behind the greenhouse at night."),
        ("tools-b.md", "tools rota", "Whoever borrows the hedge trimmer signs the sheet on the shed door.")],
    "one label, two facts": [
        ("events-a.md", "events", "The harvest supper is held on the last Saturday of September."),
        ("events-b.md", "events", "Seed swaps happen in the greenhouse every February.")],
    "a label over a checklist and a label over a sentence": [
        ("jobs-a.md", "spring jobs", "- [x] prune the raspberries\n- [x] mend the rabbit fence\n- [ ] sow the beans"),
        ("jobs-b.md", "jobs", "Volunteers who take a plot agree to two work mornings a year.")],
}

# One topic, one card's rule and another card's news: nothing beyond the topic's words in common, so no
# place holds one value in one card and another in the other. Two days under one topic still are two values.
NO_PLACE = [("meet-a.md", "recording member meetings", "Meetings with members are recorded only with their written consent."),
            ("meet-b.md", "member meeting", "The member meeting moved to Thursday; I still owe them the plot map.")]
TWO_DAYS = [("skip-a.md", "skip collection day", "The green skip is collected on Mondays."),
            ("skip-b.md", "skip collection day", "The green skip is collected on Fridays.")]

SAME = {
    "one label, one fact in other words": [
        ("gate-a.md", "gate", "The front gate code is changed on the first of every month."),
        ("gate-b.md", "gate", "On the first day of each month we change the code of the front gate.")],
}


@pytest.mark.parametrize("case", sorted(APART))
def test_two_facts_under_one_topic_are_no_duplicate(case: str, vault: Path, invoke: Invoke,
                                                    make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *APART[case]], make_card)
    assert [f for f in pair_findings(invoke) if f["category"] == "duplicate"] == []


@pytest.mark.parametrize("case", sorted(SAME))
def test_one_fact_under_one_topic_is_still_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                       make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {SAME[case][0][0], SAME[case][1][0]}
    assert {f["category"] for f in found} == {"duplicate"}


def test_two_facts_under_one_topic_are_no_contradiction(vault: Path, invoke: Invoke,
                                                        make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *NO_PLACE], make_card)
    assert [f for f in pair_findings(invoke) if f["category"] == "contradiction"] == []


def test_two_values_in_one_place_stay_a_contradiction(vault: Path, invoke: Invoke,
                                                      make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *TWO_DAYS], make_card)
    assert {f["category"] for f in pair_findings(invoke)} == {"contradiction"}
