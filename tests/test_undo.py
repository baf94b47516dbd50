"""`cards undo`: every journalled job can be undone byte for byte, and only safely."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result


def tree(root: Path) -> dict[str, str]:
    """sha256 of every file in the vault outside .cardindex/ (INDEX.md included)."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".cardindex" not in p.relative_to(root).parts
    }


def jobs(invoke: Callable[..., Result]) -> list[dict[str, object]]:
    result = invoke("journal", "--format", "json")
    assert result.exit_code == 0
    listed: list[dict[str, object]] = json.loads(result.stdout)
    return listed


def test_undo_an_add(invoke: Callable[..., Result], vault: Path) -> None:
    before = tree(vault)
    assert invoke("add", "Deploy to production on Thursdays only.", "-k", "deploy-day").exit_code == 0
    assert tree(vault) != before
    result = invoke("undo")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("undid job ")
    assert tree(vault) == before


def test_undo_a_supersession_restores_the_old_card(invoke: Callable[..., Result], vault: Path) -> None:
    assert invoke("add", "Deploy to production on Thursdays only.", "-k", "deploy-day", "-n", "Deploy day").exit_code == 0
    before = tree(vault)
    assert invoke("add", "Deploy to production on Tuesdays only.", "-k", "deploy-day", "-n", "Deploy day v2").exit_code == 0
    assert "archive/deploy-day.md" in tree(vault)
    assert invoke("undo").exit_code == 0
    assert tree(vault) == before
    listed = jobs(invoke)
    assert listed[-1]["command"] == "undo" and listed[-1]["undoes"] == listed[-2]["id"]


def test_undo_lint_fixes(invoke: Callable[..., Result], vault: Path, write_card: Callable[..., Path]) -> None:
    write_card(vault, "wip.md", "---\ndescription: Webhook refactor\ntype: project\n---\nCurrently halfway through the webhook refactor.\n")
    write_card(vault, "colon.md", "---\ndescription: Deploys: only on Thursdays\ntype: project\n---\nThursdays.\n")
    assert invoke("index").exit_code == 0
    before = tree(vault)
    result = invoke("lint", "--fix", "--unsafe-fixes")
    assert "wip.md" not in tree(vault) and "archive/wip.md" in tree(vault), result.stderr
    assert tree(vault)["colon.md"] != before["colon.md"]
    while invoke("undo").exit_code == 0:
        pass
    assert tree(vault) == before


def test_undo_is_refused_when_a_later_job_changed_the_same_card(invoke: Callable[..., Result], vault: Path) -> None:
    assert invoke("add", "Deploy to production on Thursdays only.", "-k", "deploy-day", "-n", "Deploy day").exit_code == 0
    first = jobs(invoke)[-1]["id"]
    assert invoke("add", "Deploy to production on Tuesdays only.", "-k", "deploy-day", "-n", "Deploy day v2").exit_code == 0
    second = jobs(invoke)[-1]["id"]
    before = tree(vault)
    result = invoke("undo", str(first))
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: cannot undo job {first}: deploy-day.md is not what the job left "
        f"(job {second} changed it later; undo that first)\n"
    )
    assert tree(vault) == before
    assert invoke("undo", str(second)).exit_code == 0
    assert invoke("undo", str(first)).exit_code == 0
    assert set(tree(vault)) == {"INDEX.md", ".cardindex.yaml"}


def test_undo_is_refused_after_a_hand_edit(invoke: Callable[..., Result], vault: Path) -> None:
    assert invoke("add", "Deploy to production on Thursdays only.", "-n", "Deploy day").exit_code == 0
    card = vault / "deploy-day.md"
    card.write_text(card.read_text(encoding="utf-8") + "Edited by hand.\n", encoding="utf-8")
    before = tree(vault)
    result = invoke("undo")
    assert result.exit_code == 1
    assert "deploy-day.md is not what the job left (it was changed by hand since)" in result.stderr
    assert tree(vault) == before


def test_nothing_to_undo(invoke: Callable[..., Result]) -> None:
    result = invoke("undo")
    assert (result.exit_code, result.stderr) == (1, "error: nothing to undo: the journal is empty\n")
    assert invoke("add", "Deploy to production on Thursdays only.").exit_code == 0
    assert invoke("undo").exit_code == 0
    result = invoke("undo")
    assert (result.exit_code, result.stderr) == (1, "error: nothing to undo: every job in the journal is undone already\n")
    result = invoke("undo", "1999")
    assert (result.exit_code, result.stderr) == (2, "error: no job '1999' in the journal\n")
