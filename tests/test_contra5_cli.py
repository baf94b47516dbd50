"""Another value in one slot, the descriptions worded differently (issue 14, classes 1, 3 and 5, fifth pass).

Through the real CLI: lint reports two keyless cards whose descriptions differ but whose
statements, values masked, are one slot with another value, and says the slot and both
values; consolidate never merges them; the write gate lets the second value in (it is no
duplicate). Hard negatives, as many: one kind of value in two slots, a subject swapped in
one description, two scopes, a multi-valued key, two questions, one value written two
ways. A library's and a brewery's cards, in words unlike the corpora's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", "type: project", *(f"{k}: {v}" for k, v in fields.items()),
             "---", body, ""]
    (root / rel).write_text("\n".join(lines), encoding="utf-8")


def background(root: Path) -> None:
    """Unrelated cards of one vault, so the words' rarity is as in a real one."""
    put(root, "bg-contracts.md", "Where the hop contracts are filed", "Hop contracts are filed in the shared drive.")
    put(root, "bg-recipe.md", "Who signs off a new recipe", "A new recipe is signed off by the head brewer.")
    put(root, "bg-slips.md", "Printer for the reserve slips", "Reserve slips print on the counter printer.")
    put(root, "bg-readers.md", "Card readers at the branches", "Every branch has the same RFID card reader.")
    put(root, "bg-tills.md", "How the taproom tills are closed", "The tills are closed by whoever locks up.")
    put(root, "bg-wifi.md", "Guest wifi at the reading room", "The reading room wifi is open; no password.")


def findings(invoke: Invoke) -> list[dict[str, object]]:
    out = invoke("lint", "--select", "duplicate,contradiction", "--format", "json")
    assert out.exit_code in (0, 1), out.stderr
    found: list[dict[str, object]] = json.loads(out.stdout)
    return found


def pairs(invoke: Invoke) -> set[tuple[str, ...]]:
    return {(str(f["category"]), *sorted([str(f["path"]), *map(str, f["related"])]))  # type: ignore[call-overload]
            for f in findings(invoke)}


def plan(invoke: Invoke) -> list[dict[str, object]]:
    out = invoke("consolidate", "--dry-run", "--format", "json")
    assert out.exit_code == 0, out.stderr
    decisions: list[dict[str, object]] = json.loads(out.stdout)["decisions"]
    return decisions


ONE_SLOT_OTHER_VALUE = [
    # (description a, body a, description b, body b): one slot, worded two ways, two values
    ("When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.",
     "Nightly catalogue sync schedule", "The nightly catalogue sync starts at 04:15."),
    ("How long the taproom card terminal waits before timing out",
     "The card terminal in the taproom times out after 45 seconds.",
     "Timeout of the taproom card terminal", "The taproom's card terminal gives up after two minutes."),
    ("Upload limit for patron photos", "Patron photos may be up to 5 MB.",
     "Largest patron photo the upload form takes", "The upload form takes patron photos up to 12 MB."),
    ("Label printer on the bottling line", "Bottle labels are printed on the Zebra ZT410 next to the filler.",
     "Printer the bottling line prints its labels with", "The bottling line prints labels with a Brother QL-820."),
]


@pytest.mark.parametrize(("da", "ba", "db", "bb"), ONE_SLOT_OTHER_VALUE)
def test_one_slot_worded_two_ways_with_another_value_is_a_contradiction(
        invoke: Invoke, vault: Path, da: str, ba: str, db: str, bb: str) -> None:
    background(vault)
    put(vault, "old.md", da, ba, verified="2026-02-01")
    put(vault, "new.md", db, bb, verified="2026-08-01")
    assert pairs(invoke) == {("contradiction", "new.md", "old.md")}
    message = next(str(f["message"]) for f in findings(invoke) if f["path"] == "old.md")
    assert " vs " in message  # the finding names both values


def test_the_message_names_the_masked_slot_and_both_values(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "sync-a.md", "When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.")
    put(vault, "sync-b.md", "Nightly catalogue sync schedule", "The nightly catalogue sync starts at 04:15.")
    message = next(str(f["message"]) for f in findings(invoke) if f["path"] == "sync-a.md")
    assert "01:00" in message and "04:15" in message and "another value" in message


def test_consolidate_never_merges_another_value_and_the_change_supersedes(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "term-old.md", "How long the taproom card terminal waits before timing out",
        "The card terminal in the taproom times out after 45 seconds.", verified="2026-02-01")
    put(vault, "term-new.md", "Timeout of the taproom card terminal",
        "The taproom's card terminal now gives up after two minutes.", verified="2026-08-01")
    decisions = plan(invoke)
    assert not [d for d in decisions if d["action"] == "merge"]
    superseded = [d for d in decisions if d["action"] == "supersede"]
    assert [(d["card"], d["related"]) for d in superseded] == [("term-old", ["term-new"])]


