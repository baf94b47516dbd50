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
written (a read-only vault) the index lives in memory for the run. What ranking reads
(counts, candidates, rows, word forms) is `store.search_reads`, inherited here.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.store.search_reads import FIELDS, Entry, SearchReads, Stamp

__all__ = ["FIELDS", "Entry", "Loader", "RebuildNeeded", "Row", "SearchIndex", "Stamp", "Synced", "content_hash", "entry"]

SCHEMA = 4  # 4: each folder's listing kept (name -> inode), so a changed folder is compared, not re-read
RACY_NS = 2_000_000_000  # as the parse cache: a change this close to a sync may share its timestamp
VERSION_TRIES = 4  # reads of the version an index file is opened with, before a busy one is left alone for a run
BULK = 64  # from this many files to (re)analyse, load them through the vault's parse cache at once




class Row(NamedTuple):
    """What the index keeps of one card: terms per field, word forms, and what filters read."""

    fields: tuple[str, ...]  # space-joined terms, one string per FIELDS entry
    words: tuple[tuple[str, str], ...]  # (word as written, its term)
    info: dict[str, Any]  # marshal-able: type, status, scope, expires, ...


# What analyses cards for the index: for some paths, each card's (path, (hash source, row)), one at a
# time; a card gone since listed is left out. The index takes each as it comes and keeps none.
Loader = Callable[[Sequence[str]], Iterable[tuple[str, tuple[bytes, Row]]]]


class Unreadable(Exception):
    """The index file could not be read (busy, locked, an I/O error) though it may be sound: it is kept."""


class RebuildNeeded(Exception):
    """The index had to be opened anew: bring it up to the whole vault, not by an increment."""


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


# The docs columns an insert gives, in the order `_insert` gives them.
_DOC_COLUMNS = ("path", "mtime", "ctime", "size", "ino", "archived", "hash", "usable", "type", "status", "expires", "info",
                *(f"len_{f}" for f in FIELDS), "dir", "id")

_DDL = f"""
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS docs(
  id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, dir TEXT NOT NULL, mtime INT, ctime INT, size INT, ino INT, hash BLOB,
  archived INT NOT NULL, usable INT NOT NULL, type TEXT, status TEXT, expires TEXT, info BLOB,
  {", ".join(f"len_{f} INT NOT NULL" for f in FIELDS)});
CREATE INDEX IF NOT EXISTS docs_by_dir ON docs(dir);
CREATE TABLE IF NOT EXISTS folders(path TEXT PRIMARY KEY, mtime INT, ctime INT, ino INT, names BLOB) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS words(word TEXT PRIMARY KEY, term TEXT NOT NULL, n INT NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS words_by_length ON words(n);
CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5({", ".join(FIELDS)}, tokenize="unicode61 remove_diacritics 0");
CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(terms, 'row');
"""


