"""Values written in more ways (issue 14, class 3, session 20): a version its tool is held to, width by
height, an hour after a day, and sentences that only illustrate.

"Liquidsoap is pinned to 2.2" gives the version of "liquidsoap 2.2.x"; "1920 x 1080 px" and "1920 pixels
wide and 1080 tall" are one value; "every Sun at 8" is 08:00. Each value is read by `value_forms` (the one
reader) and compared by lint, the gate and consolidate alike. The cards are a community radio station's
memory, a domain unlike the corpora's.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import Result
from helpers import pair_findings, write_cards
from hypothesis import given
from hypothesis import strategies as st

from cardindex.meaning.value_forms import by_kind, forms, normalized

Invoke = Callable[..., Result]


def kinds(text: str) -> dict[str, set[str]]:
    return {k: set(v) for k, v in by_kind(text).items()}


@pytest.mark.parametrize(("text", "value"), [
    ("Liquidsoap is pinned to 2.2 on the playout box.", "liquidsoap 2.2"),
    ("The playout box runs liquidsoap 2.2.x.", "liquidsoap 2.2"),
    ("Icecast stays on 2.4 until the mount points move.", "icecast 2.4"),
    ("Postgres is locked at 15 for the music library.", "postgres 15"),
])
def test_a_version_its_tool_is_held_to(text: str, value: str) -> None:
    assert kinds(text).get("version") == {value}


@pytest.mark.parametrize("text", [
    "It is pinned to 2.2 for now.",  # names no tool
    "The stream delay is kept at 30.",  # a setting, not a version: no dot, not pinned
    "We stay on 3.11 everywhere.",  # "stay" is no tool
    "Presenters sit on 3 chairs.",
])
def test_no_version_without_a_tool_held_to_it(text: str) -> None:
    assert "version" not in kinds(text)


@pytest.mark.parametrize("text", [
    "Show artwork must be 1920 \u00d7 1080 px.",
    "Show artwork must be 1920 x 1080 px.",
    "Show artwork: 1920x1080.",
    "Artwork is 1920 by 1080 pixels.",
    "Artwork has to be 1920 pixels wide and 1080 tall.",
    "Artwork has to be 1080 px tall and 1920 px wide.",
])
def test_width_by_height_is_one_value_however_written(text: str) -> None:
    assert kinds(text).get("dimensions") == {"1920x1080"}


@pytest.mark.parametrize("text", ["A 2x3 grid of faders.", "Version 1920.1080.5 of the tool.", "Mix 1920x1080.5 units"])
def test_no_dimensions_in_small_grids_or_dotted_numbers(text: str) -> None:
    assert "dimensions" not in kinds(text)


@pytest.mark.parametrize(("text", "time"), [
    ("The transmitter log rotates every Sun at 8 (Lisbon).", "08:00"),
    ("Jingles are refreshed on Fridays at 17.", "17:00"),
    ("The archive job runs daily at 3, UTC.", "03:00"),
])
def test_an_hour_after_a_day_is_a_time(text: str, time: str) -> None:
    assert kinds(text).get("time") == {time}


@pytest.mark.parametrize("text", [
    "The limiter caps at 9 before clipping.",  # no day before it: a number
    "On Mondays at 10 volunteers meet the producer.",  # a noun after it: a count
    "Tuesdays at 10:30 the news desk meets.",  # a clock is read as a clock, once
])
def test_a_bare_number_after_at_is_no_hour_unless_a_day_names_it(text: str) -> None:
    times = kinds(text).get("time", set())
    assert times <= {"10:30"}


def test_the_hour_is_written_as_a_clock_where_texts_are_compared() -> None:
    assert normalized("Handover every Mon at 9, Lisbon time") == "Handover every Mon at 09:00, Lisbon time"
    assert normalized("Handover every Mon at 9 sharp") == "Handover every Mon at 9 sharp"  # a word after it: not read
    assert normalized("Handover: Monday, 09:00.") == "Handover: Monday, 09:00."


def test_each_value_is_read_once() -> None:
    read = [(f.kind, f.value) for f in forms("Liquidsoap is pinned to 2.2; artwork 1920 \u00d7 1080 px, every Sun at 8.")]
    assert read.count(("version", "liquidsoap 2.2")) == 1 and read.count(("dimensions", "1920x1080")) == 1
    assert ("time", "08:00") in read


@pytest.mark.parametrize("text", [
    "The stream API allows 60 requests/min per key.",
    "Any one key gets at most sixty calls in a sixty-second window.",
    "The stream API allows 3600 requests per hour per key.",
    "Limit: 1 request a second per key.",
])
def test_so_many_in_a_span_of_time_is_one_rate_however_written(text: str) -> None:
    assert kinds(text).get("rate") == {"3600"}


@pytest.mark.parametrize(("text", "kind"), [
    ("The gauge reports six times an hour.", "interval"),  # how often: an interval, not a rate
    ("Presenters prepare 2 hours a day.", "duration"),  # a duration each day
    ("Keep the logs for 30 days.", "duration"),
])
def test_how_often_and_how_long_are_no_rates(text: str, kind: str) -> None:
    found = kinds(text)
    assert "rate" not in found and kind in found


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("The archive keeps a hundred shows.", "count", "100"),
    ("The archive keeps two hundred shows.", "count", "200"),
    ("The archive keeps twenty-five thousand tracks.", "count", "25000"),
    ("The fade takes two hundred milliseconds.", "duration", "0.2"),
    ("Each key gets two hundred requests/min.", "rate", "12000"),
])
def test_hundreds_and_thousands_spelt_out_are_their_numbers(text: str, kind: str, value: str) -> None:
    assert kinds(text).get(kind) == {value}


# ---------------------------------------------------------------- through lint

BACKGROUND = [
    ("bg-studio.md", "Where the studio keys are kept", "Studio keys hang in the key box behind reception."),
    ("bg-news.md", "Who reads the evening news", "Ines reads the evening news on weekdays."),
    ("bg-mics.md", "Which microphones the studio uses", "The studio uses two dynamic microphones on boom arms."),
    ("bg-fm.md", "Frequency the station broadcasts on", "The station broadcasts on 99.1 FM."),
]

SAME = {
    "a pinned version and a version with its tool": [
        ("playout-a.md", "Liquidsoap version on the playout box", "The playout box runs liquidsoap 2.2.x. No newer operators."),
        ("playout-b.md", "Which liquidsoap release the playout box has", "Liquidsoap is pinned to 2.2 on the playout box.")],
    "a rate said per minute and in a window": [
        ("limit-a.md", "Requests allowed per stream API key", "Rate limit: 60 requests/min per stream API key."),
        ("limit-b.md", "Per-key throttle on the stream API",
         "Any one key gets at most sixty calls in a sixty-second window on the stream API.")],
    "an hour after a day and a clock": [
        ("handover-a.md", "Weekly transmitter duty and handover time",
         "Transmitter duty rotates weekly. Handover: Sunday, 08:00."),
        ("handover-b.md", "When the transmitter duty changes hands",
         "Transmitter duty moves to the next volunteer every Sun at 8 (Lisbon); one volunteer holds it all week.")],
}

OTHER = {
    "two pinned versions": [
        ("playout-a.md", "Liquidsoap version on the playout box", "The playout box runs liquidsoap 2.2.x."),
        ("playout-b.md", "Which liquidsoap release the playout box has", "Liquidsoap is pinned to 2.4 on the playout box.")],
    "two rates": [
        ("limit-a.md", "Requests allowed per stream API key", "Rate limit: 60 requests/min per stream API key."),
        ("limit-b.md", "Per-key throttle on the stream API",
         "Any one key gets at most thirty calls in a sixty-second window on the stream API.")],
    "two artwork sizes": [
        ("art-a.md", "Size of show artwork", "Show artwork must be 1920 \u00d7 1080 px."),
        ("art-b.md", "Show artwork size", "Show artwork must be 1280 \u00d7 720 px.")],
}


@pytest.mark.parametrize("case", sorted(SAME))
def test_one_value_written_two_new_ways_is_a_duplicate(case: str, vault: Path, invoke: Invoke,
                                                       make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *SAME[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {SAME[case][0][0], SAME[case][1][0]}
    assert {f["category"] for f in found} == {"duplicate"}


@pytest.mark.parametrize("case", sorted(OTHER))
def test_two_values_written_the_new_ways_are_a_contradiction(case: str, vault: Path, invoke: Invoke,
                                                             make_card: Callable[..., str]) -> None:
    write_cards(vault, [*BACKGROUND, *OTHER[case]], make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {OTHER[case][0][0], OTHER[case][1][0]}
    assert {f["category"] for f in found} == {"contradiction"}


def test_an_example_sentence_is_not_what_the_card_states(vault: Path, invoke: Invoke,
                                                         make_card: Callable[..., str]) -> None:
    """Two sizes in a sentence that opens "For example" illustrate the rule; they are no second value."""
    write_cards(vault, [*BACKGROUND,
                        ("art-a.md", "Size of show artwork", "Show artwork must be 1920 \u00d7 1080 px."),
                        ("art-b.md", "Show artwork size",
                         "Show artwork must be 1920 x 1080 px. For example a 1280 x 720 upload is refused.")],
                make_card)
    found = pair_findings(invoke)
    assert {f["category"] for f in found} == {"duplicate"}


def test_one_keyed_value_beside_refused_ones_is_a_duplicate(vault: Path, invoke: Invoke,
                                                             make_card: Callable[..., str]) -> None:
    """"not in env vars, not in the DB" names no second value of the key: the card refuses them."""
    (vault / "flags-a.md").write_text(make_card("Which service holds the station's feature flags", key="flag-service",
                                                body="Feature flags live in Flagsmith (self-hosted, flags.radio.internal).",
                                                verified="2026-03-01"))
    (vault / "flags-b.md").write_text(make_card("Where toggles are defined and flipped", key="flag-service",
                                                body="Toggles are created and switched in our Flagsmith instance at "
                                                     "flags.radio.internal, not in env vars, not in the DB.",
                                                verified="2026-05-01"))
    write_cards(vault, BACKGROUND, make_card)
    found = pair_findings(invoke)
    assert {f["path"] for f in found} == {"flags-a.md", "flags-b.md"}
    assert {f["category"] for f in found} == {"duplicate"}


# ---------------------------------------------------------------- properties

_UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


@given(st.integers(min_value=1, max_value=5000), st.sampled_from(sorted(_UNIT_SECONDS)),
       st.sampled_from(["{n} requests/{u}", "{n} requests per {u}", "{n} calls a {u}", "{n} calls in a one-{u} window",
                        "{n} calls within one {u}"]))
def test_a_rate_is_its_number_per_hour_however_written(n: int, unit: str, shape: str) -> None:
    text = f"Each key gets {shape.format(n=n, u=unit)}."
    per_hour = n * 3600 / _UNIT_SECONDS[unit]
    assert kinds(text).get("rate") == {format(round(per_hour, 6), "g") if per_hour != int(per_hour) else str(int(per_hour))}


@given(st.integers(min_value=10, max_value=99999), st.integers(min_value=10, max_value=99999), st.booleans())
def test_width_by_height_keeps_its_order_whichever_is_said_first(width: int, height: int, wide_first: bool) -> None:
    said = (f"{width} pixels wide and {height} tall" if wide_first else f"{height} px tall and {width} px wide")
    assert kinds(f"The banner is {said}.").get("dimensions") == {f"{width}x{height}"}
    assert kinds(f"The banner is {width} \u00d7 {height} px.").get("dimensions") == {f"{width}x{height}"}


@given(st.sampled_from(["Mon", "Tuesday", "Fridays", "daily", "every morning"]), st.integers(min_value=0, max_value=23))
def test_an_hour_after_a_day_normalizes_once(day: str, hour: int) -> None:
    once = normalized(f"The rota changes {day} at {hour}, Lisbon time.")
    assert f"{hour:02d}:00" in once
    assert normalized(once) == once


_PIECES = st.sampled_from([*"09 ax\u00d7/pmWwidetal.,", " at ", " per ", " pinned to ", "Mon", " wide ", " tall ", " px",
                           " by ", " requests", " minute"])


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_forms_are_inside_the_text_and_never_overlap(text: str) -> None:
    read = forms(text)
    assert all(text[f.start:f.end] == f.written for f in read)
    spans = sorted((f.start, f.end) for f in read)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in pairwise(spans))
