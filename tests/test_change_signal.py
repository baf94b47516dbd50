"""`meaning.change.change_signal`: whether a card says its value replaced an earlier one.

Written in other domains than the lint corpus; more durable sentences that must stay
quiet (procedures, preferences, ranges, participles, "for now") than changes.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardindex.meaning.change import change_signal

CHANGES = [
    ("Payroll exports now go to the finance share, not the HR drive.", "now"),
    ("The greenhouse sensors no longer report over LoRa.", "no longer"),
    ("We switched the kiln controller to the Bartlett firmware.", "switched"),
    ("The choir moved its rehearsals from the crypt to the north hall.", "moved"),
    ("Field notes were migrated to the herbarium database.", "migrated"),
    ("Replaced the paper sign-in sheet with the tablet kiosk.", "replaced"),
    ("The 2019 grading rubric is deprecated; mark with the new one.", "deprecated"),
    ("Since v4 the ticket printer needs the driver bundle.", "since v4"),
    ("As of 2026-03 the ferry timetable is the summer one.", "as of 2026-03"),
    ("Volunteers used to meet on Fridays; the meeting is on Tuesdays.", "used to"),
    ("Previously the loan desk closed at 18:00.", "previously"),
    ("Tasting notes are not kept in the binder anymore.", "anymore"),
    ("We dropped the fax line for lab results.", "dropped"),
    ("The shared inbox has been renamed to frontdesk.", "renamed"),
    ("Nowadays the orchard is sprayed by the co-op.", "nowadays"),
]

DURABLE = [
    "Samples are moved to the cold room once labelled.",
    "Only grade the changed answers after a resubmission.",
    "Changed bookings are confirmed by the front desk.",
    "Keep the backup generator on manual for now.",
    "Right now the tenant prefers email over calls.",
    "The forklift is used to unload the pallets.",
    "Opening hours run from 9 to 5 on weekdays.",
    "Invoices from the caterer go to accounts payable.",
    "Serve decaf instead of regular after 20:00.",
    "Stop the centrifuge before opening the lid.",
    "Replace the filter cartridge every 200 litres.",
    "Since the boiler is old, bleed the radiators in October.",
    "Switch the hall lights off when leaving.",
    "Damaged returns are replaced by the supplier.",
    "Until now nobody has owned the tool inventory.",
    "Report the reading with `Clock.now()` in the sheet.",
    "The budget line hasn't changed since the audit.",
    "Rehearsals happen on Thursdays in the north hall.",
    "Every replaced part goes into the scrap bin with its tag.",
    "Field notes are written in pencil, never in ink.",
]


@pytest.mark.parametrize(("text", "expected"), CHANGES)
def test_a_change_is_found(text: str, expected: str) -> None:
    assert change_signal(text) == expected


@pytest.mark.parametrize("text", DURABLE)
def test_a_durable_rule_carries_no_change_signal(text: str) -> None:
    assert change_signal(text) is None


def test_a_contrast_counts_only_when_it_names_the_old_value() -> None:
    new = "Serve oat milk instead of dairy at the counter."
    assert change_signal(new) is None  # a preference on its own
    assert change_signal(new, old="The counter serves dairy milk.") == "instead of"
    assert change_signal(new, old="The counter serves soy milk.") is None
    assert change_signal("The rota went from Meera to Jonas.", old="Meera keeps the rota.") == "from"
    assert change_signal("Opening hours run from 9 to 5.", old="Opening hours start at 10.") is None


def test_code_and_quotes_are_not_read() -> None:
    assert change_signal("Run `make now` to rebuild the catalogue.") is None
    assert change_signal('The banner says "we have moved" on the old site.') is None
    assert change_signal("```\nswitched to staging\n```\nThe kiosk prints receipts.") is None


_PLAIN = st.lists(st.sampled_from(["the", "kiln", "fires", "on", "Mondays", "glaze", "is", "stored", "in",
                                   "shed", "for", "students", "keep", "lid", "closed", "and", "label", "jars"]),
                  min_size=1, max_size=12)


@given(_PLAIN)
def test_sentences_of_plain_words_carry_no_signal(words: list[str]) -> None:
    assert change_signal(" ".join(words) + ".") is None


@given(_PLAIN, _PLAIN)
def test_a_no_longer_clause_is_a_signal_wherever_it_stands(before: list[str], after: list[str]) -> None:
    assert change_signal(" ".join(before) + " no longer " + " ".join(after) + ".") == "no longer"
