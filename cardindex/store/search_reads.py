"""What ranking reads from the search index: counts, candidates, rows, word forms, notes.

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
        wanted = sorted(set(terms))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        return dict(self.db.execute(f"SELECT term, doc FROM vocab WHERE term IN ({marks})", wanted).fetchall())

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