class SearchIndex(SearchReads):
    """The index of one vault (`state_dir` its `.cardindex/`, None: in memory), for analysis `version`."""

    def __init__(self, state_dir: Path | None, version: str) -> None:
        self.version = f"{SCHEMA}:{version}"
        self.path = None if state_dir is None else state_dir / "cache" / "search.sqlite"
        self.db = self._open()
        self._sums: list[int] | None = None
        self._meta_cache: dict[str, Any] | None = None
        self._recorded: list[Entry] = []  # what this write transaction recorded the stat of
        self.last: Synced | None = None  # what the last sync did

    # ------------------------------------------------------------------ opening

    def _open(self) -> sqlite3.Connection:
        if self.path is not None:
            for attempt in range(2):
                try:
                    return self._connect(str(self.path))
                except Unreadable:
                    break  # busy or failing to read, not corrupt: left for the next run, this one in memory
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
        version = None
        for attempt in range(VERSION_TRIES):
            try:
                version = db.execute("SELECT v FROM meta WHERE k = 'version'").fetchone()
                break
            except sqlite3.OperationalError as exc:
                if "no such table" in str(exc):  # a new file
                    break
                if attempt == VERSION_TRIES - 1:  # locked or failing to read: not a reason to throw the index away
                    db.close()
                    raise Unreadable(str(exc)) from None
                time.sleep(0.05 * (attempt + 1))
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
        load: Loader,
        folders: Mapping[str, Stamp] | None = None,
        linked: bool = False,
        listings: Mapping[str, dict[str, int]] | None = None,
    ) -> Synced:
        """Bring the index up to `entries` (the vault as listed now, every card).

        `read(rel)` returns a file's bytes (None when gone); `load(rels)` returns the bytes'
        hash source and the analysed row of each of those cards. `folders` are the stamps
        of every folder listed (what `search_fresh` checks next time), `linked` whether
        the vault holds a symlink, `listings` every name in each folder with its inode.
        """
        return self._retry(lambda: self._sync(entries, read, load, folders, linked, listings or {}))

    def apply(
        self,
        changed: Sequence[Entry],
        gone: Iterable[str],
        folders: Mapping[str, Stamp],
        folders_gone: Iterable[str],
        cursor: int,
        *,
        racy: bool,
        read: Callable[[str], bytes | None],
        load: Loader,
        forced: bool = False,
        listings: Mapping[str, dict[str, int]] | None = None,
    ) -> Synced:
        """Apply what `search_fresh` found: cards whose stat changed (or are new), cards and folders gone,
        folders listed again (with every name in each and its inode, `listings`), where the next sweep
        starts. Writes nothing when nothing changed. With `forced`, every card of `changed` is hashed
        again even when its stat is as recorded."""
        gone = set(gone)
        folders_gone = set(folders_gone)
        if not (changed or gone or folders or folders_gone or racy):
            if cursor != self._meta().get("cursor", 0):
                self._move_cursor(cursor)
            self.last = Synced(0, 0, 0, True)
            return self.last
        return self._retry(lambda: self._apply(changed, gone, folders, folders_gone, cursor, read, load, forced,
                                               listings or {}), once=True)

    def _move_cursor(self, cursor: int) -> None:
        """Record where the next sweep starts, when nothing else changed: a hint, so written without a sync.

        Lost in a power cut, the next sweep checks a slice again; the sync that a write
        transaction and the checkpoint at close would otherwise cost was a tenth of a warm
        search. `_write` turns syncing back on before any real change.
        """
        try:
            self.db.execute("PRAGMA synchronous=OFF")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('cursor', ?)", (cursor,))
        except sqlite3.OperationalError:  # read-only or busy: the next search sweeps this slice again
            pass
        finally:
            self._meta_cache = None

    def racy_paths(self) -> list[str]:
        """Cards whose stat was recorded so close to a sync that it may hide a change: checked by the next."""
        found = self._meta().get("racy")
        return list(marshal.loads(found)) if found else []

    def _retry(self, work: Callable[[], Synced], once: bool = False) -> Synced:
        """Run `work`; a corrupt index is removed and reopened, an unwritable or busy one moved to memory (and
        kept), and `work` tried again (with `once`, the caller is told by RebuildNeeded: an increment means
        nothing on a new index)."""
        for attempt in range(3):
            try:
                self.last = work()
                return self.last
            except Unreadable:  # another process holds the index past the busy timeout: it keeps it
                self._reopen(1)
                if once:
                    raise RebuildNeeded() from None
            except sqlite3.DatabaseError:
                if once:
                    self._reopen(0)
                    raise RebuildNeeded() from None
                if self.path is None or attempt == 2:
                    raise
                self._reopen(attempt)
        raise AssertionError("unreachable")

    def _reopen(self, attempt: int) -> None:
        """After a failed write: the first time, remove a corrupt file and open it anew; then, in memory."""
        self.db.close()
        self._sums = None
        self._meta_cache = None
        if attempt == 0 and self.path is not None:
            self._remove()  # corrupt: rebuilt from the cards
            self.db = self._open()
        else:
            self.path = None  # cannot be written (a read-only vault): in memory for this run
            self.db = self._connect(":memory:")

    def _sync(
        self,
        entries: Sequence[Entry],
        read: Callable[[str], bytes | None],
        load: Loader,
        folders: Mapping[str, Stamp] | None,
        linked: bool,
        listings: Mapping[str, dict[str, int]],
    ) -> Synced:
        started = time.time_ns()
        listing = content_hash(marshal.dumps(list(entries)))
        meta = self._meta()
        trusted_before = meta.get("trusted_before", 0)
        racy = {e[0] for e in entries if e[1] >= trusted_before or e[2] >= trusted_before}
        if meta.get("listing") == listing and not racy and bool(meta.get("linked")) == linked and (
                folders is None or dict(self.folder_stamps()) == dict(folders)):
            return Synced(0, 0, 0, True)

        def update() -> Synced:
            done = self._update(entries, racy, read, load)
            last = self.db.execute("SELECT max(id) FROM docs").fetchone()[0]
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('cursor', ?)", (last or 0,))
            if folders is not None:
                self.db.execute("DELETE FROM folders")
                self.db.executemany("INSERT INTO folders VALUES (?, ?, ?, ?, ?)", _folder_rows(folders, listings))
            return done

        return self._write(update, started, [("listing", listing), ("linked", int(linked))])

    def _apply(
        self,
        changed: Sequence[Entry],
        gone: set[str],
        folders: Mapping[str, Stamp],
        folders_gone: set[str],
        cursor: int,
        read: Callable[[str], bytes | None],
        load: Loader,
        forced: bool,
        listings: Mapping[str, dict[str, int]],
    ) -> Synced:
        started = time.time_ns()
        trusted_before = self._meta().get("trusted_before", 0)

        def update() -> Synced:
            racy = {e[0] for e in changed if forced or e[1] >= trusted_before or e[2] >= trusted_before}
            known = set()
            for e in changed:
                found = self.db.execute("SELECT mtime, ctime, size, ino, archived FROM docs WHERE path = ?",
                                        (e[0],)).fetchone()
                if found is not None and (e[0], *found) == e:
                    known.add(e)
            done = self._changed([e for e in changed if e not in known or e[0] in racy], read, load)
            removed = set(gone)
            for folder in folders_gone:
                removed.update(self.cards_in(folder))
                removed.update(p for (p,) in self.db.execute(
                    "SELECT path FROM docs WHERE dir >= ? AND dir < ?", (folder + "/", folder + "0")))
                self.db.execute("DELETE FROM folders WHERE path = ? OR (path >= ? AND path < ?)",
                                (folder, folder + "/", folder + "0"))
            for path in removed:
                self._delete_path(path)
            self.db.executemany("INSERT OR REPLACE INTO folders VALUES (?, ?, ?, ?, ?)", _folder_rows(folders, listings))
            return done._replace(removed=len(removed))

        return self._write(update, started, [("cursor", cursor)])

    def _write(self, update: Callable[[], Synced], started: int, extra: list[tuple[str, Any]]) -> Synced:
        """Run `update` in one write transaction, then record when files were last seen and the field sums."""
        try:
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if self.path is None:
                raise
            if "locked" in str(exc) or "busy" in str(exc):
                raise Unreadable(str(exc)) from None
            raise sqlite3.DatabaseError("cannot write the search index") from None
        self._sums = None  # read again inside the transaction: another process may have changed them
        self._meta_cache = None
        self._recorded = []
        try:
            previous = self.racy_paths()
            done = update()
            edge = started - RACY_NS
            racy = sorted({e[0] for e in self._recorded if e[1] >= edge or e[2] >= edge} | (
                set(previous) - {e[0] for e in self._recorded}))
            self._load_sums()
            self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                [*extra, ("trusted_before", edge), ("sums", marshal.dumps(self._sums)),
                                 ("racy", marshal.dumps(racy))])
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            self._sums = None
            raise
        finally:
            self._meta_cache = None
        return done

    def _update(
        self,
        entries: Sequence[Entry],
        racy: set[str],
        read: Callable[[str], bytes | None],
        load: Loader,
    ) -> Synced:
        known = set(self.db.execute("SELECT path, mtime, ctime, size, ino, archived FROM docs"))
        changed = [e for e in entries if e not in known or e[0] in racy]
        done = self._changed(changed, read, load)
        listed = {e[0] for e in entries}
        gone = {k[0] for k in known} - listed
        for path in gone:
            self._delete_path(path)
        return done._replace(removed=len(gone))

    def _changed(
        self,
        changed: Sequence[Entry],
        read: Callable[[str], bytes | None],
        load: Loader,
    ) -> Synced:
        """Re-stat or re-analyse the cards whose stat changed: only those whose bytes changed are analysed."""
        restated = 0
        todo: list[Entry] = []
        if len(changed) < BULK:
            for e in changed:
                found = self.db.execute("SELECT id, hash, archived FROM docs WHERE path = ?", (e[0],)).fetchone()
                if found is not None and bool(found[2]) == e[5]:
                    data = read(e[0])
                    if data is not None and content_hash(data) == found[1]:
                        self.db.execute("UPDATE docs SET mtime=?, ctime=?, size=?, ino=? WHERE id=?", (*e[1:5], found[0]))
                        self._recorded.append(e)
                        restated += 1
                        continue
                todo.append(e)
        else:
            todo = list(changed)
        if not todo:
            return Synced(0, restated, 0, False)
        # Every card's old row goes first; the new ones get ids in `todo`'s order whatever order they are
        # analysed in (ranking breaks ties by id, and the sweep goes by it), as one insert after another did.
        for e in todo:
            self._delete_path(e[0])
        first = (self.db.execute("SELECT max(id) FROM docs").fetchone()[0] or 0) + 1
        place = {e[0]: (first + k, e) for k, e in enumerate(todo)}
        # The cards of a bulk load come in the parse cache's order, not `todo`'s. Inserted so, the docs table
        # and its indexes grow out of order (twice the time) and FTS5 starts a segment each time a rowid goes
        # down: the rows are appended to a temporary table (on disk, not in memory) and go in by id at the end.
        staged = len(todo) >= BULK
        if staged:
            self.db.execute(f"CREATE TEMP TABLE IF NOT EXISTS staged({', '.join(_DOC_COLUMNS + FIELDS)})")
            self.db.execute("DELETE FROM temp.staged")
        analysed = 0
        for rel, got in load([e[0] for e in todo]):
            found = place.pop(rel, None)
            if found is not None:
                self._insert(found[1], content_hash(got[0]), got[1], found[0], staged)
                analysed += 1
        if staged:
            self.db.execute(f"INSERT INTO docs({', '.join(_DOC_COLUMNS)}) "
                            f"SELECT {', '.join(_DOC_COLUMNS)} FROM temp.staged ORDER BY id")
            self.db.execute(f"INSERT INTO terms(rowid, {', '.join(FIELDS)}) "
                            f"SELECT id, {', '.join(FIELDS)} FROM temp.staged ORDER BY id")
            self.db.execute("DROP TABLE temp.staged")
        return Synced(analysed, restated, 0, False)

    def _insert(self, e: Entry, digest: bytes, row: Row, rowid: int | None = None, staged: bool = False) -> None:
        """Index one card (`rowid` None: the next id); `staged`: into the staging table of a bulk load."""
        self._recorded.append(e)
        info = row.info
        lengths = [f.count(" ") + 1 if f else 0 for f in row.fields]
        sums = self._load_sums()
        sums[0] += 1
        for k, n in enumerate(lengths, 1):
            sums[k] += n
        values = (*e, digest, bool(info.get("usable")), info.get("type"), info.get("status"),
                  info.get("expires"), marshal.dumps(info), *lengths, e[0].rpartition("/")[0], rowid)
        if staged:
            self.db.execute(f"INSERT INTO temp.staged VALUES ({', '.join('?' * (len(_DOC_COLUMNS) + len(FIELDS)))})",
                            (*values, *row.fields))
        else:
            cur = self.db.execute(f"INSERT INTO docs({', '.join(_DOC_COLUMNS)}) VALUES ({', '.join('?' * len(_DOC_COLUMNS))})",
                                  values)
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

def _folder_rows(folders: Mapping[str, Stamp], listings: Mapping[str, dict[str, int]]
                 ) -> Iterator[tuple[str, int, int, int, bytes | None]]:
    for k, v in folders.items():
        names = listings.get(k)
        yield (k, *v, None if names is None else marshal.dumps(names))


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
