"""Helpers shared by the card, property and cache tests, and by the pair tests through the CLI."""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (True is not 1, a date is not a str)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dt.datetime):
        return bool(a == b and a.utcoffset() == b.utcoffset())
    return bool(a == b)


def write_cards(vault: Path, cards: list[tuple[str, str, str]], make_card: Callable[..., str],
                dates: list[str] | None = None) -> None:
    """Write (file name, description, body) cards into `vault`, each verified on its date (default 2026-03-01)."""
    for n, (name, description, body) in enumerate(cards):
        (vault / name).write_text(make_card(description, body=body, verified=(dates[n] if dates else "2026-03-01")))


def pair_findings(invoke: Callable[..., Result]) -> list[dict[str, object]]:
    """The duplicate and contradiction findings of `cards lint --format json`."""
    result = invoke("lint", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return [f for f in json.loads(result.stdout) if f["category"] in ("duplicate", "contradiction")]


def git(repo: Path, *args: str) -> None:
    """Run git in `repo` with no user or system config and a fixed author (for tests that build a repo)."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def repo_with_vault(root: Path, files: dict[str, str], cards: dict[str, tuple[str, str]], message: str) -> Path:
    """A git repo of `files` (path → text) in one commit named `message`, and its vault `memory/` holding one
    project card per entry of `cards` (name → (description, body)); returns the vault."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", message)
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in cards.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n",
                                          encoding="utf-8")
    return vault
