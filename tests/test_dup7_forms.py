"""One value in two forms and a refused alternative, as units (dup7).

`value_forms` reads a time of day said in words and a size with its unit spelt out as the
value its digits give; `values` takes an abbreviation made of a word's first letter and the
heads of its later parts for that word; `polarity` reads "X instead of Y" as X affirmed and
Y denied; `restatement.alternatives` names what a card refuses beside what it affirms.
Cases in a bicycle co-op's and a bakery's words.
"""

from __future__ import annotations

import pytest

from cardindex.meaning.polarity import polarity
from cardindex.meaning.restatement import alternatives
from cardindex.meaning.value_forms import by_kind, normalized
from cardindex.meaning.values import abbreviation, one_word
from cardindex.meaning.words import words


@pytest.mark.parametrize(("spoken", "clock"), [
    ("The ovens are lit at half past four.", "The ovens are lit at 04:30."),
    ("The ovens are lit at a quarter to five.", "The ovens are lit at 04:45."),
    ("The ovens are lit at six in the morning.", "The ovens are lit at 06:00."),
    ("The shop shuts at seven in the evening.", "The shop shuts at 19:00."),
    ("The shop shuts at 7 o'clock in the evening.", "The shop shuts at 7pm."),
    ("The alarm is set at eleven at night.", "The alarm is set at 23:00."),
    ("Deliveries arrive at ten past 8.", "Deliveries arrive at 08:10."),
])
def test_a_time_said_in_words_is_its_clock_time(spoken: str, clock: str) -> None:
    assert normalized(spoken) == normalized(clock)
    assert by_kind(spoken)["time"] == by_kind(clock)["time"]


@pytest.mark.parametrize("text", ["Six reviewers sign off.", "The shop shuts at nine.", "We bake four loaves past noon"])
def test_a_bare_number_is_no_time(text: str) -> None:
    assert "time" not in by_kind(text) or "noon" in text


@pytest.mark.parametrize(("spelt", "short"), [
    ("Uploads may be twenty-five megabytes.", "Uploads may be 25 MB."),
    ("The cache holds two gigabytes.", "The cache holds 2 GB."),
    ("A record is at most 512 kilobytes.", "A record is at most 512 KB."),
])
def test_a_size_unit_spelt_out_is_one_size(spelt: str, short: str) -> None:
    assert normalized(spelt) == normalized(short)
    assert by_kind(spelt)["size"] == by_kind(short)["size"]


@pytest.mark.parametrize(("short", "long"), [("db", "databas"), ("pg", "postgr"), ("gh", "github"), ("ts", "typescript")])
def test_an_abbreviation_of_heads_is_one_word(short: str, long: str) -> None:
    assert one_word(short, long) and abbreviation(short, long)


@pytest.mark.parametrize(("short", "long"), [("pr", "project"), ("db", "debug"), ("ci", "citi"), ("pg", "page")])
def test_letters_near_the_start_are_no_abbreviation(short: str, long: str) -> None:
    assert not abbreviation(short, long)


def test_instead_of_affirms_the_first_and_denies_the_second() -> None:
    said = polarity("Proof the dough in the walk-in fridge instead of the cabinet.")
    assert any("fridg" in clause or "fridge" in clause for clause in said.affirmed)
    assert [head for head, _ in said.denied] == [words("cabinet").tokens[0]]


def test_a_refused_value_beside_the_value_is_an_alternative() -> None:
    other = words("The bakery's card reader is from SumUp.")
    assert words("Zettle").tokens[0] in alternatives("Card payments go through SumUp, never Zettle.", other)


def test_a_refused_value_the_other_card_names_is_no_alternative() -> None:
    other = words("Card payments go through Zettle.")
    assert alternatives("Card payments go through SumUp, never Zettle.", other) == frozenset()


def test_a_refused_act_is_no_alternative() -> None:
    other = words("Rye loaves cool on the top rack.")
    assert alternatives("Rye loaves cool on the top rack; don't slice them warm.", other) == frozenset()


def test_a_text_that_only_refuses_has_no_alternative() -> None:
    assert alternatives("Never bake rye on Sundays.", words("Rye is baked on weekdays.")) == frozenset()
