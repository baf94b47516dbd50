"""Shell completion (commands, options, card ids, job ids) and environment settings that must fail in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


def complete(words: str, cword: int, cwd: Path) -> list[str]:
    env = {**os.environ, "COMP_WORDS": words, "COMP_CWORD": str(cword), "_CARDS_COMPLETE": "bash_complete"}
    env.pop("CARDS_VAULT", None)
    done = subprocess.run([sys.executable, "-m", "cardindex"], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return [line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line]


@pytest.mark.parametrize("shell, marker", [("bash", "_cards_completion()"), ("zsh", "#compdef cards"),
                                           ("fish", "complete --no-files --command cards")])
def test_completion_scripts(run_cli: Callable[..., Result], shell: str, marker: str) -> None:
    done = run_cli("completion", shell)
    assert done.exit_code == 0 and marker in done.stdout and "_CARDS_COMPLETE" in done.stdout
    assert run_cli("completion", "tcsh").exit_code == 2


def test_commands_options_card_and_job_ids_complete(invoke: Callable[..., Result], vault: Path) -> None:
    for text in ("Deploys go out on Tuesdays.", "The staging database is reset every Sunday night."):
        assert invoke("add", text).exit_code == 0
    assert {"state", "status"} <= set(complete("cards sta", 1, vault))
    assert "--dry-run" in complete("cards consolidate --dr", 2, vault)
    ids = complete("cards show the-s", 2, vault)
    assert ids == ["the-staging-database-is-reset-every-sunday"]
    assert set(complete("cards archive ", 2, vault)) == {"deploys-go-out-on-tuesdays",
                                                         "the-staging-database-is-reset-every-sunday"}
    assert complete(f"cards --vault {vault} supersede dep", 4, vault.parent) == ["deploys-go-out-on-tuesdays"]
    jobs = complete("cards undo 2", 2, vault)
    assert len(jobs) == 2 and all(j[:2] == "20" for j in jobs)
    assert complete("cards show x", 2, vault.parent) == []  # no vault here: no completions, no error


@pytest.mark.parametrize("value", ["abc", "-1", "nan", "inf"])
def test_a_bad_lock_timeout_is_one_line(invoke: Callable[..., Result], vault: Path, value: str) -> None:
    done = invoke("add", "Deploys go out on Tuesdays.", env={"CARDS_LOCK_TIMEOUT": value})
    assert done.exit_code == 2
    assert done.stderr == f"error: CARDS_LOCK_TIMEOUT must be a number of seconds (0 or more), got {value!r}\n"
    assert not list(vault.glob("*.md")) or [p.name for p in vault.glob("*.md")] == ["INDEX.md"]
    assert invoke("add", "Deploys go out on Tuesdays.", env={"CARDS_LOCK_TIMEOUT": "2.5"}).exit_code == 0
