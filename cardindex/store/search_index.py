"""The search index: every card's terms in SQLite FTS5 under `.cardindex/cache/`, kept current by content hash.

One row per card file (live and archived): its stat, the hash of its bytes, the terms of
each field (title, description, key, tags, body; the caller analyses a card into terms,
this module only stores them), its length per field and what filters read (type,
status, scope, dates). A side table maps every word form seen to its term, for typo
correction.

Kept current the way git keeps its index: a run lists the vault and stats every card
file; when the digest of that listing equals the one stored, and no file was modified
so close to the last sync that a change could hide in the same timestamp ("racily
clean"), nothing is read. Otherwise only the files whose stat changed are read; those
whose bytes hash as before only get their new stat, the others are analysed again.
So an update after one changed card costs that card.

SQLite's transactions make every update atomic and serialise concurrent `cards`
processes (a writer waits for the other; readers see the last committed state). A
missing, corrupt or foreign index is rebuilt silently; where `.cardindex/` cannot be
written (a read-only vault) the index lives in memory for the run.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

FIELDS = ("title", "description", "key", "tags", "body")
SCHEMA = 2
RACY_NS = 2_000_000_000  # as the parse cache: a change this close to a sync may share its timestamp
BULK = 64  # from this many files to (re)analyse, load them through the vault's parse cache at once


# One card file as listed: (vault-relative path, mtime_ns, ctime_ns, size, inode, in the archive).
# A plain tuple, the shape of the docs row it is compared with: a vault of 100k cards lists 100k.
Entry = tuple[str, int, int, int, int, bool]


class Row(NamedTuple):
    """What the index keeps of one card: terms per field, word forms, and what filters read."""

    fields: tuple[str, ...]  # space-joined terms, one string per FIELDS entry
    words: tuple[tuple[str, str], ...]  # (word as written, its term)
    info: dict[str, Any]  # marshal-able: type, status, scope, expires, ...


class Synced(NamedTuple):
    """What a sync did: cards (re)analysed, only re-stat'ed, removed; and whether it read the listing only."""

    analysed: int
    restated: int
    removed: int
    fresh: bool


def entry(rel: str, st: os.stat_result, archived: bool) -> Entry:
    return (rel, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, archived)


