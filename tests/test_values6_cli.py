"""One value said two ways against two values, through the CLI (issue 14, classes 1-5, sixth pass).

Lint, the write gate of `cards add` and consolidation read one judgement: values compared by
kind and normal form ("2am" / "02:00" is one clock time, "5, 10 and 15 days" / "five, ten
and fifteen days" one list), and a negation that counts only when it denies what the other
card affirms. The cards are a small island ferry operator's memory, a domain unlike the corpora's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import pair_findings, write_cards

Invoke = Callable[..., Result]

BACKGROUND = [
    ("bg-tickets.md", "Where the ferry tickets are sold", "Tickets are sold at the harbour kiosk and on the app."),
    ("bg-skipper.md", "Who skippers the Saturday crossing", "Marta skippers the Saturday crossing."),
    ("bg-jackets.md", "Colour of the life jackets", "Crew life jackets are orange; passenger ones are yellow."),
    ("bg-ropes.md", "Where spare ropes are kept", "Spare mooring ropes are kept in the blue locker on pier 2."),
]

# One fact, its value written two ways: a duplicate.
SAME = {
    "a clock time, reworded": [
        ("lock-a.md", "Locking the boathouse", "The night porter locks the boathouse at 2am."),
        ("lock-b.md", "Boathouse lock-up time", "Whoever works the night shift locks up the boathouse, 02:00 sharp.")],
    "a clock time in a.m. and 24 hours": [
        ("lights-a.md", "When the harbour lights switch off", "Harbour floodlights go dark at 1 am to spare the seals."),
        ("lights-b.md", "Floodlight cut-off at the harbour",
         "To spare the seals the harbour floodlights are switched off at 01:00.")],
    "a list of days, spelt and in digits": [
        ("remind-a.md", "When unpaid season passes get reminders",
         "Unpaid season passes get reminders 5, 10 and 15 days after renewal."),
        ("remind-b.md", "Reminder timing for unpaid season passes",
         "Reminders for unpaid season passes go out five, ten and fifteen days past renewal.")],
    "a negation answered by a negation": [
        ("cargo-a.md", "Days the cargo ferry may sail", "The cargo ferry sails every weekday, never on weekends."),
        ("cargo-b.md", "allowed days for the cargo ferry", "cargo ferry runs on workdays (mon-fri). weekends = no sailings")],
    "a rate said as an interval": [
        ("tide-a.md", "How often the tide gauge reports", "The tide gauge at pier 1 reports every 10 minutes to the harbour office."),
        ("tide-b.md", "Tide gauge reporting interval",
         "Six times an hour the pier 1 gauge sends its reading to the harbour office.")],
    "a negation said as a ban": [
        ("fuel-a.md", "Refuelling during boarding", "Never refuel the ferry while passengers board."),
        ("fuel-b.md", "Refuelling and boarding", "Refuelling the ferry is banned while passengers board.")],
}

# One slot, two values: a contradiction, never a duplicate.
OTHER = {
    "two clock times": [
        ("service-a.md", "When the ferry engines are serviced", "The ferry engines are serviced nightly at 2am."),
        ("service-b.md", "Nightly engine service time", "Engine servicing on the ferry starts at 04:30 every night.")],
    "two lists of days": [
        ("remind-a.md", "When unpaid season passes get reminders",
         "Unpaid season passes get reminders 5, 10 and 15 days after renewal."),
        ("remind-b.md", "Reminder timing for unpaid season passes",
         "Reminders for unpaid season passes go out seven, fourteen and twenty-one days past renewal.")],
    "a negation of what the other affirms": [
        ("pay-a.md", "Paying on board the ferry", "The onboard kiosk takes card payments; the bar is closed at night."),
        ("pay-b.md", "Card payments on board", "The onboard kiosk doesn't take card payments.")],
    "two shares, one card saying more": [
        ("app-a.md", "Share of tickets sold through the app", "The app sells 60% of all ferry tickets."),
        ("app-b.md", "How many ferry tickets go through the app",
         "About 75 percent of ferry tickets are bought in the app now; the kiosk sells the rest, mostly to day trippers.")],
    "a double negation against a permission": [
        ("brief-a.md", "When a crossing may skip the safety briefing",
         "Crossings may skip the safety briefing when the skipper agrees."),
        ("brief-b.md", "Whether crossings may skip the safety briefing",
         "Crossings may never skip the safety briefing, even when the skipper agrees.")],
}

# Look-alikes: each pair must stay clean.
CLEAN = {
    "one clock time, two subjects": [
        ("service.md", "When the ferry engines are serviced", "The ferry engines are serviced nightly at 2am."),
        ("till.md", "When the kiosk till is counted", "The harbour kiosk till is counted at 02:00.")],
    "one number, two units, two subjects": [
        ("dock.md", "How long the ferry docks at the island", "The ferry docks at the island for 20 minutes."),
        ("valid.md", "How long tickets stay valid", "Return tickets stay valid for 20 days.")],
    "one size, two subjects": [
        ("chat.md", "Maximum size of the crew chat uploads", "Crew chat uploads can be at most 2 GB per file."),
        ("cctv.md", "Per-file cap on CCTV exports", "A single CCTV export is capped at 2048 MB.")],
    "one count of two things": [
        ("crew.md", "How many crew sail on the night ferry", "Four crew sail on the night ferry."),
        ("boats.md", "How many lifeboats the night ferry carries", "The night ferry carries four lifeboats.")],
    "two shares of two things": [
        ("bar.md", "Share of crossings with an open bar", "The bar is open on 60% of crossings."),
        ("app.md", "Share of tickets sold through the app", "The app sells 85% of all ferry tickets.")],
    "a weekday and a span of working days": [
        ("svc.md", "Which weekday the car ferry is serviced", "The car ferry is serviced on Tuesdays."),
        ("claims.md", "Deadline for answering damage claims",
         "Damage claims from car ferry passengers are answered within three working days.")],
    "two durations of two things": [
        ("dock2.md", "How long the ferry docks at the island", "The ferry stays docked at the island for 20 minutes."),
        ("ramp.md", "How long the car ramp takes to lower", "Lowering the car ramp at the island takes 30 minutes.")],
    "a negation of another crossing": [
        ("bikes-am.md", "Bikes on the morning ferry", "Bikes ride free on the morning ferry."),
        ("bikes-pm.md", "Bikes on the evening ferry", "No bikes on the evening ferry after 18:00.")],
}




@pytest.mark.parametrize("case", sorted(SAME))
def test_one_value_said_two_ways_is_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {SAME[case][0][0], SAME[case][1][0]}
    assert {f["category"] for f in found} == {"duplicate"}


@pytest.mark.parametrize("case", sorted(OTHER))
def test_two_values_of_one_slot_are_a_contradiction(case: str, vault: Path, invoke: Invoke,
                                                    make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {OTHER[case][0][0], OTHER[case][1][0]}
    assert {f["category"] for f in found} == {"contradiction"}


@pytest.mark.parametrize("case", sorted(CLEAN))
def test_look_alikes_stay_clean(case: str, vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *CLEAN[case]], make_card)
    assert pair_findings(invoke) == []


def test_the_message_says_which_values_differ(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER["a negation of what the other affirms"]], make_card)
    messages = " ".join(str(f["message"]) for f in pair_findings(invoke))
    assert "denies what the other affirms" in messages and "'take'" in messages


# ---------------------------------------------------------------- the gate of `cards add`


def test_gate_refuses_one_clock_time_written_another_way(vault: Path, invoke: Invoke,
                                                         make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, SAME["a clock time in a.m. and 24 hours"][0]], make_card)
    same = invoke("add", "To spare the seals the harbour floodlights are switched off at 01:00.",
                  "--description", "Floodlight cut-off at the harbour", "--type", "project")
    assert same.exit_code == 1 and "lights-a.md" in same.stdout + same.stderr


def test_gate_accepts_another_clock_time_and_says_it(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, SAME["a clock time in a.m. and 24 hours"][0]], make_card)
    other = invoke("add", "To spare the seals the harbour floodlights are switched off at 03:00.",
                   "--description", "Floodlight cut-off at the harbour", "--type", "project")
    assert other.exit_code == 0, other.stdout + other.stderr  # a new value may be right: said, never refused
    assert "lights-a.md" in other.stdout + other.stderr


def test_gate_accepts_a_negation_of_what_a_card_affirms(vault: Path, invoke: Invoke,
                                                        make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, OTHER["a negation of what the other affirms"][0]], make_card)
    other = invoke("add", "The onboard kiosk doesn't take card payments.", "--description", "Card payments on board",
                   "--type", "project")
    assert other.exit_code == 0, other.stdout + other.stderr


# ---------------------------------------------------------------- consolidate


def _decisions(invoke: Invoke) -> list[dict[str, object]]:
    result = invoke("consolidate", "--dry-run", "--all", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return list(json.loads(result.stdout)["decisions"])


def _together(decisions: list[dict[str, object]], action: str) -> list[list[str]]:
    return [sorted([str(d["card"]), *map(str, d["related"])]) for d in decisions  # type: ignore[call-overload]
            if d["action"] == action]


def test_consolidate_merges_one_value_said_two_ways(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME["a clock time, reworded"]], make_card)
    assert _together(_decisions(invoke), "merge") == [["lock-a", "lock-b"]]


@pytest.mark.parametrize("case", sorted(OTHER))
def test_consolidate_never_merges_two_values(case: str, vault: Path, invoke: Invoke,
                                            make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER[case]], make_card, dates=["2026-01-01"] * 4 + ["2026-02-01", "2026-02-01"])
    decisions = _decisions(invoke)
    assert _together(decisions, "merge") == []
    pair = sorted(name.removesuffix(".md") for name, _, _ in OTHER[case])
    assert pair in _together(decisions, "conflict") + _together(decisions, "supersede")


def test_a_group_never_merges_a_negated_value_away(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    """Two wordings of "the kiosk takes cards" and one that it does not: the two merge, the third stays."""
    cards = [*OTHER["a negation of what the other affirms"],
             ("pay-c.md", "Card payments at the onboard kiosk", "Card payments are taken at the onboard kiosk.")]
    write_cards(vault, [*BACKGROUND, *cards], make_card, dates=["2026-01-01"] * 4 + ["2026-02-01"] * 3)
    merged = [set(group) for group in _together(_decisions(invoke), "merge")]
    assert not any({"pay-a", "pay-b"} <= g or {"pay-b", "pay-c"} <= g for g in merged)
