"""`lint.per_card_ignore` in .cardindex.yaml suppresses rules for the cards it names, like `lint-ignore:`."""

from __future__ import annotations

import json
from pathlib import Path

SESSION = "---\ndescription: What we are doing today\ntype: project\n---\nToday I am currently working on the login page.\n"
ALSO = "---\ndescription: What the team does this afternoon\ntype: project\n---\nToday I am currently rewriting the cron jobs.\n"


def _vault(root: Path, config: str) -> Path:
    root.mkdir()
    (root / ".cardindex.yaml").write_text(config, encoding="utf-8")
    (root / "notes").mkdir()
    (root / "notes" / "today.md").write_text(SESSION, encoding="utf-8")
    (root / "afternoon.md").write_text(ALSO, encoding="utf-8")
    return root


def _codes(run_cli, root: Path) -> set[tuple[str, str]]:
    result = run_cli("--no-cache", "--vault", str(root), "lint", "--format", "json")
    return {(f["path"], f["code"]) for f in json.loads(result.stdout) if f["category"] == "session"}


def test_the_named_card_is_spared_and_the_others_are_not(tmp_path, run_cli):
    plain = _codes(run_cli, _vault(tmp_path / "plain", ""))
    assert {p for p, _ in plain} == {"notes/today.md", "afternoon.md"}
    spared = _codes(run_cli, _vault(tmp_path / "spared", "lint: {per_card_ignore: {notes/today: [session]}}\n"))
    assert {p for p, _ in spared} == {"afternoon.md"}
    by_code = _codes(run_cli, _vault(tmp_path / "code", "lint: {per_card_ignore: {notes/today.md: [S101, S103]}}\n"))
    assert {p for p, c in by_code if c in ("S101", "S103")} == {"afternoon.md"}


def test_an_unknown_code_is_one_line_and_exit_2(tmp_path, run_cli):
    root = _vault(tmp_path / "v", "lint: {per_card_ignore: {notes/today: [Z999]}}\n")
    result = run_cli("--vault", str(root), "lint")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: lint.per_card_ignore.notes/today: unknown rule, prefix or category 'Z999'; see `cards rule --all`"]
