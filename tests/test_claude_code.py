"""A Claude Code memory directory, both file formats, managed in place."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.store.card import Card

FIXTURE = Path(__file__).parent / "fixtures" / "claude-memory"
RunCli = Callable[..., Result]


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    shutil.copytree(FIXTURE, root)
    return root


def metadata_block(text: str) -> str:
    """The `metadata:` mapping of a card, as written (it must survive every rewrite)."""
    found = re.search(r"^metadata:\n(?:  .*\n)+", text, re.M)
    assert found, text
    return found.group()


def test_init_claude_indexes_into_memory_md(run_cli: RunCli, memory: Path) -> None:
    result = run_cli("init", "--claude", str(memory))
    assert result.exit_code == 0, result.stderr
    assert "Claude Code memory directory" in result.stdout
    assert "index_file: MEMORY.md" in (memory / ".cardindex.yaml").read_text()
    assert not (memory / "INDEX.md").exists()
    index = (memory / "MEMORY.md").read_text()
    lines = index.splitlines()
    assert len(lines) <= 200 and len(index.encode()) <= 25_000
    entries = [line for line in lines if line.startswith("- [")]
    assert len(entries) == 6
    assert all(len(line) <= 150 for line in entries)
    assert "- [Testing preferences](feedback_testing.md) — User wants integration tests to hit a real database, not mocks" in lines
    assert "- [user role](user_role.md) — User is a data scientist focused on observability and logging" in lines


def test_init_claude_without_a_directory_uses_the_projects_memory_dir(
    run_cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "work" / "my.proj"
    project.mkdir(parents=True)
    monkeypatch.chdir(project)
    result = run_cli("init", "--claude")
    assert result.exit_code == 0, result.stderr
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project.resolve()))
    expected = Path.home() / ".claude" / "projects" / slug / "memory"
    assert (expected / "MEMORY.md").exists() and (expected / ".cardindex.yaml").exists()
    shutil.rmtree(Path.home() / ".claude")  # the (fake) home must be left empty


def test_a_hand_kept_memory_md_is_never_overwritten(run_cli: RunCli, memory: Path) -> None:
    hand = memory / "MEMORY.md"
    hand.write_text(hand.read_text() + "- Staging resets every Monday at 06:00 UTC (no card for this)\n")
    before = hand.read_bytes()
    result = run_cli("init", "--claude", str(memory))
    assert result.exit_code == 1
    assert "line(s) of its own" in result.stderr and "cards --vault" in result.stderr and "import" in result.stderr
    assert hand.read_bytes() == before
    assert not (memory / ".cardindex.yaml").exists()


def test_lint_consolidate_and_context_keep_every_metadata_key(run_cli: RunCli, memory: Path) -> None:
    assert run_cli("init", "--claude", str(memory)).exit_code == 0
    blocks = {p.name: metadata_block(p.read_text()) for p in memory.glob("*.md") if "metadata:" in p.read_text()}

    lint = run_cli("--vault", str(memory), "lint", "--format", "json")
    assert lint.exit_code == 1
    found = {(Path(f["path"]).name, f["category"]) for f in json.loads(lint.stdout)}
    assert ("project_session_2026-03-15.md", "session") in found
    assert ("feedback_real_db.md", "duplicate") in found
    # The unquoted ': ' in its description is Claude Code's own dialect: no F006 in its memory directory.
    assert ("project_deploy.md", "structure") not in found
    links = [(Path(f["path"]).name, f["line"], f["message"]) for f in json.loads(lint.stdout) if f["code"] == "F009"]
    assert links == [("reference_dashboards.md", 10, "[[alerting runbook]] links to no card")]  # [[user role]] resolves

    assert run_cli("--vault", str(memory), "lint", "--fix").exit_code == 1
    assert "description: Deploys: only on Thursdays\n" in (memory / "project_deploy.md").read_text()  # left as written

    merged = run_cli("--vault", str(memory), "consolidate", "--format", "json")
    assert merged.exit_code == 0, merged.stderr
    assert [(d["action"], d["card"], d["related"]) for d in json.loads(merged.stdout)["decisions"]] == [
        ("merge", "feedback_testing", ["feedback_real_db"])
    ]
    kept = Card.from_text("feedback_testing.md", (memory / "feedback_testing.md").read_text())
    assert kept.fields["merged_from"] == "feedback_real_db"
    assert "merged_from" not in kept.meta  # written where the card keeps its fields: under metadata
    assert str(kept.verified) == "2026-04-02"  # the duplicate's newer `modified`
    assert kept.type == "feedback"
    archived = memory / "archive" / "feedback_real_db.md"
    for name, block in blocks.items():
        path = memory / name if (memory / name).exists() else memory / "archive" / name
        now = metadata_block(path.read_text()).splitlines()
        # Every metadata line survives, in order; new fields (merged_from, status, ...) join them.
        assert [line for line in now if line in block.splitlines()] == block.splitlines(), name
    assert archived.exists()

    index = (memory / "MEMORY.md").read_text()
    assert "feedback_real_db" not in index and "feedback_testing.md" in index
    assert run_cli("--vault", str(memory), "index", "--check").exit_code == 0

    context = run_cli("--vault", str(memory), "context", "--budget", "1500")
    assert context.exit_code == 0
    assert "Integration tests must run against a real Postgres" in context.stdout
    assert "(user: user_role.md)" in context.stdout
    assert len(context.stdout) <= 1500
