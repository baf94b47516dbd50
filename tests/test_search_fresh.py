"""The search index stays current without a stat of every card (issue 15, `store.search_fresh`).

Folders tell of adds, removes, renames and saves by rename; a sweep of `SWEEP` cards per
search tells of edits in place; every hit is compared with the index before it is shown.
Here `SWEEP` is set to 1, so that only those mechanisms, and not a full sweep, can
find each change.
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.agents.search import open_index
from cardindex.store import search_fresh, search_index
from cardindex.store.search_fresh import Walker
from cardindex.store.vault import Vault

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")
    return path


def save_by_rename(root: Path, rel: str, description: str, body: str) -> None:
    """What cards itself and most editors do: write a temp file beside the card, rename it over."""
    tmp = root / (rel + ".tmp")
    tmp.write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")
    os.replace(tmp, root / rel)


def hits(invoke: Invoke, query: str) -> list[dict[str, object]]:
    result = invoke("search", query, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return list(json.loads(result.stdout or "[]"))


@pytest.fixture
def ferry(vault: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A vault of ferry cards, already indexed, that only its folders and the check of the hits can refresh."""
    monkeypatch.setattr(search_index, "RACY_NS", 0)
    monkeypatch.setattr(search_fresh, "SWEEP", 0)
    for i in range(12):
        put(vault, f"routes/r{i:02}.md", f"Crossing {i} of the ferry", f"Ferry crossing {i} takes {20 + i} minutes.")
    put(vault, "crew.md", "Who crews the night ferry", "The night ferry is crewed by the harbour team.")
    open_index(Vault(vault)).close()
    return vault


def test_a_card_saved_by_rename_is_found_by_its_new_words_at_once(ferry: Path, invoke: Invoke) -> None:
    save_by_rename(ferry, "routes/r05.md", "Crossing 5 of the ferry", "Crossing 5 now calls at Lindholm pier.")
    assert [h["id"] for h in hits(invoke, "lindholm pier")] == ["routes/r05"]


def test_cards_added_in_new_and_in_empty_folders_are_found_at_once(ferry: Path, invoke: Invoke) -> None:
    (ferry / "empty").mkdir()
    open_index(Vault(ferry)).close()  # the empty folder is known now; a card added inside changes only it
    put(ferry, "empty/tide.md", "When the tide table is read", "The skipper reads the tide table at dawn.")
    put(ferry, "new/deeper/fuel.md", "Which fuel the ferry takes", "The ferry bunkers marine gas oil.")
    assert [h["id"] for h in hits(invoke, "tide table")] == ["empty/tide"]
    assert [h["id"] for h in hits(invoke, "marine gas oil")] == ["new/deeper/fuel"]


def test_removed_cards_and_folders_are_gone_at_once(ferry: Path, invoke: Invoke) -> None:
    (ferry / "crew.md").unlink()
    assert hits(invoke, "harbour team") == []
    for card in (ferry / "routes").iterdir():
        card.unlink()
    (ferry / "routes").rmdir()
    assert hits(invoke, "ferry crossing minutes") == []


def test_a_hit_edited_in_place_is_never_shown_stale(ferry: Path, invoke: Invoke) -> None:
    # Rewritten in place (same inode, folder untouched): only the check of the hits can see it.
    put(ferry, "crew.md", "Who crews the night ferry", "The night ferry is crewed by a contractor from Vik.")
    assert hits(invoke, "harbour team") == []
    found = hits(invoke, "contractor from vik")
    assert [h["id"] for h in found] == ["crew"] and "Vik" in str(found[0]["fact"])


def test_an_in_place_edit_elsewhere_is_seen_within_one_sweep_of_the_vault(ferry: Path, invoke: Invoke,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_fresh, "SWEEP", 5)
    put(ferry, "routes/r03.md", "Crossing 3 of the ferry", "Crossing 3 is cancelled in icy weather.")
    rounds = 0
    while not hits(invoke, "icy weather"):
        rounds += 1
        assert rounds <= 3  # 13 cards, 5 a search
    assert [h["id"] for h in hits(invoke, "icy weather")] == ["routes/r03"]


def test_a_small_vault_is_checked_whole_on_every_search(vault: Path, invoke: Invoke) -> None:
    for i in range(5):
        put(vault, f"k{i}.md", f"Kayak rule {i}", f"Kayak {i} is stored on rack {i}.")
    assert len(hits(invoke, "kayak rack")) == 5
    put(vault, "k2.md", "Kayak rule 2", "Kayak 2 is stored in the shed by the slipway.")  # in place, not a hit
    assert [h["id"] for h in hits(invoke, "slipway")] == ["k2"]


def test_a_vault_with_a_symlink_is_listed_whole(vault: Path, invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_fresh, "SWEEP", 0)
    put(vault, "real/anchor.md", "Which anchor the barge uses", "The barge drops a Danforth anchor.")
    os.symlink(vault / "real", vault / "linked")
    assert [h["id"] for h in hits(invoke, "danforth anchor")] == ["real/anchor"]
    put(vault, "real/chain.md", "How long the anchor chain is", "The chain is 40 metres long.")
    assert [h["id"] for h in hits(invoke, "anchor chain metres")][0] == "real/chain"


def test_an_unchanged_vault_reads_nothing(ferry: Path) -> None:
    index = open_index(Vault(ferry))
    try:
        assert index.last is not None and index.last.analysed == index.last.restated == 0
    finally:
        index.close()


NAMES = st.sampled_from(["a.md", "b.md", "INDEX.md", "README.md", "MEMORY.md", ".hidden.md", "4913", "note.txt",
                         "c.md~", "archive", "log", "sub", ".git", "deep"])


@st.composite
def trees(draw: st.DrawFn) -> list[str]:
    paths = []
    for _ in range(draw(st.integers(1, 14))):
        depth = draw(st.integers(0, 2))
        parts = [draw(NAMES) for _ in range(depth)] + [draw(st.sampled_from(["x.md", "y.md", "INDEX.md", "z.txt",
                                                                              ".tmp.md", "4913"]))]
        if draw(st.booleans()):
            parts[-1] = draw(st.text(string.ascii_lowercase, min_size=1, max_size=4)) + ".md"
        paths.append("/".join(parts))
    return paths


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(paths=trees())
def test_the_walk_finds_the_cards_the_vault_lists(tmp_path_factory: pytest.TempPathFactory, paths: list[str]) -> None:
    root = tmp_path_factory.mktemp("v")
    for rel in paths:
        target = root / rel
        if any(p.exists() and not p.is_dir() for p in target.parents if root in p.parents or p == root):
            continue
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("---\ndescription: x\ntype: project\n---\nx\n", encoding="utf-8")
    vault = Vault(root)
    expected = sorted((rel, False) for rel, _ in vault.listing()) + sorted(
        (rel, True) for rel, _ in vault.listing(archived=True))
    scan = Walker(vault).walk()
    assert sorted((e[0], e[5]) for e in scan.cards) == sorted(expected)
    assert not scan.linked
