"""Search, fourth pass: the first hit right (issue 15).

- Concepts said several ways (`meaning.team_words`): "who looks after" a card that names the
  owner, "how often" a card that gives a frequency, "ceiling" one that says "maximum".
  Hard negatives: an ambiguous short word ("min", "store", "image") joins nothing; the word
  asked outranks its equivalent; a vault that knows nothing of the concept stays silent.
- The question a title states ("Where the spare keys live") answers a "where" question, as
  a description does; it never makes a hit by itself.
- "What did we use before X": the retired card ranks above the card that replaced it
  (its `superseded_by`), and only then.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import Invoke, hits, ids, put

from cardindex.meaning.team_words import equivalents
from cardindex.meaning.terms import terms


@pytest.fixture
def theatre(vault: Path) -> Path:
    """A touring theatre company's memory, in its own words: pairs of cards on one topic."""
    put(vault, "rigging.md", "Maintainer of the rigging on the whole tour", "Marta signs off every fly-bar inspection.")
    put(vault, "rigging-kit.md", "Rigging kit", "Two chain hoists.")
    put(vault, "smoke.md", "Smoke machine service interval on the long tour legs",
        "Every ten shows, by the stage crew, before the fluid is topped up again.")
    put(vault, "smoke-fluid.md", "Smoke machine servicing", "Serviced with water-based fluid.")
    put(vault, "audience.md", "Maximum audience in the studio space", "The studio seats 120, fire rules.")
    put(vault, "audience-survey.md", "How the studio audience survey is sent", "A form goes out the morning after.")
    return vault


@pytest.mark.parametrize(("query", "expected"), [
    ("who looks after the rigging", "rigging"),
    ("how often is the smoke machine serviced", "smoke"),
    ("studio audience ceiling", "audience"),
])
def test_a_concept_said_another_way_finds_its_card_first(theatre: Path, invoke: Invoke, query: str,
                                                          expected: str) -> None:
    found = hits(invoke, query)
    assert found[0]["id"] == expected and not found[0]["weak"]  # the concept is evidence, not noise


def test_a_title_that_states_the_question_answers_it(vault: Path, invoke: Invoke) -> None:
    put(vault, "keys.md", "Spare keys for the dock", "They hang in the stage manager's office.",
        name="Where the spare keys live")
    put(vault, "dock.md", "Which dock keys the crew carries", "The crew carries the small dock keys.",
        name="Dock keys")
    assert ids(invoke, "where are the dock keys")[0] == "keys"
    assert ids(invoke, "which dock keys does the crew carry")[0] == "dock"  # the topic still decides first


def test_a_question_word_in_a_title_makes_no_hit(vault: Path, invoke: Invoke) -> None:
    put(vault, "keys.md", "Spare keys for the dock", "They hang in the office.", name="Where the spare keys live")
    found = hits(invoke, "where is the piano tuner")
    assert found == [] or found[0]["weak"]


def test_the_word_asked_ranks_above_its_equivalent(vault: Path, invoke: Invoke) -> None:
    put(vault, "bags.md", "Maximum cabin bags per passenger", "Two bags at most, weighed at the gate.")
    put(vault, "pets.md", "Limit on pets in the cabin", "One pet per passenger, in a carrier.")
    assert ids(invoke, "maximum in the cabin")[0] == "bags"
    assert ids(invoke, "limit in the cabin")[0] == "pets"


@pytest.mark.parametrize("phrase", [("min",), ("store",), ("imag",), ("rout",), ("packag",), ("hr",), ("lower",)])
def test_an_ambiguous_short_word_has_no_equivalent(phrase: tuple[str, ...]) -> None:
    # "5 min" is minutes, an app store is no storage, a Docker image no photo, a delivery
    # route no endpoint, a parcel no library, "2 hr" no department, "lower-case" no decrease
    assert equivalents(phrase) == ()


def test_the_new_groups_are_phrases_of_the_one_stemmer() -> None:
    assert tuple(terms("looks after")) in equivalents(("owner",))
    assert ("frequenc",) in equivalents(tuple(terms("how often")))
    assert ("maximum",) in equivalents(("ceil",))


def test_a_vault_that_knows_nothing_of_the_concept_stays_silent(vault: Path, invoke: Invoke) -> None:
    put(vault, "paint.md", "Which paint the set builders use", "Matt emulsion for flats, gloss for floors.")
    put(vault, "brushes.md", "Where the brushes are washed", "In the workshop sink, never the kitchen.")
    found = hits(invoke, "how often is the ceiling limit checked")
    assert found == [] or found[0]["weak"]


def test_an_app_store_query_does_not_find_persistence(vault: Path, invoke: Invoke) -> None:
    put(vault, "backups.md", "How ticket sales persist", "Sales are persisted to the ledger every minute.")
    found = hits(invoke, "app store screenshots")
    assert found == [] or found[0]["weak"]


