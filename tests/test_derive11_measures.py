"""Derivable recall: a measure however it is written, and the settings of any YAML or TOML file.

The repo is a small bike-share kiosk ("dockside"). Its ops note says the sensors are polled
"every three seconds", its Makefile soaks the kiosk with `--duration 15m`, its own config
file (config/kiosk.toml) and its compose file hold settings no tool list names. A card
that says "every 3 seconds", "for fifteen minutes" or "the locale is nl_NL" restates
them; one that adds a reason, a person or another value does not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import repo_with_vault

from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_configs import reader, tree_settings
from cardindex.meaning.repo_facts import quantities

DOCKSIDE = {
    "README.md": "# dockside\n\ndockside runs the touch screen at each bike dock and reports empty slots.\n",
    "docs/ops.md": ("# Operations\n\nThe kiosk polls the dock sensors every three seconds and marks a slot empty "
                    "after two missed polls.\n"),
    "Makefile": "soak: ## long run on a bench kiosk\n\t./bin/kiosk-soak --duration 15m\n",
    "config/kiosk.toml": 'locale = "nl_NL"\n\n[display]\nbrightness = 70\nidle_screen = "map"\n',
    "deploy/compose.yaml": "services:\n  kiosk:\n    image: dockside/kiosk:edge\n    restart: always\n",
    "dockside/poll.py": "def poll_sensors() -> None:\n    pass\n",
}

CARDS = {
    # docs/ops.md's "every three seconds", with digits.
    "poll-digits": ("Dock sensor polling", "The kiosk polls the dock sensors every 3 seconds."),
    # The Makefile's `--duration 15m`, in words.
    "soak-length": ("Duration of the soak run", "make soak runs the kiosk soak binary for a duration of fifteen minutes."),
    # A key of the kiosk's own config file.
    "kiosk-locale": ("Which locale the kiosk uses", "The kiosk locale is nl_NL in config/kiosk.toml."),
    # The same measure, with the reason someone outside the repo gave.
    "poll-why": ("Dock sensor polling",
                 "The kiosk polls the dock sensors every 3 seconds because the sensor vendor's firmware drops faster reads."),
    # Another value: not what the repo says.
    "poll-five": ("Dock sensor polling", "The kiosk polls the dock sensors every 5 seconds."),
    # The soak length and a person the repo never names.
    "soak-who": ("How long the soak test runs",
                 "make soak runs the kiosk soak binary for fifteen minutes; Ilse reads its report every Monday."),
}


@pytest.fixture
def dockside(tmp_path: Path) -> Path:
    return repo_with_vault(tmp_path / "dockside", DOCKSIDE, CARDS, "First kiosk build")


def test_a_measure_is_one_number_and_one_unit_however_written() -> None:
    def q(text: str) -> list[str]:
        return list(quantities(content_stems(text)))

    assert q("every three seconds") == q("every 3 seconds") == ["3", "second"]
    assert sorted(q("--timeout 5m")) == sorted(q("a five minute timeout")) == ["5", "minut", "timeout"]
    assert q("300ms") == ["300", "millisecond"]
    assert q("sixty days") == ["60", "day"]


def test_a_count_stays_a_word_and_other_numbers_are_left_alone() -> None:
    # "two jobs, unit and lint" counts what it names: no number for the repo to lack.
    assert list(quantities(content_stems("two jobs"))) == ["two", "job"]
    assert list(quantities(content_stems("Python 3.12 on port 8080"))) == list(content_stems("Python 3.12 on port 8080"))


def test_any_yaml_or_toml_file_is_read_as_settings_under_its_stem() -> None:
    toml = {(r.subject, r.value) for r in tree_settings("config/kiosk.toml", DOCKSIDE["config/kiosk.toml"])}
    assert {("kiosk.locale", "nl_NL"), ("display.brightness", "70"), ("display.idle_screen", "map")} <= toml
    compose = list(tree_settings("deploy/compose.yaml", DOCKSIDE["deploy/compose.yaml"]))
    assert ("compose.services.kiosk.restart", "always", 4) in {(r.subject, r.value, r.line) for r in compose}
    # Workflows keep their own reader; a file too big to be settings is data.
    assert reader(".github/workflows/ci.yml") is None
    assert list(tree_settings("data/big.yaml", "k: v\n" * 20_000)) == []


def test_lint_reports_the_restated_measures_and_settings_and_no_card_with_its_own(
        dockside: Path, run_cli: Callable[..., Result]) -> None:
    result = run_cli("--vault", str(dockside), "lint", "--select", "derivable", "--format", "json")
    assert result.exit_code == 1, result.stderr
    found = {f["path"]: f["code"] for f in json.loads(result.stdout)}
    assert found == {"poll-digits.md": "D105", "soak-length.md": "D105", "kiosk-locale.md": "D105"}, found


def test_a_yaml_file_whose_aliases_loop_or_multiply_is_read_in_bounds(tmp_path: Path,
                                                                      run_cli: Callable[..., Result]) -> None:
    """A mapping that holds itself through an alias, and aliases doubling a mapping forty times: no crash, no hang."""
    loop = "a: &a\n  b: *a\n"
    bomb = "l0: &l0 {x: '', y: ''}\n" + "".join(f"l{i}: &l{i} {{a: *l{i - 1}, b: *l{i - 1}}}\n" for i in range(1, 40))
    assert list(tree_settings("config/loop.yaml", loop)) == []
    assert list(tree_settings("config/bomb.yaml", bomb)) == []
    vault = repo_with_vault(tmp_path / "hostile", {"config/loop.yaml": loop, "config/bomb.yaml": bomb},
                            {"level": ("App log level", "The app logs at debug level.")}, "Odd configs")
    result = run_cli("--vault", str(vault), "lint", "--select", "derivable")
    assert result.exit_code == 0, result.output
