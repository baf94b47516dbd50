"""A code name a sentence acts on is not what it describes (issue 14, class 7, session 20).

"`tide_window()` returns the hours a lock may open" describes the function: the code records
that. "Add the lock to every test that reads `tide_window()`" describes the tests; the name is
the object of "reads", and the card (a lesson about a race in those tests) is nothing the code
says. A describing verb said before the name has it for subject only in the forms that say
what the name holds ("the hours are hard-coded in `TIDE_HOURS`").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import repo_with_vault

from cardindex.cli.main import cli

CODE = (
    '"""Tide windows for the lock."""\n\n'
    "TIDE_HOURS = (5, 17)\n\n\n"
    "def tide_window(day):\n"
    '    """Returns the hours of `day` in which the lock may open."""\n'
    "    return TIDE_HOURS\n"
)
CARDS = {
    "describes": ("What tide_window gives", "`tide_window()` returns the hours of a day in which the lock may open."),
    "acts-on": ("Tide tests race when filtered",
                ("Running `pytest -k tide` alone fails two tests at random: they share the global tide cache.\n\n"
                "**How to apply:** file a follow-up to add `with CACHE_LOCK:` to\n"
                "every `tide_*` test that reads `tide_window()`, rather than\nblocking the current PR on it.")),
    "held-in": ("Where the tide hours live", "The opening hours are hard-coded in `TIDE_HOURS` as a pair."),
}


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return repo_with_vault(tmp_path_factory.mktemp("lock"), {"lock/tides.py": CODE}, CARDS, "Tide windows")


def test_a_name_the_sentence_acts_on_is_not_described(vault: Path) -> None:
    result = CliRunner().invoke(cli, ["--vault", str(vault), "lint", "--select", "derivable",
                                      "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    found = {f["path"]: f["code"] for f in json.loads(result.stdout)}
    assert "acts-on.md" not in found
    assert found.get("describes.md") == "D102"
    assert found.get("held-in.md") == "D102"  # "hard-coded in `TIDE_HOURS`": what the name holds
