"""The eighth pass of search ranking (issue 15): two query words the vault holds joined into one.

- "rider app" written "rider-app" says both words, each no more than it says alone: the
  joined form is rarer than either word, and counted in both words' groups it outweighed
  every card that writes them apart (a card naming the `rider-app` project beat the card about the app).
- Two adjacent query words joined are a compound only when the joined word is no other
  word: "to OK" is not "took" (the vault holds "took" as "take", so every card saying
  "took" or "take" was a hit for "OK").

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
