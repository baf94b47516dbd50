"""The parse cache: what a card's bytes parsed to, keyed on a hash of those bytes.

Parsed results are keyed on content (git churns mtimes; a checkout that changes
nothing must not cost a re-parse), and the file name carries the tool version, so an
upgrade never reads another version's results. To skip even reading a file, the cache
also remembers each path's stat (mtime, ctime, size, inode) and content hash, the way git's
index does: a file whose stat is unchanged, and was last modified well before it was
looked at ("racily clean" otherwise), is taken from the cache unread.

It is written with `marshal` (fast, and unlike pickle it cannot run code). Dates travel
as ISO text with the list of keys that held them, so decoding a flat card does not
walk its fields. Short text values (a type, a status, a scope, a tag) are written
interned, so marshal hands every card the same string object for them: at 100k cards
that is tens of MB not held twice. A one-shot load reads the entries one shard at a
time and drops each once it is decoded (the card holds what it said); a shard it must
rewrite reads those back from its file.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
import os
import sys
import time
import zlib
from pathlib import Path
from typing import Any, BinaryIO

from cardindex import __version__
from cardindex.store.atomic import write_atomic
from cardindex.store.card import Card, Parsed, Problem
from cardindex.store.stats import StatLike

FORMAT = 8  # 7: SHARDS files in a folder, not one file; 8: stats read apart from entries, short values interned
HEAD = 8  # bytes of a shard file that give the length of its stats part
SHARE_MAX = 40  # text values up to this long are interned: the repeated ones (type, scope, tags) are shared
SHARDS = 64
RACY_NS = 2_000_000_000  # a file modified this close to a look may change again unseen
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# cardindex parse cache; safe to delete.\n"
STATE_IGNORE = "# cardindex local state: never committed\n*\n"


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


# An entry is the marshal bytes of (text or None, meta, date keys or None, body offset,
# problems): decoded only for the cards a run looks at, into fresh objects each time.


# One date object per day written (dates are immutable): cards share them as they share interned text.
_DAYS: dict[str, dt.date] = {}
_DAYS_MAX = 100_000


class _Shard:
    """One shard file's part of the cache: the stats and entries of the paths that hash to it.

    The file is the stats (with the run's start time), then the entries, as two marshal
    values after the first one's length: the stats are read when the shard is opened, the
    entries only when a card must be decoded (a run that trusts every stat and has its result
    remembered, a warm `cards index` or `cards lint`, decodes none). `unread`: the file's
    entries are not read yet; the first look at `entries` reads them, keeping what this run
    put there. `taken`: some were dropped once decoded (`drop`); the file still holds them,
    and `complete` reads them back before the shard is rewritten.
    """

    __slots__ = ("_entries", "dirty", "files", "path", "seen", "taken", "trusted_before", "unread")

    def __init__(self, path: Path, enabled: bool) -> None:
        self.path = path
        self.trusted_before = 0
        self.files: dict[str, tuple[int, int, int, int, bytes]] = {}
        self._entries: dict[bytes, bytes] = {}
        self.seen: dict[str, tuple[int, int, int, int, bytes]] = {}
        self.dirty = False
        self.unread = False
        self.taken = False
        if enabled:
            try:
                with open(path, "rb") as fh:
                    started, files = marshal.loads(fh.read(_head_size(fh)))
                if isinstance(files, dict) and isinstance(started, int):
                    self.trusted_before = started - RACY_NS
                    self.files, self.unread = files, bool(files)
            except (OSError, EOFError, ValueError, TypeError):
                pass

    @property
    def entries(self) -> dict[bytes, bytes]:
        if self.unread:
            self.unread = False
            stored = _stored_entries(self.path)
            stored.update(self._entries)  # what this run put or took over wins
            self._entries = stored
        return self._entries

    @entries.setter
    def entries(self, value: dict[bytes, bytes]) -> None:
        self._entries, self.unread, self.taken = value, False, False

    def drop(self, key: bytes) -> None:
        """Let go of the entry for `key` (decoded; the shard file still holds it)."""
        self._entries.pop(key, None)
        self.taken = True

    def complete(self) -> dict[bytes, bytes]:
        """`entries`, with those dropped once decoded read back from the file."""
        entries = self.entries
        if self.taken:
            self.taken = False
            stored = _stored_entries(self.path)
            stored.update(entries)
            self._entries = entries = stored
        return entries

    def saved(self) -> None:
        """The file now holds every entry: let go of them all (read again if asked)."""
        self._entries, self.unread, self.taken = {}, bool(self.files), False


def _stored_entries(path: Path) -> dict[bytes, bytes]:
    """The entries a shard file holds now ({} when it cannot be read). Entries are keyed on content, so whatever
    the file holds for a key is right for it, even when another process rewrote the file since it was opened."""
    try:
        with open(path, "rb") as fh:
            fh.seek(HEAD + _head_size(fh))
            entries = marshal.loads(fh.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return entries if isinstance(entries, dict) else {}


def _head_size(fh: BinaryIO) -> int:
    """The length of a shard file's stats part, from its first HEAD bytes; ValueError when it cannot be."""
    size = int.from_bytes(fh.read(HEAD), "little")
    if size > os.fstat(fh.fileno()).st_size - HEAD:
        raise ValueError("not a shard file")
    return size


def shard_bytes(started: int, files: dict[str, Any], entries: dict[bytes, bytes]) -> bytes:
    """A shard file's bytes: the length of the stats part, the stats part, the entries."""
    head = marshal.dumps((started, files))
    return len(head).to_bytes(HEAD, "little") + head + marshal.dumps(entries)


def read_shard(path: Path) -> tuple[int, dict[str, Any], dict[bytes, bytes]]:
    """What a shard file holds: (start time of the run that wrote it, stats, entries); raises when it cannot be read."""
    data = path.read_bytes()
    size = int.from_bytes(data[:HEAD], "little")
    started, files = marshal.loads(data[HEAD:HEAD + size])
    return started, files, marshal.loads(data[HEAD + size:])


class ParseCache:
    """Load once, look up per card, save once if anything changed.

    The cache is SHARDS files, by a hash of the card's path: a run that changed a few
    cards (`cards add`, an edit) rewrites only their shards, not the whole cache. A
    long-running process (`cards watch`) keeps one ParseCache across runs: `next_run`
    starts the next one from what the last one saw, without reading the files again.
    """

    def __init__(self, state_dir: Path, area: str = "cards", *, enabled: bool = True) -> None:
        self.folder = state_dir / "cache"
        self.path = self.folder / f"{area}-{__version__}-{FORMAT}"  # a folder of shard files
        self.enabled = enabled
        self.started = time.time_ns()
        self._shards: list[_Shard | None] = [None] * SHARDS
        self._kept: dict[str, tuple[_Shard, tuple[int, int, int, int, bytes], Card]] | None = None
        # Which opened shard holds each content hash: a card moved to another path (so another
        # shard) is found in one look, not by asking all SHARDS of them for every card of a cold run.
        self._where: dict[bytes, _Shard] = {}

    def keep_cards(self) -> None:
        """Hand out the same Card object for a path while its content is unchanged (a long-running
        caller's choice: `cards watch`). Cards are immutable by contract; this skips decoding them again."""
        if self._kept is None:
            self._kept = {}
        from cardindex.store.scanned import remember_text_keys

        remember_text_keys()

    @property
    def keeps_cards(self) -> bool:
        """Whether a long-running caller keeps this cache, and its cards, between runs (`keep_cards`)."""
        return self._kept is not None

    def next_run(self) -> None:
        """Start another run on what this object holds (saved or not): stats are trusted as a fresh load would."""
        self.started = time.time_ns()

    def _shard(self, rel: str) -> _Shard:
        number = self.shard_number(rel)
        shard = self._shards[number]
        if shard is None:
            shard = self._shards[number] = _Shard(self.path / f"{number:02d}.marshal", self.enabled)
            where = self._where
            for record in shard.files.values():  # an entry is kept for each record's content hash
                if type(record) is tuple and record:
                    where.setdefault(record[-1], shard)
        return shard

    def trusted_key(self, rel: str, st: StatLike) -> bytes | None:
        """The content hash of `rel` when its stat proves it unchanged since cached, else None.

        The ctime counts too: tools can restore an mtime (touch -r, cp -p), not a ctime.
        """
        shard = self._shard(rel)
        record = shard.files.get(rel)
        if record is None:
            return None
        try:
            mtime, ctime, size, ino, key = record
        except (TypeError, ValueError):
            return None
        if (mtime, ctime, size, ino) != (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino):
            return None
        return key if max(mtime, ctime) < shard.trusted_before else None

    def by_stat(self, rel: str, st: StatLike, *, drop: bool = False) -> Card | None:
        """The cached card at `rel` when its stat shows it unchanged since it was cached.

        `drop`: a run that loads every card once (and saves) drops the entry once decoded, and so
        does a cache that keeps cards (the kept card holds it); a shard rewritten later reads it
        back from its file (`_Shard.complete`).
        """
        if self._kept is not None:
            kept = self._kept.get(rel)
            if kept is not None:  # the same record as when this card was handed out, still trusted
                shard, record, card = kept
                if (shard.files.get(rel) is record and record[:4] == (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
                        and max(record[0], record[1]) < shard.trusted_before):
                    shard.seen[rel] = record
                    return card
        key = self.trusted_key(rel, st)
        if key is None:
            return None
        shard = self._shard(rel)
        found = self._get(rel, shard.entries.get(key))
        if found is not None:
            record = shard.seen[rel] = shard.files[rel]
            if self._kept is not None:
                self._kept[rel] = (shard, record, found)
            if drop or self._kept is not None:  # decoded: the card holds it now (kept, when kept), the file still does
                shard.drop(key)
        return found

    def seen_unread(self, rel: str, st: StatLike) -> bool:
        """Count `rel` as seen by this run, undecoded, when its stat shows it unchanged since cached (else False).

        For a run that saves the cache without needing this card (`loading.each`): its record
        and entry are kept as a `by_stat` that decoded it would keep them.
        """
        if self.trusted_key(rel, st) is None:
            return False
        shard = self._shard(rel)
        shard.seen[rel] = shard.files[rel]
        return True

    def handed_out(self, rel: str, card: Card) -> None:
        """`card` was made for `rel` as just seen (parsed, or found by content): keep it, when keeping cards."""
        if self._kept is not None:
            shard = self._shard(rel)
            record = shard.seen.get(rel)
            if record is not None:
                self._kept[rel] = (shard, record, card)

    def knows(self, rel: str, key: bytes) -> bool:
        """Whether an entry for these bytes (hash `key`) is cached, under `rel` or a path it moved from."""
        return key in self._shard(rel).entries or self._elsewhere(key) is not None

    def _elsewhere(self, key: bytes) -> bytes | None:
        """The entry for content hash `key` in whichever opened shard holds it."""
        shard = self._where.get(key)
        return shard.entries.get(key) if shard is not None else None

    def by_content(self, rel: str, st: StatLike, key: bytes) -> Card | None:
        own = self._shard(rel)
        entry = own.entries.get(key)
        if entry is None:  # moved from another path: its entry is in that path's shard
            entry = self._elsewhere(key)
            if entry is not None:
                own.entries[key] = entry
                self._where[key] = own
        found = self._get(rel, entry)
        if found is not None:
            self._note(own, rel, st, key)
        return found

    def put(self, rel: str, st: StatLike, key: bytes, text: str | None, parsed: Parsed) -> None:
        if not self.enabled:
            return
        meta, dates = _encode_meta(parsed.meta)
        problems = tuple(tuple(p) for p in parsed.problems)
        shard = self._shard(rel)
        try:
            shard.entries[key] = marshal.dumps((text, meta, dates, parsed.body_offset, problems))
        except ValueError:
            return  # a value marshal cannot hold (a set of dates): parse this card each time
        self._where.setdefault(key, shard)
        self._note(shard, rel, st, key)

    def _note(self, shard: _Shard, rel: str, st: StatLike, key: bytes) -> None:
        record = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, key)
        shard.seen[rel] = record
        if shard.files.get(rel) != record:
            shard.dirty = True
        elif max(st.st_mtime_ns, st.st_ctime_ns) < self.started - RACY_NS:
            # Read only because it was racily clean last time; saved now with this run's
            # start time, the next run trusts its stat and skips reading it.
            shard.dirty = True

    @staticmethod
    def _get(rel: str, entry: bytes | None) -> Card | None:
        if entry is None:
            return None
        try:
            text, meta, dates, offset, problems = marshal.loads(entry)
            if not (isinstance(meta, dict) and isinstance(offset, int) and isinstance(text, (str, type(None)))):
                return None
            if dates:
                for k in dates:
                    iso = meta[k]
                    day = _DAYS.get(iso)
                    if day is None:
                        if len(_DAYS) >= _DAYS_MAX:
                            _DAYS.clear()
                        day = _DAYS[iso] = dt.date.fromisoformat(iso)
                    meta[k] = day
            elif dates is None:
                meta = _decode(meta)
            return Card(rel, text or "", meta, offset, tuple(Problem(*p) for p in problems) if problems else ())
        except (TypeError, ValueError, KeyError, EOFError):
            return None

    def entry(self, rel: str, key: bytes) -> bytes | None:
        """The cache entry (marshal bytes) of `rel`'s content hash `key`, as `put` or `by_content` left it."""
        return self._shard(rel).entries.get(key)

    def card_from(self, rel: str, entry: bytes) -> Card | None:
        """The card at `rel` from a cache entry another process of this run made (`entry`); None if it does not decode."""
        card = self._get(rel, entry)
        if card is not None:
            self.handed_out(rel, card)
        return card

    def shard_number(self, rel: str) -> int:
        """Which shard holds `rel`'s stat and entry (a forked load splits the work by it)."""
        return zlib.crc32(rel.encode("utf-8", "surrogateescape")) % SHARDS

    def save(self) -> None:
        """Keep what this run saw (dropping the rest): rewrite each shard that changed, remove those now empty.

        The run looked at every card (`Vault` loads them all), so a shard it never opened
        holds none of them. Afterwards this object is ready for `next_run`.
        """
        if not self.enabled:
            return
        try:
            self._write([s for s in self._shards if s is not None])
            self._drop_unopened()
        except OSError:
            pass  # a cache that cannot be written only costs speed
        for opened in self._shards:
            if opened is not None and opened.seen:
                opened.seen = {}
            if opened is not None:
                # Saved: the entries (every card's parse, marshalled: 60-75 MB at 100k cards) need not live as
                # long as the cards. A kept cache (`cards watch`) hands out the kept card while its file is
                # unchanged, and reads a shard's entries back from its file when it asks one again.
                opened.saved()

    def save_shards(self, numbers: frozenset[int]) -> dict[int, tuple[dict[str, Any], dict[bytes, bytes]]]:
        """`save` of only the shards `numbers` (a forked load's child, whose files are all of theirs it was given).

        Returns what each holds now (its stats, and its entries when cards are kept), for the
        parent's `adopt`; a shard that could not be written is left out, and the parent saves it.
        """
        out: dict[int, tuple[dict[str, Any], dict[bytes, bytes]]] = {}
        if not self.enabled:
            return out
        for number in sorted(numbers):
            shard = self._shards[number]
            if shard is None:
                continue
            try:
                self._write([shard])
            except OSError:
                continue
            out[number] = (shard.files, shard.entries if self._kept is not None else {})
        return out

    def let_go(self, number: int) -> None:
        """Let go of shard `number`'s entries once `save_shards` wrote them (a forked load's child, shard by
        shard: its file holds them). Not when cards are kept: those are handed back."""
        shard = self._shards[number]
        if shard is not None and self._kept is None and not shard.dirty:
            shard.saved()

    def save_now(self, numbers: frozenset[int]) -> None:
        """Write the shards `numbers` now, as `save` would, and let go of their entries (a forked load's parent,
        before it takes the child's cards: not every card's entry twice). Not when cards are kept."""
        if not self.enabled or self._kept is not None:
            return
        for number in sorted(numbers):
            shard = self._shards[number]
            if shard is None:
                continue
            try:
                self._write([shard])
            except OSError:
                continue  # left for `save` to try again
            shard.seen = dict(shard.files)  # what this run saw: `save` finds it unchanged
            shard.saved()

    def adopt(self, saved: dict[int, tuple[dict[str, Any], dict[bytes, bytes]]]) -> None:
        """Take shards another process of this run has written (`save_shards`) as saved: `save` leaves them be."""
        for number, (files, entries) in saved.items():
            shard = self._shards[number]
            if shard is None:
                continue
            shard.files, shard.seen, shard.dirty = files, dict(files), False
            shard.entries = entries
            if self._kept is None:
                shard.saved()  # not handed back: the file the other process wrote holds them
            shard.trusted_before = self.started - RACY_NS
            for key in entries:
                self._where[key] = shard

    def _write(self, opened: list[_Shard]) -> None:
        """Rewrite each of `opened` that changed in this run (its stats become what the run saw)."""
        changed = [s for s in opened if s.dirty or len(s.seen) != len(s.files)]
        if not changed:
            return
        if not self.folder.is_dir():
            self.folder.mkdir(parents=True, exist_ok=True)
            ignore = self.folder.parent / ".gitignore"
            if not ignore.exists():
                write_atomic(ignore, STATE_IGNORE)
            write_atomic(self.folder / "CACHEDIR.TAG", TAG)
        self.path.mkdir(exist_ok=True)
        for shard in changed:
            keys = {record[-1] for record in shard.seen.values()}
            entries = shard.complete()  # with those read back from the file that this run dropped once decoded
            lost = keys.difference(entries)
            if lost:  # the file changed meanwhile: forget those paths (parsed again next run), never keep a bare record
                shard.seen = {rel: record for rel, record in shard.seen.items() if record[-1] not in lost}
            shard.entries = {k: v for k, v in entries.items() if k in keys}
            shard.files, shard.seen, shard.dirty = shard.seen, {}, False
            shard.trusted_before = self.started - RACY_NS
            if shard.files:
                write_atomic(shard.path, shard_bytes(self.started, shard.files, shard.entries), durable=False)
            elif shard.path.exists():
                shard.path.unlink()

    def _drop_unopened(self) -> None:
        """Remove the shard files this run never opened: none of the vault's cards hash to them now."""
        opened = {s.path.name for s in self._shards if s is not None}
        try:
            found = list(os.scandir(self.path))
        except FileNotFoundError:
            return
        for entry in found:
            if entry.name.endswith(".marshal") and entry.name not in opened:
                os.unlink(entry.path)


def _shared(value: Any) -> Any:
    """`value` with its short text (and that of a list's items) interned: marshal writes them so, and every load
    hands out one string object for each, however many cards hold it."""
    if type(value) is str:
        return sys.intern(value) if len(value) <= SHARE_MAX else value
    if type(value) is list:
        return [sys.intern(v) if type(v) is str and len(v) <= SHARE_MAX else v for v in value]
    return value


def _encode_meta(meta: dict[str, Any]) -> tuple[Any, tuple[str, ...] | None]:
    """Meta in marshal's types, plus the top-level keys that held dates.

    Flat cards with plain dates travel as ISO text and a list of keys; anything with
    nested dates or datetimes is tagged and walked on load (marked by None).
    """
    plain: dict[str, Any] = {}
    dates = []
    for key, value in meta.items():
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            plain[key] = sys.intern(value.isoformat())
            dates.append(key)
        elif isinstance(value, dt.datetime) or (isinstance(value, (dict, list, set, frozenset)) and _has_dates(value)):
            return _encode(meta), None
        else:
            plain[key] = _shared(value)
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
