"""Search, sixth pass (issue 15): the words a query is asked in, and what a question word may add.

- Contractions: "isn't" gave the word "isn" and "we'll" the word "ll", rare words no card
  holds, which weighed most in how much of the query a card holds. Their auxiliaries and
  clitics are dropped before the query is split; a word that only looks like one ("won",
  "Don", "cant") stays.
- A hyphenated word the vault holds neither joined nor as its parts side by side is asked
  as its parts ("hand-edit": "edited by hand"); one the vault holds stays whole.
- A question word counts once, by the better of its answers ("who" or "owner"), and the
  hits are weak only when none of the first few holds enough of the query.

The cards are a pottery studio's and a community orchard's: domains of their own.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import Invoke, hits, ids, put

from cardindex.agents import ranking
from cardindex.agents.ranking_words import asked, without_clitics
from cardindex.agents.search import open_index
from cardindex.store.vault import Vault

# ----------------------------------------------------------------------------- contractions


@pytest.mark.parametrize(("query", "expected"), [
    ("the kiln isn't hot enough", "the kiln   hot enough"),
    ("why doesn't the glaze stick", "why   the glaze stick"),
    ("we'll fire on Monday", "we  fire on Monday"),
    ("the potter\u2019s wheel won\u2019t spin", "the potter  wheel   spin"),  # curly apostrophes
    ("they've moved the clay; I'd ask Ines", "they  moved the clay; I  ask Ines"),
])
def test_contractions_lose_their_auxiliary_and_clitic(query: str, expected: str) -> None:
    assert without_clitics(query) == expected


@pytest.mark.parametrize("query", [
    "we won the orchard grant",          # "won" is a word of its own
    "Don prunes the pear trees",         # a name
    "cant of the barn roof",             # no apostrophe, no contraction
    "O'Brien keeps the cider press",     # an apostrophe inside a name
    "rock'n'roll night at the barn",
    "the apples' harvest dates",         # a plural possessive: nothing after the apostrophe
])
def test_words_that_only_look_like_contractions_stay(query: str) -> None:
    assert without_clitics(query).split() == query.split()


# ----------------------------------------------------------------------------- hyphenated words


@pytest.fixture
def studio(vault: Path) -> Path:
    put(vault, "glaze/generated.md", "Which glaze sheets are generated and how to regenerate them",
        "The glaze sheets are generated from the recipe book; they are not edited by hand.",
        name="Glaze sheets are not edited by hand")
    put(vault, "glaze/hand-tools.md", "Where the hand tools are kept", "Hand tools hang on the wall by the sink.",
        name="Hand tools")
    put(vault, "glaze/recipes.md", "Who edits the glaze recipe book", "Ines edits the recipe book.",
        name="Recipe book editor")
    put(vault, "kiln/on-call.md", "Who is on-call for the kiln at night", "The on-call potter checks the kiln at ten.",
        name="Kiln on-call")
    put(vault, "kiln/call-list.md", "Phone list of the studio", "Call Ines first, then Pavel.", name="Call list")
    put(vault, "kiln/cooling.md", "How long the kiln cools before it is opened",
        "The kiln cools for a day and is opened under 100 C.", name="Kiln cooling")
    put(vault, "shop/prices.md", "How mugs are priced in the studio shop", "Mugs cost twelve euros.", name="Mug prices")
    return vault


def test_a_hyphenated_word_the_vault_lacks_is_asked_as_its_parts(invoke: Invoke, studio: Path) -> None:
    found = hits(invoke, "is it ok to hand-edit the generated glaze sheets")
    assert found[0]["id"] == "glaze/generated"
    assert not found[0]["weak"]
    index = open_index(Vault(studio))
    try:
        assert asked(index, "hand-edit the sheets") == ["hand", "edit", "the", "sheets"]
        # held as written, joined ("oncall") or side by side ("on call"): one word, as before
        assert asked(index, "who is on-call tonight") == ["who", "is", "on-call", "tonight"]
        assert asked(index, "kiln-cooling time") == ["kiln-cooling", "time"]
    finally:
        index.close()


def test_a_hyphenated_word_the_vault_holds_keeps_its_own_match(invoke: Invoke, studio: Path) -> None:
    # "on-call" is held: the card saying it comes first, not the phone list that says "call"
    assert ids(invoke, "who is on-call for the kiln")[0] == "kiln/on-call"
    # one part alone does not make a card the answer: the hand tools are no hand edit of sheets
    assert ids(invoke, "hand-edit generated sheets")[0] == "glaze/generated"
    # a compound none of whose parts the vault holds finds nothing
    assert ids(invoke, "wax-resist batik") == []


# ----------------------------------------------------------------------------- question words


def _scored(path: str, words: int, coverage: float) -> ranking.Scored:
    return ranking.Scored(0, path, False, {}, 10.0, 1.0, coverage, "body", words)


def test_hits_are_weak_only_when_none_of_the_first_few_holds_the_query() -> None:
    lifted = _scored("people/owner.md", 1, 0.1)  # a question word lifted it: one word of the query
    below = _scored("kiln/schedule.md", 3, 0.5)
    assert ranking.weak(lifted)
    assert not ranking.weak_hits([lifted, below])
    assert not ranking.weak_hits([lifted, lifted, below])
    # past the first few, a card holding the query says nothing of what the vault knows
    assert ranking.weak_hits([lifted] * ranking.WEAK_DEPTH + [below])
    assert ranking.weak_hits([lifted, _scored("x.md", 2, 0.1)])


def test_a_question_word_counts_once_by_its_best_answer(vault: Path) -> None:
    put(vault, "people/both.md", "Who is the owner of the cider press", "Ines.", name="Cider press")
    put(vault, "people/who.md", "Who runs the cider press", "Ines.", name="Cider press")
    put(vault, "people/owner.md", "Owner of the cider press", "Ines.", name="Cider press")
    index = open_index(Vault(vault))
    try:
        p = ranking.plan(index, "who presses the cider")
        assert [t for t, _ in p.asks[0]] == ["who", "owner"]
        gain = {s.path: s.raw for s in ranking.rank(index, p)}
        flat = ranking.plan(index, "the cider presses")
        base = {s.path: s.raw for s in ranking.rank(index, flat)}
        added = {path: gain[path] - base[path] for path in gain}
    finally:
        index.close()
    # the card saying both words gains what the better one gives, not their sum
    assert added["people/both.md"] <= max(added["people/who.md"], added["people/owner.md"]) * 1.05
    assert added["people/both.md"] > 0


def test_a_question_word_alone_still_finds_nothing(invoke: Invoke, studio: Path) -> None:
    assert ids(invoke, "who prefers tabs over spaces") == []
    found = hits(invoke, "who edits the glaze recipe book")
    assert found[0]["id"] == "glaze/recipes"


@pytest.mark.parametrize(("contracted", "spelled"), [
    ("mugs aren't selling", "mugs are not selling"),
    ("why won't the kiln cool", "why will the kiln not cool"),
    ("the glaze sheets we'll regenerate", "the glaze sheets we will regenerate"),
])
def test_a_contraction_is_asked_as_its_words_are(invoke: Invoke, studio: Path, contracted: str, spelled: str) -> None:
    # "aren" and "ll" were words no card holds: they made a plain query look unanswered
    said, written = hits(invoke, contracted), hits(invoke, spelled)
    assert [(h["id"], h["weak"]) for h in said] == [(h["id"], h["weak"]) for h in written]
    assert said and not said[0]["weak"]
