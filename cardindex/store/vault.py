"""The vault: where it is, which files are cards, loading them (with the cache), the lock."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path

from cardindex.errors import NotFound, Refused, UsageError
from cardindex.store.card import Card, Problem
from cardindex.store.config import DEFAULT_INDEX, Config, load_config
from cardindex.store.lock import VaultLock
from cardindex.store.parse_cache import ParseCache
from cardindex.store.stats import Stat, stat_path
from cardindex.store.vault_find import (  # re-exported: callers import them from here
    REPO_VAULTS,
    discover,
    escaped,
    find_root,
    valid_name,
    vault_of_file,
    vaults_of_files,
)

__all__ = ["EDITOR_TEMP_NAMES", "NOT_CARDS", "REPO_VAULTS", "STATE_DIR", "Listed", "Vault", "discover", "escaped", "find_root",
           "today", "valid_name", "vault_of_file", "vaults_of_files"]

STATE_DIR = ".cardindex"
NOT_CARDS = {"INDEX.md", "README.md", "MEMORY.md"}
EDITOR_TEMP_NAMES = {"4913"}


class Listed:
    """A listed card file: its path, as the vault folder and the vault-relative path the listing already holds.

    What a listing keeps of each file instead of its `os.DirEntry`, which holds its name and
    path as strings of their own (about 260 bytes a card, 26 MB at 100k cards). `path` and
    `stat()` (following links) answer as the entry's would.
    """

    __slots__ = ("_base", "_rel")

    def __init__(self, base: str, rel: str) -> None:
        self._base = base
        self._rel = rel

    @property
    def path(self) -> str:
        return self._base + self._rel

    def stat(self) -> os.stat_result:
        return os.stat(self._base + self._rel)


def today() -> dt.date:
    """The date cards are judged against; `CARDS_TODAY=YYYY-MM-DD` pins it for scripts and tests."""
    pinned = os.environ.get("CARDS_TODAY")
    if pinned:
        try:
            return dt.date.fromisoformat(pinned)
        except ValueError:
            raise UsageError(f"CARDS_TODAY must be an ISO date, got {pinned!r}") from None
    return dt.date.today()


class Vault:
    """A folder of cards and its settings. Cards load on first use."""

    def __init__(self, root: Path, *, use_cache: bool = True, parse_cache: ParseCache | None = None) -> None:
        self.root = root
        self._root_str = str(root)
        self.real_root = root.resolve()
        self.config: Config = load_config(root)
        self.state_dir = root / STATE_DIR
        self.use_cache = use_cache
        self._cards: list[Card] | None = None
        self._lock: VaultLock | None = None
        # One listing and one parse cache per run, shared by fingerprint() and cards
        # (each file is stat'ed once, `_stat`, so nothing is listed or stat'ed twice).
        self._listing: list[tuple[str, Listed]] | None = None
        self._stats: dict[str, Stat] = {}  # each listed file's stat, taken once (`_stat`)
        self._cache: ParseCache | None = None
        # content_keys() of the listing above (the listing it was taken from, the keys): an add asks twice
        self._keys: tuple[list[tuple[str, Listed]], list[tuple[str, bytes]]] | None = None
        if parse_cache is not None and use_cache:  # a long-running caller's, kept from its last run
            parse_cache.next_run()
            self._cache = parse_cache
        from cardindex.store import built

        built.use(self.state_dir / "cache" if use_cache else None)  # tables built from the package (synonyms)

    # -------------------------------------------------------------- names and places

    @property
    def index_name(self) -> str:
        if self.config.index_file:
            return self.config.index_file
        if not (self.root / DEFAULT_INDEX).exists() and (self.root / "MEMORY.md").exists():
            return "MEMORY.md"
        return DEFAULT_INDEX

    @property
    def index_path(self) -> Path:
        return self.root / self.index_name

    @property
    def archive_dir(self) -> str:
        return self.config.archive_dir.strip("/")

    @property
    def log_dir(self) -> str:
        """The raw tier's folder (SPEC §10), vault-relative: its files are never cards."""
        return self.config.log_dir.strip("/")

    def log_folder(self) -> Path:
        """The raw tier's folder as a path, refused when it (or a folder above it) is a symlink out of the vault.

        Logs are written there by `cards log`; a link to `/etc` must not make that a write to `/etc`.
        """
        path = self.root / self.log_dir
        here = path
        while here != self.root and not here.exists() and not here.is_symlink():
            here = here.parent  # the part that exists decides where the folder will be made
        real = os.path.realpath(here)
        root = str(self.real_root)
        if real != root and not real.startswith(root + os.sep):
            raise Refused(f"{self.log_dir}/ leads out of the vault (to {real}); the raw log is kept only inside it")
        return path

    def path_of(self, rel: str) -> Path:
        return self.root / rel

    def rel(self, path: Path) -> str:
        return path.resolve().relative_to(self.real_root).as_posix()

    def repo_root(self, explicit: Path | None = None) -> Path | None:
        """The repo the vault sits in, as the derivable rules see it: `explicit` (`--repo`),
        else `repo:` in the settings, else the git top-level above the vault; None outside a
        repo or with `repo: false`."""
        if explicit is None and self.config.repo:
            explicit = self.root / self.config.repo
        if explicit is not None:
            return explicit.resolve()
        if self.config.repo == "":
            return None
        for folder in [self.real_root, *self.real_root.parents]:
            if (folder / ".git").exists():
                return folder
        return None

    def lock(self) -> VaultLock:
        if self._lock is None:
            self._lock = VaultLock(self.state_dir)
        return self._lock

    # -------------------------------------------------------------- discovery

    def card_paths(self, *, archived: bool = False) -> list[str]:
        """Vault-relative paths of every card file, sorted; archived ones when asked."""
        return [rel if valid_name(rel) else escaped(rel) for rel, _ in self._card_entries(archived=archived)]

    def _card_entries(self, *, archived: bool = False) -> list[tuple[str, Listed]]:
        start = self.root / self.archive_dir if archived else self.root
        prefix = self.archive_dir + "/" if archived else ""
        if not start.is_dir():
            return []
        skip = frozenset() if archived else frozenset({self.archive_dir, self.log_dir})
        out = _one_per_file(self._walk(start, prefix, skip), str(self.real_root))
        out.sort(key=lambda pair: pair[0])
        return out

    def _walk(self, start: Path, prefix: str, skip: frozenset[str]) -> Iterator[tuple[str, Listed, bool]]:
        """(vault-relative path, its `Listed`, reached through a symlink) for every card file under `start`."""
        not_cards = NOT_CARDS | {self.index_name, self.config.state_file}
        base = self._root_str + os.sep  # every listed path is this and the vault-relative path
        seen: set[str] = {os.path.realpath(start)}
        stack = [(str(start), prefix, False)]
        root = str(self.real_root)
        while stack:
            folder, rel, linked = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                name = entry.name
                if name.startswith(".") or name in EDITOR_TEMP_NAMES:
                    continue
                try:
                    is_dir = entry.is_dir()
                    is_file = not is_dir and entry.is_file()
                    is_link = entry.is_symlink()
                except OSError:
                    continue  # a symlink loop, or gone
                if is_link:
                    real = os.path.realpath(entry.path)
                    if real != root and not real.startswith(root + os.sep):
                        continue  # a symlink that leaves the vault is not followed
                    if is_dir:
                        if real in seen:
                            continue
                        seen.add(real)
                if is_dir:
                    child = rel + name
                    if child not in skip:
                        stack.append((entry.path, child + "/", linked or is_link))
                elif is_file and name.endswith(".md") and name not in not_cards:
                    path = rel + name
                    listed = Listed(base, path) if entry.path == base + path else Listed(entry.path, "")
                    yield path, listed, linked or is_link

    # -------------------------------------------------------------- loading

    @property
    def cards(self) -> list[Card]:
        """Every card outside the archive, sorted by path, usable or not."""
        if self._cards is None:
            self._cards = self._load(self._live_listing(), "cards", self._cards_cache())
        return self._cards

    @property
    def cards_loaded(self) -> bool:
        """Whether `cards` is loaded already (asking it costs nothing)."""
        return self._cards is not None

    def paths(self) -> list[str]:
        """The paths of the cards outside the archive: the loaded cards', else the listing's (no card read)."""
        if self._cards is not None:
            return [c.path for c in self._cards]
        return [rel if valid_name(rel) else escaped(rel) for rel, _ in self._live_listing()]

    def fingerprint(self) -> bytes | None:
        """A digest of every card's path and content, from stat alone, or None if any file must be read.

        Lets a derived result (the rendered index) be reused without loading a card when
        nothing in the vault changed since the parse cache last saw it.
        """
        if not self.use_cache:
            return None
        if self._cards is not None:
            return None  # loaded already: nothing left to save
        cache = self._cards_cache()
        digest = hashlib.blake2b(digest_size=16)
        for rel, entry in self._live_listing():
            if not valid_name(rel):
                digest.update(os.fsencode(rel) + b"\0misnamed\0")  # never read: its name is its finding
                continue
            try:
                key = cache.trusted_key(rel, self._stat(rel, entry))
            except OSError:
                return None
            if key is None:
                return None
            digest.update(rel.encode("utf-8", "surrogateescape") + b"\0" + key)
        return digest.digest()

    def content_keys(self, *, read_at_most: int) -> list[tuple[str, bytes]] | None:
        """(path, content hash) of every card file outside the archive.

        The hash is the parse cache's (`parse_cache.digest` of the bytes): taken from the cache
        when the stat proves the file unchanged, else by reading the file, at most
        `read_at_most` of them (None past that, or when the cache is off). A misnamed file
        counts by its name. The listing is the one the loader uses (listed once); a write by
        this process that goes through `changed` drops it when no card is loaded yet.
        """
        if not self.use_cache:
            return None
        from cardindex.store.parse_cache import digest

        listing = self._live_listing()
        if self._keys is not None and self._keys[0] is listing:
            return self._keys[1]
        cache = self._cards_cache()
        out: list[tuple[str, bytes]] = []
        reads = 0
        for rel, entry in listing:
            if not valid_name(rel):
                out.append((escaped(rel), b"misnamed"))
                continue
            try:
                key = cache.trusted_key(rel, self._stat(rel, entry))
                if key is None:
                    reads += 1
                    if reads > read_at_most:
                        return None
                    key = digest(Path(entry.path).read_bytes())
            except OSError:
                return None
            out.append((rel, key))
        self._keys = (listing, out)
        return out

    def mtimes(self) -> dict[str, int]:
        """When each card outside the archive was last modified (ns), from the listing's stat."""
        out = {}
        for rel, entry in self._live_listing():
            try:
                out[rel if valid_name(rel) else escaped(rel)] = self._stat(rel, entry).st_mtime_ns
            except OSError:
                continue
        return out

    def listing(self, *, archived: bool = False) -> list[tuple[str, Listed]]:
        """(vault-relative path, directory entry) of every card file outside the archive, or in it; sorted.

        The entries keep their stat, so a caller that checks what changed stats each file once.
        Names that are not valid UTF-8 are left out (they are never read; `cards lint` names them).
        """
        found = self._card_entries(archived=True) if archived else self._live_listing()
        return [pair for pair in found if valid_name(pair[0])]

    def archived(self) -> list[Card]:
        """Every card in the archive folder."""
        return self._load(self._card_entries(archived=True), "archive")

    def _live_listing(self) -> list[tuple[str, Listed]]:
        if self._listing is None:
            self._listing = self._card_entries()
            self._stats = {}
        return self._listing

    def _stat(self, rel: str, entry: Listed, *, live: bool = True) -> Stat:
        """The stat of a listed file, taken once per live listing, like `DirEntry.stat()` but without
        keeping the whole `os.stat_result` (`store/stats.py`); `live=False`: another listing's, taken afresh.
        Raises OSError (gone since it was listed)."""
        if not live:
            return stat_path(entry.path)
        found = self._stats.get(rel)
        if found is None:
            found = self._stats[rel] = stat_path(entry.path)
        return found

    @property
    def parse_cache(self) -> ParseCache | None:
        """The parse cache this vault loaded its cards through (None before), for a long-running caller to keep."""
        return self._cache if self.use_cache else None

    def _cards_cache(self) -> ParseCache:
        if self._cache is None:
            self._cache = ParseCache(self.state_dir, "cards", enabled=self.use_cache)
        return self._cache

    def _load(
        self, entries: list[tuple[str, Listed]], area: str, cache: ParseCache | None = None, *,
        save: bool = True,
    ) -> list[Card]:
        from cardindex.store.loading import load

        cache = cache or ParseCache(self.state_dir, area, enabled=self.use_cache)
        files: list[tuple[str, Stat]] = []
        slots: list[Card | int] = []  # in listing order: a misnamed file's card, or its place in `files`
        for rel, entry in entries:
            if not valid_name(rel):
                slots.append(_misnamed(rel))
                continue
            try:
                files.append((rel, self._stat(rel, entry, live=area == "cards")))
            except OSError:
                continue  # removed since the folder was listed
            slots.append(len(files) - 1)
        loaded = load(self._root_str, files, cache, save=save)
        if len(slots) == len(files):
            return [card for card in loaded if card is not None]
        picked = [loaded[slot] if isinstance(slot, int) else slot for slot in slots]
        return [card for card in picked if card is not None]

    def each_card(self, wanted: Collection[str] | None = None, *, archive: bool = True) -> Iterator[Card]:
        """Every card outside the archive, then (`archive`) in it, whose path is in `wanted` (None: all), one at
        a time and none kept: for a caller that reads each card once (`loading.each`; the parse cache's order).

        Loads and saves through the parse caches as `cards` and `archived()` do; the loaded cards
        when `cards` is loaded already.
        """
        areas: list[tuple[str, list[tuple[str, Listed]]]] = [("archive", self._card_entries(archived=True))] if archive else []
        if self._cards is not None:
            yield from (c for c in self._cards if wanted is None or c.path in wanted)
        else:
            areas.insert(0, ("cards", self._live_listing()))
        from cardindex.store.loading import each

        for area, entries in areas:
            live = area == "cards"
            files: list[tuple[str, Stat]] = []
            for rel, entry in entries:
                if not valid_name(rel):
                    card = _misnamed(rel)
                    if wanted is None or card.path in wanted:
                        yield card
                    continue
                try:
                    files.append((rel, self._stat(rel, entry, live=live)))
                except OSError:
                    continue  # removed since the folder was listed
            cache = self._cards_cache() if live else ParseCache(self.state_dir, area, enabled=self.use_cache)
            yield from each(self._root_str, files, cache, wanted)

    def cards_at(self, rels: Collection[str]) -> list[Card]:
        """The cards outside the archive at `rels` (vault-relative paths), in path order, loaded as `cards` loads
        them (through the parse cache) without loading the rest; from the loaded cards when they are."""
        if self._cards is not None:
            return [c for c in self._cards if c.path in rels]
        wanted = set(rels)
        return self._load([pair for pair in self._live_listing() if pair[0] in wanted or escaped(pair[0]) in wanted],
                          "cards", self._cards_cache(), save=False)  # a save would drop the cards not loaded

    def read_card(self, rel: str) -> Card:
        """Load one card by vault-relative path, without the cache."""
        try:
            st = os.stat(os.path.join(self._root_str, rel))
        except OSError:
            raise NotFound(f"no card at {rel}") from None
        from cardindex.store.loading import read

        card = read(self._root_str, rel, st, None)
        if card is None:
            raise NotFound(f"no card at {rel}")
        return card

    def invalidate(self) -> None:
        self._cards = None
        self._listing = None
        self._stats = {}
        self._cache = None

    def changed(self, *, added: Sequence[Card] = (), removed: Sequence[str] = ()) -> None:
        """Update the loaded cards after this process wrote some, without reading the vault again."""
        self._listing = None  # listed before the write: list again when asked (`content_keys`, loading)
        self._stats = {}
        if self._cards is None:
            return
        gone = set(removed) | {c.path for c in added}
        kept = [c for c in self._cards if c.path not in gone]
        self._cards = sorted(kept + list(added), key=lambda c: c.path)

    def find(self, ref: str) -> Card:
        """A card by id (`billing/owner`), by path (`billing/owner.md`), or by file path."""
        rel = self._ref_to_rel(ref)
        candidates = [rel]
        if not rel.startswith(self.archive_dir + "/"):
            candidates.append(f"{self.archive_dir}/{rel}")
        for cand in candidates:
            path = self.root / cand
            if path.is_file() and self._inside(path):
                return self.read_card(self._own_path(cand))
        raise NotFound(f"no card {ref!r} in {self.root}")

    def _own_path(self, rel: str) -> str:
        """A symlink's card is its real file's (one card, one path), when that file can be a card."""
        real = self.rel(self.root / rel)
        if real == rel:
            return rel
        parts = real.split("/")
        return real if self.is_card_name(parts[-1]) and not any(p.startswith(".") for p in parts) else rel

    def _ref_to_rel(self, ref: str) -> str:
        if not valid_name(ref):
            raise NotFound(f"{escaped(ref)} is not a card id: the name is not valid UTF-8 (shown escaped)")
        as_path = Path(ref)
        if as_path.is_absolute() or (as_path.exists() and not (self.root / ref).exists()):
            try:
                ref = self.rel(as_path)
            except ValueError:
                raise NotFound(f"{ref} is not inside the vault {self.root}") from None
        ref = ref.replace(os.sep, "/").lstrip("/")
        rel = ref if ref.endswith(".md") else ref + ".md"
        name = rel.rsplit("/", 1)[-1]
        if ".." in rel.split("/") or any(part.startswith(".") for part in rel.split("/")) or not self.is_card_name(name):
            raise NotFound(f"{ref!r} is not a card id")
        return rel

    def is_card_name(self, name: str) -> bool:
        """Whether a file of this name can be a card (SPEC §1)."""
        return (name.endswith(".md") and name not in NOT_CARDS and name not in (self.index_name, self.config.state_file)
                and not name.startswith("."))

    def _inside(self, path: Path) -> bool:
        real = os.path.realpath(path)
        return real.startswith(str(self.real_root) + os.sep)


