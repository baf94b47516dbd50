"""The seventh pass of search ranking (issue 15): which words of a query count, and a derived word the
vault holds only as its base.

- Closed-class words (quantifiers, indefinite pronouns, degree and focus adverbs: "too",
  "nobody", "still", "each") say nothing of what is asked: no card is found or ranked by them.
- A word the vault holds in no form is also found as a held word of five letters or more
  that starts it, the rest no longer than a suffix ("gracefull": "grace"), counted below the
  word itself; a shorter base ("word" in "wordpress") or a longer rest is no such match.

The cards are about a community orchestra: a domain of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from search_helpers import Invoke, hits, ids, put

from cardindex.agents import ranking, ranking_words
from cardindex.agents.search import open_index
from cardindex.store.vault import Vault


@pytest.fixture
def orchestra(vault: Path) -> Path:
    put(vault, "instruments/tuba.md", "Where the tuba is kept between rehearsals",
        "The tuba stays in the store room behind the stage, in its hard case.")
    put(vault, "hall/heating.md", "Still too cold, still too early",
        "The hall is still too cold at seven and still too early to open at six: each winter the same.")
    put(vault, "doors/latecomers.md", "When latecomers may enter the concert hall",
        "Latecomers get a ten-minute grace period; after that they wait for the interval.")
    put(vault, "press/print.md", "How the programme is printed",
        "The programme goes to the print shop a week ahead; the press proof comes back on Friday.")
    put(vault, "people/librarian.md", "Who keeps the sheet music",
        "Ines keeps the sheet music library and lends parts for a season.")
    return vault


def test_closed_class_words_are_not_what_is_asked(orchestra: Path) -> None:
    index = open_index(Vault(orchestra))
    try:
        assert [g.word for g in ranking.plan(index, "is the tuba still too big").groups] == ["tuba", "big"]
        assert [g.word for g in ranking.plan(index, "nobody answered each page").groups] == ["answered", "page"]
    finally:
        index.close()


def test_a_card_of_function_words_is_never_found_by_them(invoke: Invoke, orchestra: Path) -> None:
    found = ids(invoke, "tuba still too quiet")
    assert found[0] == "instruments/tuba"
    assert "hall/heating" not in found
    # a card is still found by its content words
    assert ids(invoke, "cold hall in winter")[0] == "hall/heating"


def test_a_derived_word_finds_the_base_the_vault_holds(orchestra: Path) -> None:
    index = open_index(Vault(orchestra))
    try:
        alts = dict(ranking_words.typos(index, "gracefull"))
        assert alts.get(("grace",)) == ranking_words.BASE_FACTOR
        # a base under five letters is no such match ("wordpress" is no "word"), nor a rest longer than a suffix
        assert ("word",) not in dict(ranking_words.typos(index, "wordpress"))
        assert ("print",) not in dict(ranking_words.typos(index, "printmakers"))
    finally:
        index.close()


def test_a_misspelt_derived_word_finds_its_card_through_the_cli(invoke: Invoke, orchestra: Path) -> None:
    found = hits(invoke, "gracefull entry for late arrivals")
    assert found[0]["id"] == "doors/latecomers"


def test_the_real_cli_process_agrees(orchestra: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(orchestra), "search", "is the tuba still too quiet",
                           "--format", "json"], capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    found = json.loads(done.stdout or "[]")
    assert [h["id"] for h in found] == ["instruments/tuba"]
