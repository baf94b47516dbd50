"""Finding the vault like git finds a repository: from any folder below it, or from anywhere in a repo with memory/.

Real processes in real folders (the current folder is what is being tested), with no
--vault and no $CARDS_VAULT.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CARD = "---\ndescription: Which weekday production deploys go out\ntype: project\n---\nDeploys go out on Tuesdays.\n"


def cards(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PRE_COMMIT", "GIT_DIR", "GIT_WORK_TREE")}
    env.update(HOME=str(home), CARDS_TODAY="2026-11-30", XDG_CONFIG_HOME=str(home / ".config"))
    return subprocess.run([sys.executable, "-m", "cardindex", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False, timeout=60)


def make_vault(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".cardindex.yaml").write_text("", encoding="utf-8")
    (folder / "deploy-day.md").write_text(CARD, encoding="utf-8")
    return folder


def tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


def test_a_vault_is_found_from_a_folder_below_it(tmp_path: Path, fake_home: Path) -> None:
    vault = make_vault(tmp_path / "notes")
    (vault / "billing" / "deep").mkdir(parents=True)
    done = cards("list", cwd=vault / "billing" / "deep", home=fake_home)
    assert done.returncode == 0, done.stderr
    assert "deploy-day" in done.stdout


@pytest.mark.parametrize("where", ["memory", ".claude/memory"])
def test_a_repos_vault_is_found_from_its_root_and_any_folder(tmp_path: Path, fake_home: Path, where: str) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "docs").mkdir()
    (repo / "docs" / "guide.md").write_text("# Guide\n\nNot a card.\n", encoding="utf-8")
    (repo / "src" / "api").mkdir(parents=True)
    vault = make_vault(repo / where)
    before = tree(repo)
    for cwd in (repo, repo / "src" / "api", repo / "docs"):
        done = cards("list", cwd=cwd, home=fake_home)
        assert done.returncode == 0 and "deploy-day" in done.stdout, (cwd, done.stderr)
    index = cards("index", cwd=repo / "src", home=fake_home)
    assert index.returncode == 0, index.stderr
    assert (vault / "INDEX.md").is_file() and not (repo / "INDEX.md").exists()
    assert not (repo / ".cardindex").exists() and not (repo / "src" / ".cardindex").exists()
    lint = cards("lint", cwd=repo, home=fake_home)
    assert "guide.md" not in lint.stdout + lint.stderr  # the repo's docs are not cards
    assert set(tree(repo)) - set(before) <= {f"{where}/{p}" for p in tree(vault)}


def test_no_vault_is_one_line_exit_2_and_nothing_created(tmp_path: Path, fake_home: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in (["index"], ["list"], ["lint"], ["add", "Deploys go out on Tuesdays."], ["status"]):
        done = cards(*args, cwd=empty, home=fake_home)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and "not in a cards vault" in done.stderr and "cards init" in done.stderr
        assert "Traceback" not in done.stderr
    assert tree(empty) == []


def test_the_walk_stops_at_the_repository(tmp_path: Path, fake_home: Path) -> None:
    make_vault(tmp_path / "outer")  # a vault above the repository (a home folder's, say)
    repo = tmp_path / "outer" / "work" / "repo"
    (repo / ".git").mkdir(parents=True)
    done = cards("list", cwd=repo, home=fake_home)
    assert done.returncode == 2 and "not in a cards vault" in done.stderr
    explicit = cards("--vault", str(tmp_path / "outer"), "list", cwd=repo, home=fake_home)
    assert explicit.returncode == 0 and "deploy-day" in explicit.stdout


def test_init_still_works_anywhere(tmp_path: Path, fake_home: Path) -> None:
    target = tmp_path / "fresh"
    target.mkdir()
    done = cards("init", cwd=target, home=fake_home)
    assert done.returncode == 0, done.stderr
    assert (target / ".cardindex.yaml").is_file()
    assert cards("list", cwd=target, home=fake_home).returncode == 0
