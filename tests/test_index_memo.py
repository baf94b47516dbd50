"""The remembered index: an unchanged vault is not loaded again, and any change is seen."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from cardindex.store import parse_cache as cache
from cardindex.index import build as index
from cardindex.store.vault import Vault

TODAY = dt.date(2026, 11, 30)


def card(description: str, kind: str = "project") -> str:
    return f"---\ndescription: {description}\ntype: {kind}\n---\nBody of {description}.\n"


@pytest.fixture
def vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # Trust every stat at once: the 2 s racily-clean window is covered in test_cache.py.
    monkeypatch.setattr(cache, "RACY_NS", -(10**18))
    root = tmp_path / "v"
    root.mkdir()
    (root / ".cardindex").mkdir()
    for n in range(5):
        (root / f"c{n}.md").write_text(card(f"Fact {n}"), encoding="utf-8")
    return root


def settle(root: Path) -> None:
    """Two runs: the first fills the parse cache, the second remembers the index."""
    for _ in range(2):
        index.write(Vault(root), TODAY)


def test_unchanged_vault_is_not_loaded(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settle(vault)
    expected = (vault / "INDEX.md").read_text(encoding="utf-8")

    def no_loading(self: Vault) -> None:
        raise AssertionError("the cards were loaded")

    monkeypatch.setattr(Vault, "cards", property(no_loading))
    result = index.write(Vault(vault), TODAY)
    assert (result.changed, result.shown) == (False, 5)
    assert (vault / "INDEX.md").read_text(encoding="utf-8") == expected


@pytest.mark.parametrize("change", ["edit", "delete", "add", "config", "date"])
def test_any_change_is_seen(vault: Path, change: str) -> None:
    settle(vault)
    today = TODAY
    if change == "edit":
        (vault / "c1.md").write_text(card("Fact one, reworded"), encoding="utf-8")
    elif change == "delete":
        os.unlink(vault / "c1.md")
    elif change == "add":
        (vault / "c9.md").write_text(card("Fact nine", "user"), encoding="utf-8")
    elif change == "config":
        (vault / ".cardindex.yaml").write_text("index_budget: {lines: 5}\n", encoding="utf-8")
    else:
        (vault / "c1.md").write_text(card("Fact 1").replace("type: project", "type: project\nexpires: 2026-12-01"), encoding="utf-8")
        settle(vault)
        today = dt.date(2026, 12, 2)
    result = index.write(Vault(vault), today)
    fresh = index.render(Vault(vault, use_cache=False), Vault(vault, use_cache=False).cards, today)
    assert result.changed
    assert (vault / "INDEX.md").read_text(encoding="utf-8") == fresh.text
    for _ in range(2):  # once the parse cache trusts the new state, the remembered index must follow it
        assert not index.write(Vault(vault), today).changed
        assert (vault / "INDEX.md").read_text(encoding="utf-8") == fresh.text
