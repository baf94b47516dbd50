"""`cards context` and `cards search` through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from test_consolidate import put

Invoke = Callable[..., Result]


def test_context_orders_by_priority_and_leaves_out_what_is_not_live(invoke: Invoke, vault: Path) -> None:
    put(vault, "proj.md", "Which weekday production deploys happen", "Deploy on Thursdays only.", verified="2026-09-01")
    put(vault, "newer.md", "Where release notes are drafted", "Release notes are drafted in the wiki.", verified="2026-11-01")
    put(vault, "me.md", "The user's timezone", "The user works from Lisbon.", type="user")
    put(vault, "rule.md", "Hard rule on Friday migrations", "Never run migrations on Fridays.", type="feedback", lock=True)
    put(vault, "gone.md", "Sprint goal", "Billing export.", expires="2026-10-01")
    put(vault, "old.md", "Old deploy day", "Deploy on Tuesdays.", status="superseded")
    put(vault, "archive/arch.md", "Archived fact", "Archived.", status="archived")
    result = invoke("context")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "# Memory (cards context, 2026-11-30)"
    entries = [line for line in lines if line.startswith("- ")]
    assert entries == [
        "- Hard rule on Friday migrations (locked, feedback: rule.md)",
        "- The user's timezone (user: me.md)",
        "- Where release notes are drafted (project: newer.md)",
        "- Which weekday production deploys happen (project: proj.md)",
    ]
    assert "  Never run migrations on Fridays." in lines
    assert "Sprint goal" not in result.stdout and "Tuesdays" not in result.stdout and "Archived" not in result.stdout


def test_context_shows_both_sides_of_a_conflict_once(invoke: Invoke, vault: Path) -> None:
    put(vault, "yes.md", "Always squash-merge pull requests", "Always squash-merge.", type="feedback")
    put(vault, "no.md", "Never squash-merge pull requests", "Never squash-merge.", type="feedback")
    put(vault, "other.md", "The user's timezone", "The user works from Lisbon.", type="user")
    assert invoke("consolidate").exit_code == 0
    out = invoke("context").stdout
    assert out.count("CONFLICT, verify before acting (2 sides)") == 1
    block = out.split("CONFLICT, verify before acting (2 sides):\n", 1)[1]
    assert "  - Never squash-merge pull requests (feedback: no.md)" in block
    assert "  - Always squash-merge pull requests (feedback: yes.md)" in block
    data = json.loads(invoke("context", "--format", "json").stdout)
    assert data["items"][0]["conflict"] is True
    assert sorted(c["id"] for c in data["items"][0]["cards"]) == ["no", "yes"]


def test_context_budget_cuts_and_says_what_was_left_out(invoke: Invoke, vault: Path) -> None:
    for i in range(40):
        put(vault, f"fact-{i:02}.md", f"Fact number {i} about the billing service", f"The billing service detail {i}.",
            verified=f"2026-10-{i % 28 + 1:02}")
    result = invoke("context", "--budget", "1500")
    assert result.exit_code == 0
    assert len(result.stdout) <= 1500
    assert result.stdout.rstrip().splitlines()[-1].startswith("(")
    shown = result.stdout.count("\n- ")
    assert f"({40 - shown} more card(s) left out to fit 1,500 characters" in result.stdout
    big = invoke("context", "--budget", "100000")
    assert big.stdout.count("\n- ") == 40 and "left out" not in big.stdout


def test_context_scope_matches_paths_repos_and_global(invoke: Invoke, vault: Path) -> None:
    put(vault, "g.md", "Global fact about deploys", "Deploy on Thursdays.")
    put(vault, "api.md", "API handlers fact", "Handlers return problem+json.", scope="path:src/api")
    put(vault, "web.md", "Web fact", "The web app uses pnpm.", scope="path:web")
    put(vault, "mobile.md", "Mobile fact", "Mobile uses Expo.", scope="mobile team")
    out = invoke("context", "--scope", "src/api/handlers/users.py").stdout
    assert "g.md" in out and "api.md" in out and "web.md" not in out and "mobile.md" not in out
    out = invoke("context", "--scope", "mobile team").stdout
    assert "mobile.md" in out and "api.md" not in out
    out = invoke("context").stdout
    assert all(name in out for name in ("g.md", "api.md", "web.md", "mobile.md"))


def test_context_output_file_and_memo_follow_changes(invoke: Invoke, vault: Path, tmp_path: Path) -> None:
    put(vault, "a.md", "Where release notes are drafted", "Release notes are drafted in the wiki.")
    target = tmp_path / "CURRENT_STATE.md"
    assert invoke("context", "--budget", "1500", "--output", str(target)).exit_code == 0
    first = target.read_text()
    assert "a.md" in first
    assert invoke("context", "--budget", "1500", "--output", str(target)).exit_code == 0
    assert target.read_text() == first  # answered from the memo: the same text
    put(vault, "b.md", "Which weekday production deploys happen", "Deploy on Thursdays only.")
    assert invoke("context", "--budget", "1500", "--output", str(target)).exit_code == 0
    assert "b.md" in target.read_text()


def test_context_as_of_rewinds_through_the_journal(invoke: Invoke, vault: Path) -> None:
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.",
        key="deploy-day", created="2026-01-05", verified="2026-03-01")
    put(vault, "deploy-thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.",
        key="deploy-day", created="2026-09-14", verified="2026-09-14")
    put(vault, "later.md", "Where release notes are drafted", "Release notes are drafted in the wiki.", created="2026-11-20")
    assert invoke("consolidate", "--now", "2026-10-01").exit_code == 0  # the job's day: 2026-10-01
    now = invoke("context").stdout
    assert "Thursdays" in now and "Tuesdays" not in now and "later.md" in now
    before = invoke("context", "--as-of", "2026-09-01").stdout
    assert "as of 2026-09-01" in before.splitlines()[0]
    assert "Tuesdays" in before and "Thursdays" not in before  # not created yet; tue not yet superseded
    assert "later.md" not in before
    mid = invoke("context", "--as-of", "2026-09-20").stdout
    assert "Tuesdays" in mid and "Thursdays" in mid  # both live until the job of 2026-10-01
    assert "Tuesdays" not in invoke("context", "--as-of", "2026-10-01").stdout


def test_search_ranks_and_filters(invoke: Invoke, vault: Path) -> None:
    put(vault, "deploy-day.md", "Which weekday production deploys happen", "Deploy to production on Thursdays only.")
    put(vault, "db.md", "Which Postgres major version production runs", "Production runs Postgres 16.", type="reference")
    put(vault, "pg-tests.md", "What integration tests run against", "Tests run against a real Postgres, never SQLite.")
    put(vault, "tz.md", "The user's timezone", "The user works from Lisbon.", type="user")
    put(vault, "archive/old.md", "Old deploy weekday", "Deploy on Tuesdays.", status="superseded")
    result = invoke("search", "deploy day")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].split()[1] == "deploy-day"
    typo = invoke("search", "postgre version").stdout.splitlines()
    assert typo[0].split()[1] == "db" and any(line.split()[1] == "pg-tests" for line in typo)
    only_ref = json.loads(invoke("search", "postgres", "--type", "reference", "--format", "json").stdout)
    assert [h["id"] for h in only_ref] == ["db"] and only_ref[0]["fact"] == "Production runs Postgres 16."
    assert "old" not in invoke("search", "deploy weekday").stdout
    archived = json.loads(invoke("search", "deploy weekday", "--status", "superseded", "--format", "json").stdout)
    assert [h["id"] for h in archived] == ["archive/old"]
    none = invoke("search", "kubernetes helm chart")
    assert none.exit_code == 1 and none.stdout == ""
    assert len(json.loads(invoke("search", "production", "-n", "1", "--format", "json").stdout)) == 1


def test_context_output_that_cannot_be_written_is_one_line(invoke: Invoke, vault: Path, tmp_path: Path) -> None:
    for target in (str(tmp_path), "/", "/proc/no-such-folder/state.md"):
        result = invoke("context", "--output", target)
        assert result.exit_code == 2, (target, result.stderr)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
