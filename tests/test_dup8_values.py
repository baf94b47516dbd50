"""Two short cards that give one typed value in few shared words, through the CLI and the model (dup8).

The value of a statement is what could differ between two cards of one slot: an amount
with its unit, a time, a day, a version, a time zone. "The till locks after 30 minutes
without a sale" and "leave the register alone for half an hour and its screen locks" share
almost no words, yet give one duration for one slot: one fact, a duplicate. The same cards
with another value stay a contradiction, and the same value in another slot ("the ovens
take 30 minutes to heat") is no pair. The cards are a small bakery's memory, a domain the
dev corpora do not have.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import pair_findings, write_cards

from cardindex.meaning import restatement
from cardindex.meaning.value_forms import by_kind

Invoke = Callable[..., Result]

BACKGROUND = [
    ("bg-flour.md", "Where the bakery buys flour", "Flour comes from the Hollins mill every Tuesday."),
    ("bg-oven.md", "How long the ovens take to heat", "The two deck ovens need 30 minutes to reach baking heat."),
    ("bg-keys.md", "Who opens the shop in the morning", "Marta opens the shop and switches on the proofer."),
    ("bg-cash.md", "Where the cash float is kept", "The cash float sits in the safe under the counter."),
]

SAME = {
    "a duration said two ways": [
        ("lock-a.md", "When the shop till locks itself", "The till locks after 30 minutes without a sale."),
        ("lock-b.md", "Idle lock of the till screen",
         "leave the register untouched for half an hour and its screen locks")],
    "a time zone": [
        ("zone-a.md", "Time zone of the order timestamps", "Order timestamps are stored in UTC."),
        ("zone-b.md", "Which zone the order records keep their times in",
         "No local times in the order records: every time written there is UTC.")],
    "a percentage spelt out": [
        ("disc-a.md", "Staff discount on bread", "Staff get 20% off every loaf of bread."),
        ("disc-b.md", "What the staff pay for bread",
         "bread for the team: staff buy it at twenty percent below the shelf price")],
}

OTHER = {
    "another duration": [
        ("lock-a.md", "When the shop till locks itself", "The till locks after 30 minutes without a sale."),
        ("lock-b.md", "Idle lock of the till screen",
         "leave the register untouched for a quarter of an hour and its screen locks")],
    "another time zone": [
        ("zone-a.md", "Time zone of the order timestamps", "Order timestamps are stored in UTC."),
        ("zone-b.md", "Which zone the order records keep their times in",
         "No local times in the order records: every time written there is CET.")],
}


@pytest.mark.parametrize("case", sorted(SAME))
def test_one_typed_value_in_other_words_is_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                       make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {SAME[case][0][0], SAME[case][1][0]}
    assert {f["category"] for f in found} == {"duplicate"}


@pytest.mark.parametrize("case", sorted(OTHER))
def test_another_typed_value_is_never_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                  make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER[case]], make_card)
    assert [f for f in pair_findings(invoke) if f["category"] == "duplicate"] == []


def test_the_same_value_in_another_slot_is_no_pair(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, SAME["a duration said two ways"][0]], make_card)
    assert pair_findings(invoke) == []  # the ovens' 30 minutes and the till's 30 minutes are two facts


def test_the_finding_names_the_value(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME["a duration said two ways"]], make_card)
    details = {str(f["message"]) for f in pair_findings(invoke)}
    assert any("30 minutes" in d for d in details), details


def _content(description: str, body: str) -> restatement.Content:
    found = restatement._content(description, body)
    assert found is not None
    return found


def test_a_name_the_slot_says_is_no_value() -> None:
    a = _content("Which TTL idle kiosk sessions get", "Kiosk sessions die after 30 minutes idle (TTL in the config).")
    slot = frozenset(a.description.tokens)
    assert restatement.typed(a, slot) == {"duration": frozenset({"1800"})}


def test_numbers_no_kind_reads_still_differ() -> None:
    a = _content("Port of the label printer", "The label printer listens on port 9100 for the 30 minutes it is awake.")
    b = _content("Label printer network port", "label printer: 9101, awake 30 minutes")
    assert restatement.one_typed_value(a, b, {}) is None


def test_time_zones_are_read() -> None:
    assert by_kind("Stored in UTC, shown in CET.")["zone"] == {"utc+0", "utc+1"}
    assert by_kind("She is on KST (UTC+9)")["zone"] == {"utc+9"}
    assert "zone" not in by_kind("A STATUS page lists the outages.")


def test_an_hour_and_a_half_is_ninety_minutes() -> None:
    assert by_kind("the proofer stops after an hour and a half")["duration"] == {"5400"}
    assert by_kind("one and a half hours in the proofer")["duration"] == {"5400"}
    assert by_kind("two and a half days")["duration"] == {"216000"}


def test_meg_and_gig_are_sizes_after_digits_only() -> None:
    assert by_kind("photos over 8 meg are refused")["size"] == {str(8 * 1024 ** 2)}
    assert "size" not in by_kind("the bakery played three gigs at the fair")


def test_a_time_beside_the_day_is_more_precision_not_another_value() -> None:
    a = _content("When the display fridge is defrosted", "The display fridge is defrosted on Sundays around 22:00.")
    b = _content("Defrost day of the display fridge", "display fridge: defrost it every Sunday night")
    c = _content("Defrost day of the display fridge", "display fridge: defrost it every Monday night")
    assert restatement.one_typed_value(a, b, {}) is not None
    assert restatement.one_typed_value(a, c, {}) is None


def test_a_zone_alone_joins_no_cards_of_two_slots() -> None:
    a = _content("Start time of the dough mixer job", "The dough mixer job starts at 04:00 UTC.")
    b = _content("Time zone of the sales records", "Every sale is recorded in UTC.")
    assert restatement.one_typed_value(a, b, {}) is None
