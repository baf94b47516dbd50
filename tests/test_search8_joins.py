"""The eighth pass of search ranking (issue 15): two query words the vault holds joined into one.

- "rider app" written "rider-app" says both words, each no more than it says alone: the
  joined form is rarer than either word, and counted in both words' groups it outweighed
  every card that writes them apart (a card naming the `rider-app` project beat the card about the app).
- Two adjacent query words joined are a compound only when the joined word is no other
  word: "to OK" is not "took" (the vault holds "took" as "take", so every card saying
  "took" or "take" was a hit for "OK").
- Nor is a word the vault lacks two words it holds when one of them is a function word other
  than a particle ("on call", "set up", "log in"): "redis" is no "red is", so a query about
  Redis in a vault that never names it finds nothing rather than the card whose red is a colour.

The cards are about a bakery's ordering app: a domain of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import Invoke, ids, put

from cardindex.agents import ranking
from cardindex.agents.search import open_index
from cardindex.store.vault import Vault


@pytest.fixture
def bakery(vault: Path) -> Path:
    put(vault, "app/crash-reports.md", "Where crashes of the phone apps are collected",
        "Crashes of the customer-app and the courier-app are sent to Sentry.")
    put(vault, "app/start-screen.md", "What the customer app shows when it opens",
        "The customer app opens on today's bread list, sorted by what sells out first.")
    for n, what in enumerate(["rye loaf", "croissants", "sourdough", "baguettes", "cakes", "rolls"]):
        put(vault, f"orders/customer-{n}.md", f"How a customer orders {what}",
            f"A customer orders {what} in the app until 18:00 for the next morning.")
    put(vault, "ovens/outage.md", "The oven that broke in March",
        "The deck oven took two days to repair; a spare part now sits in the store room.")
    put(vault, "orders/approval.md", "Who has to OK a wholesale order",
        "Marta has to OK every wholesale order above 200 loaves before it is baked.")
    return vault


def test_a_joined_word_counts_its_two_words_no_more_than_written_apart(bakery: Path, invoke: Invoke) -> None:
    found = ids(invoke, "customer app")
    assert found[0] == "app/start-screen", found
    assert "app/crash-reports" in found  # still found by the joined form


def test_the_joined_form_weighs_what_its_words_weigh_alone(bakery: Path) -> None:
    index = open_index(Vault(bakery))
    try:
        groups = {g.word: g for g in ranking.plan(index, "customer app").groups}
    finally:
        index.close()
    for word in ("customer", "app"):
        g = groups[word]
        alone = dict(zip(g.alts, g.idfs, strict=True))[((ranking.stem(word),), 1.0)]
        assert max(g.idfs) == pytest.approx(alone), (word, g)
        assert (("customerapp",), 1.0) in g.alts


def test_a_joined_word_that_is_another_word_is_no_compound(bakery: Path, invoke: Invoke) -> None:
    found = ids(invoke, "who needs to OK this")
    assert found and found[0] == "orders/approval", found
    assert "ovens/outage" not in found  # "took" is not "to" + "OK"


@pytest.fixture
def brand(vault: Path) -> Path:
    put(vault, "brand/colours.md", "The bakery's brand colours",
        "Our red is #d22 and the cream is #f6efe2; the logo is red on cream.")
    put(vault, "ops/oncall.md", "Who is on call for the ovens at night",
        "The night baker is on call for oven alarms from 22:00 to 05:00.")
    put(vault, "ops/setup.md", "Setting up a new till",
        "A new till needs the setup code from the office and a receipt roll.")
    return vault


def test_a_word_is_never_split_at_a_function_word(brand: Path, invoke: Invoke) -> None:
    assert ids(invoke, "redis cache") == []
    assert ids(invoke, "redis") == []


def test_compounds_with_a_particle_still_join(brand: Path, invoke: Invoke) -> None:
    assert ids(invoke, "oncall ovens")[0] == "ops/oncall"
    assert ids(invoke, "set up a till")[0] == "ops/setup"
