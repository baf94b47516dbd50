"""The parse cache: what a card's bytes parsed to, keyed on a hash of those bytes.

Parsed results are keyed on content (git churns mtimes; a checkout that changes
nothing must not cost a re-parse), and the file name carries the tool version, so an
upgrade never reads another version's results. To skip even reading a file, the cache
also remembers each path's stat (mtime, ctime, size, inode) and content hash, the way git's
index does: a file whose stat is unchanged, and was last modified well before it was
looked at ("racily clean" otherwise), is taken from the cache unread.

It is written with `marshal` (fast, and unlike pickle it cannot run code). Dates travel
as ISO text with the list of keys that held them, so decoding a flat card does not
walk its fields.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
import os
import time
from pathlib import Path
from typing import Any

from cardindex import __version__
from cardindex.store.atomic import write_atomic
from cardindex.store.card import Card, Parsed, Problem

FORMAT = 6
RACY_NS = 2_000_000_000  # a file modified this close to a look may change again unseen
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# cardindex parse cache; safe to delete.\n"
STATE_IGNORE = "# cardindex local state: never committed\n*\n"


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


# An entry is the marshal bytes of (text or None, meta, date keys or None, body offset,
# problems): decoded only for the cards a run looks at, into fresh objects each time.


class ParseCache:
    """Load once, look up per card, save once if anything changed."""

    def __init__(self, state_dir: Path, area: str = "cards", *, enabled: bool = True) -> None:
        self.folder = state_dir / "cache"
        self.path = self.folder / f"{area}-{__version__}-{FORMAT}.marshal"
        self.enabled = enabled
        self.started = time.time_ns()
        self._trusted_before = 0
        self._files: dict[str, tuple[int, int, int, int, bytes]] = {}
        self._entries: dict[bytes, bytes] = {}
        self._seen_files: dict[str, tuple[int, int, int, int, bytes]] = {}
        self._dirty = False
        if enabled:
            try:
                loaded = marshal.loads(self.path.read_bytes())
                started, files, entries = loaded
                if isinstance(files, dict) and isinstance(entries, dict) and isinstance(started, int):
                    self._trusted_before = started - RACY_NS
                    self._files, self._entries = files, entries
            except (OSError, EOFError, ValueError, TypeError):
                pass

    def trusted_key(self, rel: str, st: os.stat_result) -> bytes | None:
        """The content hash of `rel` when its stat proves it unchanged since cached, else None.

        The ctime counts too: tools can restore an mtime (touch -r, cp -p), not a ctime.
        """
        record = self._files.get(rel)
        if record is None:
            return None
        try:
            mtime, ctime, size, ino, key = record
        except (TypeError, ValueError):
            return None
        if (mtime, ctime, size, ino) != (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino):
            return None
        return key if max(mtime, ctime) < self._trusted_before else None

    def by_stat(self, rel: str, st: os.stat_result) -> Card | None:
        """The cached card at `rel` when its stat shows it unchanged since it was cached."""
        key = self.trusted_key(rel, st)
        if key is None:
            return None
        found = self._get(rel, key)
        if found is not None:
            self._seen_files[rel] = self._files[rel]
        return found

    def by_content(self, rel: str, st: os.stat_result, key: bytes) -> Card | None:
        found = self._get(rel, key)
        if found is not None:
            self._note(rel, st, key)
        return found

    def put(self, rel: str, st: os.stat_result, key: bytes, text: str | None, parsed: Parsed) -> None:
        if not self.enabled:
            return
        meta, dates = _encode_meta(parsed.meta)
        problems = tuple(tuple(p) for p in parsed.problems)
        try:
            self._entries[key] = marshal.dumps((text, meta, dates, parsed.body_offset, problems))
        except ValueError:
            return  # a value marshal cannot hold (a set of dates): parse this card each time
        self._note(rel, st, key)

    def _note(self, rel: str, st: os.stat_result, key: bytes) -> None:
        record = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, key)
        self._seen_files[rel] = record
        if self._files.get(rel) != record:
            self._dirty = True
        elif max(st.st_mtime_ns, st.st_ctime_ns) < self.started - RACY_NS:
            # Read only because it was racily clean last time; saved now with this run's
            # start time, the next run trusts its stat and skips reading it.
            self._dirty = True

    def _get(self, rel: str, key: bytes) -> Card | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        try:
            text, meta, dates, offset, problems = marshal.loads(entry)
            if not (isinstance(meta, dict) and isinstance(offset, int) and isinstance(text, (str, type(None)))):
                return None
            if dates:
                for k in dates:
                    meta[k] = dt.date.fromisoformat(meta[k])
            elif dates is None:
                meta = _decode(meta)
            return Card(rel, text or "", meta, offset, tuple(Problem(*p) for p in problems) if problems else ())
        except (TypeError, ValueError, KeyError, EOFError):
            return None

    def save(self) -> None:
        """Keep what this run saw (dropping the rest) when anything changed."""
        if not self.enabled:
            return
        if not self._dirty and len(self._seen_files) == len(self._files):
            return
        keys = {record[-1] for record in self._seen_files.values()}
        entries = {k: v for k, v in self._entries.items() if k in keys}
        try:
            if not self.folder.is_dir():
                self.folder.mkdir(parents=True, exist_ok=True)
                ignore = self.folder.parent / ".gitignore"
                if not ignore.exists():
                    write_atomic(ignore, STATE_IGNORE)
                write_atomic(self.folder / "CACHEDIR.TAG", TAG)
            write_atomic(self.path, marshal.dumps((self.started, self._seen_files, entries)), durable=False)
        except OSError:
            pass  # a cache that cannot be written only costs speed


def _encode_meta(meta: dict[str, Any]) -> tuple[Any, tuple[str, ...] | None]:
    """Meta in marshal's types, plus the top-level keys that held dates.

    Flat cards with plain dates travel as ISO text and a list of keys; anything with
    nested dates or datetimes is tagged and walked on load (marked by None).
    """
    plain: dict[str, Any] = {}
    dates = []
    for key, value in meta.items():
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            plain[key] = value.isoformat()
            dates.append(key)
        elif isinstance(value, dt.datetime) or (isinstance(value, (dict, list, set, frozenset)) and _has_dates(value)):
            return _encode(meta), None
        else:
            plain[key] = value
    return plain, tuple(dates)


def _has_dates(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_dates(k) or _has_dates(v) for k, v in value.items())
    if isinstance(value, (list, set, frozenset)):
        return any(_has_dates(v) for v in value)
    return isinstance(value, dt.date)


def _encode(value: Any) -> Any:
    if isinstance(value, dict):
        return {_encode(k): _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dt.datetime):
        return ("t", value.isoformat())
    if isinstance(value, dt.date):
        return ("d", value.isoformat())
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        return {_decode(k): _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, tuple):
        kind, text = value
        return dt.datetime.fromisoformat(text) if kind == "t" else dt.date.fromisoformat(text)
    return value
