"""T105 leaves a path that stands for any name alone: `backlog/NNN.md`, `scripts/x.mjs`.

Cards explain conventions with placeholder paths ("each item is backlog/NNN.md", "callers
run `node scripts/x.mjs`"); the repo has the folder but no such file, and never will. A
real path the repo lacks is still found.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


@pytest.fixture
def repo(tmp_path: Path, run_cli: Callable[..., Result]) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    for folder in ("backlog", "scripts", "docs/adr"):
        (root / folder).mkdir(parents=True)
    (root / "backlog" / "0042-kennel-booking.md").write_text("x\n", encoding="utf-8")
    assert run_cli("init", str(root / "memory")).exit_code == 0
    return root


def _t105(run_cli: Callable[..., Result], repo: Path, body: str) -> list[str]:
    (repo / "memory" / "convention.md").write_text(
        f"---\ndescription: How backlog items and scripts are laid out\ntype: project\n---\n{body}\n", encoding="utf-8")
    done = run_cli("--vault", str(repo / "memory"), "lint", "--select", "T105", "--format", "json")
    return [f["message"] for f in json.loads(done.stdout)]


@pytest.mark.parametrize("body", [
    "Each backlog item is one file, backlog/NNN.md, numbered in order.",
    "Hooks and npm scripts call helpers as `node scripts/x.mjs --flag`.",
    "Decisions are recorded as docs/adr/NNNN-title.md, never renumbered.",
])
def test_a_placeholder_path_is_no_dead_reference(run_cli: Callable[..., Result], repo: Path, body: str) -> None:
    assert _t105(run_cli, repo, body) == []


def test_a_real_path_the_repo_lacks_is_still_found(run_cli: Callable[..., Result], repo: Path) -> None:
    assert _t105(run_cli, repo, "The kennel booking item is backlog/0043-kennel-booking.md.") == [
        "names backlog/0043-kennel-booking.md, which the repo no longer has"]