def _unreadable(rel: str, problem: Problem) -> Card:
    return Card(rel, "", {}, 0, (problem,))


def _misnamed(rel: str) -> Card:
    """A file whose name is not UTF-8: one unreadable card (F001), never read, never written."""
    return _unreadable(escaped(rel), Problem(
        None, f"file name is not valid UTF-8: {escaped(rel)} (shown escaped); rename it", kind="unreadable"))


def _one_per_file(
    found: Iterator[tuple[str, Listed, bool]], real_root: str
) -> list[tuple[str, Listed]]:
    """One path per real file: a symlink to a card in the vault is that card, not a second one.

    A file reached without a symlink is listed under its own path. Files reached
    through a symlink (the link itself, or a linked folder) are listed only when their
    real file is not listed already, under the first such path in sorted order.
    """
    direct: list[tuple[str, Listed]] = []
    linked: dict[str, tuple[str, Listed]] = {}
    for rel, entry, through_link in found:
        if not through_link:
            direct.append((rel, entry))
            continue
        real = os.path.relpath(os.path.realpath(entry.path), real_root).replace(os.sep, "/")
        if real not in linked or rel < linked[real][0]:
            linked[real] = (rel, entry)
    if linked:
        own = {rel for rel, _ in direct}
        direct += [pair for real, pair in linked.items() if real not in own]
    return direct
