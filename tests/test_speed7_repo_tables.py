"""The tables the derivable rules make from the repo's facts are kept between processes, and never go stale.

`cards add` used to build, in every process, the passage index of the docs, comments and
commits, the index of docs passages and config records, the commit-subject index and the
config blocks (`meaning/repo_match.py`, `meaning/repo_retrieval.py`). They are kept under
`.cardindex/cache/built-repo-*.marshal` (`repo_facts.derived`), keyed on the code's digest
and the repo's stamp, the key the repo's facts are remembered under. So a change to a doc,
a Makefile, a code comment or the history is seen by the next `cards add` and `cards lint`,
and a broken table file is made again.
"""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex.meaning import repo_facts, repo_match

TABLES = ("units", "passages", "commits", "blocks")


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


SHED = "The packing shed grades every apple by weight and rejects bruised fruit before the crates are stacked by variety."
MARKET = "The crates are sorted by weight for the stall at the Saturday market in town."
LOADING = "The crates leave the north shed sorted by variety, heaviest crate first, so the evening truck loads in one pass."


@pytest.fixture
def orchard(tmp_path: Path, run_cli: Callable[..., Result]) -> Path:
    """A repo with a README, a Makefile and a code file, one commit, and a vault in `memory/` (returned)."""
    repo = tmp_path / "orchard"
    (repo / "tools").mkdir(parents=True)
    (repo / "README.md").write_text("# Orchard\n\nApples are graded by weight at the packing shed.\n")
    (repo / "Makefile").write_text("sort-crates:\n\tpython tools/sort.py --by variety --shed north\n")
    (repo / "tools/sort.py").write_text(f"# {MARKET}\ndef sort_crates(crates):\n    return sorted(crates)\n")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Start the orchard tools")
    vault = repo / "memory"
    assert run_cli("init", str(vault)).exit_code == 0
    return vault


def _add(run_cli: Callable[..., Result], vault: Path, text: str, description: str) -> Result:
    return run_cli("--vault", str(vault), "add", text, "-d", description)


def _lint_codes(run_cli: Callable[..., Result], vault: Path) -> dict[str, list[str]]:
    done = run_cli("--vault", str(vault), "lint", "--exit-zero", "--format", "json")
    assert done.exit_code == 0, done.stderr
    found: dict[str, list[str]] = {}
    for f in json.loads(done.stdout):
        found.setdefault(f["path"], []).append(f"{f['code']} {f['message']}")
    return found


def _kept(vault: Path) -> set[str]:
    return {n for n in TABLES if (vault / ".cardindex" / "cache" / f"built-repo-{n}.marshal").is_file()}


def _warm(run_cli: Callable[..., Result], vault: Path) -> None:
    """An add (the first makes `.cardindex/cache/`) and a lint that leave every table kept for the repo as it is now."""
    done = _add(run_cli, vault, "The cider press in the barn takes the windfalls of the north rows each evening.", "Cider apples")
    assert done.exit_code == 0, done.stderr
    assert run_cli("--vault", str(vault), "lint", "--exit-zero").exit_code == 0
    assert _kept(vault) == set(TABLES)


