"""F009 and the repository around a vault: a `[[link]]` that names a Markdown note the repo keeps
outside the vault (a `knowledge/` folder beside `memory/`) is a link, not a dangling one."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from helpers import git

Run = Callable[..., Result]


def _links(run_cli: Run, vault: Path) -> list[str]:
    result = run_cli("--vault", str(vault), "lint", "--select", "F009", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return [f["message"] for f in json.loads(result.stdout)]


def _repo(root: Path, notes: dict[str, str], body: str) -> Path:
    for rel, text in notes.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Notes")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    (vault / "ferry.md").write_text(f"---\ndescription: Which tide table the ferry plans on\ntype: reference\n---\n{body}\n",
                                    encoding="utf-8")
    return vault


def test_a_link_to_a_note_the_repo_keeps_beside_the_vault_stands(tmp_path: Path, run_cli: Run) -> None:
    vault = _repo(tmp_path / "repo", {"knowledge/tide-tables.md": "# Tide tables\nHarbour master's tables.\n",
                                      "README.md": "Ferry tools.\n"},
                  "The ferry plans on the harbour master's table; see [[tide-tables]] and [[harbour-fees]].")
    assert _links(run_cli, vault) == ["[[harbour-fees]] links to no card"]


def test_a_link_resolves_by_the_notes_file_name_with_or_without_md(tmp_path: Path, run_cli: Run) -> None:
    vault = _repo(tmp_path / "repo", {"docs/notes/tide-tables.md": "# Tide tables\n"},
                  "See [[tide-tables.md]], [[tide-tables]] and [[tide-tables-2027]].")
    assert _links(run_cli, vault) == ["[[tide-tables-2027]] links to no card"]


def test_a_vault_without_a_repository_reads_no_repo(tmp_path: Path, run_cli: Run) -> None:
    vault = tmp_path / "memory"
    vault.mkdir()
    (tmp_path / "tide-tables.md").write_text("# Tide tables\n", encoding="utf-8")  # beside it, but no repo
    (vault / "ferry.md").write_text("---\ndescription: Which tide table the ferry plans on\ntype: reference\n---\n"
                                    "See [[tide-tables]].\n", encoding="utf-8")
    assert _links(run_cli, vault) == ["[[tide-tables]] links to no card"]
