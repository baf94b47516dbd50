"""`cards watch` keeps INDEX.md's ranking for the next `cards add` after the index is written, not before.

A pass renders from the cards it loaded (no fingerprint of the vault between a save and the
new INDEX.md) and `Watcher.remember_ranking` keys the ranking afterwards
(`index.ranking_later`). It must keep one only for the vault exactly as the pass loaded it:
a card changed in between keeps nothing, and every add after it still writes what a full
render writes.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex.agents.watch import Watcher
from cardindex.index import build, ranking_later, ranking_memo
from cardindex.store.vault import Vault

TODAY = dt.date(2026, 11, 30)  # conftest's CARDS_TODAY
Cli = Callable[..., Result]


def card(description: str, body: str, day: str = "2026-10-01") -> str:
    return f"---\ndescription: {description}\ntype: project\nverified: {day}\n---\n{body}\n"


def make_vault(root: Path, run_cli: Cli, n: int = 40) -> Path:
    assert run_cli("init", str(root)).exit_code == 0
    (root / ".cardindex.yaml").write_text("index_budget: {lines: 15, bytes: 25000}\n", encoding="utf-8")
    for i in range(n):
        (root / f"kiln-{i:02d}.md").write_text(card(f"Kiln {i} fires glaze batch {i}", f"Kiln {i} runs cone {i % 9}."),
                                               encoding="utf-8")
    return root


def save(path: Path, text: str) -> None:
    """As an editor saves: a temp file renamed over the card."""
    tmp = path.with_name(path.name + ".tmp~")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def refuse_whole_vault(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the whole vault was ranked: no remembered ranking was used")

    monkeypatch.setattr(build, "render_ranked", refuse)


def test_an_add_after_a_watch_pass_uses_the_ranking_it_kept(tmp_path: Path, run_cli: Cli) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    save(root / "kiln-07.md", card("Kiln 7 fires the celadon batch", "Kiln 7 runs cone 10.", "2026-11-20"))
    fingerprints: list[Vault] = []
    real = ranking_memo.fingerprint

    def counted(vault: Vault) -> int | None:
        fingerprints.append(vault)
        return real(vault)

    with pytest.MonkeyPatch.context() as mp:  # not the test's own: undoing that would undo conftest's date
        mp.setattr(ranking_memo, "fingerprint", counted)
        _, _, change = watcher.refresh(TODAY)
        assert change.changed == ["kiln-07.md"] and change.index_changed
        assert fingerprints == []  # none between the save and INDEX.md
        watcher.remember_ranking()
        assert fingerprints  # afterwards
    with pytest.MonkeyPatch.context() as mp:
        refuse_whole_vault(mp)
        added = run_cli("--vault", str(root), "add", "Kiln 41 is reserved for raku firings.", "-d", "What kiln 41 is for")
        assert added.exit_code == 0, added.stderr
    assert run_cli("--vault", str(root), "index", "--check").exit_code == 0


def test_a_card_changed_after_the_pass_keeps_no_ranking(tmp_path: Path, run_cli: Cli) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    memo = root / ".cardindex" / "cache" / ranking_memo.MEMO
    save(root / "kiln-03.md", card("Kiln 3 fires the tenmoku batch", "Kiln 3 runs cone 6.", "2026-11-25"))
    watcher.refresh(TODAY)
    memo.unlink(missing_ok=True)
    save(root / "kiln-03.md", card("Kiln 3 is out of service", "Kiln 3 waits for new elements.", "2026-11-29"))
    watcher.remember_ranking()  # the vault is no longer what the pass loaded
    assert not memo.exists()
    added = run_cli("--vault", str(root), "add", "Kiln 42 is reserved for test tiles.", "-d", "What kiln 42 is for")
    assert added.exit_code == 0, added.stderr
    index = (root / "INDEX.md").read_text(encoding="utf-8")
    assert "Kiln 3 is out of service" in index and "tenmoku" not in index
    assert run_cli("--vault", str(root), "index", "--check").exit_code == 0


def test_remember_refuses_cards_that_are_not_the_disks(tmp_path: Path, run_cli: Cli) -> None:
    """The check itself: a loaded card whose text is not the file's now is never ranked for the file."""
    root = make_vault(tmp_path / "v", run_cli, n=12)
    vault = Vault(root)
    cards = vault.cards
    build.write(vault, TODAY)
    written = build.read_index(vault)
    assert written is not None
    assert ranking_later.remember(Vault(root), TODAY, cards, written)  # as loaded: kept
    (root / "kiln-05.md").write_text(card("Kiln 5 fires porcelain", "Kiln 5 runs cone 10."), encoding="utf-8")
    assert not ranking_later.remember(Vault(root), TODAY, cards, written)  # kiln-05 is no longer what was loaded
    again = Vault(root)
    build.write(again, TODAY)
    now = build.read_index(again)
    assert now is not None and not ranking_later.remember(Vault(root), TODAY, again.cards, written)  # another text
    assert ranking_later.remember(Vault(root), TODAY, again.cards, now)
