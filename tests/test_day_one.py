"""Small breaks a newcomer hits on day one (issue 17), each through the real CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result


def test_a_text_starting_with_a_dash_gets_a_hint(invoke: Callable[..., Result]) -> None:
    for command in ("add", "log"):
        done = invoke(command, "- [ ] rename the billing queue")
        assert done.exit_code == 2
        assert f"put -- before it: cards {command} -- " in done.stderr and "No such option" not in done.stderr
    ok = invoke("add", "--", "- Makefiles use tabs, every other file uses spaces")
    assert ok.exit_code == 0, ok.stderr
    assert "put -- before" not in invoke("add", "--bogus", "x").stderr  # a real unknown option stays click's error
    assert "cards add -- " in invoke("add", "--help").stdout


def test_undo_prints_a_summary_and_every_file_only_when_asked(invoke: Callable[..., Result], vault: Path) -> None:
    for n in range(14):
        (vault / f"fact-{n:02d}.md").write_text(
            f"---\ndescription: Fact number {n} about the warehouse\ntype: project\n---\nShelf {n} holds pallets.\n",
            encoding="utf-8")
    assert invoke("rm", *[f"fact-{n:02d}" for n in range(14)]).exit_code == 0
    done = invoke("undo")
    assert done.exit_code == 0
    listed = [line for line in done.stderr.splitlines() if line.startswith(("restored ", "reverted ", "removed "))]
    assert len(listed) == 10 and "… and 4 more file(s)" in done.stderr
    assert done.stdout.startswith("undid job ") and done.stdout.rstrip().endswith("14 restored")
    assert invoke("rm", *[f"fact-{n:02d}" for n in range(14)]).exit_code == 0
    verbose = invoke("undo", "--verbose")
    assert len([line for line in verbose.stderr.splitlines() if line.startswith("restored ")]) == 14


def test_a_broken_card_is_named_and_lint_is_the_way(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / "broken.md").write_text("---\ndescription: [unclosed\n---\nx\n", encoding="utf-8")
    done = invoke("add", "Deploys go out on Tuesdays.")
    assert done.exit_code == 0
    assert "broken.md" in done.stderr and "`cards lint` says what is wrong" in done.stderr
    assert "run `cards index`" not in done.stderr


def test_one_conflict_is_counted_once(invoke: Callable[..., Result], vault: Path) -> None:
    for name, other, text in (("squash", "merge-commits", "Always squash-merge."),
                              ("merge-commits", "squash", "Never squash-merge.")):
        (vault / f"{name}.md").write_text(
            f"---\ndescription: How pull requests are merged\ntype: feedback\nstatus: conflict\n"
            f"conflicts_with: [{other}]\n---\n{text}\n", encoding="utf-8")
    out = json.loads(invoke("status", "--format", "json").stdout)
    assert out["conflict_groups"] == [["merge-commits", "squash"]]
    assert "open conflicts: 1 (2 cards)" in invoke("status").stdout