def test_consolidate_without_a_signal_or_dates_never_merges(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "print-a.md", "Label printer on the bottling line",
        "Bottle labels are printed on the Zebra ZT410 next to the filler.")
    put(vault, "print-b.md", "Printer the bottling line prints its labels with",
        "The bottling line prints labels with a Brother QL-820.")
    actions = {str(d["action"]) for d in plan(invoke) if {d["card"], *d["related"]} >= {"print-a", "print-b"}}  # type: ignore[misc]
    assert "merge" not in actions and actions  # a supersession or a conflict, never one card


def test_the_gate_lets_another_value_in_and_lint_names_it(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "sync-a.md", "When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.")
    added = invoke("add", "The nightly catalogue sync starts at 04:15.", "-d", "Nightly catalogue sync schedule",
                   "-n", "sync-b")
    assert added.exit_code == 0, added.stderr  # another value is no duplicate: the gate writes it
    assert ("contradiction", "sync-a.md", "sync-b.md") in pairs(invoke)


HARD_NEGATIVES = [
    # one kind of value (a time) in two slots
    ("When the library catalogue sync runs", "The catalogue sync runs every night at 01:00.",
     "When the overdue notices are mailed", "Overdue notices are mailed at 04:15."),
    # one description with its subject swapped
    ("Upload limit for patron photos", "Patron photos may be up to 5 MB.",
     "Upload limit for event posters", "Event posters may be up to 10 MB."),
    # one topic, two questions
    ("Who cleans the fermenters", "The fermenters are cleaned by the night brewer.",
     "When the fermenters are cleaned", "The fermenters are cleaned at 06:00 sharp."),
    # how long a thing is kept and how often it is made: two kinds of time
    ("How long the tank logs are kept", "Tank temperature logs are kept for 90 days.",
     "How often the tank logs are written", "Tank temperature logs are written every 5 minutes."),
]


@pytest.mark.parametrize(("da", "ba", "db", "bb"), HARD_NEGATIVES)
def test_hard_negatives_are_no_contradiction(invoke: Invoke, vault: Path, da: str, ba: str, db: str, bb: str) -> None:
    background(vault)
    put(vault, "one.md", da, ba)
    put(vault, "two.md", db, bb)
    assert not any(kind == "contradiction" for kind, *_ in pairs(invoke))
    assert not [d for d in plan(invoke) if d["action"] in ("merge", "supersede", "conflict")]


ONE_VALUE_TWO_WAYS = [
    ("How long the taproom card terminal waits before timing out",
     "The card terminal in the taproom times out after 30 seconds.",
     "Timeout of the taproom card terminal", "The taproom's card terminal gives up after half a minute."),
    ("Largest export a patron can download", "Patron exports are capped at 2 GB.",
     "Size cap on patron exports", "A patron export can be at most 2048 MB."),
    ("Days the branch desk is staffed", "The branch desk is staffed every weekday.",
     "When someone sits at the branch desk", "Someone sits at the branch desk Monday to Friday."),
]


@pytest.mark.parametrize(("da", "ba", "db", "bb"), ONE_VALUE_TWO_WAYS)
def test_one_value_written_two_ways_is_never_a_contradiction(
        invoke: Invoke, vault: Path, da: str, ba: str, db: str, bb: str) -> None:
    background(vault)
    put(vault, "one.md", da, ba)
    put(vault, "two.md", db, bb)
    assert not any(kind == "contradiction" for kind, *_ in pairs(invoke))
    assert not [d for d in plan(invoke) if d["action"] in ("supersede", "conflict")]


def test_two_scopes_are_two_facts(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "tap.md", "When the cellar door is locked", "The cellar door is locked at 22:00.", scope="path:taproom")
    put(vault, "ware.md", "Locking time of the cellar door", "The cellar door gets locked at 18:00.",
        scope="path:warehouse")
    assert pairs(invoke) == set()


def test_two_values_of_a_multi_valued_key_are_two_facts(invoke: Invoke, vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("multi_valued_keys: [malt-supplier]\n", encoding="utf-8")
    background(vault)
    put(vault, "malt-a.md", "Malt supplier for the pale ales", "Pale ale malt comes from Weyermann.",
        key="malt-supplier")
    put(vault, "malt-b.md", "Supplier of malt for pale ales", "Pale ale malt is bought from Crisp.",
        key="malt-supplier")
    assert not any(kind == "contradiction" for kind, *_ in pairs(invoke))
    assert not [d for d in plan(invoke) if d["action"] in ("merge", "supersede", "conflict")]
