"""What ranking and `search_fresh` read from the search index: counts, candidates, rows, word forms, notes,
folder stamps and listings, the sweep's slices.

`store.search_index.SearchIndex` keeps the index current and inherits these; they only
read (save `note`, which keeps a small value with the index), so they sit apart from the
writer. `FIELDS` are the card fields the index holds, in the order of every row.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

FIELDS = ("title", "description", "key", "tags", "body")
# One card file as listed: (vault-relative path, mtime_ns, ctime_ns, size, inode, in the archive).
# A plain tuple, the shape of the docs row it is compared with: a vault of 100k cards lists 100k.
Entry = tuple[str, int, int, int, int, bool]
Stamp = tuple[int, int, int]  # a folder's (mtime_ns, ctime_ns, inode): it changes when a name in it does


class SearchReads:
    """The read side of a search index over the connection `db`."""

    db: sqlite3.Connection
    _sums: list[int] | None
    _meta_cache: dict[str, Any] | None

    def _meta(self) -> dict[str, Any]:
        if self._meta_cache is None:
            self._meta_cache = dict(self.db.execute("SELECT k, v FROM meta").fetchall())
        return self._meta_cache

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
        return {t: doc for t, (doc, _) in self.occurrences(terms).items()}

    def occurrences(self, terms: Iterable[str]) -> dict[str, tuple[int, int]]:
        """Per term, in how many cards it occurs and how often in all (any field, archived ones too); absent
        terms are left out. The one read of FTS5's vocab table."""
        wanted = sorted(set(terms))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = self.db.execute(f"SELECT term, doc, cnt FROM vocab WHERE term IN ({marks})", wanted).fetchall()
        return {t: (d, c) for t, d, c in rows}

    def count(self, match: str) -> int:
        return int(self.db.execute("SELECT count(*) FROM terms WHERE terms MATCH ?", (match,)).fetchone()[0])

    def candidates(self, match: str, weights: Sequence[float], where: str, params: Sequence[Any], limit: int
                   ) -> list[int]:
        """Ids of the cards matching the FTS5 expression `match` and `where`, best first by FTS5's BM25.

        BM25 is taken in a subquery over the FTS table alone, and the filter joined to its
        rows after: with the join inside, SQLite evaluates the ranking function per joined
        row, ten times slower (18 ms against 2 ms for a common word at 10k cards).
        """
        sql = (f"SELECT m.id FROM (SELECT rowid AS id, bm25(terms, {', '.join(str(float(w)) for w in weights)}) AS s "
               f"FROM terms WHERE terms MATCH ?) AS m CROSS JOIN docs ON docs.id = m.id WHERE {where} "
               f"ORDER BY m.s, m.id LIMIT ?")
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

    def noted(self, key: str) -> Any:
        """What the caller stored under `key` with `note` (None when nothing is, or the index was rebuilt since)."""
        return self._meta().get("note:" + key)

    def note(self, key: str, value: bytes | str | int) -> None:
        """Keep `value` with the index under `key` (in a transaction of its own; not kept where nothing can be written)."""
        try:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", ("note:" + key, value))
        except sqlite3.OperationalError:  # read-only: asked again next time
            return
        finally:
            self._meta_cache = None

    def known_words(self, found: Iterable[str]) -> set[str]:
        """Those of `found` that some card writes as a word."""
        wanted = sorted(set(found))
        if not wanted:
            return set()
        marks = ", ".join("?" * len(wanted))
        return {w for (w,) in self.db.execute(f"SELECT word FROM words WHERE word IN ({marks})", wanted)}

    def word_forms(self, shortest: int, longest: int) -> list[tuple[str, str]]:
        """(word, term) of every word form seen of a length in [shortest, longest]."""
        return self.db.execute("SELECT word, term FROM words WHERE n BETWEEN ? AND ?", (shortest, longest)).fetchall()

    def folder_stamps(self) -> dict[str, Stamp]:
        """The stamp of every folder the last listing walked ('' the vault's root)."""
        return {k: (m, c, i) for k, m, c, i in self.db.execute("SELECT path, mtime, ctime, ino FROM folders")}

    def linked(self) -> bool:
        """Whether the vault held a symlink when last listed (then it is listed whole every time)."""
        return bool(self._meta().get("linked"))

    def trusted_before(self) -> int:
        """A stat older than this (ns) was seen by a finished sync far enough from any change to be trusted."""
        return int(self._meta().get("trusted_before", 0))

    def listing(self, folder: str) -> dict[str, int] | None:
        """Every name in `folder` with its inode and kind (`search_fresh.kept`), as last listed (None: not kept)."""
        found = self.db.execute("SELECT names FROM folders WHERE path = ?", (folder,)).fetchone()
        names = marshal.loads(found[0]) if found is not None and found[0] is not None else None
        return names if isinstance(names, dict) else None

    def cards_in(self, folder: str) -> dict[str, int]:
        """path -> inode of the indexed cards directly in `folder`."""
        return dict(self.db.execute("SELECT path, ino FROM docs WHERE dir = ?", (folder,)).fetchall())

    def slice(self, n: int) -> tuple[list[Entry], int]:
        """The next `n` indexed cards after the sweep's cursor (wrapping around), and the cursor after them."""
        start = int(self._meta().get("cursor", 0))
        sql = "SELECT id, path, mtime, ctime, size, ino, archived FROM docs WHERE id > ? ORDER BY id LIMIT ?"
        rows = self.db.execute(sql, (start, n)).fetchall()
        if len(rows) < n and start:
            rows += self.db.execute(sql.replace("id > ?", "id > ? AND id <= " + str(start)), (0, n - len(rows)))
        if not rows:
            return [], start if n == 0 else 0
        return [(p, m, c, s, i, bool(a)) for _, p, m, c, s, i, a in rows], rows[-1][0]

    def hashes(self, paths: Iterable[str]) -> dict[str, bytes]:
        """path -> content hash of those cards the index holds."""
        wanted = sorted(set(paths))
        if not wanted:
            return {}
        return dict(self.db.execute(f"SELECT path, hash FROM docs WHERE path IN ({', '.join('?' * len(wanted))})",
                                    wanted).fetchall())
