"""The search index under `.cardindex/cache/` (issue 15): incremental, safe, rebuilt when broken.

An unchanged vault is only listed; a changed card is analysed again and nothing else; a
card whose bytes are unchanged (touched, checked out again) only gets its new stat; a
deleted card disappears; a corrupt or unwritable index never shows as an error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from search_helpers import Invoke, ids

from cardindex.agents.search import open_index
from cardindex.store import search_index
from cardindex.store.search_index import Synced
from cardindex.store.vault import Vault


def put(root: Path, rel: str, description: str, body: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")
    return path


def synced(root: Path) -> Synced:
    index = open_index(Vault(root))
    try:
        assert index.last is not None
        return index.last
    finally:
        index.close()


def test_only_what_changed_is_analysed(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A file changed within two seconds of a sync is re-hashed by the next (it could hide a change
    # in the same timestamp); here every file is that new, so that window is closed for the test.
    monkeypatch.setattr(search_index, "RACY_NS", 0)
    for i in range(30):
        put(vault, f"c{i:02}.md", f"Fact number {i} about kilns", f"Kiln {i} fires at cone {i % 7}.")
    put(vault, "archive/old.md", "An old kiln schedule", "Kilns fired on Sundays.")
    first = synced(vault)
    assert first.analysed == 31 and not first.fresh
    assert synced(vault) == Synced(0, 0, 0, True)  # unchanged: the listing only, nothing read
    put(vault, "c05.md", "Fact number 5 about kilns", "Kiln 5 now fires at cone 10.")
    assert synced(vault) == Synced(1, 0, 0, False)
    path = vault / "c07.md"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 5))  # touched, same bytes
    assert synced(vault) == Synced(0, 1, 0, False)
    (vault / "c09.md").unlink()
    assert synced(vault) == Synced(0, 0, 1, False)
    assert synced(vault).fresh


def test_a_file_changed_in_the_second_of_a_sync_is_checked_again(vault: Path) -> None:
    put(vault, "a.md", "Which kiln fires bisque", "The small kiln fires bisque.")
    first = synced(vault)
    assert first.analysed == 1
    again = synced(vault)  # racily clean: its bytes are hashed again, not trusted by stat
    assert again.analysed == 0 and again.restated == 1 and not again.fresh


def test_a_changed_card_is_found_by_its_new_words_and_a_deleted_one_is_gone(invoke: Invoke, vault: Path) -> None:
    put(vault, "glaze.md", "Which glaze the mugs get", "Mugs get a celadon glaze.")
    put(vault, "clay.md", "Which clay the studio buys", "The studio buys stoneware clay by the tonne.")
    assert ids(invoke, "celadon") == ["glaze"]
    put(vault, "glaze.md", "Which glaze the mugs get", "Mugs get a tenmoku glaze.")
    assert ids(invoke, "celadon") == []
    assert ids(invoke, "tenmoku") == ["glaze"]
    (vault / "clay.md").unlink()
    assert ids(invoke, "stoneware clay") == []


def test_a_corrupt_index_is_rebuilt_silently(invoke: Invoke, vault: Path) -> None:
    put(vault, "wheel.md", "Which potter's wheel is for beginners", "Beginners use the Shimpo wheel by the door.")
    assert ids(invoke, "beginner wheel") == ["wheel"]
    db = vault / ".cardindex" / "cache" / "search.sqlite"
    assert db.is_file()
    for junk in (b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 4000, b""):
        for extra in ("-wal", "-shm"):
            Path(f"{db}{extra}").unlink(missing_ok=True)
        db.write_bytes(junk)
        result = invoke("search", "beginner wheel")
        assert result.exit_code == 0 and result.stderr == "", result.stderr
        assert result.stdout.split()[1] == "wheel"


def test_an_unwritable_state_folder_searches_from_memory(invoke: Invoke, vault: Path) -> None:
    put(vault, "kiln.md", "When the kiln is serviced", "The kiln elements are replaced every 200 firings.")
    cache = vault / ".cardindex" / "cache"
    if cache.exists():
        for p in cache.iterdir():
            p.unlink()
        cache.rmdir()
    cache.write_text("a file where the cache folder should be", encoding="utf-8")
    result = invoke("search", "kiln elements")
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    assert result.stdout.split()[1] == "kiln"


def test_concurrent_searches_while_a_card_changes(vault: Path) -> None:
    for i in range(40):
        put(vault, f"n{i:02}.md", f"Note {i} on slip casting", f"Slip batch {i} is mixed on day {i % 5}.")
    target = vault / "n00.md"
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            tmp = target.with_suffix(".tmp")
            tmp.write_text(f"---\ndescription: Note 0 on slip casting\ntype: project\n---\nRevision {n} of batch "
                           f"zero, deflocculant {'sodium' if n % 2 else 'darvan'}.\n", encoding="utf-8")
            os.replace(tmp, target)

    def search() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), "search", "slip batch",
                               "--format", "json"], capture_output=True, text=True, timeout=120, check=False)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        results: list[subprocess.CompletedProcess[str]] = []
        runners = [threading.Thread(target=lambda: results.append(search())) for _ in range(4)]
        for r in runners:
            r.start()
        for r in runners:
            r.join()
    finally:
        stop.set()
        thread.join()
    for done in results:
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert json.loads(done.stdout)
    final = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), "search", "deflocculant",
                            "--format", "json"], capture_output=True, text=True, timeout=120, check=True)
    assert [h["id"] for h in json.loads(final.stdout)] == ["n00"]


def test_the_average_lengths_follow_every_change(vault: Path) -> None:
    for i in range(5):
        put(vault, f"g{i}.md", f"Glaze recipe {i}", "Feldspar, silica and whiting " * (i + 1))
    synced(vault)
    put(vault, "g1.md", "Glaze recipe 1", "Only ash.")
    (vault / "g3.md").unlink()
    put(vault, "g9.md", "A glaze recipe with a longer description than the others", "Frit 3134 and kaolin.")
    index = open_index(Vault(vault))
    try:
        fields = ", ".join(f"avg(len_{f})" for f in search_index.FIELDS)
        recount = index.db.execute(f"SELECT count(*), {fields} FROM docs").fetchone()
        count, averages = index.stats()
        assert count == recount[0] == 5
        assert averages == pytest.approx(recount[1:])
    finally:
        index.close()
