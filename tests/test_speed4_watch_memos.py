"""What a `cards watch` pass no longer hashes again: each card's text key (`store.scanned.card_text_key`,
for the withholding of secrets) and each card's part of the vault's fingerprint (`ranking_memo`).

Both are remembered per path while the card is unchanged, so a pass after one save hashes one
card, not ten thousand; a changed card, a card that moved and a card that came back must each
be seen, and INDEX.md must stay what `cards index` writes from nothing.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.agents.watch import Watcher
from cardindex.index import build, ranking_memo
from cardindex.store import scanned
from cardindex.store.parse_cache import ParseCache
from cardindex.store.vault import STATE_DIR, Vault

TODAY = dt.date(2026, 11, 30)


def card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: reference\nverified: 2026-10-01\n---\n{body}\n"


def make_vault(root: Path, n: int = 30) -> Path:
    (root / "tides").mkdir(parents=True)
    for i in range(n):
        (root / f"tides/harbour-{i}.md").write_text(card(f"Harbour {i} dries out at low spring tide",
                                                          f"Boats on mooring {i} sit on the mud below 0.{i % 10} m."))
    return root


def settled(root: Path) -> None:
    """Out of the two-second window in which no stat is trusted."""
    stamp = time.time() - 5
    for folder, _, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (stamp, stamp))
    time.sleep(2.1)


def fresh_index(root: Path) -> str:
    return build.render(Vault(root, use_cache=False), Vault(root, use_cache=False).cards, TODAY).text


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often a text key and a fingerprint term are computed."""
    calls = {"text_key": 0, "term": 0}
    real_text_key, real_term = scanned.text_key, ranking_memo.term

    def text_key(text: str) -> bytes:
        calls["text_key"] += 1
        return real_text_key(text)

    def term(rel: str, key: bytes) -> int:
        calls["term"] += 1
        return real_term(rel, key)

    monkeypatch.setattr(scanned, "text_key", text_key)
    monkeypatch.setattr(ranking_memo, "term", term)
    return calls


def test_a_pass_after_one_save_hashes_that_card_only(tmp_path: Path, counted: dict[str, int]) -> None:
    root = make_vault(tmp_path / "v")
    settled(root)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    watcher.remember_ranking()  # as `cards watch` does after each pass
    path = root / "tides/harbour-4.md"
    path.write_text(card("Harbour 4 dries out at every low tide", "Boats on mooring 4 sit on the mud twice a day."))
    counted.update(text_key=0, term=0)
    _, _, change = watcher.refresh(TODAY)
    watcher.remember_ranking()  # the fingerprint for `cards add`, taken once INDEX.md is written (speed6)
    assert change.changed == ["tides/harbour-4.md"]
    assert counted == {"text_key": 1, "term": 1}
    assert "Harbour 4 dries out at every low tide" in (root / "INDEX.md").read_text()
    assert (root / "INDEX.md").read_text() == fresh_index(root)


def test_a_card_that_takes_a_secret_is_withheld_on_the_next_pass(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v")
    settled(root)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    assert "harbour-7.md" in (root / "INDEX.md").read_text()
    (root / "tides/harbour-7.md").write_text(card("Harbour 7 dries out at low spring tide",
                                                  "The tide gauge API uses ghp_9fK2mQ7xV4bN8cR1tY6uW3zL5pA0sD2hJ4kE."))
    watcher.refresh(TODAY)
    index = (root / "INDEX.md").read_text()
    assert "harbour-7.md" not in index and "withheld" in index
    assert index == fresh_index(root)
    (root / "tides/harbour-7.md").write_text(card("Harbour 7 dries out at low spring tide", "No secret here any more."))
    watcher.refresh(TODAY)
    assert "harbour-7.md" in (root / "INDEX.md").read_text()
    assert (root / "INDEX.md").read_text() == fresh_index(root)


def test_the_fingerprint_follows_moves_and_returns(tmp_path: Path) -> None:
    """Remembered terms are per path and content: a card moved, renamed back or restored counts as on disk."""
    root = make_vault(tmp_path / "v", 8)
    settled(root)
    kept = ParseCache(root / STATE_DIR)
    kept.keep_cards()  # what `cards watch` does: only then are the terms remembered

    def fingerprint() -> int | None:
        return ranking_memo.fingerprint(Vault(root, parse_cache=kept))

    def from_nothing() -> int | None:
        ranking_memo._TERMS.clear()
        return fingerprint()

    first = fingerprint()
    assert first is not None and first == from_nothing() == ranking_memo.fingerprint(Vault(root))
    old, new = root / "tides/harbour-2.md", root / "tides/harbour-2b.md"
    text = old.read_text()
    old.rename(new)
    moved = fingerprint()
    assert moved not in (None, first) and moved == from_nothing()
    new.rename(old)
    assert fingerprint() == first
    old.write_text(text.replace("low spring tide", "any low tide"))
    edited = fingerprint()
    assert edited != first and edited == from_nothing()
    old.write_text(text)
    assert fingerprint() == first == from_nothing()
    assert ranking_memo._TERMS  # remembered for the kept cache


def test_a_one_shot_command_remembers_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cards index` and `cards add` hash each card once anyway: no memo adds to their peak memory."""
    monkeypatch.setattr(scanned, "_REMEMBERING", [])
    monkeypatch.setattr(scanned, "_BY_PATH", {})
    monkeypatch.setattr(ranking_memo, "_TERMS", {})
    root = make_vault(tmp_path / "v", 8)
    settled(root)
    vault = Vault(root)
    assert build.write(vault, TODAY).changed
    assert ranking_memo.fingerprint(Vault(root)) is not None
    assert scanned._BY_PATH == {} and ranking_memo._TERMS == {}  # the memos under test


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a.md", "b.md", "c/d.md"]), st.text(max_size=40)), max_size=30))
def test_card_text_key_is_text_key(steps: list[tuple[str, str]]) -> None:
    """Whatever texts a path holds in turn (equal ones as new objects, or the same object again)."""
    scanned.remember_text_keys()
    scanned._BY_PATH.clear()
    held: dict[str, str] = {}
    for path, text in steps:
        for candidate in (text, held.get(path, text), "".join(list(text))):
            assert scanned.card_text_key(path, candidate) == scanned.text_key(candidate)
        held[path] = text
