"""`cards consolidate --deep`: the weekly pass archives what has not been confirmed for `forget_after`, never a locked card."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result


def put(vault: Path, name: str, kind: str, body: str, **fields: str) -> None:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    (vault / name).write_text(f"---\ndescription: {body.rstrip('.')}\ntype: {kind}\n{extra}---\n{body}\n",
                              encoding="utf-8")


def test_the_deep_pass_forgets_the_unconfirmed(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("forget_after: {project: 180}\n", encoding="utf-8")
    put(vault, "old.md", "project", "The nightly import reads the March price list.", verified="2025-12-01")
    put(vault, "fresh.md", "project", "Invoices are numbered per year.", verified="2026-10-01")
    put(vault, "old-locked.md", "project", "The bank file uses Latin-1.", verified="2025-01-01", lock="true")
    put(vault, "old-user.md", "user", "The user reads diffs before prose.", verified="2024-01-01")
    put(vault, "undated.md", "project", "Exports are streamed row by row.")
    before = {p.name: p.read_bytes() for p in vault.glob("*.md")}
    plain = json.loads(invoke("consolidate", "--dry-run", "--now", "2026-11-30", "--format", "json").stdout)
    assert plain["forgotten"] == []  # only the weekly pass forgets
    dry = json.loads(invoke("consolidate", "--deep", "--dry-run", "--now", "2026-11-30", "--format", "json").stdout)
    assert dry["forgotten"] == [{"card": "old", "days": 364, "forget_after": 180, "number": 1}]  # numbered after the plan
    text = invoke("consolidate", "--deep", "--now", "2026-11-30")
    assert text.exit_code == 0, text.stderr
    assert "forget     old  (not confirmed for 364 days; forget_after for project: 180)" in text.stdout
    assert not (vault / "old.md").exists() and (vault / "archive" / "old.md").exists()
    archived = (vault / "archive" / "old.md").read_text(encoding="utf-8")
    assert "verified: 2025-12-01" in archived and "status: archived" in archived  # its dates kept
    for name in ("fresh.md", "old-locked.md", "old-user.md", "undated.md"):
        assert (vault / name).read_bytes() == before[name]
    journal = invoke("journal", "--format", "json")
    assert "not confirmed for 364 days" in journal.stdout
    assert invoke("undo").exit_code == 0
    assert (vault / "old.md").read_bytes() == before["old.md"]


def test_forget_after_is_checked(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("forget_after: {project: soon}\n", encoding="utf-8")
    done = invoke("consolidate", "--deep")
    assert done.exit_code == 2 and "'forget_after' maps a card type to a number of days" in done.stderr
