"""Search pass 16 (issue 15): words that share a sense with a query word (WordNet) as evidence, never as a match.

- Among cards that hold the query's words, the one that also says a synonym of another
  query word ranks first ("oven rota during my vacation": the card on the holidays' cover).
- A synonym alone makes no hit: a card holding nothing of the query but a synonym is not
  returned, and a query the vault answers only in synonyms is no less weak than before.
- A synonym never counts as a word of the query held: abstention reads the words held.
- Looked up by word, not stem: "crashes" is looked up as "crash" and its base forms, and
  a word's own term is never its synonym.
- Without a cache (`--no-cache`) the groups are read from the data file and nothing is kept;
  with one, the table is kept in shards and a search loads only those its words start with.

The cards are about a bakery's ordering app: a domain of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import Invoke, hits, ids, put

from cardindex.agents import ranking, ranking_synonyms
from cardindex.agents.search import open_index
from cardindex.store.vault import Vault


@pytest.fixture
def bakery(vault: Path) -> Path:
    put(vault, "ops/holiday-cover.md", "Who covers the ovens over the holidays",
        "Bakers take turns on the ovens over the holidays; the rota is on the office wall.")
    put(vault, "ops/cleaning-rota.md", "The oven cleaning rota",
        "Bakers clean the ovens in turn; the rota hangs by the ovens.")
    put(vault, "ops/dough.md", "How long dough rests", "Rye dough rests for two hours before shaping.")
    put(vault, "ops/closing.md", "Shop holidays", "The shop closes for the holidays from 24 December to 2 January.")
    return vault


QUERY = "oven rota during my vacation"  # "vacation" is in no card: WordNet joins it to "holiday"


def test_a_synonym_lifts_a_card_that_holds_the_query(bakery: Path, invoke: Invoke) -> None:
    found = ids(invoke, QUERY)
    assert found[0] == "ops/holiday-cover"


def test_without_synonyms_the_other_card_would_win(bakery: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above depends on the synonym: with its weight at zero the colours card ranks first."""
    index = open_index(Vault(bakery))
    try:
        with_synonyms = [s.path for s in ranking.rank(index, ranking.plan(index, QUERY))]
        monkeypatch.setattr(ranking, "SYNONYM_FACTOR", 0.0)
        without = [s.path for s in ranking.rank(index, ranking.plan(index, QUERY))
                   if s.raw > 0]
    finally:
        index.close()
    assert with_synonyms[0] == "ops/holiday-cover.md"
    assert without[0] == "ops/cleaning-rota.md"


def test_a_synonym_alone_is_no_hit(bakery: Path, invoke: Invoke) -> None:
    # the shop's closing card says "holidays" and nothing else of the query
    assert "ops/closing" not in ids(invoke, QUERY)
    assert hits(invoke, "vacation") == []  # the vault says "holiday", never "vacation": no hit, not a weak one


def test_a_synonym_is_no_word_held(bakery: Path) -> None:
    index = open_index(Vault(bakery))
    try:
        scored = ranking.rank(index, ranking.plan(index, QUERY))
    finally:
        index.close()
    best = scored[0]
    assert best.path == "ops/holiday-cover.md"
    assert best.words == 2  # "oven" and "rota"; "holiday" stands in for "vacation" without being it


def test_looked_up_by_word_and_base_forms() -> None:
    assert "repli" in ranking_synonyms.synonyms("answered")  # "answered": "answer", which WordNet joins to "reply"
    assert "price" in ranking_synonyms.synonyms("cost")
    assert ranking_synonyms.synonyms("crash") == ranking_synonyms.synonyms("crash")  # stable
    assert "crash" not in ranking_synonyms.synonyms("crashes")  # never the word's own term
    assert ranking_synonyms.synonyms("the") == []  # a function word has none
    assert ranking_synonyms.synonyms("zz") == []
    assert ranking_synonyms.synonyms("sev2") == []
    assert "answered" in ranking_synonyms.bases("answered") and "answer" in ranking_synonyms.bases("answered")
    assert "copy" in ranking_synonyms.bases("copies")
    assert "stop" in ranking_synonyms.bases("stopped")


@pytest.fixture
def fresh_tables() -> None:
    """No shard loaded by an earlier test of this process."""
    ranking_synonyms._SHARDS.clear()


def test_shards_are_kept_and_only_those_asked_are_loaded(bakery: Path, invoke: Invoke, fresh_tables: None) -> None:
    assert ids(invoke, QUERY)[0] == "ops/holiday-cover"
    cache = bakery / ".cardindex" / "cache"
    assert (cache / "built-ranking-synonyms-v.marshal").is_file()
    ranking_synonyms._SHARDS.clear()
    assert ids(invoke, QUERY)[0] == "ops/holiday-cover"
    assert set(ranking_synonyms._SHARDS) == {"d", "o", "r", "v"}  # "during", "oven", "rota", "vacation" ("my": none)


def test_no_cache_reads_the_groups_and_keeps_nothing(bakery: Path, invoke: Invoke, fresh_tables: None) -> None:
    result = invoke("--no-cache", "search", QUERY, "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert '"ops/holiday-cover"' in result.stdout.split("},")[0]
    assert not list(bakery.glob(".cardindex/cache/built-ranking-synonyms-*"))
    assert ranking_synonyms._SHARDS == {}
    from cardindex.store import built

    built.use(None)
    assert "holiday" in ranking_synonyms.synonyms("vacations")


def test_a_damaged_shard_is_built_again(bakery: Path, invoke: Invoke, fresh_tables: None) -> None:
    ids(invoke, QUERY)
    shard = bakery / ".cardindex" / "cache" / "built-ranking-synonyms-v.marshal"
    shard.write_bytes(b"\x00garbage")
    ranking_synonyms._SHARDS.clear()
    assert ids(invoke, QUERY)[0] == "ops/holiday-cover"
    assert shard.stat().st_size > 100


def test_a_read_only_cache_scans_instead_of_building(bakery: Path, invoke: Invoke, fresh_tables: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    ids(invoke, "dough")  # the index and its cache folder exist
    for p in bakery.glob(".cardindex/cache/built-ranking-synonyms-*"):
        p.unlink()
    ranking_synonyms._SHARDS.clear()
    monkeypatch.setattr(ranking_synonyms.os, "access", lambda path, mode: False)
    monkeypatch.setattr(ranking_synonyms, "build", lambda: pytest.fail("the whole table was built"))
    assert ids(invoke, QUERY)[0] == "ops/holiday-cover"
    assert ranking_synonyms._SHARDS == {}
