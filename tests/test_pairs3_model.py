"""Paraphrase and value checks of the pair model (issue 14, third pass): what a reworded copy
is, and the hard negatives that must stay apart: another value, another sort of value,
another question, another subject swapped into one sentence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.meaning.paraphrase import paraphrase, restated, values_agree
from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.meaning.values import kind, same_kind
from cardindex.meaning.words import words
from cardindex.store.card import Card

# Unrelated cards of the same kind of vault, so that rarity is estimated as in a real one.
BACKGROUND = [
    ("Which irrigation valves are manual", "The three valves in the east house are opened by hand."),
    ("Where the pump firmware lives", "Pump firmware is kept in the controllers repository."),
    ("Who approves changes to the climate model", "Climate model changes need a review by the agronomy lead."),
    ("Retention of greenhouse camera footage", "Camera footage is deleted after 14 days."),
    ("How to run the controller tests", "Run make test in the controllers folder; it starts the simulator."),
    ("Alert channel for frost warnings", "Frost warnings go to the #frost channel."),
    ("Language of the dashboard", "The dashboard is written in TypeScript with Svelte."),
    ("Units of the humidity readings", "Humidity is stored as relative humidity in percent."),
]


def card(path: str, description: str, body: str, extra: str = "") -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def background() -> list[Card]:
    return [card(f"bg{i}.md", d, b) for i, (d, b) in enumerate(BACKGROUND)]


def verdict(a: Card, b: Card) -> str | None:
    """What lint (find_pairs over a vault) calls the pair of a and b."""
    found = [p for p in find_pairs([*background(), a, b]) if {p.a.path, p.b.path} == {a.path, b.path}]
    return found[0].kind if found else None


def gate_verdict(new: Card, old: Card) -> str | None:
    """What the write gate calls `new` against a vault holding `old`."""
    found = [p for p in pairs_with(new, [*background(), old]) if old.path in (p.a.path, p.b.path)]
    return found[0].kind if found else None


# ---------------------------------------------------------------- paraphrases


PARAPHRASES = [
    (("How to alert the greenhouse technician", "`/wake` in #climate alerts the greenhouse technician."),
     ("Waking the technician on duty", ("Whoever is the technician on duty gets alerted when somebody runs the wake "
                                        "command in the climate channel."))),
    (("Who owns the pump controllers", "Ilse Varga owns the pump controllers."),
     ("Pump controller ownership", "The pump controllers belong to Ilse Varga.")),
]


@pytest.mark.parametrize(("first", "second"), PARAPHRASES)
def test_a_reworded_copy_with_little_word_overlap_is_a_duplicate(first: tuple[str, str],
                                                                 second: tuple[str, str]) -> None:
    a, b = card("a.md", *first), card("b.md", *second)
    assert verdict(a, b) == "duplicate"
    assert gate_verdict(b, a) == "duplicate"  # the write gate asks the same model


def test_a_longer_restatement_covers_the_shorter_card() -> None:
    short = words("`/wake` in #climate alerts the greenhouse technician.")
    long = words("Whoever is the technician on duty gets alerted when somebody runs the wake command "
                 "in the climate channel.")
    found = restated(short, long, {})
    assert found.covered >= 0.7 and found.missing <= 1 and not found.added_values
    assert paraphrase(short, long, {}) and paraphrase(long, short, {})


# ---------------------------------------------------------------- hard negatives


def test_a_longer_card_that_adds_a_name_is_not_a_paraphrase() -> None:
    short = words("The east house vents close at night.")
    long = words("The east house vents close at night, and Marta Kowalczyk checks them every evening.")
    assert not paraphrase(short, long, {})


def test_negation_on_one_side_is_not_a_paraphrase() -> None:
    a = words("Irrigation runs automatically after the soil sensors report dry soil.")
    b = words("Irrigation never runs automatically after the soil sensors report dry soil readings.")
    assert not paraphrase(a, b, {})


def test_one_body_under_two_swapped_subjects_is_no_duplicate() -> None:
    a = card("a.md", "Dashboard for the greenhouse pumps", "Built by the controls team, hosted on the farm server.")
    b = card("b.md", "Dashboard for the greenhouse vents", "Built by the controls team, hosted on the farm server.")
    assert verdict(a, b) is None


def test_another_tool_in_other_words_under_one_description_is_a_contradiction_never_a_duplicate() -> None:
    desc = "Time-series database for sensor readings"
    a = card("a.md", desc, "We keep every reading in InfluxDB.")
    b = card("b.md", desc, "TimescaleDB is where the team settled.")
    assert verdict(a, b) == "contradiction"
    assert gate_verdict(b, a) == "contradiction"


def test_one_tool_in_other_words_under_one_description_is_a_duplicate() -> None:
    desc = "Time-series database for sensor readings"
    a = card("a.md", desc, "We keep every reading in InfluxDB.")
    b = card("b.md", desc, "InfluxDB is where the team settled.")
    assert verdict(a, b) == "duplicate"


def test_one_key_with_another_format_in_the_body_is_a_contradiction() -> None:
    extra = "key: snapshot-format\n"
    a = card("a.md", "Image format of camera snapshots", "Snapshots are PNG at 1280 px wide.", extra)
    b = card("b.md", "Image format of camera snapshots", "Snapshots are AVIF at 1280 px wide.", extra)
    assert verdict(a, b) == "contradiction"


def test_a_weekday_and_a_tool_answer_two_questions() -> None:
    a = card("a.md", "Which weekday firmware is flashed", "Firmware is flashed on Tuesdays.")
    b = card("b.md", "What flashes the firmware", "Firmware is flashed through Ansible (playbook flash.yml).")
    assert verdict(a, b) is None


def test_who_and_what_descriptions_are_two_slots() -> None:
    a = card("a.md", "What waters the seedlings", "Seedlings are watered by the Rainmaker drip timer.")
    b = card("b.md", "Who waters the seedlings", "Seedlings are watered by Jonas on weekday mornings.")
    assert verdict(a, b) is None


def test_two_numbers_under_one_description_still_contradict() -> None:
    desc = "Night temperature setpoint in the tomato house"
    a = card("a.md", desc, "The tomato house is kept at 16 °C at night.")
    b = card("b.md", desc, "At night the tomato house holds 18 °C.")
    assert verdict(a, b) == "contradiction"


# ---------------------------------------------------------------- values


@pytest.mark.parametrize(("token", "expected"), [
    ("tuesday", "calendar"), ("3.12", "version"), ("v2", "version"), ("30", "number"), ("360p", "number"),
    ("h264", "name"), ("influxdb", "name"), ("db.internal", "path"), ("services/api", "path"),
])
def test_kind_of_a_value(token: str, expected: str) -> None:
    assert kind(token) == expected


def test_a_number_with_its_unit_is_a_measure_not_a_name() -> None:
    assert not same_kind("nvenc", "720p 10 s")
    assert same_kind("16 c", "18 c")
    assert same_kind("influxdb", "timescaledb")


def test_values_agree_reads_what_the_bodies_say_beyond_the_slot() -> None:
    slot = frozenset(words("Time-series database for sensor readings").tokens)
    same = values_agree(words("We keep every reading in InfluxDB."), words("InfluxDB is where the team settled."),
                        slot, {})
    other = values_agree(words("We keep every reading in InfluxDB."), words("Readings go to TimescaleDB."), slot, {})
    assert same is True and other is False


_WORD = st.sampled_from(["pump", "valve", "sensor", "frost", "vent", "seedling", "drip", "humidity", "night"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORD, min_size=3, max_size=8), st.sampled_from(["Ilse", "Marta", "Jonas"]))
def test_a_name_only_one_side_gives_is_never_a_paraphrase(body: list[str], name: str) -> None:
    short = words(" ".join(body) + ".")
    long = words(" ".join(body) + f" checked by {name}.")
    assert not paraphrase(short, long, {})


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORD, min_size=3, max_size=8))
def test_a_statement_is_a_paraphrase_of_itself(body: list[str]) -> None:
    w = words(" ".join(body) + ".")
    assert paraphrase(w, w, {}) == (len(set(w.tokens)) >= 3)


@pytest.mark.parametrize(("left", "right"), [
    ("Every PR needs a linked issue.", "Each pull request needs a linked issue."),
    ("The env files stay local.", "The environment files stay local."),
])
def test_an_abbreviation_is_the_words_it_stands_for(left: str, right: str) -> None:
    assert paraphrase(words(left), words(right), {})


def test_a_word_cut_short_by_a_little_is_another_word() -> None:
    from cardindex.meaning.values import equivalent

    a, b = words("The login page is slow."), words("The log page is slow.")
    left_over, right_over = equivalent(set(a.tokens) - set(b.tokens), set(b.tokens) - set(a.tokens), a.tokens, b.tokens)
    assert left_over and right_over  # "log" is not "login" cut short


def test_a_card_about_several_things_is_not_the_duplicate_of_a_card_about_one_of_them() -> None:
    one = card("one.md", "Which evening the seed swap meets", "Every second Thursday.")
    many = card("many.md", "Which evening the seed swap meets, where the sign-up sheet hangs, who keeps the cash "
                           "box, and who sweeps the hall afterwards", "Every second Thursday, in the parish hall.")
    assert verdict(one, many) is None


def test_a_number_written_as_a_word_is_that_number() -> None:
    desc = "How many curators sign off a new accession"
    two = card("a.md", desc, "A new accession needs two curators to sign off.")
    digits = card("b.md", desc, "A new accession needs 2 curators to sign off.")
    three = card("c.md", desc, "A new accession needs three curators to sign off.")
    assert verdict(two, digits) == "duplicate"
    assert verdict(two, three) == "contradiction"
