"""Reworded duplicates by their answer (issue 14, class 4): two one-sentence cards whose descriptions
ask one question in other words and whose bodies answer it with one rare name are one fact, though
they share too few other words for `restatement`'s coverage; lint, the write gate and consolidate
agree. The look-alikes (a person in another role, another value, a card stating more, a name said
in passing, a term rather than a name) never are.

The cards are a bakery co-operative's memory, a domain unlike the corpora's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import restatement
from cardindex.meaning.similarity import find_pairs, pairs_with, weights
from cardindex.meaning.words import statement
from cardindex.store.card import Card

Invoke = Callable[..., Result]

BACKGROUND = [
    ("When the ovens are lit", "The ovens are lit at 04:00 every weekday."),
    ("Where flour is stored", "Flour sacks are stored in the dry room behind the mill."),
    ("Who cleans the proofing room", "The apprentices clean the proofing room on Saturdays."),
    ("Price of a rye loaf", "A rye loaf costs 4 euros."),
    ("How the shop takes payment", "The shop takes cards and cash at the counter."),
    ("Where the delivery bikes are parked", "The delivery bikes are parked in the yard."),
    ("Which mill supplies the rye", "The rye comes from the Okerhof mill."),
    ("Opening hours of the shop", "The shop opens at 07:00 and closes at 18:00."),
]

# One answer, little else in common: the normal coverage of `restatement` refuses them.
COURIER = [("courier-a.md", "Courier for the cafe bread", "Bread for the cafes is delivered by Velotaxi."),
           ("courier-b.md", "How bread reaches the cafes each morning",
            "Velotaxi riders carry the bread out to every cafe. Don't book vans for this.")]

APPROVER = [("recipe-a.md", "Who approves new recipes", "Hanne approves every new recipe before it goes on sale."),
            ("recipe-b.md", "Approval needed for a new bake", "A new bake needs approval from Hanne Voss first.")]

NEGATIVES = {
    "a person in another role": [
        ("owner.md", "Who owns the sourdough starter", "Owner of the sourdough starter: Hanne."),
        ("tasting.md", "Process for changes to the sourdough starter",
         "Every change to the sourdough starter needs a tasting, reviewed by Hanne.")],
    "another value": [
        ("velo.md", "Courier for the cafe bread", "Bread for the cafes is delivered by Velotaxi."),
        ("ryde.md", "How the cafes get their bread", "Rydwerk riders carry each morning's loaves out to every cafe.")],
    "a card stating more": [
        ("courier.md", "Courier for the cafe bread", "Bread for the cafes is delivered by Velotaxi."),
        ("rounds.md", "How bread gets to the cafes",
         "Bread for the cafes goes out with Velotaxi. The cafes order by phone. They pay monthly.")],
    "a name said in passing": [
        ("cap.md", "Courier for the cafe bread", "Bread for the cafes is delivered by Velotaxi."),
        ("moving.md", "Moving the cafe orders to the new shop system",
         "Currently moving the cafe orders that Velotaxi picks up into the new shop system.")],
}


def card(path: str, description: str, body: str, extra: str = "") -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def background() -> list[Card]:
    return [card(f"bg{i}.md", d, b) for i, (d, b) in enumerate(BACKGROUND)]


def found(cards: list[Card]) -> dict[frozenset[str], tuple[str, str]]:
    paths = {c.path for c in cards}
    return {frozenset((p.a.path, p.b.path)): (p.kind, p.detail) for p in find_pairs([*background(), *cards])
            if {p.a.path, p.b.path} <= paths}


@pytest.mark.parametrize("cases", [COURIER, APPROVER], ids=["courier", "approver"])
def test_one_rare_answer_to_one_question_is_one_fact(cases: list[tuple[str, str, str]]) -> None:
    cards = [card(*c) for c in cases]
    (kind, detail), = found(cards).values()
    assert kind == "duplicate" and "one answer" in detail


def test_without_the_answer_the_same_cards_are_no_duplicate() -> None:
    """The answer carries the verdict: the coverage of the rest is below what `restatement` asks alone."""
    cards = [card(*c) for c in COURIER]
    weight = weights([statement(c) for c in [*background(), *cards]])
    a, b = (restatement.content(c) for c in cards)
    assert a is not None and b is not None
    plain, conflict = restatement.measures(a, b, weight)
    assert conflict is None and plain.covered < restatement.COVERED
    assert restatement.one_answer(a, b, weight) == "velotaxi"


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_look_alikes_are_never_duplicates(name: str) -> None:
    cards = [card(*c) for c in NEGATIVES[name]]
    assert "duplicate" not in {kind for kind, _ in found(cards).values()}


def test_a_who_question_needs_its_role_said_by_the_other_card() -> None:
    owner, tasting = (restatement.content(card(*c)) for c in NEGATIVES["a person in another role"])
    approves, approval = (restatement.content(card(*c)) for c in APPROVER)
    assert owner is not None and tasting is not None and approves is not None and approval is not None
    assert restatement._role(owner) == "own" and restatement._role(tasting) is None
    assert restatement._role(approves) == "approv"


def test_a_term_of_letters_and_digits_and_a_one_digit_number_are_no_answer() -> None:
    assert not restatement._answers("e2e") and not restatement._answers("1") and not restatement._answers("ci")
    assert restatement._answers("velotaxi") and restatement._answers("2048")


def test_the_gate_agrees_with_lint_on_each_duplicate() -> None:
    for cases in (COURIER, APPROVER, *NEGATIVES.values()):
        cards = [card(*c) for c in cases]
        linted = "duplicate" in {kind for kind, _ in found(cards).values()}
        gated = "duplicate" in {p.kind for p in pairs_with(cards[1], [*background(), cards[0]])
                                if cards[0].path in (p.a.path, p.b.path)}
        assert gated == linted == (cases in (COURIER, APPROVER)), cases


# ---------------------------------------------------------------- through the CLI


def put(root: Path, rel: str, description: str, body: str) -> None:
    (root / rel).write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")


def test_lint_reports_the_pair_the_gate_refuses_a_copy_and_consolidate_merges(invoke: Invoke, vault: Path) -> None:
    for i, (d, b) in enumerate(BACKGROUND):
        put(vault, f"bg{i}.md", d, b)
    put(vault, *COURIER[0])
    refused = invoke("add", COURIER[1][2], "-d", COURIER[1][1], "-n", "courier-b")
    assert refused.exit_code == 1 and "U101" in refused.stderr
    assert not (vault / "courier-b.md").exists()
    put(vault, *COURIER[1])
    out = invoke("lint", "--select", "duplicate", "--format", "json")
    assert {(f["path"], tuple(f["related"])) for f in json.loads(out.stdout)} == {
        ("courier-a.md", ("courier-b.md",)), ("courier-b.md", ("courier-a.md",))}
    planned = invoke("consolidate", "--dry-run", "--format", "json")
    assert planned.exit_code == 0, planned.stderr
    merges = [d for d in json.loads(planned.stdout)["decisions"] if d["action"] == "merge"]
    assert [{m["card"], *m["related"]} for m in merges] == [{"courier-a", "courier-b"}]
