"""One single-valued key, one value read in two forms; a version's tool as the subject (dup16).

Two cards that hold one `key` state one slot, so only their values can differ. When the
value reader (`value_forms.by_kind`) reads the same values from both ("every weekday,
never at weekends" / "Monday to Friday; Saturday and Sunday it stays cold", "two
signatures" / "2 signatures"), they are one fact: a duplicate, not the contradiction two
cards of one key otherwise are. A name the reader does not type, a day more, or a
negation on one side keeps them a contradiction (the weekend "never" of one card is answered
only by a denying word of the other, "off"; "it stays cold" is beyond the word model).

A version names its tool: "Node 20" is a version of Node, so Node is what the two cards
are about, and only the number is the value that weighs nothing while the rest is compared.

The cards are a bakery's memory, a domain unlike the development corpora's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import pair_findings

Invoke = Callable[..., Result]

BACKGROUND = [
    ("bg-flour.md", "Where the flour sacks are stored", "Flour sacks are stacked on pallets in the dry store.", None),
    ("bg-owner.md", "Who owns the bakery", "The bakery belongs to Marta and her brother Ilias.", None),
    ("bg-till.md", "Which card terminal the shop counter uses", "The counter takes cards on a SumUp terminal.", None),
    ("bg-hours.md", "When the shop opens", "The shop opens at 07:00 and closes at 18:30.", None),
]

SAME_KEY_SAME_VALUE = {
    "weekdays said two ways": [
        ("oven-a.md", "Days the bread oven is fired", "The bread oven is fired every weekday, never at weekends.",
         "oven-days"),
        ("oven-b.md", "When the wood oven gets lit",
         "Oven firing: Monday to Friday only. On Saturday and Sunday the oven is off.", "oven-days")],
    "a count in words and in digits": [
        ("sign-a.md", "How many signatures a wholesale order needs",
         "Every wholesale order needs two staff signatures before it leaves the bakery.", "order-signatures"),
        ("sign-b.md", "Signatures required on wholesale orders",
         "2 signatures are required on each wholesale order (the baker's and the driver's).", "order-signatures")],
}

SAME_KEY_OTHER_VALUE = {
    "a day fewer": [
        ("oven-a.md", "Days the bread oven is fired", "The bread oven is fired every weekday, never at weekends.",
         "oven-days"),
        ("oven-b.md", "When the wood oven gets lit",
         "Oven firing: Monday to Thursday only. Friday to Sunday it stays cold.", "oven-days")],
    "another count": [
        ("sign-a.md", "How many signatures a wholesale order needs",
         "Every wholesale order needs two staff signatures before it leaves the bakery.", "order-signatures"),
        ("sign-b.md", "Signatures required on wholesale orders",
         "3 signatures are required on each wholesale order.", "order-signatures")],
    "the same count, another courier": [
        ("courier-a.md", "Courier for wholesale deliveries",
         "Wholesale deliveries go out with Velo Freight, twice a day.", "courier"),
        ("courier-b.md", "Who carries the wholesale orders",
         "Twice a day Pedal Post collects the wholesale orders.", "courier")],
    "the same days, denied": [
        ("oven-a.md", "Days the bread oven is fired", "The bread oven is fired Monday to Friday.", "oven-days"),
        ("oven-b.md", "When the wood oven gets lit", "The wood oven is never lit Monday to Friday.", "oven-days")],
}

VERSION_SAME = [
    ("node-a.md", "Node version of the ordering site", "The ordering site runs on Node 20.", None),
    ("node-b.md", "Which Node release the ordering site is built with",
     "ordering site built w/ node 20.x (pinned in .nvmrc)", None)]

VERSION_OTHER = [
    ("node-a.md", "Node version of the ordering site", "The ordering site runs on Node 20.", None),
    ("node-b.md", "Which Node release the ordering site is built with",
     "ordering site built w/ node 18.x (pinned in .nvmrc)", None)]


def _write(vault: Path, cards: list[tuple[str, str, str, str | None]], make_card: Callable[..., str]) -> None:
    for name, description, body, key in cards:
        fields = {"key": key} if key else {}
        (vault / name).write_text(make_card(description, body=body, verified="2026-03-01", **fields))


@pytest.mark.parametrize("case", sorted(SAME_KEY_SAME_VALUE))
def test_one_key_one_typed_value_is_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                make_card: Callable[..., str]) -> None:
    pair = SAME_KEY_SAME_VALUE[case]
    _write(vault, [*BACKGROUND, *pair], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {pair[0][0], pair[1][0]}
    assert {f["category"] for f in found} == {"duplicate"}


@pytest.mark.parametrize("case", sorted(SAME_KEY_OTHER_VALUE))
def test_one_key_another_value_stays_a_contradiction(case: str, vault: Path, invoke: Invoke,
                                                     make_card: Callable[..., str]) -> None:
    pair = SAME_KEY_OTHER_VALUE[case]
    _write(vault, [*BACKGROUND, *pair], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {pair[0][0], pair[1][0]}
    assert {f["category"] for f in found} == {"contradiction"}


def test_one_version_with_its_tool_reworded_is_a_duplicate(vault: Path, invoke: Invoke,
                                                           make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, *VERSION_SAME], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {"node-a.md", "node-b.md"}
    assert {f["category"] for f in found} == {"duplicate"}


def test_another_version_of_the_tool_is_no_duplicate(vault: Path, invoke: Invoke,
                                                     make_card: Callable[..., str]) -> None:
    _write(vault, [*BACKGROUND, *VERSION_OTHER], make_card)
    assert [f for f in pair_findings(invoke) if f["category"] == "duplicate"] == []
