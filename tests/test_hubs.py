"""Hub cards (a sub-index: a list of pointers to other cards) pair with no card.

A hub restates the hook of every card it lists by design; compared with them as
statements it looked like a duplicate of each. These tests hold what a hub is (by the
shape of its body, not its name), that lint and the write gate (one model, `similarity`, which
consolidation reads too) leave its pairs alone, and that cards which only look listy stay cards.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.hubs import is_hub
from cardindex.store.card import Card
from tests.conftest import card_text

FACTS = {
    "ferry-cutoff.md": ("When ferry bookings close", "Bookings for a sailing close 90 minutes before departure."),
    "ferry-refunds.md": ("Who may refund a ferry ticket", "Only the harbour desk lead may refund a ticket after boarding opened."),
    "ferry-vehicles.md": ("Vehicle deck limit per sailing", "The vehicle deck takes at most 42 cars per sailing; vans count as two."),
    "ferry-pets.md": ("Pet policy on the night ferry", "Pets travel in the kennel room on the night ferry, never in cabins."),
    "ferry-tides.md": ("Tide table source for the timetable", "The timetable job reads tides from the port authority feed at 05:00."),
}


def _hub_body(link: Callable[[str, str], str]) -> str:
    lines = ["Ferry operations cluster: open a card for the detail.", ""]
    lines += [f"- {link(path, title)}: {body}" for path, (title, body) in FACTS.items()]
    return "\n".join(lines)


def _card(path: str, body: str, description: str = "x") -> Card:
    return Card.from_text(path, card_text(description, body=body))


@pytest.mark.parametrize("link", [
    lambda path, title: f"[{title}]({path})",
    lambda path, title: f"[[{path[:-3]}]] {title}",
    lambda path, title: f"[{title}](./{path}#why)",
], ids=["markdown", "wikilink", "relative-with-anchor"])
def test_a_list_of_links_to_cards_is_a_hub(link: Callable[[str, str], str]) -> None:
    assert is_hub(_card("index-ferry.md", _hub_body(link)))


def test_numbered_bullets_naming_numbered_cards_are_a_hub() -> None:
    body = "Ferry cluster, open a leaf by its number:\n\n" + "\n".join(
        f"- {n}. {title}: {text}" for n, (title, text) in enumerate(FACTS.values(), start=40))
    assert is_hub(_card("index-ferry.md", body))


@pytest.mark.parametrize("body", [
    # A rule with a short "see also" list.
    ("Sailings close 90 minutes before departure; the desk cannot reopen them.\n\n"
    "See also:\n- [refunds](ferry-refunds.md)\n- [tides](ferry-tides.md)\n- [[ferry-pets]]"),
    # A how-to whose steps are a numbered list, two of them with a link.
    ("To add a sailing:\n1. Open the admin timetable.\n2. Pick the route and the vessel.\n"
    "3. Check the [tide feed](ferry-tides.md) for the slot.\n4. Set the deck limit.\n"
    "5. Publish; the [cutoff](ferry-cutoff.md) applies at once.\n6. Tell the harbour desk."),
    # Prose with many links, few list items.
    ("The night ferry (see [pets](ferry-pets.md)) keeps the [deck limit](ferry-vehicles.md) of the day "
    "boat, but [refunds](ferry-refunds.md) go through the night purser, and the [tides](ferry-tides.md) "
    "job runs earlier; the [cutoff](ferry-cutoff.md) is the same.\nThat is all that differs.\n"
    "Nothing else changes at night.\nThe crew roster is separate.\nSo is catering."),
    # A checklist: list items that point at nothing.
    "\n".join(f"- check {x}" for x in ("deck", "kennels", "cabins", "tides", "manifest", "radio", "lifeboats")),
    # Repo files named in backticks are paths in the code, not cards.
    "\n".join(f"- `docs/{x}.md` holds the {x} runbook" for x in ("deck", "kennels", "cabins", "tides", "radio", "crew")),
], ids=["see-also", "how-to-steps", "prose-with-links", "checklist", "repo-docs"])
def test_cards_that_only_look_listy_are_not_hubs(body: str) -> None:
    assert not is_hub(_card("ferry-note.md", body))


def _vault_with_hub(vault: Path, hub_link: Callable[[str, str], str]) -> None:
    for path, (description, body) in FACTS.items():
        (vault / path).write_text(card_text(description, body=body), encoding="utf-8")
    (vault / "index-ferry.md").write_text(
        card_text("Ferry operations cluster: cutoff, refunds, vehicles, pets, tides", type="reference",
                  body=_hub_body(hub_link)), encoding="utf-8")


def _pair_findings(result: Result) -> list[dict[str, object]]:
    data = json.loads(result.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    return [f for f in findings if str(f["code"])[0] in "UC"]


def test_lint_reports_no_pair_with_a_hub(vault: Path, invoke: Callable[..., Result]) -> None:
    _vault_with_hub(vault, lambda path, title: f"[{title}]({path})")
    result = invoke("lint", "--format", "json")
    assert _pair_findings(result) == []


def test_the_same_restatement_in_a_card_that_is_not_a_hub_is_still_a_duplicate(
        vault: Path, invoke: Callable[..., Result]) -> None:
    # The control: one card restating another, with no list of pointers around it.
    description, body = FACTS["ferry-cutoff.md"]
    (vault / "ferry-cutoff.md").write_text(card_text(description, body=body), encoding="utf-8")
    (vault / "ferry-cutoff-again.md").write_text(
        card_text("When ferry bookings close", body="Bookings for a sailing close 90 minutes before departure."),
        encoding="utf-8")
    result = invoke("lint", "--format", "json")
    assert [f["code"] for f in _pair_findings(result)] == ["U101", "U101"]


def test_add_accepts_a_hub_over_the_cards_it_lists(vault: Path, invoke: Callable[..., Result]) -> None:
    for path, (description, body) in FACTS.items():
        (vault / path).write_text(card_text(description, body=body), encoding="utf-8")
    result = invoke("add", "-", "--type", "reference", "--name", "index-ferry", "--format", "json",
                    "--description", "Ferry operations cluster: where each rule lives",
                    input=_hub_body(lambda path, title: f"[{title}]({path})"))
    assert result.exit_code == 0, result.stderr
    written = json.loads(result.stdout)["path"]
    assert is_hub(Card.from_text(written, (vault / written).read_text(encoding="utf-8")))
