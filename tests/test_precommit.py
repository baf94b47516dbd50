"""The pre-commit hooks: `pre-commit run` with the README's config on a real git repo, and the hook's contract directly.

The consumer repo's `.pre-commit-config.yaml` is the README's: `repo:` a local path to a
clone, `rev:` a commit. pre-commit clones that commit and pip-installs it into its own
environment, once per store: the store (`PRE_COMMIT_HOME`) is shared by this module's
runs, so the project is installed once, not per test (`try-repo` would install it into a
fresh temporary store every run, about 70 s each). The clone holds committed files only,
so the test commits a snapshot of the project's working tree (the files git would commit)
into a scratch repo under tmp_path and pins that. Everything pre-commit, pip and
virtualenv write goes under tmp_path; pip may fetch the project's dependencies from the
package index, as it does in CI.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

ROOT = Path(__file__).resolve().parents[1]
TODAY = "2026-11-30"
HOOK_TIMEOUT = 600
GIT_ENV = {
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}
SESSION_CARD = (
    "---\ndescription: Billing worker migration\ntype: project\n---\n"
    "Currently halfway through migrating the billing worker; next step is rerunning CI.\n"
)
GOOD_CARDS = {
    "deploy-day.md": "---\ndescription: Which weekday production deploys happen\ntype: project\nkey: deploy-day\n---\n"
                     "Deploy to production on Thursdays only.\n\n**Why:** Tuesday deploys collided with the billing batch.\n",
    "timezone.md": "---\ndescription: The timezone all schedules use\ntype: project\n---\n"
                   "All cron schedules use the Europe/Berlin timezone.\n",
    "billing/owner.md": "---\ndescription: Who owns the billing service\ntype: reference\n---\n"
                        "The payments team owns the billing service; ask in #payments.\n",
}
PYTHON_CARD = ("---\ndescription: The billing service runs on Python 3.11 in production\ntype: project\n---\n"
               "The billing service runs on Python 3.11 in production.\n")
PYTHON_REWORDED = ("---\ndescription: In production the billing service runs Python 3.11\ntype: project\n---\n"
                   "In production, the billing service runs Python 3.11.\n")
PYTHON_DRAFT = ("---\ndescription: Python 3.11 runs the billing service in production\ntype: project\n---\n"
                "Python 3.11 runs the billing service in production.\n")


@pytest.fixture(autouse=True)
def not_under_pre_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """This suite may itself run from a hook; each test sets PRE_COMMIT where it means to."""
    monkeypatch.delenv("PRE_COMMIT", raising=False)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV})
    return done.stdout


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", message)


def project_files() -> list[str]:
    """The project's files as git would commit them (tracked and new, minus ignored)."""
    try:
        listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                check=True, capture_output=True, text=True, env={**os.environ, **GIT_ENV}).stdout
        return sorted(f for f in listed.split("\0") if f and (ROOT / f).is_file())
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an unpacked sdist)
        skip = {"__pycache__", "build", "dist", "vaults", "results"}
        return sorted(
            p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
            if p.is_file() and not any((part.startswith(".") and part != ".pre-commit-hooks.yaml") or part in skip
                                       for part in p.relative_to(ROOT).parts)
        )


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git repo holding one commit: a snapshot of the project's working tree."""
    snapshot = tmp_path_factory.mktemp("project")
    for rel in project_files():
        target = snapshot / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    assert (snapshot / ".pre-commit-hooks.yaml").is_file()
    git(snapshot, "init", "-q")
    commit_all(snapshot, "snapshot of the working tree")
    return snapshot