@pytest.fixture
def ferry(vault: Path) -> Path:
    put(vault, "booking.md", "Which booking system the ferry desk uses",
        "Bookings run on Harbourline since March; the desk moved off Tidepool then.", key="booking-system",
        supersedes="archive/booking-old")
    put(vault, "archive/booking-old.md", "Which booking system the ferry desk used",
        "Bookings ran on Tidepool.", key="booking-system", status="superseded", superseded_by="booking")
    put(vault, "archive/timetable-old.md", "The winter timetable of the ferry desk",
        "Three crossings a day in winter.", status="archived")
    put(vault, "timetable.md", "The ferry timetable", "Six crossings a day; the booking system lists them.")
    return vault


def test_asked_what_came_before_the_replaced_card_comes_first(ferry: Path, invoke: Invoke) -> None:
    # the query names the new system, which the new card says and the old one only implies
    assert ids(invoke, "what booking system did we use before Harbourline", "--all")[0] == "archive/booking-old"


def test_not_asked_about_the_past_the_live_card_comes_first(ferry: Path, invoke: Invoke) -> None:
    assert ids(invoke, "which booking system does the ferry desk use on Harbourline", "--all")[0] == "booking"


def test_a_retired_card_is_moved_only_above_its_own_successor(ferry: Path, invoke: Invoke) -> None:
    found = ids(invoke, "how many crossings did the timetable have before", "--all")
    assert found.index("archive/booking-old") > found.index("timetable") if "archive/booking-old" in found else True
    assert found[0] in ("timetable", "archive/timetable-old")


def test_the_successor_rule_keeps_scores_falling(ferry: Path, invoke: Invoke) -> None:
    found = hits(invoke, "what booking system did we use before Harbourline", "--all")
    scores = [h["score"] for h in found]
    assert scores == sorted(scores, reverse=True)


def test_a_numbered_word_means_its_kind(vault: Path, invoke: Invoke) -> None:
    put(vault, "severity.md", "What each severity level means", "Severity 1 stops every sale; severity 3 can wait.")
    put(vault, "counts.md", "How ticket stubs are counted", "Stubs are counted at the door and again at close.")
    found = hits(invoke, "what counts as a sev1")
    assert found[0]["id"] == "severity" and not found[0]["weak"]


def test_a_one_letter_kind_is_no_kind(vault: Path, invoke: Invoke) -> None:
    # "p1" is a priority, not a "p"; "v2" a version, not a "v": no letter alone stands for them
    from cardindex.agents.ranking import _numbered

    assert _numbered("p1") is None and _numbered("v2") is None and _numbered("k8s") is None
    assert _numbered("tier2") == "tier" and _numbered("sev1") == "sev"
    put(vault, "vans.md", "Which v-shaped stage risers we own", "Two v risers, one flat.")
    found = hits(invoke, "v2 api")
    assert found == [] or found[0]["weak"]


def test_a_card_saying_the_word_itself_covers_it_whole(vault: Path) -> None:
    # Its title says the equivalent ("severity"), which scores more, but its body says "sev1":
    # the card holds the word asked, so none of the query's weight is missing from it.
    from cardindex.agents import ranking
    from cardindex.agents.search import open_index
    from cardindex.store.vault import Vault

    put(vault, "severity.md", "What each severity level means", "A sev1 stops every sale.",
        name="Severity levels and severity names")
    put(vault, "counts.md", "How ticket stubs are counted", "Stubs are counted at the door.")
    index = open_index(Vault(vault))
    try:
        best = ranking.rank(index, ranking.plan(index, "sev1"))[0]
        assert best.path == "severity.md" and best.coverage == pytest.approx(1.0)
    finally:
        index.close()


@pytest.fixture
def pottery(vault: Path) -> Path:
    put(vault, "kiln-person.md", "Who fires the kiln", "Ana fires the stoneware, on Thursdays.")
    put(vault, "kiln-glaze.md", "Glaze firing in the kiln for stoneware", "Stoneware is glaze fired in the big kiln at cone six.")
    put(vault, "kiln-when.md", "When the kiln is fired", "Thursday evenings, for stoneware and porcelain.")
    put(vault, "clay.md", "Which clay the studio buys", "A buff stoneware body from the Leek supplier.")
    put(vault, "wheel.md", "How the wheels are cleaned", "Sponge the trays after every class.")
    return vault


def test_a_who_question_prefers_the_card_that_names_a_person(pottery: Path, invoke: Invoke) -> None:
    assert ids(invoke, "who fires the big kiln")[0] == "kiln-person"


def test_another_question_word_is_not_pulled_to_the_person(pottery: Path, invoke: Invoke) -> None:
    assert ids(invoke, "when is stoneware fired in the kiln")[0] == "kiln-when"
    assert ids(invoke, "glaze firing for stoneware")[0] == "kiln-glaze"
    assert ids(invoke, "which kiln is big")[0] == "kiln-glaze"
