"""One value reader and one polarity model, as units (issue 14, classes 1-5, sixth pass).

`value_forms` is the one reader of values: what `forms` reads, `by_kind` compares and
`normalized` writes are one model, so "2am", "2 a.m." and "02:00" are one clock time for
the duplicate path and the contradiction path alike. `polarity` says what a text affirms
and what it denies, clause by clause: a negation stands against another card only when it
denies a predicate that card affirms. Cases in a ferry operator's and an orchard's words.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardindex.meaning.polarity import denied_against, polarity
from cardindex.meaning.value_forms import by_kind, normalized

# ---------------------------------------------------------------- one value, written two ways


@pytest.mark.parametrize(("left", "right"), [
    ("The ferry engines are serviced at 2am.", "The ferry engines are serviced at 02:00."),
    ("The ferry engines are serviced at 2 a.m.", "The ferry engines are serviced at 02:00."),
    ("The till is counted at 3 am.", "The till is counted at 03:00."),
    ("The webcam refreshes every 15 minutes.", "The webcam refreshes four times an hour."),
    ("Pruning takes a quarter of an hour per tree.", "Pruning takes 15 minutes per tree."),
    ("Reminders go out 5, 10 and 15 days after renewal.", "Reminders go out five, ten and fifteen days after renewal."),
    ("Reminders go out 7, 14 and 21 days after renewal.", "Reminders go out one, two and three weeks after renewal."),
    ("The cider rests twenty-five minutes.", "The cider rests 25 minutes."),
    ("Pressing runs on workdays.", "Pressing runs Monday to Friday."),
    ("Coverage of the orchard map must stay above 85%.", "Coverage of the orchard map must stay above 85 percent."),
])
def test_one_value_said_two_ways_is_one_text_and_one_typed_value(left: str, right: str) -> None:
    assert normalized(left) == normalized(right)
    assert by_kind(left) == by_kind(right) and by_kind(left)


@pytest.mark.parametrize(("left", "right"), [
    ("The ferry engines are serviced at 2am.", "The ferry engines are serviced at 04:30."),
    ("The webcam refreshes every 15 minutes.", "The webcam refreshes twice an hour."),
    ("Reminders go out 5, 10 and 15 days after renewal.", "Reminders go out 7, 14 and 21 days after renewal."),
    ("Pressing runs on workdays.", "Pressing runs on weekends."),
])
def test_two_values_of_one_kind_stay_two(left: str, right: str) -> None:
    assert normalized(left) != normalized(right)
    assert by_kind(left).keys() == by_kind(right).keys() and by_kind(left) != by_kind(right)


@pytest.mark.parametrize("text", ["PR #12 and 3 more", "Pier 2 and pier 3 are closed.", "She sat down in the sun.",
                                  "Steps 1 and 2 come first."])
def test_numbers_that_are_no_measures_stay_as_written(text: str) -> None:
    assert normalized(text) == text


@given(st.integers(min_value=1, max_value=12), st.integers(min_value=0, max_value=59), st.sampled_from(["am", "pm"]),
       st.sampled_from(["{h}{m}{s}", "{h}{m} {s}", "{h}{m} {d}"]))
def test_a_clock_time_has_one_canonical_form_however_written(hour: int, minute: int, half: str, shape: str) -> None:
    m = f":{minute:02d}" if minute else ""
    written = shape.format(h=hour, m=m, s=half, d=f"{half[0]}.m.")
    hour24 = hour % 12 + (12 if half == "pm" else 0)
    assert normalized(f"The ferry leaves at {written} daily.") == f"The ferry leaves at {hour24:02d}:{minute:02d} daily."


@given(st.lists(st.integers(min_value=1, max_value=9), min_size=2, max_size=4, unique=True))
def test_a_list_in_weeks_is_the_list_in_days(weeks: list[int]) -> None:
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    spelt = ", ".join(words[w - 1] for w in weeks[:-1]) + f" and {words[weeks[-1] - 1]} weeks"
    digits = ", ".join(str(7 * w) for w in weeks[:-1]) + f" and {7 * weeks[-1]} days"
    assert normalized(f"Checks at {spelt}.") == normalized(f"Checks at {digits}.")


@given(st.integers(min_value=1, max_value=300))
def test_normalizing_twice_changes_nothing(minutes: int) -> None:
    once = normalized(f"The tide gauge is read every {minutes} minutes.")
    assert normalized(once) == once


# ---------------------------------------------------------------- polarity


@pytest.mark.parametrize(("mine", "theirs"), [
    ("The kiosk no longer takes card payments.", "The kiosk takes card payments."),
    ("Never spray the pear trees in bloom.", "Always spray the pear trees in bloom."),
    ("Crossings may never skip the safety briefing.", "Crossings may skip the safety briefing."),
])
def test_a_negation_of_what_the_other_affirms_stands(mine: str, theirs: str) -> None:
    assert denied_against(mine, theirs) or denied_against(theirs, mine)


@pytest.mark.parametrize(("mine", "theirs"), [
    # a ban said with a denying word, not a negator
    ("Never refuel the ferry while passengers board.", "Refuelling the ferry is banned while passengers board."),
    # the other card answers the negation with one of its own
    ("The cargo ferry sails every weekday, never on weekends.", "cargo ferry runs on workdays. weekends = no sailings"),
    # the clause that affirms the word gives another value than the one negated
    ("Bikes never ride on the ferry on weekends.", "Bikes ride on the ferry on weekdays, and on weekends only folded."),
    ("The press never runs at 06:00.", "The press runs at 08:30 on pressing days."),
    # a card that only asks
    ("Whether hotfixes may skip review", "When hotfixes may skip review"),
])
def test_a_negation_the_other_card_does_not_affirm_is_no_conflict(mine: str, theirs: str) -> None:
    assert not denied_against(mine, theirs) and not denied_against(theirs, mine)


def test_instead_prefers_and_instead_of_denies() -> None:
    assert not polarity("Shake the apple trees instead.").denied
    assert [w for w, _ in polarity("Shake the trees instead of picking by hand.").denied] == ["pick"]


def test_two_negators_in_a_row_affirm() -> None:
    found = polarity("Crossings may never skip the safety briefing.")
    assert not found.denied and any("safeti" in c or "safety" in c for c in found.affirmed)


def test_a_span_of_working_days_is_no_set_of_weekdays() -> None:
    assert "days" not in by_kind("Claims are answered within five working days.")
    assert "days" not in by_kind("Refunds arrive in 3 business days.")
    assert by_kind("The office is staffed on working days.") == {"days": frozenset({"0,1,2,3,4"})}
