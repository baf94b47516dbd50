"""Derivable: a card that names a repo doc as its source and rewords it (issue 14, class "summary of a named doc").

A fake repo for an observatory's telescope scheduler ("nightjar") keeps an incident
report and a design note. The positive cards point at a doc and restate it sentence by
sentence in other words; the hard negatives point at the same docs while saying other
things (a decision and its outside reason, a pointer alone, another subsystem, a person's
preference), or reword a doc they never name.
"""

from __future__ import annotations

import pytest

from tests.test_derivable_repo import _derivable, _repo_with_vault

INCIDENT = """# Incident: dome shutter stalled during the night of the storm

The dome shutter motor stalled at half open while the wind gusted above forty knots.
The weather station feed was stale for twelve minutes, so the scheduler kept the shutter open.
The watchdog only checks that the weather feed process is alive, never how old its last reading is.
The mirror cover stayed closed, so the primary mirror took no rain.
Operators closed the shutter by hand with the crank from the catwalk.
The fix adds a freshness limit of ninety seconds on weather readings before any slew.
A stale weather reading now parks the telescope and closes the shutter.
The shutter motor controller logs its current draw every second to the telemetry bus.
"""

DESIGN = """# Design: how the scheduler picks the next target

Targets come from the night plan, ordered by priority and by airmass.
A target below thirty degrees of altitude is skipped until it rises.
The scheduler never slews across the meridian while the camera is exposing.
Calibration frames are taken at dusk and dawn, flats first and darks last.
The moon avoidance radius grows with the moon's phase, from ten to forty degrees.
Every slew waits for the dome to settle for eight seconds before the exposure starts.
"""

FILES = {
    "README.md": "# nightjar\n\nThe telescope scheduler of the hill observatory.\n",
    "docs/incidents/shutter-stall.md": INCIDENT,
    "docs/design/target-selection.md": DESIGN,
    "scheduler/plan.py": "def next_target(plan):\n    return plan[0]\n",
}

POSITIVE = {
    "shutter-stall-summary": (
        "What happened when the dome shutter stalled",
        ("Full account: `docs/incidents/shutter-stall.md`.\n\n"
        "- Trigger: strong wind gusts, and the shutter motor stalled when only half open.\n"
        "- Root cause: stale weather station data for twelve minutes; the scheduler believed conditions were fine.\n"
        "- Gap: our watchdog confirms the feed process is alive and ignores how old a reading is.\n"
        "- Impact: little, thanks to the mirror cover staying shut (no rain on the primary).\n"
        "- Recovery: manual crank from the catwalk, done by the operators on duty.\n"
        "- Remedy: weather readings older than ninety seconds now block every slew.\n")),
    "target-selection-notes": (
        "How the scheduler chooses targets",
        ("See docs/design/target-selection.md for the design.\n\n"
        "- Input: targets from the night plan, ordered by priority first and airmass second.\n"
        "- Low targets wait: a target below thirty degrees of altitude is passed over until it rises.\n"
        "- Meridian rule: the scheduler does not slew over the meridian during a camera exposure.\n"
        "- Calibration frames happen at both twilights, dusk and dawn, with flats before the darks.\n"
        "- Moon: the avoidance radius scales with phase, ten up to forty degrees around it.\n"
        "- Dome: each slew pauses eight seconds for the dome to settle, then exposes.\n")),
}

NEGATIVE = {
    "shutter-insurance": (
        "Why shutter incidents go to the insurer within a day",
        ("After an incident like `docs/incidents/shutter-stall.md`, the observatory's insurer must get a written\n"
        "report within twenty-four hours, because the policy lapses otherwise.\n"
        "Mara from facilities sends it; she needs the telemetry export and the operator log.\n"
        "The insurer's portal rejects attachments over ten megabytes, so compress the export first.\n"
        "Claims also need photographs of the crank and the catwalk taken the same night.\n"
        "The broker wants a phone call before the written report arrives.\n")),
    "shutter-pointer": (
        "Where the shutter stall is written up",
        "The shutter stall of the storm night is written up in docs/incidents/shutter-stall.md.\n"),
    "target-weather": (
        "How seeing forecasts feed the night plan",
        ("The design in docs/design/target-selection.md says nothing about seeing forecasts, so we add them here:\n"
        "- The astronomers' seeing forecast arrives from the regional met office at noon.\n"
        "- Nights with forecast seeing worse than two arcseconds get the survey programme instead.\n"
        "- The survey programme tolerates bad seeing because its pixels are large.\n"
        "- The met office charges per request, so we fetch the forecast once a day.\n"
        "- Dr. Okafor prefers the deep fields on the best nights; her grant pays for the camera.\n")),
    "calibration-preference": (
        "How Ines wants calibration handled on her nights",
        ("Ines, who runs the Tuesday programme, wants twilight flats skipped when clouds are forecast at dusk,\n"
        "and dome flats taken instead; she accepts the worse illumination for the saved twilight time.\n"
        "Her programme's reduction pipeline was built for dome flats in 2019 and she trusts it more.\n"
        "Ask her before changing it, because her students compare results across years.\n"
        "The target selection design (docs/design/target-selection.md) does not cover this preference.\n")),
}


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, str]]]:
    from click.testing import CliRunner

    from cardindex.cli.main import cli

    vault = _repo_with_vault(tmp_path_factory.mktemp("nightjar"), FILES, POSITIVE | NEGATIVE)
    return _derivable(lambda *args: CliRunner().invoke(cli, list(args), prog_name="cards"), vault)


@pytest.mark.parametrize("name", sorted(POSITIVE))
def test_a_card_that_rewords_a_doc_it_names_is_derivable(found: dict[str, list[tuple[str, str]]], name: str) -> None:
    assert [code for code, _ in found.get(name, [])] == ["D105"], found.get(name)
    assert "sums up docs/" in found[name][0][1] or "already says this" in found[name][0][1]


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_a_card_that_names_a_doc_but_says_more_is_clean(found: dict[str, list[tuple[str, str]]], name: str) -> None:
    assert found.get(name) is None, found.get(name)


def test_summary_needs_five_well_covered_sentences() -> None:
    from cardindex.meaning.repo_match import SUMMARY_STRONG, summary_of

    assert SUMMARY_STRONG == 5
    assert summary_of(None, [], [frozenset({"a", "b", "c"})]) is None  # type: ignore[arg-type]
