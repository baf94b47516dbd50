"""`cards supersede`, `cards archive`, `cards rm` and `cards status` through the CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.store.card import Card
from test_consolidate import put, tree

Invoke = Callable[..., Result]


def card(root: Path, rel: str) -> Card:
    return Card.from_text(rel, (root / rel).read_text(encoding="utf-8"))


def test_supersede_archives_old_and_links_both(invoke: Invoke, vault: Path) -> None:
    put(vault, "old.md", "Which weekday deploys happen", "Deploy on Tuesdays.", merged_from="old-2")
    put(vault, "new.md", "Which weekday deploys happen", "Deploy on Thursdays.", supersedes="older")
    assert invoke("index").exit_code == 0
    before = tree(vault)
    result = invoke("supersede", "old", "new")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("superseded old by new; archived as archive/old.md (job ")
    archived = card(vault, "archive/old.md")
    assert archived.status == "superseded" and archived.meta["superseded_by"] == "new"
    assert card(vault, "new.md").meta["supersedes"] == ["older", "old", "old-2"]  # old's lineage too
    assert "old.md" not in (vault / "INDEX.md").read_text()
    assert invoke("index", "--check").exit_code == 0
    assert invoke("undo").exit_code == 0
    assert tree(vault) == before


def test_supersede_refuses_bad_arguments(invoke: Invoke, vault: Path) -> None:
    put(vault, "a.md", "Fact A about deploys", "A.")
    put(vault, "locked.md", "Fact L about deploys", "L.", lock=True)
    before = tree(vault)
    same = invoke("supersede", "a", "a")
    assert same.exit_code == 2 and "same card" in same.stderr
    missing = invoke("supersede", "nope", "a")
    assert missing.exit_code == 2 and "no card 'nope'" in missing.stderr
    locked = invoke("supersede", "locked", "a")
    assert locked.exit_code == 1 and "locked" in locked.stderr and "--force" in locked.stderr
    assert tree(vault) == before
    assert invoke("supersede", "locked", "a", "--force").exit_code == 0


def test_archive_several_and_refuse_archived(invoke: Invoke, vault: Path) -> None:
    put(vault, "a.md", "Fact A about deploys", "A.")
    put(vault, "sub/b.md", "Fact B about builds", "B.")
    assert invoke("index").exit_code == 0
    before = tree(vault)
    result = invoke("archive", "a", "sub/b", "--reason", "project ended")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["archived a as archive/a.md", "archived sub/b as archive/sub/b.md"]
    assert card(vault, "archive/sub/b.md").status == "archived"
    job = json.loads(invoke("journal", "--format", "json").stdout)[-1]
    assert [a["reason"] for a in job["actions"]] == ["project ended", "project ended"]
    again = invoke("archive", "archive/a")
    assert again.exit_code == 1 and "already in the archive" in again.stderr
    assert invoke("undo").exit_code == 0
    assert tree(vault) == before


def test_rm_deletes_live_or_archived_cards_and_undo_restores(invoke: Invoke, vault: Path) -> None:
    put(vault, "a.md", "Fact A about deploys", "A.")
    put(vault, "archive/old.md", "Old fact about deploys", "Old.", status="archived")
    (vault / "broken.md").write_bytes(b"\x00\x01binary")
    assert invoke("index").exit_code == 1  # the broken card is reported
    before = tree(vault)
    result = invoke("rm", "a", "archive/old", "broken")
    assert result.exit_code == 0, result.stderr
    assert not (vault / "a.md").exists() and not (vault / "archive/old.md").exists() and not (vault / "broken.md").exists()
    assert invoke("undo").exit_code == 0
    assert tree(vault) == before


def test_rm_refuses_hostile_paths(invoke: Invoke, vault: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("---\ndescription: x\ntype: user\n---\nx\n")
    result = invoke("rm", "../outside")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert (tmp_path / "outside.md").exists()


def test_status_shows_the_backlog(invoke: Invoke, vault: Path) -> None:
    put(vault, "yes.md", "Always squash-merge pull requests", "Always squash-merge pull requests.", type="feedback")
    put(vault, "no.md", "Never squash-merge pull requests", "Never squash-merge pull requests.", type="feedback")
    put(vault, "sprint.md", "Sprint 42 goal", "Billing export.", expires="2026-10-01")
    first = json.loads(invoke("status", "--format", "json").stdout)
    assert first["changed_since_consolidation"] is None and first["last_job"] is None
    assert first["expired"] == ["sprint"] and first["conflicts"] == []
    assert invoke("consolidate").exit_code == 0
    put(vault, "new.md", "Where runbooks live", "Runbooks live in ops/.", type="reference")
    out = json.loads(invoke("status", "--format", "json").stdout)
    assert out["changed_since_consolidation"] == ["new.md"]
    assert sorted(c["card"] for c in out["conflicts"]) == ["no", "yes"]
    assert out["last_job"]["command"] == "consolidate" and out["expired"] == []
    assert out["index"]["budget_lines"] == 200 and out["index"]["shown"] == 3 and not out["index"]["current"]
    text = invoke("status")
    assert text.exit_code == 0
    assert "changed since the last consolidation: 1 card(s)" in text.stdout
    assert "open conflicts: 1 (2 cards)" in text.stdout and "  no ↔ yes" in text.stdout  # one conflict, not two
    assert out["conflict_groups"] == [["no", "yes"]]
    assert "out of date (cards index)" in text.stdout
