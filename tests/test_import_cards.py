"""`cards import` of files that are already cards: one candidate each, copied whole.

Importing another agent's Claude Code memory folder used to split every card into its
paragraphs ("Why:", "How to apply:" each a card of its own), shredding one fact into
several and dropping its frontmatter. A card file is now one candidate: the gate reviews
it as it is, and --apply writes the file byte for byte under its own name.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.agents.importer import split_markdown
from tests.conftest import card_text

NESTED = """---
name: Harbour sync runs from a lane clone
description: Where the harbour sync job may run, and why never from the shared checkout
metadata:
  type: feedback
  node_type: memory
  originSessionId: 5d1c7a0e-2f0b-4c55-9d7e-1b8f3a6c2e90
---

Run the harbour sync from a dedicated lane clone, never from the shared checkout.

**Why:** a second session resets the shared checkout under it and the sync commits half a tide table.

**How to apply:** clone into .lanes/sync-N first; delete the clone when the sync is merged.
"""


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_card_file_is_one_candidate_with_its_type() -> None:
    candidates, skipped = split_markdown(NESTED, "other/feedback_harbour_sync.md")
    assert [(c.type, c.line, c.card == NESTED) for c in candidates] == [("feedback", 1, True)]
    assert "**How to apply:**" in candidates[0].text
    assert skipped == []


def test_a_notes_file_with_other_frontmatter_is_still_split() -> None:
    notes = "---\ntitle: Team notes\n---\n\n- Sailings close 90 minutes before departure.\n\n- Vans count as two cars.\n"
    candidates, _ = split_markdown(notes, "notes.md")
    assert [c.card for c in candidates] == ["", ""]
    assert len(candidates) == 2


def test_import_apply_copies_the_card_byte_for_byte(tmp_path: Path, vault: Path, invoke: Callable[..., Result]) -> None:
    source = _write(tmp_path / "other", "feedback_harbour_sync.md", NESTED)
    result = invoke("import", str(source), "--apply", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [c["path"] for c in data["candidates"]] == ["feedback_harbour_sync.md"]
    assert (vault / "feedback_harbour_sync.md").read_bytes() == source.read_bytes()
    assert "feedback_harbour_sync.md" in (vault / "INDEX.md").read_text(encoding="utf-8")


def test_a_name_taken_in_the_vault_gets_a_free_one(tmp_path: Path, vault: Path, invoke: Callable[..., Result]) -> None:
    (vault / "feedback_harbour_sync.md").write_text(card_text("Who reviews tide table changes", body="Priya does."),
                                                   encoding="utf-8")
    source = _write(tmp_path / "other", "feedback_harbour_sync.md", NESTED)
    result = invoke("import", str(source), "--apply", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["candidates"][0]["path"] == "feedback_harbour_sync-2.md"
    assert (vault / "feedback_harbour_sync-2.md").read_bytes() == source.read_bytes()
    assert "Priya" in (vault / "feedback_harbour_sync.md").read_text(encoding="utf-8")


def test_the_gate_still_reviews_an_imported_card(tmp_path: Path, vault: Path, invoke: Callable[..., Result]) -> None:
    session = card_text("Where the sync work stands", body="Halfway through the sync refactor; stopping here for today.")
    source = _write(tmp_path / "other", "project_sync_progress.md", session)
    result = invoke("import", str(source), "--format", "json")
    assert result.exit_code == 1
    outcome = json.loads(result.stdout)["candidates"][0]
    assert outcome["verdict"] == "refuse"
    assert {f["category"] for f in outcome["findings"]} == {"session"}
    assert not (vault / "project_sync_progress.md").exists()


def test_broken_card_files_are_refused_in_one_line_each(tmp_path: Path, invoke: Callable[..., Result]) -> None:
    wrong_types = _write(tmp_path / "other", "wrong.md", "---\ndescription:\n  - a\n  - b\ntype: [x]\n---\nTide rule.\n")
    empty = _write(tmp_path / "other", "empty.md", "---\nname: nothing here\n---\n")
    result = invoke("import", str(wrong_types), str(empty))
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if " refuse " in line]
    assert lines == [f"{wrong_types}:1: refuse [project] Tide rule.", f"{empty}:1: refuse [project] (no text)"]
    assert "withheld" not in result.stdout and "Traceback" not in result.stderr
