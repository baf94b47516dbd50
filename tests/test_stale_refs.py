"""T105 (a repo file the card names is gone, or a line past its end) and T106 (a card that says it is resolved).

Found on real vaults: audit cards citing files a later reorganisation removed, and
cards whose description begins "RESOLVED —" left live for months.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


def card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{body}\n"


@pytest.fixture
def repo(tmp_path: Path, run_cli: Callable[..., Result]) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "billing").mkdir(parents=True)
    (root / "src" / "billing" / "invoice.py").write_text("def total():\n    return 1\n", encoding="utf-8")
    (root / "docs").mkdir()
    assert run_cli("init", str(root / "memory")).exit_code == 0
    return root


def findings(run_cli: Callable[..., Result], repo: Path, cards: dict[str, str]) -> dict[str, list[str]]:
    for name, text in cards.items():
        (repo / "memory" / name).write_text(text, encoding="utf-8")
    done = run_cli("--vault", str(repo / "memory"), "lint", "--select", "T105,T106", "--format", "json")
    out: dict[str, list[str]] = {}
    for f in json.loads(done.stdout):
        out.setdefault(f["path"], []).append(f"{f['code']} {f['message']}")
    return out


def test_gone_files_and_lines_past_the_end(run_cli: Callable[..., Result], repo: Path) -> None:
    got = findings(run_cli, repo, {
        "gone.md": card("Where refunds are computed", "Refunds are computed in src/billing/refunds.py, not in the API."),
        "past.md": card("Rounding of invoice totals", "Totals round half-even (src/billing/invoice.py:120)."),
        "fine.md": card("Rounding of invoice totals in the PDF", "The PDF shows src/billing/invoice.py:2 totals as-is."),
        "other-repo.md": card("Where the mobile app keeps its theme", "The app's theme is in app/theme/colors.ts."),
        "url.md": card("The upstream rounding discussion", "See https://example.org/src/billing/notes.py for why."),
        "template.md": card("Where session notes go", "Notes go to docs/sessions/YYYY-MM-DD.md by convention."),
        "glob.md": card("Which configs the coverage job reads", "Coverage reads src/billing/pytest.* files."),
        "planned.md": card("Where the exporter will live", "The exporter lives under docs/, as docs/exporter.md says."),
    })
    assert got.pop("gone.md") == ["T105 names src/billing/refunds.py, which the repo no longer has"]
    assert got.pop("past.md") == ["T105 names line 120 of src/billing/invoice.py, which has 2 lines"]
    assert "planned.md" in got  # docs/ exists and docs/exporter.md does not: reported, a human decides
    got.pop("planned.md")
    assert got == {}  # an existing line, another project's folder, a URL, a placeholder, a glob


def test_cards_that_say_they_are_resolved(run_cli: Callable[..., Result], repo: Path) -> None:
    got = findings(run_cli, repo, {
        "resolved.md": card("RESOLVED — the importer dropped rows with a BOM", "Fixed by stripping the BOM first."),
        "status.md": card("The flaky upload test", "**Status:** fixed in 2.3\n\nIt raced the cleanup job."),
        "bracket.md": card("'[OBSOLETE] The old staging host'", "Staging ran on stg-01."),
        "lesson.md": card("Why the importer strips a BOM", "A BOM broke the CSV header once (fixed in 2.3); strip it."),
        "word.md": card("How incidents are closed", "An incident is closed when the postmortem is filed."),
        "field.md": "---\ndescription: An old rule\ntype: project\nstatus: superseded\n---\nOld.\n",
    })
    assert set(got) == {"resolved.md", "status.md", "bracket.md"}, got
    assert got["resolved.md"] == ["T106 says it is resolved, yet it is live"]
