"""The twelfth pass of search ranking (issue 15): a word's topicality, how often it recurs where it occurs.

A word a card is about recurs in it ("kiln" in the kiln cards' titles, descriptions and
bodies); a word said in passing occurs once where it occurs ("safe" in the shop's hours),
however rare that makes it in a small vault. A word's gain is weighed by its occurrences per
card holding it, so "is it safe to open the kiln" finds the card about opening the kiln before
the one naming the shop's safe. It orders hits only: whether the answer is weak is read in the
order without it, and a score stays a share of the most the query's words can add.

The cards are about a pottery studio: a domain of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import Invoke, hits, ids, put

from cardindex.agents import ranking
from cardindex.agents.search import open_index
from cardindex.store.vault import Vault


@pytest.fixture
def studio(vault: Path) -> Path:
    put(vault, "kiln/firing.md", "How the kiln is fired",
        "The kiln is fired on Fridays. Whoever loads the kiln writes the kiln log.")
    put(vault, "kiln/cooling.md", "How long the kiln cools",
        "After a firing the kiln cools for a day; the kiln is opened once it reads under 60 C.")
    put(vault, "kiln/shelves.md", "Kiln shelves", "Kiln shelves are washed with kiln wash after every firing.")
    put(vault, "shop/hours.md", "When the shop is open",
        "The shop is open from ten to six; the till is counted and kept in the safe.")
    put(vault, "shop/gloves.md", "Gloves for hot work",
        "Heat gloves hang by the door; nobody touches hot ware without them.")
    put(vault, "glaze/mixing.md", "How glazes are mixed", "Glazes are mixed by weight in the glaze room and sieved twice.")
    put(vault, "glaze/recipes.md", "Where glaze recipes live", "Glaze recipes are in the glaze binder on the top shelf.")
    put(vault, "clay/storage.md", "Where the clay is stored", "Bags of clay are stored in the cellar and kept sealed.")
    return vault


def test_the_word_a_card_is_about_outweighs_a_rarer_word_said_in_passing(studio: Path, invoke: Invoke) -> None:
    found = ids(invoke, "is it safe to open the kiln")
    assert found[0] == "kiln/cooling", found
    assert "shop/hours" in found  # still a hit


def test_topicality_is_occurrences_per_card_holding_the_word(studio: Path) -> None:
    index = open_index(Vault(studio))
    try:
        groups = {g.word: g for g in ranking.plan(index, "is it safe to open the kiln").groups}
    finally:
        index.close()
    assert max(groups["kiln"].topical) > 1.5 > max(groups["safe"].topical) >= 1.0, groups


def test_scores_stay_shares_and_fall_down_the_list(studio: Path, invoke: Invoke) -> None:
    for query in ("kiln", "kiln kiln firing", "is it safe to open the kiln", "glaze recipes"):
        scores = [h["score"] for h in hits(invoke, query)]
        assert scores == sorted(scores, reverse=True), (query, scores)
        assert all(0 < s <= 100 for s in scores), (query, scores)


@pytest.mark.parametrize("query", ["is it safe to open the kiln", "salary of the potters", "visa for the shop",
                                   "where is the safe", "hot glaze"])
def test_whether_the_answer_is_weak_does_not_depend_on_topicality(studio: Path, query: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def weak(power: float) -> bool:
        monkeypatch.setattr(ranking, "TOPICAL_POWER", power)
        index = open_index(Vault(studio))
        try:
            return ranking.weak_hits(ranking.rank(index, ranking.plan(index, query)))
        finally:
            index.close()

    assert weak(ranking.TOPICAL_POWER) == weak(0.0)
