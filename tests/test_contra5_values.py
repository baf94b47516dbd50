"""Values in their normal form (`meaning.value_forms`) and the masked slot (`meaning.one_slot`), as units.

Issue 14, classes 1, 3 and 5, fifth pass: one value written two ways is one value ("30 s" /
"thirty seconds"); two values of one kind are two; what remains with the values masked is
the slot. Cases in a brewery's and a public library's words.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardindex.meaning import one_slot, similarity
from cardindex.meaning.value_forms import by_kind, masked
from cardindex.meaning.words import statement
from cardindex.store.card import Card


def card(rel: str, description: str, body: str) -> Card:
    return Card.from_text(rel, f"---\ndescription: {description}\ntype: project\n---\n{body}\n")


@pytest.mark.parametrize(("left", "right"), [
    ("The mash rests for 30 s.", "The mash rests for thirty seconds."),
    ("The mash rests for 30 s.", "The mash rests for half a minute."),
    ("Patron exports are capped at 2 GB.", "Patron exports are capped at 2048 MB."),
    ("The branch opens every weekday.", "The branch opens Monday to Friday."),
    ("The branch opens Mon-Fri.", "The branch opens every weekday."),
    ("The kiosk runs Node 22.", "The kiosk runs node v22."),
    ("Deliveries arrive at 3:30 pm.", "Deliveries arrive at 15:30."),
    ("Sessions expire after 1800 seconds.", "Sessions expire after 30 minutes."),
    ("The taproom needs two approvals.", "The taproom needs 2 approvals."),
])
def test_one_value_written_two_ways_is_one_normal_form(left: str, right: str) -> None:
    a, b = by_kind(left), by_kind(right)
    assert a and a == b


@pytest.mark.parametrize(("left", "right"), [
    ("Backups run at 02:00.", "Backups run at 03:30."),
    ("The mash rests for 30 s.", "The mash rests for two minutes."),
    ("The branch opens on Tuesdays.", "The branch opens on Thursdays."),
    ("Patron exports are capped at 2 GB.", "Patron exports are capped at 200 MB."),
    ("The kiosk runs Node 22.", "The kiosk runs Node 18."),
])
def test_two_values_of_one_kind_differ(left: str, right: str) -> None:
    a, b = by_kind(left), by_kind(right)
    assert a.keys() == b.keys() and a != b


def test_masking_leaves_the_slot_and_names_the_kind() -> None:
    assert " ".join(masked("Backups run at 02:00 for 45 minutes").split()) == "Backups run at <time> for <duration>"


def test_examples_are_no_values() -> None:
    # "e.g." and a list after a colon illustrate a rule; they are not the value it states
    assert by_kind("Name hop lots `<farm>-<year>` (e.g. `yakima-2026`).") == {"code": frozenset({"<farm>-<year>"})}
    assert by_kind("Keys are kebab-case with the site as prefix: `north-lab`, `south-lab`.") == {}


def test_words_that_look_like_days_or_numbers_are_no_values() -> None:
    assert "days" not in by_kind("She sat down in the sun.")
    assert "count" not in by_kind("One of them reviews it.")


@given(st.integers(min_value=1, max_value=500))
def test_minutes_and_seconds_of_one_duration_are_equal(n: int) -> None:
    assert by_kind(f"It waits {n} minutes.") == by_kind(f"It waits {n * 60} seconds.")


@given(st.integers(min_value=0, max_value=23), st.integers(min_value=0, max_value=59))
def test_a_clock_time_masks_to_one_placeholder(hour: int, minute: int) -> None:
    text = f"The sync starts at {hour:02d}:{minute:02d} sharp."
    assert by_kind(text) == {"time": frozenset({f"{hour:02d}:{minute:02d}"})}
    assert not any(ch.isdigit() for ch in masked(text))


BACKGROUND = [
    card("bg1.md", "Where the hop contracts are filed", "Hop contracts are filed in the brewery's shared drive."),
    card("bg2.md", "Who signs off a new recipe", "A new recipe is signed off by the head brewer."),
    card("bg3.md", "Printer for the library's reserve slips", "Reserve slips print on the counter printer."),
    card("bg4.md", "Which card readers the branches use", "Every branch uses the same RFID card reader."),
    card("bg5.md", "How the taproom tills are closed", "The tills are closed by whoever locks up."),
]


def judge(a: Card, b: Card) -> one_slot.Verdict | None:
    """`one_slot.judge` with the words' rarity as a small vault gives it."""
    weight = similarity.weights([statement(c) for c in [*BACKGROUND, a, b]])
    return one_slot.judge(a, b, weight, described=False)


def test_one_slot_other_wording_another_value_is_a_contradiction() -> None:
    a = card("a.md", "When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.")
    b = card("b.md", "Nightly catalogue sync time", "The nightly catalogue sync starts at 04:15.")
    verdict = judge(a, b)
    assert verdict is not None and verdict.kind == "contradiction" and verdict.of == "time"
    assert "01:00" in verdict.detail and "04:15" in verdict.detail


def test_one_time_in_two_slots_is_no_contradiction() -> None:
    a = card("a.md", "When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.")
    b = card("b.md", "When the overdue notices are mailed", "Overdue notices are mailed at 04:15.")
    assert judge(a, b) is None


def test_a_subject_swapped_in_one_description_is_two_slots() -> None:
    a = card("a.md", "Upload limit for patron photos", "Patron photos may be up to 5 MB.")
    b = card("b.md", "Upload limit for event posters", "Event posters may be up to 10 MB.")
    assert judge(a, b) is None


def test_two_questions_are_two_slots() -> None:
    a = card("a.md", "Who cleans the fermenters", "The fermenters are cleaned by the night brewer.")
    b = card("b.md", "When the fermenters are cleaned", "The fermenters are cleaned at 06:00 by Ines.")
    assert judge(a, b) is None


def test_one_value_said_two_ways_in_one_slot_is_one_value() -> None:
    a = card("a.md", "How long the taproom card terminal waits", "The taproom card terminal times out after 30 seconds.")
    b = card("b.md", "Timeout of the card terminal in the taproom", "In the taproom the card terminal gives up after half a minute.")
    verdict = judge(a, b)
    assert verdict is not None and verdict.kind == "one-value"


def test_a_long_card_is_left_to_documents() -> None:
    long_body = "\n".join(f"- step {i}: check the valve" for i in range(10)) + "\nThe sync runs at 04:15."
    a = card("a.md", "When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.")
    b = card("b.md", "Nightly catalogue sync time", long_body)
    assert judge(a, b) is None


def test_a_quoted_name_is_a_value() -> None:
    a = card("a.md", "Where the branch keeps its shared passwords", "Shared passwords live in the vault \"Desk-Team\".")
    b = card("b.md", "Where shared passwords of the branch are kept", "The branch keeps shared passwords in Bitwarden.")
    assert by_kind(one_slot.prose(a) or "") == {"name": frozenset({"desk-team"})}
    verdict = judge(a, b)
    assert verdict is not None and verdict.kind == "contradiction" and verdict.of == "name"
