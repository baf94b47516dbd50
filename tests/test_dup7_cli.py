"""One value in two forms, a refused alternative beside the value, and three copies, through the CLI (dup7).

A human reads one value in "06:00" and "six in the morning", in "Postgres 16" and "pg v16",
and in "RabbitMQ is the broker; never Kafka" beside "the workers use RabbitMQ": lint reports
a duplicate, the gate refuses it, consolidate merges it. "Kafka, not RabbitMQ" against
"RabbitMQ" stays a contradiction, and consolidate never merges one. The cards are a bicycle
repair co-op's memory, a domain unlike the corpora's.
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
    ("bg-keys.md", "Who holds the workshop keys", "Ines and Tomasz hold the two workshop keys."),
    ("bg-tubes.md", "Where spare inner tubes are kept", "Spare inner tubes hang on the pegboard by the door."),
    ("bg-fees.md", "Membership fee of the co-op", "Members pay 12 euros a month."),
    ("bg-stand.md", "How many repair stands the workshop has", "The workshop has four repair stands."),
]

SAME = {
    "a time said in words": [
        ("open-a.md", "When the workshop opens on Saturdays", "On Saturdays the workshop opens at 09:30."),
        ("open-b.md", "Saturday opening time of the workshop", "saturdays: doors open half past nine")],
    "a size spelt out": [
        ("photo-a.md", "Size limit of photos in the repair log", "Photos attached to the repair log may be at most 8 MB."),
        ("photo-b.md", "Largest photo the repair log accepts", "repair log photos: at most eight megabytes each")],
    "a version with its tool abbreviated": [
        ("db-a.md", "Database version of the booking app", "The booking app runs on Postgres 16."),
        ("db-b.md", "Which Postgres major the booking app uses", "booking app db = pg v16")],
    "a refused alternative beside the value": [
        ("queue-a.md", "Message broker of the booking workers", "The booking workers use RabbitMQ as their broker."),
        ("queue-b.md", "Which broker the booking workers talk to",
         "Never Kafka for the booking workers; RabbitMQ is the broker.")],
    "a refused alternative, the other card saying more": [
        ("lint-a.md", "Linter of the booking frontend", "The booking frontend is linted with Biome in CI."),
        ("lint-b.md", "Which linter checks the booking frontend", "Lint the booking frontend with Biome, not ESLint.")],
    "the value instead of another": [
        ("font-a.md", "Body font of the co-op website", "The co-op website sets its body text in Inter."),
        ("font-b.md", "Typeface for body text on the co-op website",
         "Body text on the co-op website uses Inter instead of Roboto.")],
}

OTHER = {
    "the other value, the first refused": [
        ("font-a.md", "Body font of the co-op website", "The co-op website sets its body text in Inter."),
        ("font-b.md", "Typeface for body text on the co-op website",
         "Body text on the co-op website uses Roboto instead of Inter.")],
    "another time said in words": [
        ("open-a.md", "When the workshop opens on Saturdays", "On Saturdays the workshop opens at 09:30."),
        ("open-b.md", "Saturday opening time of the workshop", "saturdays: doors open a quarter to ten")],
    "the refused alternative is the other's value": [
        ("lint-a.md", "Linter of the booking frontend", "The booking frontend is linted with Biome in CI."),
        ("lint-b.md", "Which linter checks the booking frontend", "Lint the booking frontend with ESLint, not Biome.")],
    "another version": [
        ("db-a.md", "Database version of the booking app", "The booking app runs on Postgres 16."),
        ("db-b.md", "Which Postgres major the booking app uses", "booking app db = pg v15")],
}




@pytest.mark.parametrize("case", sorted(SAME))
def test_one_value_in_two_forms_is_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                               make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {SAME[case][0][0], SAME[case][1][0]}
    assert {f["category"] for f in found} == {"duplicate"}


@pytest.mark.parametrize("case", sorted(OTHER))
def test_another_value_stays_a_contradiction(case: str, vault: Path, invoke: Invoke,
                                             make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {OTHER[case][0][0], OTHER[case][1][0]}
    assert {f["category"] for f in found} == {"contradiction"}


def test_gate_refuses_the_value_with_a_refused_alternative(vault: Path, invoke: Invoke,
                                                           make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, SAME["a refused alternative beside the value"][0]], make_card)
    same = invoke("add", "Never Kafka for the booking workers; RabbitMQ is the broker.",
                  "--description", "Which broker the booking workers talk to", "--type", "project")
    assert same.exit_code == 1 and "queue-a.md" in same.stdout + same.stderr


def _decisions(invoke: Invoke) -> list[dict[str, object]]:
    result = invoke("consolidate", "--dry-run", "--all", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return list(json.loads(result.stdout)["decisions"])


def test_three_copies_in_three_forms_merge_into_one(vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    three = [("close-a.md", "When the workshop closes on weekdays", "On weekdays the workshop closes at 19:00."),
             ("close-b.md", "Weekday closing time of the workshop", "weekdays: doors shut 7pm"),
             ("close-c.md", "Closing hour on working days",
              "Monday to Friday the workshop closes at seven in the evening.")]
    write_cards(vault, [*BACKGROUND, *three], make_card, dates=["2026-01-01"] * 4 + ["2026-02-01", "2026-03-01", "2026-04-01"])
    found = pair_findings(invoke)
    assert {f["category"] for f in found} == {"duplicate"}
    assert {(f["path"], r) for f in found for r in f["related"]} >= {  # type: ignore[attr-defined]
        ("close-a.md", "close-b.md"), ("close-a.md", "close-c.md"), ("close-b.md", "close-c.md")}
    merges = [d for d in _decisions(invoke) if d["action"] == "merge"]
    assert len(merges) == 1
    assert sorted([str(merges[0]["card"]), *map(str, merges[0]["related"])]) == ["close-a", "close-b", "close-c"]  # type: ignore[call-overload]
    applied = invoke("consolidate", "--all")
    assert applied.exit_code == 0, applied.stderr
    live = sorted(p.name for p in vault.glob("close-*.md"))
    assert len(live) == 1
    assert "merged_from" in (vault / live[0]).read_text()


@pytest.mark.parametrize("case", sorted(OTHER))
def test_consolidate_never_merges_another_value(case: str, vault: Path, invoke: Invoke,
                                                make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER[case]], make_card)
    assert [d for d in _decisions(invoke) if d["action"] == "merge"] == []
