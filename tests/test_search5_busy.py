"""A search index that cannot be read for a moment (locked, busy) is left alone, not thrown away (issue 15).

Opening the index reads the version it was built with; a file without that table is new
or foreign and is rebuilt. A read that fails otherwise ("database is locked", an I/O
error) says nothing about the file: it is tried again, then this one run searches from
an index in memory and the file stays for the next. Before, any failed read of the
version removed the file, and a 100k-card index (a minute to build) went with it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from search_helpers import Invoke, ids, put

from cardindex.store import search_index


class Flaky:
    """A connection whose reads of the version fail with `message` (every other call goes through)."""

    def __init__(self, db: sqlite3.Connection, message: str) -> None:
        self._db = db
        self._message = message

    def execute(self, sql: str, *args: Any) -> Any:
        if "k = 'version'" in sql:
            raise sqlite3.OperationalError(self._message)
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def _flaky(monkeypatch: pytest.MonkeyPatch, message: str) -> None:
    real = sqlite3.connect

    def connect(where: str, *args: Any, **kwargs: Any) -> Any:
        db = real(where, *args, **kwargs)
        return db if where == ":memory:" else Flaky(db, message)

    monkeypatch.setattr(search_index.sqlite3, "connect", connect)
    monkeypatch.setattr(search_index.time, "sleep", lambda s: None)


@pytest.fixture
def glassworks(vault: Path) -> Path:
    put(vault, "furnace.md", "When the glass furnace is recharged", "The furnace is recharged with cullet every Tuesday.")
    put(vault, "annealing.md", "How long vases anneal", "Vases anneal for 14 hours in the lehr.")
    return vault


def test_a_locked_index_is_kept_and_the_search_still_answers(
        invoke: Invoke, glassworks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ids(invoke, "furnace recharge")[0] == "furnace"
    db = glassworks / ".cardindex" / "cache" / "search.sqlite"
    with sqlite3.connect(db) as mark:  # a row no rebuild would write: gone if the file is built anew
        mark.execute("INSERT INTO meta VALUES ('test-mark', 1)")
    _flaky(monkeypatch, "database is locked")
    assert ids(invoke, "vase annealing")[0] == "annealing"  # from memory, this once
    monkeypatch.undo()
    kept = sqlite3.connect(db)
    assert kept.execute("SELECT v FROM meta WHERE k = 'test-mark'").fetchone() == (1,)
    assert kept.execute("SELECT count(*) FROM docs").fetchone()[0] == 2


def test_an_index_without_its_tables_is_still_rebuilt(
        invoke: Invoke, glassworks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # hard negative: a file that is new or foreign (no such table) is no index to keep
    assert ids(invoke, "furnace recharge")[0] == "furnace"
    db = glassworks / ".cardindex" / "cache" / "search.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    sqlite3.connect(db).execute("CREATE TABLE other(x)").connection.commit()
    assert ids(invoke, "vase annealing")[0] == "annealing"
    tables = {t for (t,) in sqlite3.connect(db).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "docs" in tables and "other" not in tables


def test_an_index_another_process_holds_is_kept(invoke: Invoke, glassworks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that waits out the busy timeout (a long rebuild in another process) searches from memory."""
    assert ids(invoke, "furnace recharge")[0] == "furnace"
    db = glassworks / ".cardindex" / "cache" / "search.sqlite"
    with sqlite3.connect(db) as mark:
        mark.execute("INSERT INTO meta VALUES ('test-mark', 1)")
    put(glassworks, "moulds.md", "Where the vase moulds are kept", "Moulds hang on the north wall.")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing
    real = sqlite3.connect
    monkeypatch.setattr(search_index.sqlite3, "connect",
                        lambda where, *a, **k: real(where, *a, **{**k, "timeout": 0.1}))
    try:
        assert ids(invoke, "vase moulds")[0] == "moulds"  # the new card, from an index in memory
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    monkeypatch.undo()
    assert sqlite3.connect(db).execute("SELECT v FROM meta WHERE k = 'test-mark'").fetchone() == (1,)
