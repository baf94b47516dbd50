"""`cards add` learns what changed in the vault from a stat of every card, not from the folders' mtimes.

An edit in place (an editor that writes the file itself, `>>` in a shell) moves the file's
mtime and ctime but not its folder's: a fingerprint that trusted folder mtimes would keep
the remembered INDEX.md ranking and show the old description. Each case changes a card
outside `cards` between two adds and checks INDEX.md after the second.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex.lint import gate_postings
from tests.test_addfast_index import _garden, _vault

Cli = Callable[..., Result]


def test_an_outside_edit_between_two_adds_is_seen(tmp_path: Path, run_cli: Cli) -> None:
    """A card's description changed in place (same folder, same size class) between two adds reaches INDEX.md."""
    root = _vault(tmp_path / "v", run_cli, _garden(25), "index_budget: {lines: 200, bytes: 25000}\n")
    first = run_cli("--vault", str(root), "add", "Twine is kept in the blue tin.", "-d", "Where twine is kept")
    assert first.exit_code == 0, first.stderr
    card = next(p for p in sorted(root.rglob("*.md")) if p.name not in ("INDEX.md",) and "twine" not in p.name)
    text = card.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.startswith("description:"))
    with card.open("r+", encoding="utf-8") as f:  # in place: the folder's mtime does not move
        f.write(text.replace(old, "description: Rewritten outside cards entirely"))
        f.truncate()
    second = run_cli("--vault", str(root), "add", "Netting rolls lie under the bench.", "-d", "Where netting lies")
    assert second.exit_code == 0, second.stderr
    assert "Rewritten outside cards entirely" in (root / "INDEX.md").read_text(encoding="utf-8")
    assert run_cli("--vault", str(root), "index", "--check").exit_code == 0


def test_an_outside_edit_reaches_the_gates_postings(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 600 cards the gate pairs from postings kept by content hash: a card rewritten in place between two
    adds is paired by what it says now (the copy of its new text is refused), not by what the postings kept."""
    import time

    root = tmp_path / "v"
    assert run_cli("init", str(root)).exit_code == 0
    for rel, text in _garden(600).items():
        (root / rel).write_text(text, encoding="utf-8")
    time.sleep(2.1)  # settled: the parse cache trusts their stats, and the postings are kept
    assert run_cli("--vault", str(root), "index").exit_code == 0
    warm = run_cli("--vault", str(root), "add", "Twine is kept in the blue tin.", "-d", "Where twine is kept")
    assert warm.exit_code == 0, warm.stderr
    assert any(p.name.startswith("gate-postings") for p in (root / ".cardindex" / "cache").iterdir())
    card = root / "plot-300.md"
    text = card.read_text(encoding="utf-8")
    new = ("---\ndescription: Where the rain barrel overflow drains\ntype: project\ncreated: 2026-03-02\n"
           "verified: 2026-03-02\n---\nThe rain barrel overflow pipe drains into the mint bed behind the greenhouse.\n")
    assert len(new) != len(text)
    with card.open("r+", encoding="utf-8") as f:
        f.write(new)
        f.truncate()
    used: list[object] = []
    real_focused = gate_postings.focused

    def focused(*a: Any, **k: Any) -> Any:
        used.append(real_focused(*a, **k))
        return used[-1]

    monkeypatch.setattr(gate_postings, "focused", focused)
    copy = run_cli("--vault", str(root), "add", "The rain barrel overflow pipe drains into the mint bed behind the greenhouse.",
                   "-d", "Where the rain barrel overflow drains")
    assert copy.exit_code == 1, copy.stdout
    assert "U101" in copy.stderr and "plot-300.md" in copy.stderr
    assert used and used[0] is not None  # paired from the postings, not from the whole vault
