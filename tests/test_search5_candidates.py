"""Which cards the ranking scores in a large vault (`agents.ranking_candidates`).

A query of everyday words matches most of a large vault; FTS5 would score every match.
Past `BUDGET` matched cards the match is narrowed to cards holding a rare word of the
query or two of its common words. These tests lower `BUDGET` so a small vault (a
bakery's and a sailing club's memory) is "large", and check what must not change: the
card holding the most of the query still comes first, a card holding a common word
next to a rare one ranks above one holding the rare word alone, and when too few cards
hold two common words the cards holding one are all still found.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from search_helpers import Invoke, ids, put

from cardindex.agents import ranking, ranking_candidates
from cardindex.agents.search import open_index
from cardindex.store.vault import Vault


def _filler(vault: Path, n: int) -> None:
    """Cards that each hold one common word of the queries below (oven, dough, crew) and nothing rarer."""
    for i in range(n):
        word = ("oven", "dough", "crew")[i % 3]
        put(vault, f"filler/f{i:03}.md", f"Note {i} about the {word}", f"The {word} is mentioned in note {i}.")


@pytest.fixture
def bakery(vault: Path) -> Path:
    put(vault, "proofing.md", "How long the dough proofs before the oven",
        "Sourdough proofs 14 hours in the cold room, then goes into the deck oven at 250 C.")
    put(vault, "rota.md", "Who cleans the deck oven", "The night crew scrapes the deck oven every Sunday.")
    put(vault, "regatta.md", "When the regatta crew meets", "The regatta crew meets at the slipway at 07:00.")
    _filler(vault, 60)
    return vault


def test_small_vaults_always_get_the_whole_expression(vault: Path) -> None:
    put(vault, "a.md", "How the dough is mixed", "The dough is mixed by hand.")
    index = open_index(Vault(vault))
    p = ranking.plan(index, "dough mixing")
    assert ranking_candidates.narrowed(p.groups, ranking.CANDIDATES) == []  # a real vault's size: nothing narrowed
    index.close()


def test_a_large_match_is_narrowed_and_every_narrowed_card_matches_the_whole(
        bakery: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ranking_candidates, "BUDGET", 10)
    index = open_index(Vault(bakery))
    p = ranking.plan(index, "deck oven dough crew")
    parts = ranking_candidates.narrowed(p.groups, ranking.CANDIDATES)
    assert parts, "over the budget the match is narrowed"
    db: sqlite3.Connection = index.db
    every = {r for (r,) in db.execute("SELECT rowid FROM terms WHERE terms MATCH ?", (ranking.match_expression(p),))}
    for part in parts:
        some = {r for (r,) in db.execute("SELECT rowid FROM terms WHERE terms MATCH ?", (part,))}
        assert some and some <= every
        assert len(some) < len(every)  # the cards holding one common word alone are left out
    assert ranking_candidates.narrowed(p.groups, ranking_candidates.WIDEST + 1) == []  # every match wanted: whole
    index.close()


def test_narrowing_keeps_the_best_cards_first(invoke: Invoke, bakery: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = ids(invoke, "dough proofing in the oven")
    monkeypatch.setattr(ranking_candidates, "BUDGET", 10)
    monkeypatch.setattr(ranking, "CANDIDATES", 5)
    narrow = ids(invoke, "dough proofing in the oven")
    assert whole[0] == narrow[0] == "proofing"
    assert ids(invoke, "deck oven cleaning crew")[0] == "rota"  # rare "deck" beside two common words
    assert ids(invoke, "regatta crew")[0] == "regatta"


def test_a_rare_word_beside_a_common_one_ranks_above_the_rare_word_alone(
        invoke: Invoke, bakery: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # hard negatives: short cards saying the rare word twice, which FTS5 ranks first on that word alone
    for i in range(8):
        put(bakery, f"boat/deck{i}.md", f"Deck {i}: deck chairs", f"Deck chairs on deck {i}.")
    monkeypatch.setattr(ranking, "CANDIDATES", 5)
    whole = ids(invoke, "deck oven")
    monkeypatch.setattr(ranking_candidates, "BUDGET", 12)
    index = open_index(Vault(bakery))
    p = ranking.plan(index, "deck oven")
    index.close()
    assert len(ranking_candidates.narrowed(p.groups, 5)) == 1  # "deck" alone, no two common words to pair
    found = ids(invoke, "deck oven")
    assert found[0] == whole[0] == "rota"


def test_cards_holding_one_common_word_are_still_found_when_few_hold_two(
        vault: Path, invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    put(vault, "mooring.md", "Where the dinghies are moored", "Dinghies are moored at the east pontoon.")
    put(vault, "tides.md", "Which tide table the club uses", "The club reads the harbour tide table.")
    _filler(vault, 30)
    put(vault, "galley.md", "Who lights the galley oven", "The crew on watch lights the galley oven.")
    put(vault, "ferry.md", "Ferry crew and the oven on board", "The ferry crew bakes in the oven.")
    monkeypatch.setattr(ranking_candidates, "BUDGET", 5)
    monkeypatch.setattr(ranking, "CANDIDATES", 20)
    found = ids(invoke, "oven crew", "-n", "50")
    assert found[:2] in (["galley", "ferry"], ["ferry", "galley"])  # the two cards holding both words first
    assert len(found) == 20  # then filler cards holding oven or crew: two hold both, too few, so the whole is taken
    assert "mooring" not in found and "tides" not in found  # hard negatives: hold neither word
