"""A changed folder is compared with its kept listing (name -> inode), not read card by card (issue 15).

Saving one card by rename changes its folder; the index keeps every folder's names with
their inodes, so the update lists the folder once (a kernel readdir) and reads only the
names that are new or under another inode. These tests check that the index after any
sequence of changes equals what the vault lists, with the sweep and the racy window
switched off, so the listing comparison alone must find every change; the folders'
mtimes are set by hand to distinct values so no change can hide in a shared timestamp.
"""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.agents.search import _source, open_index
from cardindex.store import search_fresh, search_index
from cardindex.store.search_index import content_hash
from cardindex.store.vault import Vault

CLOCK = itertools.count(1_000_000_000_000_000_000, 1_000_000)  # 2001, in ns: older than any sync, all distinct
NAMES = ["kiln", "glaze", "clay", "wheel", "notes"]
FOLDERS = ["", "studio", "studio/shelf", "shop"]


def card(description: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{description}, as the potters agreed.\n"


def touch(root: Path, folder: Path) -> None:
    """Give `folder` (and so its stamp) a new mtime no other change shares."""
    t = next(CLOCK)
    if folder.is_dir():
        os.utime(folder, ns=(t, t))
    if folder != root and folder.parent.is_dir():
        touch(root, folder.parent) if folder.parent != folder else None


def indexed(root: Path) -> dict[str, bytes]:
    index = open_index(Vault(root))
    try:
        return dict(index.db.execute("SELECT path, hash FROM docs").fetchall())
    finally:
        index.close()


def expected(root: Path) -> dict[str, bytes]:
    vault = Vault(root)
    paths = [rel for rel, _ in vault.listing()] + [rel for rel, _ in vault.listing(archived=True)]
    return {rel: content_hash(_source(vault.read_card(rel))) for rel in paths}


Step = tuple[str, str, str, int]
steps = st.lists(st.tuples(st.sampled_from(["save", "delete", "dir", "swap", "rmdir", "junk", "hidden"]),
                           st.sampled_from(FOLDERS), st.sampled_from(NAMES), st.integers(0, 3)), min_size=1, max_size=12)


def apply(root: Path, step: Step) -> None:
    kind, folder, name, n = step
    where = root / folder
    if any(p.exists() and not p.is_dir() for p in [where, *where.parents] if p != root and root in p.parents):
        return  # a card stands where the folder would be
    where.mkdir(parents=True, exist_ok=True)
    target = where / f"{name}.md"
    if kind == "save":  # a new card or a save by rename: a new inode under the name
        if target.is_dir():
            return
        tmp = where / f".{name}.md.tmp"
        tmp.write_text(card(f"{name} rule {n} of the {folder or 'root'}"), encoding="utf-8")
        os.replace(tmp, target)
    elif kind == "delete" and target.is_file():
        target.unlink()
    elif kind == "dir" and not target.exists():  # a folder under a card's name, holding a card
        (target / "inner.md").parent.mkdir()
        (target / "inner.md").write_text(card(f"inner {name} {n}"), encoding="utf-8")
    elif kind == "swap" and target.is_file():  # a card replaced by a folder of its name, in one change
        target.unlink()
        target.mkdir()
        (target / "inner.md").write_text(card(f"swapped {name} {n}"), encoding="utf-8")
    elif kind == "rmdir" and folder and where.is_dir():
        shutil.rmtree(where)
    elif kind == "junk":
        (where / f"{name}.txt").write_text("not a card\n", encoding="utf-8")
    elif kind == "hidden":
        (where / f".{name}.md").write_text(card("hidden"), encoding="utf-8")
    touch(root, where if where.is_dir() else where.parent)
    if target.is_dir():
        touch(root, target)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=steps)
def test_the_index_follows_any_changes_of_folders(tmp_path_factory: pytest.TempPathFactory,
                                                  monkeypatch: pytest.MonkeyPatch, history: list[Step]) -> None:
    monkeypatch.setattr(search_index, "RACY_NS", 0)
    monkeypatch.setattr(search_fresh, "SWEEP", 0)
    root = tmp_path_factory.mktemp("pottery")
    (root / "studio").mkdir()
    (root / "studio" / "kiln.md").write_text(card("kiln firing days"), encoding="utf-8")
    (root / "glaze.md").write_text(card("glaze recipes"), encoding="utf-8")
    touch(root, root / "studio")
    assert indexed(root) == expected(root)
    for step in history:
        apply(root, step)
        assert indexed(root) == expected(root), step


def test_a_save_in_a_large_folder_reads_only_that_card(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_index, "RACY_NS", 0)
    monkeypatch.setattr(search_fresh, "SWEEP", 0)
    shelf = vault / "shelf"
    shelf.mkdir()
    for i in range(300):
        (shelf / f"pot{i:03}.md").write_text(card(f"pot {i} glaze"), encoding="utf-8")
    open_index(Vault(vault)).close()
    asked: list[str] = []
    cards_in = search_index.SearchIndex.cards_in
    monkeypatch.setattr(search_index.SearchIndex, "cards_in", lambda self, f: (asked.append(f), cards_in(self, f))[1])
    tmp = shelf / ".pot007.md.tmp"
    tmp.write_text(card("pot 7 celadon glaze"), encoding="utf-8")
    os.replace(tmp, shelf / "pot007.md")
    touch(vault, shelf)
    index = open_index(Vault(vault))
    try:
        assert index.last is not None and (index.last.analysed, index.last.removed) == (1, 0)
        assert asked == []  # the folder's kept listing told which name changed: no card of it looked up
    finally:
        index.close()


def test_a_card_replaced_by_a_folder_of_its_name_leaves_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_index, "RACY_NS", 0)
    monkeypatch.setattr(search_fresh, "SWEEP", 0)
    root = tmp_path / "v"
    (root / "studio").mkdir(parents=True)
    (root / "studio" / "kiln.md").write_text(card("kiln firing days"), encoding="utf-8")
    touch(root, root / "studio")
    assert indexed(root) == expected(root)
    apply(root, ("swap", "studio", "kiln", 1))
    assert indexed(root) == expected(root) == {"studio/kiln.md/inner.md": expected(root)["studio/kiln.md/inner.md"]}
