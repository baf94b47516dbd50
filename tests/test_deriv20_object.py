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
from helpers import git

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
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lock")
    (root / "lock").mkdir()
    (root / "lock" / "tides.py").write_text(CODE, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Tide windows")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in CARDS.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n",
                                          encoding="utf-8")
    return root


def test_a_name_the_sentence_acts_on_is_not_described(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["--vault", str(repo / "memory"), "lint", "--select", "derivable",
                                      "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    found = {f["path"]: f["code"] for f in json.loads(result.stdout)}
    assert "acts-on.md" not in found
    assert found.get("describes.md") == "D102"
    assert found.get("held-in.md") == "D102"  # "hard-coded in `TIDE_HOURS`": what the name holds