def test_kept_tables_are_read_not_made(orchard: Path, run_cli: Callable[..., Result],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # The repo's files were written a moment ago: the stamp counts them by content until two seconds pass, then by
    # stat, which is another stamp. Here every file counts by stat at once, so the stamp stays the same.
    monkeypatch.setattr(repo_facts, "RACY_NS", 0)
    _warm(run_cli, orchard)
    made: list[int] = []
    real = repo_match.UnitIndex.__init__

    def counting(self: Any, units: Any, plain: Any = None) -> None:
        if plain is None:
            made.append(len(units))
        real(self, units, plain)

    monkeypatch.setattr(repo_match.UnitIndex, "__init__", counting)
    done = _add(run_cli, orchard, LOADING, "How crates leave the shed")
    assert done.exit_code == 0, done.stderr  # nothing in the repo says it yet
    assert made == []


def test_a_docs_edit_is_seen_by_lint_and_add(orchard: Path, run_cli: Callable[..., Result]) -> None:
    assert _add(run_cli, orchard, SHED, "Grading at the shed").exit_code == 0
    _warm(run_cli, orchard)
    assert not any(c.startswith("D105") for c in _lint_codes(run_cli, orchard).get("grading-at-the-shed.md", []))
    readme = orchard.parent / "README.md"
    readme.write_text(f"# Orchard\n\n{SHED}\n")  # as many passages as before, other words
    assert any(c.startswith("D105 README.md") for c in _lint_codes(run_cli, orchard)["grading-at-the-shed.md"])
    again = _add(run_cli, orchard, "Every apple is graded by weight in the packing shed and bruised fruit is rejected "
                 "before the crates are stacked by variety.", "Shed grading")
    assert again.exit_code == 1 and "README.md" in again.stdout + again.stderr
    readme.write_text("# Orchard\n\nApples are graded by weight at the packing shed.\n")
    assert not any(c.startswith("D105") for c in _lint_codes(run_cli, orchard).get("grading-at-the-shed.md", []))


def test_a_makefile_edit_is_seen_by_add(orchard: Path, run_cli: Callable[..., Result]) -> None:
    _warm(run_cli, orchard)
    text, description = "make lint runs ruff check --select E501 tools.", "The lint target"
    first = _add(run_cli, orchard, text, description)
    assert first.exit_code == 0, first.stderr
    (orchard / "the-lint-target.md").unlink()
    (orchard.parent / "Makefile").write_text("lint:\n\truff check --select E501 tools\n")  # one target, as before
    second = _add(run_cli, orchard, text, description)
    assert second.exit_code == 1 and "Makefile" in second.stdout + second.stderr


def test_a_code_comment_is_seen_by_add(orchard: Path, run_cli: Callable[..., Result]) -> None:
    _warm(run_cli, orchard)
    sort = orchard.parent / "tools/sort.py"
    sort.write_text(sort.read_text().replace(MARKET, LOADING))  # one comment, as before
    done = _add(run_cli, orchard, LOADING, "How crates leave the shed")
    assert done.exit_code == 1 and "tools/sort.py line 1" in done.stdout + done.stderr


def test_a_new_commit_is_seen_by_add(orchard: Path, run_cli: Callable[..., Result]) -> None:
    _warm(run_cli, orchard)
    text = "Windfall apples get weighed on the cider scale now, as a recent commit did."
    first = _add(run_cli, orchard, text, "Windfall weighing")
    assert first.exit_code == 0, first.stderr
    (orchard / "windfall-weighing.md").unlink()
    _git(orchard.parent, "commit", "-q", "--amend", "-m", "Weigh windfall apples on the cider scale")  # one commit
    second = _add(run_cli, orchard, text, "Windfall weighing")
    assert second.exit_code == 1 and "D104" in second.stdout + second.stderr


@pytest.mark.parametrize("damage", ["truncated", "garbage", "other shape"])
def test_a_broken_table_is_made_again(orchard: Path, run_cli: Callable[..., Result], damage: str) -> None:
    (orchard.parent / "README.md").write_text(f"# Orchard\n\n{SHED}\n")
    assert _add(run_cli, orchard, SHED, "Grading at the shed", ).exit_code == 1  # the repo's facts are remembered
    _warm(run_cli, orchard)
    expected = _lint_codes(run_cli, orchard)
    for name in TABLES:
        path = orchard / ".cardindex" / "cache" / f"built-repo-{name}.marshal"
        data = path.read_bytes()
        key = marshal.loads(data)[0]
        path.write_bytes({"truncated": data[: len(data) // 2], "garbage": b"\x00\xffnot a table",
                          "other shape": marshal.dumps((key, ("postings", [1, 2], {"x": 1})))}[damage])
    run_cli("--vault", str(orchard), "index")  # a card changed: lint runs its rules again
    (orchard / "cider-apples.md").write_text((orchard / "cider-apples.md").read_text() + "\nThe barn press runs in October.\n")
    assert _lint_codes(run_cli, orchard) == expected
    refused = _add(run_cli, orchard, SHED.replace("every apple", "each apple"), "Shed grading")
    assert refused.exit_code == 1 and "README.md" in refused.stdout + refused.stderr
    for name in TABLES:  # made again and kept
        marshal.loads((orchard / ".cardindex" / "cache" / f"built-repo-{name}.marshal").read_bytes())


def test_no_cache_keeps_no_table(orchard: Path, run_cli: Callable[..., Result]) -> None:
    done = run_cli("--vault", str(orchard), "--no-cache", "add", LOADING, "-d", "How crates leave the shed")
    assert done.exit_code == 0, done.stderr
    assert _kept(orchard) == set()


def test_separate_processes_share_the_tables(orchard: Path) -> None:
    """Through the installed entry point: a second process reads what the first kept, and sees a docs edit."""
    def cards(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(orchard), *args], capture_output=True,
                              text=True, env={**os.environ, "CARDS_TODAY": "2026-11-30"}, check=False)

    assert cards("add", "The cider press in the barn takes the windfalls of the north rows each evening.", "-d", "Cider").returncode == 0
    assert cards("lint", "--exit-zero").returncode == 0
    assert _kept(orchard) == set(TABLES)
    assert cards("add", LOADING, "-d", "How crates leave the shed").returncode == 0
    (orchard / "how-crates-leave-the-shed.md").unlink()
    (orchard.parent / "README.md").write_text(f"# Orchard\n\n{LOADING}\n")
    refused = cards("add", LOADING, "-d", "How crates leave the shed")
    assert refused.returncode == 1 and "README.md" in refused.stdout + refused.stderr
