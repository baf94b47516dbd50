"""D105 meets a card that rewords its passage sentence by sentence, and a rule the docs state themselves.

The repo is a small greenhouse controller ("sprout") with a contributing guide and an
architecture note. A card that says what a bullet says, swapping its verbs and
prepositions for others ("kept below" for "stay under"), loses the weight of the swapped
words, which the repo never uses and so weighs most; when every sentence of the card is
mostly the passage's, it is a copy all the same. A card that adds a sentence of its own,
a reason, or a person the repo never names is not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import repo_with_vault

from cardindex.lint.derivable_cover import CARD_COVERED, REWORDED
from cardindex.lint.derivable_values import record_values, worded_table, worded_values
from cardindex.meaning.claims import only_rule, sentences
from cardindex.meaning.repo_files import Record
from cardindex.store.card import Card

SPROUT = {
    "README.md": ("# sprout\n\nsprout waters the greenhouse benches on a schedule and logs soil moisture.\n\n"
                  "See docs/contributing.md before sending a change.\n"),
    "docs/contributing.md": (
        "# Contributing\n\n"
        "- Changelog entries use the past tense and stay under 80 words.\n"
        "- Feature branches start with the issue number, for example `SP-17-drip-timer`.\n"),
    "docs/architecture.md": (
        "# Architecture\n\n"
        "The scheduler never talks to the valve board directly: jobs call the relay layer, which owns every "
        "serial command.\n\n"
        "Moisture readings are sampled once a minute and averaged over ten samples.\n"),
    "sprout/relay.py": "def open_valve(bench: int) -> None:\n    pass\n",
    "sprout/pump.py": "PUMP_RUN_SECONDS = 240\nMAX_VALVE_RETRIES = 3\n",
}

CARDS = {
    # The changelog bullet, reworded: other verbs, another preposition.
    "changelog-style": ("How changelog entries are worded",
                        "Changelog entries are written in the past tense and kept below 80 words."),
    # The branch bullet, reworded.
    "branch-prefix": ("How feature branches are named", "Feature branches are named after the issue number first, like SP-17-drip-timer."),
    # The architecture rule, as a rule of the card's own wording: the docs state it themselves.
    "relay-only": ("Who drives the valve board",
                   ("Jobs must go through the relay layer, which holds all the serial commands; the scheduler never "
                   "drives the valve board itself.")),
    # The same bullet and a sentence the repo does not say at all.
    "changelog-copied": ("How changelog entries are worded",
                         ("Changelog entries are written in the past tense and kept below 80 words. The shop's "
                         "newsletter quotes the latest three entries verbatim every month.")),
    # The same rule, with the reason someone gave.
    "relay-why": ("Who drives the valves",
                  ("Jobs must go through the relay layer because the valve board locks up when two writers talk "
                  "to it at once; the scheduler never drives the board itself.")),
    # The bullet reworded, and a person the repo never names.
    "changelog-owner": ("How changelog entries are worded",
                        "Changelog entries are written in the past tense and kept below 80 words; Oksana trims them."),
    # PUMP_RUN_SECONDS = 240, in words and in minutes.
    "pump-run": ("How long a watering lasts", "Each watering runs the pump for four minutes."),
    # Another value in prose: maybe of something else, not reported.
    "pump-six": ("How long a watering lasts", "Each watering runs the pump for six minutes."),
    # The value with a reason of the card's own.
    "pump-why": ("How long a watering lasts",
                 "The pump runs for four minutes because the drip lines on the far benches take that long to fill."),
}


@pytest.fixture
def sprout(tmp_path: Path) -> Path:
    return repo_with_vault(tmp_path / "sprout", SPROUT, CARDS, "Water the benches")


def _card(body: str) -> Card:
    return Card.from_text("c.md", f"---\ndescription: A rule\ntype: project\n---\n{body}\n")


def test_a_rule_alone_is_told_from_a_rule_with_its_why_or_someone_elses_say() -> None:
    plain = [s for s in sentences(_card("Jobs must go through the relay layer.")) if not s.description]
    why = [s for s in sentences(_card("Jobs must go through the relay layer because the board locks up."))
           if not s.description]
    asked = [s for s in sentences(_card("Jobs must go through the relay layer, as the vendor requested."))
             if not s.description]
    assert plain[0].reason and why[0].reason and asked[0].reason
    assert only_rule(plain[0])
    assert not only_rule(why[0])
    assert not only_rule(asked[0])


def test_the_reworded_tier_is_below_the_plain_one() -> None:
    assert 0 < REWORDED < CARD_COVERED


def test_lint_reports_the_reworded_copies_and_no_card_with_something_of_its_own(
        sprout: Path, run_cli: Callable[..., Result]) -> None:
    result = run_cli("--vault", str(sprout), "lint", "--select", "derivable", "--format", "json")
    assert result.exit_code == 1, result.stderr
    found = {f["path"]: (f["code"], f["message"]) for f in json.loads(result.stdout)}
    assert found == {
        "changelog-style.md": ("D105", "docs/contributing.md line 3 already says this"),
        "branch-prefix.md": ("D105", "docs/contributing.md line 4 already says this"),
        "relay-only.md": ("D105", "docs/architecture.md line 3 already says this"),
        "pump-run.md": ("D102", ("gives PUMP_RUN_SECONDS = 240 (sprout/pump.py:1) in other words: the code already "
                                "records it")),
    }


def _worded(sentence: str) -> list[str]:
    constants = {name: [Record("app/limits.py", n, "constant", name, value)] for n, (name, value) in enumerate(
        [("MAX_RETRIES", "5"), ("SWEEP_INTERVAL_SECONDS", "300"), ("IMPORT_ROW_LIMIT", "20000"), ("DEBUG", "1")], 1)}
    return [stated.record.subject for stated in worded_values(sentence, worded_table(constants))]


def test_a_constant_in_the_words_of_its_name_with_its_value() -> None:
    assert _worded("The retry limit is five.") == ["MAX_RETRIES"]
    assert _worded("We retry at most 5 times.") == ["MAX_RETRIES"]
    # The unit the name keeps the value in: 300 seconds, said as five minutes; `sweeper` is SWEEP's word.
    assert _worded("The sweeper checks every five minutes.") == ["SWEEP_INTERVAL_SECONDS"]
    assert _worded("An import takes at most 20000 rows.") == ["IMPORT_ROW_LIMIT"]


def test_another_value_another_thing_or_more_said_is_no_constant_in_words() -> None:
    assert _worded("We retry at most 3 times.") == []  # another value: maybe of something else
    assert _worded("The sweeper checks every ten minutes.") == []
    assert _worded("Five people joined the rota.") == []  # the value, not the name's words
    assert _worded("Debug builds print 1 line per request.") == []  # 0 and 1 are any flag's values
    # The name's words and value, and a story of its own.
    assert _worded("Card payments retry five times before the billing desk phones the shop owner.") == []


def _settings(sentence: str) -> list[tuple[str, bool]]:
    records = [Record("pyproject.toml", 7, "setting", "tool.ruff.line-length", "100"),
               Record("pyproject.toml", 8, "setting", "tool.black.line-length", "88"),
               Record("pyproject.toml", 9, "setting", "tool.ruff.indent-width", "4"),
               Record("pyproject.toml", 12, "setting", "tool.mypy.strict", "true"),
               Record("pyproject.toml", 13, "setting", "tool.mypy.warn-unreachable", "false")]
    return [(found.record.subject, found.same) for found in record_values(sentence, records)]


def test_a_setting_named_by_its_key_alone_when_no_other_setting_has_that_key() -> None:
    assert _settings("The indent width is 4.") == [("tool.ruff.indent-width", True)]
    # Two tools set a line length: the key alone names neither.
    assert _settings("The line length is 100.") == []
    assert _settings("ruff's line length is 100.") == [("tool.ruff.line-length", True)]
    # The key alone with another number may be another tool's: not reported; with the tool it is a stale copy.
    assert _settings("The indent width is 2.") == []
    assert _settings("ruff's indent width is 2.") == [("tool.ruff.indent-width", False)]


def test_a_setting_that_is_on_or_off_as_the_file_sets_it() -> None:
    assert _settings("mypy runs in strict mode.") == [("tool.mypy.strict", True)]
    assert _settings("Strict mode is on.") == [("tool.mypy.strict", True)]
    assert _settings("Strict mode is off.") == []
    assert _settings("mypy does not warn about unreachable code.") == [("tool.mypy.warn-unreachable", True)]
    assert _settings("The kiosk app has a strict mode for the forms riders fill in.") == []
