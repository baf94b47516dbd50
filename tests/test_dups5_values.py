"""Same slot, same value, fifth pass (issue 14, classes 1-5): a quantity said in two units is one
value ("2 GB" / "2048 MB", "three months" / "90 days"); a reworded card with one value swapped
is a contradiction, never a duplicate; consolidation never merges two values away, and a copy
merged into its canonical card hands its contradiction on to it.

The cards are a beekeeping association's memory, a domain unlike the corpora's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import restatement
from cardindex.meaning.value_forms import normalized
from cardindex.store.card import Card

Invoke = Callable[..., Result]

BACKGROUND = [
    ("bg-site.md", "Where the apiary is", "The association's hives stand at the Mill Road allotments."),
    ("bg-sugar.md", "Who orders the sugar", "The treasurer orders feeding sugar in September."),
    ("bg-queen.md", "Colour of the queen marks", "Queens are marked with the colour of their birth year."),
    ("bg-extractor.md", "Extractor booking", "Members book the honey extractor on the club calendar."),
]

# One fact, the amount in two units or spellings: a duplicate only once the units are one.
SAME_AMOUNT = {
    "size": [("photo-a.md", "Hive photo upload cap", "Hive photos uploaded by members are capped at 2 GB."),
             ("photo-b.md", "Cap on hive photo uploads", "Hive photo uploads by members are capped at 2048 MB.")],
    "span": [("notes-a.md", "How long hive inspection notes are kept",
              "Hive inspection notes are kept for three months and then shredded."),
             ("notes-b.md", "Retention of inspection notes", "We shred hive inspection notes after 90 days.")],
}

# Look-alikes: each pair must stay clean (no duplicate, no contradiction).
CLEAN = {
    "two amounts of two things": [
        ("swarm.md", "How often swarm traps are checked", "Swarm traps are checked every 3 days in May."),
        ("jar.md", "Size of the honey jars", "Honey is sold in jars of 450 grams.")],
    "a rate beside an amount": [
        ("feed.md", "Syrup for autumn feeding", "Autumn syrup is two parts sugar to one part water, fed twice a week."),
        ("feeder.md", "Feeder capacity", "Each hive feeder holds 2 litres of syrup.")],
    "one unit, two subjects": [
        ("wax.md", "How long wax is melted", "Old comb is melted in the solar wax melter for 3 days."),
        ("mead.md", "How long mead ferments", "Our mead ferments for 30 days before racking.")],
}


def _write(vault: Path, cards: list[tuple[str, str, str]], make_card: Callable[..., str], dates: list[str] | None = None) -> None:
    for n, (name, description, body) in enumerate(cards):
        date = dates[n] if dates else "2026-03-01"
        (vault / name).write_text(make_card(description, body=body, verified=date))


def _lint(invoke: Invoke) -> list[dict[str, object]]:
    result = invoke("lint", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return [f for f in json.loads(result.stdout) if f["category"] in ("duplicate", "contradiction")]


# ---------------------------------------------------------------- units


@pytest.mark.parametrize(("text", "expected"), [
    ("capped at 2 GB", "capped at 2048 MB"),
    ("kept for three months", "kept for 90 days"),
    ("after half an hour", "after 30 minutes"),
    ("a quarter of an hour", "15 minutes"),
    ("a 10-minute window", "a 10 minutes window"),
    ("two weeks", "14 days"),
    ("every half hour", "every 30 minutes"),
    ("half a day", "720 minutes"),
    ("24 hours", "1 days"),
])
def test_quantities_are_written_in_one_unit(text: str, expected: str) -> None:
    assert normalized(text) == expected


@pytest.mark.parametrize("text", ["every hour on the hour", "a man with a van", "the 3 gates", "5 GBP"])
def test_other_words_stay_as_written(text: str) -> None:
    assert normalized(text) == text


@pytest.mark.parametrize(("text", "expected"), [("once a week", "every 7 days"), ("twice an hour", "every 30 minutes")])
def test_rates_are_written_as_intervals(text: str, expected: str) -> None:
    # values6: one value reader (`value_forms`); a rate is an interval, never an amount
    assert normalized(text) == expected


def test_two_amounts_in_one_unit_stay_two() -> None:
    assert normalized("2 GB") != normalized("4 GB")
    assert normalized("90 days") != normalized("two months")


# ---------------------------------------------------------------- lint


@pytest.mark.parametrize("case", sorted(SAME_AMOUNT))
def test_one_amount_in_two_units_is_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, *SAME_AMOUNT[case]], make_card)
    found = _lint(invoke)
    assert {(f["path"], f["code"][0]) for f in found} == {(SAME_AMOUNT[case][0][0], "U"), (SAME_AMOUNT[case][1][0], "U")}
    assert all(f["category"] == "duplicate" for f in found)


@pytest.mark.parametrize("case", sorted(CLEAN))
def test_look_alike_amounts_stay_clean(case: str, vault: Path, invoke: Invoke, make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, *CLEAN[case]], make_card)
    assert _lint(invoke) == []


REVALUED = [("keep-a.md", "How long hive inspection notes are kept",
             "Hive inspection notes are kept for three months and then shredded."),
            ("keep-b.md", "Retention of inspection notes", "We shred hive inspection notes after 90 days."),
            ("keep-c.md", "Inspection note retention period", "Hive inspection notes are shredded once they are 60 days old.")]


def test_a_reworded_card_with_another_amount_is_a_contradiction(vault: Path, invoke: Invoke,
                                                                make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, REVALUED[0], REVALUED[2]], make_card)
    found = _lint(invoke)
    assert {f["path"] for f in found} == {"keep-a.md", "keep-c.md"}
    assert all(f["category"] == "contradiction" for f in found)
    assert "'90' vs '60'" in str(found[0]["message"]) or "'60' vs '90'" in str(found[0]["message"])


def test_revalued_needs_the_rest_said_too() -> None:
    """Two cards that share only a unit and a value's place are no contradiction."""
    a = restatement.content(Card.from_text("wax.md", "---\ndescription: How long wax is melted\ntype: project\n---\n"
                                                 "Old comb is melted in the solar wax melter for 3 days.\n"))
    b = restatement.content(Card.from_text("mead.md", "---\ndescription: How long mead ferments\ntype: project\n---\n"
                                                  "Our mead ferments for 30 days before racking.\n"))
    assert a is not None and b is not None
    assert restatement.revalued(a, b, {}) is None


