"""Search and context put what holds first: a locked card before the claim contesting it,
and a fact before the hub (sub-index) that points at it.

A hub restates the hooks of many cards, so it matched a topic question better than the
one card that answers it. A card added against a locked card's key is a conflict whose
other side is the user's own statement; that statement holds, so it leads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from tests.conftest import card_text

Invoke = Callable[..., Result]


def _ids(result: Result) -> list[str]:
    assert result.exit_code == 0, result.stderr
    return [h["id"] for h in json.loads(result.stdout)]


def test_a_fact_ranks_above_the_hub_that_lists_it(vault: Path, invoke: Invoke) -> None:
    facts = {
        "kennel-rule": ("Where pets travel on the night ferry", "Pets travel in the kennel room on the night ferry."),
        "deck-limit": ("Vehicle deck limit per sailing", "The vehicle deck takes at most 42 cars per sailing."),
        "cutoff": ("When ferry bookings close", "Bookings for a sailing close 90 minutes before departure."),
        "refunds": ("Who may refund a ferry ticket", "Only the harbour desk lead may refund after boarding."),
        "tides": ("Tide table source", "The timetable job reads tides from the port authority feed."),
    }
    for stem, (description, body) in facts.items():
        (vault / f"{stem}.md").write_text(card_text(description, body=body), encoding="utf-8")
    hub = "\n".join(f"- [{d}]({stem}.md): {b}" for stem, (d, b) in facts.items())
    (vault / "index-ferry.md").write_text(
        card_text("Ferry operations: pets and kennels, the night ferry, deck, cutoff, refunds, tides",
                  type="reference", body=hub), encoding="utf-8")
    ids = _ids(invoke("search", "where do pets go on the night ferry kennel", "--format", "json"))
    assert ids.index("kennel-rule") < ids.index("index-ferry")


def test_a_locked_card_leads_the_claim_contesting_it(vault: Path, invoke: Invoke) -> None:
    assert invoke("add", "Commit subjects follow Conventional Commits (feat:, fix:); the changelog tool parses them.",
                  "-d", "Commit message format", "--key", "commit-format", "--lock").exit_code == 0
    added = invoke("add", "Commit subjects are free-form here; prefix subjects however you like, no fix: needed.",
                   "-d", "Commit subject prefix conventions", "--key", "commit-format", "--format", "json")
    assert added.exit_code == 0 and json.loads(added.stdout)["status"] == "conflict"
    ids = _ids(invoke("search", "prefix commit subjects fix", "--format", "json"))
    assert ids[:2] == ["commit-message-format", "commit-subject-prefix-conventions"]
    # Context leads with the locked card and names the note disputing it, without offering its value as a fact.
    context = json.loads(invoke("context", "--query", "prefix commit subjects fix", "--format", "json").stdout)
    first = context["items"][0]
    assert [c["id"] for c in first["cards"]] == ["commit-message-format"]
    assert (first["conflict"], first["disputed_by"]) == (False, ["commit-subject-prefix-conventions"])
    assert "free-form" not in json.dumps(context["items"])


def test_the_sides_of_a_conflict_come_newest_first(vault: Path, invoke: Invoke) -> None:
    old = "---\ndescription: Who owns kennel booking\ntype: project\ncreated: 2026-02-02\nverified: 2026-02-02\n---\n"
    new = "---\ndescription: Who owns kennel booking\ntype: project\ncreated: 2026-03-16\nverified: 2026-03-16\n---\n"
    (vault / "a-old.md").write_text(old + "Priya owns the kennel booking service and reviews its changes.\n", encoding="utf-8")
    (vault / "z-new.md").write_text(new + "Tomas owns the kennel booking service and reviews its changes.\n", encoding="utf-8")
    applied = invoke("consolidate", "--format", "json")
    assert [d["action"] for d in json.loads(applied.stdout)["decisions"]] == ["conflict"]  # a name: time does not decide
    found = json.loads(invoke("search", "who owns kennel booking", "--format", "json").stdout)
    assert [(h["id"], h["status"]) for h in found[:2]] == [("z-new", "conflict"), ("a-old", "conflict")]
    context = json.loads(invoke("context", "--query", "who owns kennel booking", "--format", "json").stdout)
    sides = next(i["cards"] for i in context["items"] if i["conflict"])
    assert [c["id"] for c in sides] == ["z-new", "a-old"]