@pytest.fixture(scope="module")
def precommit_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Where pre-commit, pip and virtualenv may write: all under tmp_path."""
    if importlib.util.find_spec("pre_commit") is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    state = tmp_path_factory.mktemp("precommit-state")
    env = {k: v for k, v in os.environ.items()
           if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PRE_COMMIT", "PYTHONPATH", "VIRTUAL_ENV")}
    env.update(GIT_ENV)
    env.update(
        HOME=str(state / "home"),
        PRE_COMMIT_HOME=str(state / "pre-commit"),
        XDG_CACHE_HOME=str(state / "cache"),
        PIP_CACHE_DIR=str(state / "pip-cache"),
        VIRTUALENV_OVERRIDE_APP_DATA=str(state / "virtualenv"),
        CARDS_TODAY=TODAY,
    )
    (state / "home").mkdir()
    return env


def run_hooks(repo: Path, env: dict[str, str], *hook: str) -> subprocess.CompletedProcess[str]:
    """`pre-commit run [HOOK] --all-files` in `repo`, whose config pins the snapshot (see `consumer`)."""
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", *hook, "--all-files", "--color", "never"],
        cwd=repo, env=env, capture_output=True, text=True, encoding="utf-8", errors="replace",
        timeout=HOOK_TIMEOUT, check=False,
    )


@pytest.fixture
def consumer(tmp_path: Path, run_cli: Callable[..., Result], hook_repo: Path) -> Path:
    """A user's git repo with a clean vault in memory/, a current INDEX.md and the README's hook config, all committed."""
    repo = tmp_path / "consumer"
    vault = repo / "memory"
    vault.mkdir(parents=True)
    git(repo, "init", "-q")
    (vault / ".cardindex.yaml").write_text("repo: false\n", encoding="utf-8")
    for rel, text in GOOD_CARDS.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")
    result = run_cli("--vault", str(vault), "index")
    assert result.exit_code == 0, result.stderr
    assert run_cli("--vault", str(vault), "lint").exit_code == 0
    rev = git(hook_repo, "rev-parse", "HEAD").strip()
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: \"{rev}\"\n    hooks:\n      - id: cards-lint\n      - id: cards-index\n",
        encoding="utf-8")
    commit_all(repo, "memory")
    return repo


# --------------------------------------------------------------------------- pre-commit run


def test_pre_commit_clean_vault_passes_both_hooks(precommit_env, consumer):
    done = run_hooks(consumer, precommit_env)
    output = done.stdout + done.stderr
    status = {line.split(".")[0]: line.rsplit(".", 1)[-1] for line in done.stdout.splitlines() if line.startswith("cards ")}
    assert status.get("cards lint") == "Passed", output
    # the vault is memory/, not the repo root where pre-commit runs the hook
    assert status.get("cards index --check") == "Passed", output
    assert done.returncode == 0, output


def test_pre_commit_blocks_a_session_card_and_names_it(precommit_env, consumer):
    (consumer / "memory" / "billing-migration.md").write_text(SESSION_CARD, encoding="utf-8")
    git(consumer, "add", "memory/billing-migration.md")
    done = run_hooks(consumer, precommit_env, "cards-lint")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "cards lint...." in done.stdout
    assert "Failed" in done.stdout
    assert "- hook id: cards-lint\n- exit code: 1\n" in done.stdout
    findings = [line for line in done.stdout.splitlines() if line.startswith("memory/")]
    assert len(findings) == 1, output
    assert findings[0].startswith("memory/billing-migration.md:5: S101 "), output
    for rel in GOOD_CARDS:
        assert rel not in output


def test_pre_commit_index_hook_fails_on_a_stale_index(precommit_env, consumer):
    (consumer / "memory" / "python.md").write_text(PYTHON_CARD, encoding="utf-8")
    git(consumer, "add", "memory/python.md")
    done = run_hooks(consumer, precommit_env, "cards-index")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "- hook id: cards-index\n- exit code: 1\n" in done.stdout
    # the vault's index is stale; a vault in memory/ is not "missing" its index
    assert "INDEX.md" in done.stdout
    assert "out of date" in done.stdout


def test_hook_manifest():
    yaml = pytest.importorskip("yaml")
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"cards-lint", "cards-index"}
    lint, index = hooks["cards-lint"], hooks["cards-index"]
    assert (lint["entry"], lint["language"], lint["types"], lint["require_serial"]) == ("cards lint", "python", ["markdown"], True)
    # The index hook takes the changed files, so it checks the vault they are in (a
    # `memory/` folder, not the repo root where pre-commit runs).
    assert (index["entry"], index["language"], index.get("pass_filenames", True), index["files"]) == (
        "cards index --check", "python", True, r"\.md$")
    for hook in hooks.values():
        assert hook["name"] and hook["description"]


# --------------------------------------------------------------------------- the hook's contract, directly


def lint_files(run_cli: Callable[..., Result], *files: str, env: dict[str, str | None] | None = None) -> list[tuple]:
    result = run_cli("lint", "--format", "json", *files, env=env)
    assert result.exit_code in (0, 1), result.stderr
    return [(f["path"], f["line"], f["code"], f["related"]) for f in json.loads(result.stdout)]


def test_lint_files_reports_on_those_files_against_the_whole_vault(consumer, run_cli, monkeypatch):
    vault = consumer / "memory"
    (vault / "python.md").write_text(PYTHON_CARD, encoding="utf-8")
    (vault / "python-reworded.md").write_text(PYTHON_REWORDED, encoding="utf-8")
    monkeypatch.chdir(consumer)
    # the partner python.md is not among the files, the index is stale: neither is reported
    assert lint_files(run_cli, "memory/python-reworded.md", "memory/timezone.md") == [
        ("python-reworded.md", 2, "U101", ["python.md"]),
    ]
    result = run_cli("lint", "memory/python-reworded.md", "memory/timezone.md")
    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.stdout.splitlines()] == ["memory/python-reworded.md:2"]
    # each batch stands alone: two calls report what one call with both files reports
    both = lint_files(run_cli, "memory/python.md", "memory/python-reworded.md")
    assert both == sorted(lint_files(run_cli, "memory/python.md") + lint_files(run_cli, "memory/python-reworded.md"))
    assert both == [("python-reworded.md", 2, "U101", ["python.md"]), ("python.md", 2, "U101", ["python-reworded.md"])]


def test_under_pre_commit_untracked_drafts_are_not_partners(consumer, run_cli, monkeypatch):
    vault = consumer / "memory"
    (vault / "python.md").write_text(PYTHON_CARD, encoding="utf-8")
    git(consumer, "add", "memory/python.md")
    (vault / "python-reworded.md").write_text(PYTHON_REWORDED, encoding="utf-8")
    git(consumer, "add", "memory/python-reworded.md")
    (vault / "python-draft.md").write_text(PYTHON_DRAFT, encoding="utf-8")  # untracked
    monkeypatch.chdir(consumer)
    outside = lint_files(run_cli, "memory/python-reworded.md")
    # one finding for the card, naming both of its copies (a group of three)
    assert outside == [("python-reworded.md", 2, "U101", ["python-draft.md", "python.md"])]
    under = lint_files(run_cli, "memory/python-reworded.md", env={"PRE_COMMIT": "1"})
    assert under == [("python-reworded.md", 2, "U101", ["python.md"])]
    # a tracked partner counts even when only staged; an untracked one never does
    git(consumer, "rm", "-q", "--cached", "memory/python.md")
    assert lint_files(run_cli, "memory/python-reworded.md", env={"PRE_COMMIT": "1"}) == []


def test_under_pre_commit_markdown_outside_any_vault_is_not_a_card(consumer, run_cli, monkeypatch):
    # types: [markdown] hands the hook every Markdown file in the repo, not only cards
    (consumer / "CHANGELOG.md").write_text("# Changelog\n\n## 1.0\n- First release.\n", encoding="utf-8")
    (consumer / "docs").mkdir()
    (consumer / "docs" / "guide.md").write_text("# Guide\n\nRun the tests.\n", encoding="utf-8")
    commit_all(consumer, "docs")
    monkeypatch.chdir(consumer)
    files = git(consumer, "ls-files", "*.md").split()
    assert "memory/deploy-day.md" in files
    assert "docs/guide.md" in files
    result = run_cli("lint", *files, env={"PRE_COMMIT": "1"})
    # only the cards were checked: the clean run's one summary line counts them, nothing else is said
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "All checks passed! 3 cards checked.\n")