# ---------------------------------------------------------------- the gate


def test_gate_refuses_the_same_amount_in_other_units_and_reports_another(vault: Path, invoke: Invoke,
                                                                         make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, REVALUED[0]], make_card)
    same = invoke("add", "We shred hive inspection notes after 90 days.", "--description", "Retention of inspection notes",
                  "--type", "project")
    assert same.exit_code == 1 and "keep-a.md" in same.stdout + same.stderr
    other = invoke("add", "Hive inspection notes are shredded once they are 60 days old.", "--description",
                   "Inspection note retention period", "--type", "project")
    assert other.exit_code == 0, other.stdout + other.stderr
    assert "keep-a.md" in other.stdout + other.stderr  # said, never refused: the new value may be right


# ---------------------------------------------------------------- consolidate


def test_consolidate_never_merges_a_value_away_and_hands_the_contradiction_on(vault: Path, invoke: Invoke,
                                                                              make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, *REVALUED], make_card, dates=["2026-01-01"] * 4 + ["2026-02-01", "2026-05-01", "2026-04-01"])
    result = invoke("consolidate", "--dry-run", "--all", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    decisions = json.loads(result.stdout)["decisions"]
    merges = [d for d in decisions if d["action"] == "merge"]
    assert [sorted([d["card"], *d["related"]]) for d in merges] == [["keep-a", "keep-b"]]
    canonical = merges[0]["card"]
    conflicts = [d for d in decisions if d["action"] == "conflict"]
    assert [sorted([d["card"], *d["related"]]) for d in conflicts] == [sorted([canonical, "keep-c"])]


def test_a_group_joined_through_a_card_never_merges_two_values() -> None:
    """A ≈ B and B ≈ C as the detector said (a cache, another engineer's rule), A and C two values:
    the group's members are compared two by two, and A and C never end in one merge."""
    import datetime as dt

    from cardindex.lifecycle.plan import plan
    from cardindex.meaning.similarity import Pair

    def card(name: str, description: str, body: str, date: str) -> Card:
        return Card.from_text(name, f"---\ndescription: {description}\ntype: project\nverified: {date}\n---\n{body}\n")

    a, b, c = (card(n, d, body, date) for (n, d, body), date in
               zip(REVALUED, ["2026-02-01", "2026-05-01", "2026-04-01"], strict=True))
    told = [Pair(a, b, "duplicate", "reworded", 80.0, "the same fact in other words"),
            Pair(b, c, "duplicate", "reworded", 80.0, "the same fact in other words")]
    done = plan([a, b, c], now=dt.date(2026, 11, 30), find=lambda live: told)
    merged = [d for d in done.decisions if d.action == "merge"]
    for d in merged:
        assert not {"keep-a", "keep-c"} <= {d.card, *d.related}


# ---------------------------------------------------------------- a value the card rejects

KEYED_OTHER = {
    "the rejected value is the other's": [
        ("list-a.md", "Where the member list is kept", "The member list lives in the Excel sheet."),
        ("list-b.md", "Member register", "Members are tracked in Airtable, not in the Excel sheet.")],
    "another value beside a rejected one": [
        ("list-a.md", "Where the member list is kept", "The member list lives in Airtable."),
        ("list-b.md", "Member register", "Members are tracked in Notion, not in the Excel sheet.")],
}


def _keyed(vault: Path, cards: list[tuple[str, str, str]]) -> None:
    for name, description, body in cards:
        (vault / name).write_text(f"---\ndescription: {description}\ntype: project\nkey: member-list\n"
                                  f"verified: 2026-03-01\n---\n{body}\n")


@pytest.mark.parametrize("case", sorted(KEYED_OTHER))
def test_one_key_with_a_rejected_or_another_value_stays_a_contradiction(case: str, vault: Path, invoke: Invoke) -> None:
    _keyed(vault, KEYED_OTHER[case])
    found = _lint(invoke)
    assert {(f["path"], f["category"]) for f in found} == {("list-a.md", "contradiction"), ("list-b.md", "contradiction")}


@pytest.mark.parametrize("case", sorted(KEYED_OTHER))
def test_consolidate_never_merges_one_key_with_another_value(case: str, vault: Path, invoke: Invoke) -> None:
    _keyed(vault, KEYED_OTHER[case])
    (vault / "list-a.md").write_text((vault / "list-a.md").read_text().replace("2026-03-01", "2026-01-01"))
    decisions = json.loads(invoke("consolidate", "--dry-run", "--all", "--format", "json").stdout)["decisions"]
    assert [(d["action"], d["card"]) for d in decisions] == [("supersede", "list-a")]


def test_one_key_one_word_swapped_is_another_value_even_in_lower_case(vault: Path, invoke: Invoke) -> None:
    for name, body, date in (("fuel-a.md", "At Mill Road the smoker is lit with pine needles.", "2026-01-01"),
                             ("fuel-b.md", "At Mill Road the smoker is lit with hessian.", "2026-03-01")):
        (vault / name).write_text(f"---\ndescription: Smoker fuel at the apiary\ntype: project\nkey: smoker-fuel\n"
                                  f"verified: {date}\n---\n{body}\n")
    assert {f["category"] for f in _lint(invoke)} == {"contradiction"}
    decisions = json.loads(invoke("consolidate", "--dry-run", "--all", "--format", "json").stdout)["decisions"]
    assert [(d["action"], d["card"]) for d in decisions] == [("supersede", "fuel-a")]