def content_hash(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


_DDL = f"""
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs(
  id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, mtime INT, ctime INT, size INT, ino INT, hash BLOB,
  archived INT NOT NULL, usable INT NOT NULL, type TEXT, status TEXT, expires TEXT, info BLOB,
  {", ".join(f"len_{f} INT NOT NULL" for f in FIELDS)});
CREATE TABLE IF NOT EXISTS words(word TEXT PRIMARY KEY, term TEXT NOT NULL, n INT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS words_by_length ON words(n);
CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5({", ".join(FIELDS)}, tokenize="unicode61 remove_diacritics 0");
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(terms, 'row');
"""


class SearchIndex:
    """The index of one vault (`state_dir` its `.cardindex/`, None: in memory), for analysis `version`."""

    def __init__(self, state_dir: Path | None, version: str) -> None:
        self.version = f"{SCHEMA}:{version}"
        self.path = None if state_dir is None else state_dir / "cache" / "search.sqlite"
        self.db = self._open()
        self._sums: list[int] | None = None
        self.last: Synced | None = None  # what the last sync did

    # ------------------------------------------------------------------ opening

    def _open(self) -> sqlite3.Connection:
        if self.path is not None:
            for attempt in range(2):
                try:
                    return self._connect(str(self.path))
                except (sqlite3.DatabaseError, OSError):
                    if attempt == 0:
                        self._remove()  # corrupt or foreign: rebuilt from the cards
        self.path = None
        return self._connect(":memory:")

    def _connect(self, where: str) -> sqlite3.Connection:
        if where != ":memory:":
            folder = Path(where).parent
            if not folder.is_dir():
                folder.mkdir(parents=True, exist_ok=True)
                _tag(folder)
        db = sqlite3.connect(where, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            version = db.execute("SELECT v FROM meta WHERE k = 'version'").fetchone()
        except sqlite3.OperationalError:  # no such table: a new file
            version = None
        if version is None or version[0] != self.version:
            db.close()
            if where != ":memory:":
                self._remove()
            db = sqlite3.connect(where, timeout=30, isolation_level=None, check_same_thread=False)
            if where != ":memory:":
                db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_DDL)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (self.version,))
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _remove(self) -> None:
        if self.path is None:
            return
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.unlink(f"{self.path}{suffix}")
            except OSError:
                pass

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ keeping it current

    def sync(
        self,
        entries: Sequence[Entry],
        *,
        read: Callable[[str], bytes | None],
        load: Callable[[Sequence[str]], Mapping[str, tuple[bytes, Row]]],
    ) -> Synced:
        """Bring the index up to `entries` (the vault as listed now).

        `read(rel)` returns a file's bytes (None when gone); `load(rels)` returns the bytes'
        hash source and the analysed row of each of those cards.
        """
        for attempt in range(3):
            try:
                self.last = self._sync(entries, read, load)
                return self.last
            except sqlite3.DatabaseError:
                if self.path is None or attempt == 2:
                    raise
                self.db.close()
                self._sums = None
                if attempt == 0:
                    self._remove()  # corrupt: rebuilt from the cards
                    self.db = self._open()
                else:
                    self.path = None  # cannot be written (a read-only vault): in memory for this run
                    self.db = self._connect(":memory:")
        raise AssertionError("unreachable")

    def _sync(
        self,
        entries: Sequence[Entry],
        read: Callable[[str], bytes | None],
        load: Callable[[Sequence[str]], Mapping[str, tuple[bytes, Row]]],
    ) -> Synced:
        started = time.time_ns()
        listing = content_hash(marshal.dumps(list(entries)))
        meta = dict(self.db.execute("SELECT k, v FROM meta").fetchall())
        trusted_before = meta.get("trusted_before", 0)
        racy = {e[0] for e in entries if e[1] >= trusted_before or e[2] >= trusted_before}
        if meta.get("listing") == listing and not racy:
            return Synced(0, 0, 0, True)
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            if self.path is None:
                raise
            raise sqlite3.DatabaseError("cannot write the search index") from None
        self._sums = None  # read again inside the transaction: another process may have changed them
        try:
            done = self._update(entries, racy, read, load)
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                [("listing", listing), ("trusted_before", started - RACY_NS),
                                 ("sums", marshal.dumps(self._sums))])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            self._sums = None
            raise
        return done

    def _update(
        self,
        entries: Sequence[Entry],
        racy: set[str],
        read: Callable[[str], bytes | None],
        load: Callable[[Sequence[str]], Mapping[str, tuple[bytes, Row]]],
    ) -> Synced:
        known = set(self.db.execute("SELECT path, mtime, ctime, size, ino, archived FROM docs"))
        changed = [e for e in entries if e not in known or e[0] in racy]
        restated = 0
        todo: list[Entry] = []
        if len(changed) < BULK:
            for e in changed:
                found = self.db.execute("SELECT id, hash, archived FROM docs WHERE path = ?", (e[0],)).fetchone()
                if found is not None and bool(found[2]) == e[5]:
                    data = read(e[0])
                    if data is not None and content_hash(data) == found[1]:
                        self.db.execute("UPDATE docs SET mtime=?, ctime=?, size=?, ino=? WHERE id=?", (*e[1:5], found[0]))
                        restated += 1
                        continue
                todo.append(e)
        else:
            todo = changed
        rows = load([e[0] for e in todo]) if todo else {}
        analysed = 0
        for e in todo:
            got = rows.get(e[0])
            self._delete_path(e[0])
            if got is not None:
                self._insert(e, content_hash(got[0]), got[1])
                analysed += 1
        listed = {e[0] for e in entries}
        gone = {k[0] for k in known} - listed
        for path in gone:
            self._delete_path(path)
        return Synced(analysed, restated, len(gone), False)

    def _insert(self, e: Entry, digest: bytes, row: Row) -> None:
        info = row.info
        lengths = [f.count(" ") + 1 if f else 0 for f in row.fields]
        sums = self._load_sums()
        sums[0] += 1
        for k, n in enumerate(lengths, 1):
            sums[k] += n
        cur = self.db.execute(
            f"INSERT INTO docs(path, mtime, ctime, size, ino, archived, hash, usable, type, status, expires, info, "
            f"{', '.join('len_' + f for f in FIELDS)}) VALUES ({', '.join('?' * (12 + len(FIELDS)))})",
            (*e, digest, bool(info.get("usable")), info.get("type"), info.get("status"),
             info.get("expires"), marshal.dumps(info), *lengths),
        )
        self.db.execute(f"INSERT INTO terms(rowid, {', '.join(FIELDS)}) VALUES (?{', ?' * len(FIELDS)})",
                        (cur.lastrowid, *row.fields))
        self.db.executemany("INSERT OR IGNORE INTO words VALUES (?, ?, ?)", ((w, t, len(w)) for w, t in row.words))

    def _delete_path(self, path: str) -> None:
        found = self.db.execute(f"SELECT id, {', '.join('len_' + f for f in FIELDS)} FROM docs WHERE path = ?", (path,))
        row = found.fetchone()
        if row is not None:
            rid, *lengths = row
            sums = self._load_sums()
            sums[0] -= 1
            for k, n in enumerate(lengths, 1):
                sums[k] -= n
            self.db.execute("DELETE FROM terms WHERE rowid = ?", (rid,))
            self.db.execute("DELETE FROM docs WHERE id = ?", (rid,))

    def fill(self, items: Iterable[tuple[str, bool, bytes, Row]]) -> None:
        """Index (path, archived, bytes, row) items directly: an in-memory index of cards not on disk (as of a date)."""
        self.db.execute("BEGIN")
        self._sums = None
        for rel, archived, data, row in items:
            self._insert((rel, 0, 0, 0, 0, archived), content_hash(data), row)
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ reading

    def stats(self) -> tuple[int, tuple[float, ...]]:
        """How many cards the index holds, and their average length per field (kept up at each change)."""
        count, *sums = self._load_sums()
        return count, tuple(s / count if count else 0.0 for s in sums)

    def _load_sums(self) -> list[int]:
        """[cards, total length of each field], read once per run and kept current by every insert and delete."""
        if self._sums is None:
            found = self.db.execute("SELECT v FROM meta WHERE k = 'sums'").fetchone()
            loaded = marshal.loads(found[0]) if found else None
            if not (isinstance(loaded, list) and len(loaded) == len(FIELDS) + 1):
                row = self.db.execute(f"SELECT count(*), {', '.join(f'total(len_{f})' for f in FIELDS)} FROM docs")
                loaded = [int(x) for x in row.fetchone()]
            self._sums = loaded
        return self._sums

    def document_frequency(self, terms: Iterable[str]) -> dict[str, int]:
        """In how many cards each term occurs (any field, archived ones too); absent terms are left out."""
        wanted = sorted(set(terms))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        return dict(self.db.execute(f"SELECT term, doc FROM vocab WHERE term IN ({marks})", wanted).fetchall())

    def count(self, match: str) -> int:
        return int(self.db.execute("SELECT count(*) FROM terms WHERE terms MATCH ?", (match,)).fetchone()[0])

    def candidates(self, match: str, weights: Sequence[float], where: str, params: Sequence[Any], limit: int
                   ) -> list[int]:
        """Ids of the cards matching the FTS5 expression `match` and `where`, best first by FTS5's BM25."""
        sql = (f"SELECT terms.rowid FROM terms JOIN docs ON docs.id = terms.rowid WHERE terms MATCH ? AND {where} "
               f"ORDER BY bm25(terms, {', '.join(str(float(w)) for w in weights)}) LIMIT ?")
        return [r[0] for r in self.db.execute(sql, (match, *params, limit))]

    def rows(self, ids: Sequence[int]) -> dict[int, tuple[str, bool, tuple[str, ...], dict[str, Any]]]:
        """id -> (path, archived, terms per field, info) of those cards."""
        out = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            for rid, path, archived, info, *fields in self.db.execute(
                f"SELECT docs.id, path, archived, info, {', '.join('terms.' + f for f in FIELDS)} FROM docs "
                f"JOIN terms ON terms.rowid = docs.id WHERE docs.id IN ({marks})", chunk):
                out[rid] = (path, bool(archived), tuple(fields), marshal.loads(info))
        return out

    def word_forms(self, shortest: int, longest: int) -> list[tuple[str, str]]:
        """(word, term) of every word form seen of a length in [shortest, longest]."""
        return self.db.execute("SELECT word, term FROM words WHERE n BETWEEN ? AND ?", (shortest, longest)).fetchall()


def _tag(folder: Path) -> None:
    from cardindex.store.atomic import write_atomic
    from cardindex.store.parse_cache import STATE_IGNORE, TAG

    try:
        ignore = folder.parent / ".gitignore"
        if not ignore.exists():
            write_atomic(ignore, STATE_IGNORE)
        write_atomic(folder / "CACHEDIR.TAG", TAG)
    except OSError:
        pass
