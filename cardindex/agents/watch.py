"""The engine of `cards watch`: which file events matter, a debounced wake-up, one pass.

A pass rebuilds from disk with the vault's own loader and index writer, under the vault
lock: editors' save dances (rename over, delete and create, vim's `4913` probe), folder
moves and other `cards` processes all end in the index `cards index` would write. One
difference: a card that stops parsing keeps its last good entry until it parses again, so
a half-typed edit does not drop a fact from the index an agent reads.

The event list only narrows what a pass reads: when every event since the last pass names
a card file the last pass listed, and each is still a regular file, the pass reads those
files and keeps the other cards as the last pass left them (the listing cannot have changed
without an event naming a new or gone path, or a folder). Anything else (a folder's event,
the config, a path not listed before, a file gone, a dropped event queue, a failed pass)
makes the next pass list and stat the whole vault again.

watchdog is imported only inside `start_observer`, never when this module loads.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import gc
import logging
import os
import select
import stat
import threading
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from cardindex.index import build as index
from cardindex.lint.baseline import without_accepted
from cardindex.lint.context import LintContext
from cardindex.lint.finding import Finding
from cardindex.lint.registry import selected
from cardindex.lint.runner import lint_one
from cardindex.store.card import Card
from cardindex.store.config import CONFIG_FILE
from cardindex.store.loading import load
from cardindex.store.parse_cache import ParseCache
from cardindex.store.stats import compact
from cardindex.store.vault import EDITOR_TEMP_NAMES, NOT_CARDS, STATE_DIR, Vault
from cardindex.store.vault_find import valid_name

if TYPE_CHECKING:
    from watchdog.observers.api import BaseObserver


POLL_INTERVAL = 1.0  # seconds between scans of the vault when polling
INOTIFY_LIMITS = (errno.ENOSPC, errno.EMFILE, errno.ENFILE)
EVENT_TYPES = {"created", "deleted", "moved", "modified", "closed"}  # not opened/closed_no_write: our own reads


# ------------------------------------------------------------------ which events matter


def matters(rel: str, *, is_directory: bool, index_name: str) -> bool:
    """Whether a change at vault-relative `rel` (POSIX) can change the index or a card.

    Hidden names never do: `.cardindex/`, our temp files (`.X.cards-tmp`), vim's `.X.swp`,
    gedit's `.goutputstream-*`. Neither do files that are not cards: the index, `X.md~`,
    JetBrains' `X.md___jb_tmp___`, vim's `4913` probe. A folder does (it may arrive full
    of cards, or leave with them), and so does the config file.
    """
    if rel == CONFIG_FILE:
        return True
    if rel in ("", "."):
        return is_directory  # the vault folder itself, deleted or moved away
    parts = rel.split("/")
    if any(part.startswith(".") for part in parts):
        return False
    if is_directory:
        return True
    name = parts[-1]
    return name.endswith(".md") and name not in NOT_CARDS and name != index_name and name not in EDITOR_TEMP_NAMES


class EventFilter:
    """Turns a watchdog event into "the vault may have changed", or nothing."""

    def __init__(self, root: Path, index_name: str) -> None:
        self.root = os.path.abspath(root)
        self.index_name = index_name

    def relevant(self, event_type: str, is_directory: bool, *paths: str | bytes) -> bool:
        if event_type not in EVENT_TYPES or (is_directory and event_type == "modified"):
            return False  # a folder's "modified" is only its listing changing: the file events say more
        return bool(self._mattering(is_directory, paths))

    def card_paths(self, is_directory: bool, *paths: str | bytes) -> list[str] | None:
        """The vault-relative card files a relevant event names, or None when it names more than card files
        (a folder, the vault itself, the config): then only a whole listing says what changed."""
        found = self._mattering(is_directory, paths)
        if is_directory or any(rel in ("", CONFIG_FILE) for rel in found):
            return None
        return found

    def _mattering(self, is_directory: bool, paths: Iterable[str | bytes]) -> list[str]:
        found = []
        for raw in paths:
            path = os.fsdecode(raw)
            if not path:
                continue
            if path == self.root:
                rel = ""
            elif path.startswith(self.root + os.sep):
                rel = path[len(self.root) + 1 :].replace(os.sep, "/")
            else:
                continue
            if matters(rel, is_directory=is_directory, index_name=self.index_name):
                found.append(rel)
        return found


# ------------------------------------------------------------------ waking up, debounced


class Trigger:
    """Wakes the main thread when the vault changed, once changes have gone quiet.

    The observer's thread calls `poke()`; the main thread blocks in `wait()` on a pipe,
    so an idle watcher uses no CPU. Signals wake the same pipe (`signal.set_wakeup_fd`
    on `wakeup_fd`). A pass is due `debounce` seconds after the last change, or
    `max_delay` after the first when changes never stop.
    """

    def __init__(self, debounce: float, max_delay: float) -> None:
        self.debounce = debounce
        self.max_delay = max(max_delay, debounce)
        self._read, self.wakeup_fd = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self.wakeup_fd, False)
        self._lock = threading.Lock()
        self._first: float | None = None
        self._last = 0.0
        self._closed = False
        self._paths: set[str] | None = None  # the card files named since `take`; None: something else changed

    def poke(self, paths: Iterable[str] | None = None) -> None:
        """The vault changed: at the card files `paths` (vault-relative) only, or, with None, anywhere."""
        now = time.monotonic()
        with self._lock:
            if self._closed:
                return  # an observer thread that outlived its join: the descriptor may be another file's now
            if self._first is None:
                self._first = now
            self._last = now
            if paths is None:
                self._paths = None
            elif self._paths is not None:
                self._paths.update(paths)
            with contextlib.suppress(BlockingIOError):  # the pipe is full: a wake-up is pending anyway
                os.write(self.wakeup_fd, b"\0")

    def wait(self, stopped: Callable[[], bool]) -> bool:
        """Block until a pass is due (True) or `stopped()` (False).

        Changes that arrive after this returns True wake the next call: the pass that
        follows reads the disk, so nothing poked before it is lost.
        """
        while not stopped():
            with self._lock:
                first = self._first
                due = None if first is None else min(self._last + self.debounce, first + self.max_delay)
                now = time.monotonic()
                if due is not None and now >= due:
                    self._first = None
                    return True
            select.select([self._read], [], [], None if due is None else due - now)
            with contextlib.suppress(OSError):
                while os.read(self._read, 512):
                    pass
        return False

    def take(self) -> set[str] | None:
        """The card files named since the last `take` (None: a change anywhere, or the first call); the next
        call starts afresh. Call it when `wait` returns True, before the pass reads the disk."""
        with self._lock:
            found, self._paths = self._paths, set()
        return found

    def close(self) -> None:
        with self._lock:
            self._closed = True
        for fd in (self._read, self.wakeup_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


class WatchdogLog(logging.Handler):
    """watchdog's own warnings as one line each; a kernel queue overflow (lost events) triggers a pass.

    Installed on the `watchdog` logger for as long as the watcher runs; `quiet` drops the
    records watchdog logs while its threads shut down.
    """

    def __init__(self, on_change: Callable[[], None], say: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.on_change = on_change
        self.say = say
        self.quiet = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.quiet:
            return
        message = record.getMessage()
        self.say(f"warning: watchdog: {message}")
        if "overflow" in message.lower():
            self.on_change()  # events were dropped: rebuild from disk to catch what they said


def start_observer(root: Path, on_change: Callable[[], None], *, index_name: str, poll: bool,
                   on_cards: Callable[[list[str] | None], None] | None = None) -> tuple[BaseObserver, str | None]:
    """Watch `root` recursively; returns the running observer and, on fallback, why it polls.

    `on_cards`, when given, is called instead of `on_change` with the card files an event names, or None when
    it names more (`EventFilter.card_paths`).

    Uses the OS's notifications (inotify) unless `poll`; when inotify's limits are hit
    it falls back to polling and says so, with how to raise the limit.
    """
    from watchdog.events import (
        DirCreatedEvent,
        DirDeletedEvent,
        DirMovedEvent,
        FileClosedEvent,
        FileCreatedEvent,
        FileDeletedEvent,
        FileModifiedEvent,
        FileMovedEvent,
        FileSystemEvent,
        FileSystemEventHandler,
    )
    from watchdog.observers.polling import PollingObserver

    events = EventFilter(root, index_name)

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if events.relevant(event.event_type, event.is_directory, event.src_path, event.dest_path):
                if on_cards is None:
                    on_change()
                else:
                    on_cards(events.card_paths(event.is_directory, event.src_path, event.dest_path))

    wanted: list[type[FileSystemEvent]] = [
        FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent, FileClosedEvent,
        DirCreatedEvent, DirDeletedEvent, DirMovedEvent,
    ]

    def started(observer: BaseObserver) -> BaseObserver:
        observer.schedule(Handler(), events.root, recursive=True, event_filter=wanted)
        observer.start()
        return observer

    if not poll:
        from watchdog.observers import Observer

        native: BaseObserver | None = None
        try:
            native = Observer()
            return started(native), None
        except OSError as exc:
            if exc.errno not in INOTIFY_LIMITS:
                raise
            if native is not None:
                native.stop()  # its inotify reader thread started with it
            fallback = (
                f"cannot watch with inotify ({exc.strerror or exc}); polling every {POLL_INTERVAL:g} s instead. "
                "To raise the limits: sudo sysctl fs.inotify.max_user_watches=524288 fs.inotify.max_user_instances=512"
            )
            return started(PollingObserver(timeout=POLL_INTERVAL)), fallback
    return started(PollingObserver(timeout=POLL_INTERVAL)), None


# ------------------------------------------------------------------ one pass


class Change(NamedTuple):
    """What one pass found, by vault-relative path."""

    added: list[str]
    changed: list[str]
    removed: list[str]
    kept: list[str]  # broken on disk; their last good entry stays in the index
    dropped: list[str]  # broken, with no good version seen since the watcher started
    total: int  # cards on disk
    index_name: str
    index_changed: bool

    def summary(self, *, first: bool) -> str:
        """The one line a pass prints: `index: 1 changed, INDEX.md updated`."""
        if first:
            parts = [f"{self.total} card{'' if self.total == 1 else 's'}"]
            state = "updated" if self.index_changed else "up to date"
        else:
            counts = (("added", self.added), ("changed", self.changed), ("removed", self.removed))
            parts = [f"{len(paths)} {what}" for what, paths in counts if paths] or ["nothing changed"]
            state = "updated" if self.index_changed else "unchanged"
        if self.kept:
            parts.append(f"{len(self.kept)} broken (last good entry kept)")
        if self.dropped:
            parts.append(f"{len(self.dropped)} broken (left out)")
        return f"index: {', '.join(parts)}, {self.index_name} {state}"


# The last pass's cards as on disk, each card's place among them (made when a pass first needs it), and whether
# that pass read only the files events named.
_Last = tuple[dict[str, int] | None, list[Card], bool]


class Watcher:
    """Remembers the cards between passes: what changed, and each card's last good version."""

    def __init__(self, root: Path, *, use_cache: bool = True) -> None:
        self.root = root
        self.use_cache = use_cache
        self._seen: dict[str, tuple[str, tuple[object, ...]]] = {}  # path -> (text, problems) last pass
        self._good: dict[str, Card] = {}  # path -> its last usable version
        # The parse cache, kept between passes: not read again, and unchanged cards stay the same objects.
        self._cache = ParseCache(root / STATE_DIR, "cards", enabled=use_cache) if use_cache else None
        if self._cache is not None:
            self._cache.keep_cards()
        self._due: tuple[Vault, list[Card], dt.date, str | None] | None = None  # the last pass, for `remember_ranking`
        # The last pass's (`_Last`), for a pass that reads only the files events named; None: the next pass lists
        # the whole vault.
        self._last: _Last | None = None
        self.narrowed = 0  # passes that read only the named files (for tests and benchmarks)

    def remember_ranking(self) -> None:
        """Keep the last pass's INDEX.md ranking for the next `cards add` (`index.ranking_later`), once, after the
        pass wrote the index: its fingerprint of every card is not in the time between a save and INDEX.md."""
        due, self._due = self._due, None
        if due is None:
            return
        vault, cards, today, written = due
        if written is None:
            return
        from cardindex.errors import LockTimeout
        from cardindex.index.ranking_later import remember

        with contextlib.suppress(LockTimeout), vault.lock():  # a writer at work: its own render keeps one
            remember(vault, today, cards, written)

    def prepare(self, today: dt.date, say: Callable[[str], None] | None = None) -> None:
        """Make the records that pairing a saved card reads of every live card (`similarity.remember_records`),
        before the observer's threads start: in forked children then, the first save costs what a later one
        does, and this process holds the records, not the memos of every card's text that making them fills.

        The cards loaded here are the ones the first pass is handed (the parse cache keeps them). Only an
        optimisation: a writer holding the vault leaves the records to the first save. `say` hears one line
        before a large vault's records are made (they take seconds, half a minute at 100k cards)."""
        from cardindex.errors import LockTimeout
        from cardindex.meaning.many_records import FORK_AT
        from cardindex.meaning.similarity import remember_records

        vault = Vault(self.root, use_cache=self.use_cache, parse_cache=self._cache)
        try:
            with vault.lock():
                cards = vault.cards
        except LockTimeout:
            return
        live = [c for c in cards if c.live(today)]
        if say is not None and len(live) >= FORK_AT:
            say(f"reading {len(live)} cards for pairing before watching")
        remember_records(live)

    def refresh(self, today: dt.date, changed: Collection[str] | None = None) -> tuple[Vault, list[Card], Change]:
        """Bring the index up to date from disk; return the vault, its cards as on disk, and the change.

        `changed`: the only card files (vault-relative) that changed since the last pass, as the events named
        them (`Trigger.take`); None lists and stats the whole vault.
        """
        # A pass allocates several objects per card and makes no cycles; with the collector
        # on, it walks every card kept from earlier passes too (about 0.1 s at 10k cards),
        # in the time between a save and the new INDEX.md.
        collecting = gc.isenabled()
        gc.disable()
        last, self._last = self._last, None  # a pass that fails leaves the next one to list the vault
        try:
            return self._refresh(today, changed, last)
        finally:
            if collecting:
                gc.enable()

    def _narrowed(self, vault: Vault, changed: Collection[str],
                  last: _Last) -> _Last | None:
        """The vault's cards with only the files `changed` read again (and where each is), or None when a whole
        listing is needed."""
        where, cards, _ = last
        if where is None:  # a listed file's path is the vault's joined with its own (`Vault._walk`)
            where = {card.path: i for i, card in enumerate(cards)}
        found = []
        for rel in sorted(changed):
            if rel not in where or not valid_name(rel):
                return None  # not listed last time (a new card, one not read then), or misnamed
            try:
                st = os.stat(os.path.join(vault.root, rel))
            except OSError:
                return None  # gone (or moved): the listing changed
            if not stat.S_ISREG(st.st_mode):
                return None
            found.append((rel, compact(st)))
        assert self._cache is not None
        now = list(cards)
        for card in load(str(vault.root), found, self._cache, save=False):  # the next whole pass saves the cache
            if card is None:
                return None
            now[where[card.path]] = card
        return where, now, True

    def _refresh(self, today: dt.date, changed_files: Collection[str] | None,
                 last: _Last | None) -> tuple[Vault, list[Card], Change]:
        vault = Vault(self.root, use_cache=self.use_cache, parse_cache=self._cache)
        seen = self._seen
        now: dict[str, tuple[str, tuple[object, ...]]] = {}
        added: list[Card] = []
        changed: list[Card] = []
        broken: list[Card] = []
        with vault.lock():  # the lock `cards add`, `cards index` and consolidate take
            narrowed = None
            if changed_files is not None and last is not None and self._cache is not None:
                narrowed = self._narrowed(vault, changed_files, last)
            if narrowed is not None:
                cards = narrowed[1]
            else:
                cards = vault.cards
                narrowed = (None, cards, False)
            for card in cards:  # one loop: at 10k cards, each extra one costs milliseconds of latency
                state = now[card.path] = (card.text, card.problems)
                before = seen.get(card.path)
                if before is None:
                    added.append(card)
                elif before != state:
                    changed.append(card)
                if card.problems and not card.usable:
                    broken.append(card)
            good = {c.path: self._good[c.path] for c in broken if c.path in self._good}
            shown = [good.get(c.path, c) for c in cards] if good else None  # broken ones: their last good versions
            # The cards as loaded, not the vault's: `write` then keeps no ranking for `cards add`, whose
            # fingerprint of every card is taken after INDEX.md is written (`remember_ranking`).
            result = index.write(vault, today, cards=shown if shown is not None else cards)
            self._due = (vault, cards, today, index.read_index(vault)) if shown is None and self.use_cache else None
        if narrowed[2]:
            self.narrowed += 1
        self._last = narrowed  # the pass is done: the next one may start from it
        removed = sorted(path for path in seen if path not in now)
        self._seen = now
        for path in removed:
            self._good.pop(path, None)
        for card in added + changed:  # the others' last good versions are what they are now
            if card.usable:
                self._good[card.path] = card
        kept = sorted(good)
        dropped = [c.path for c in broken if c.path not in self._good]
        return vault, cards, Change([c.path for c in added], [c.path for c in changed], removed, kept, dropped,
                                    len(cards), result.path, result.changed)


def lint_cards(vault: Vault, cards: list[Card], targets: Sequence[Card], today: dt.date) -> list[Finding]:
    """The per-card findings for `targets` (cards as on disk), as `cards lint` reports them.

    Duplicates and contradictions are searched only between the targets and the rest,
    as the write gate does, unless so many changed that one all-pairs search is cheaper.
    """
    if not targets:
        return []
    rules = selected(config=dict(vault.config.lint))
    repo_root = vault.repo_root()
    ctx = LintContext(vault, today, repo_root, cards, focus=targets)
    findings: list[Finding] = []
    for card in targets:
        findings.extend(lint_one(card, rules, ctx))
    findings = without_accepted(findings, targets, vault.root)  # as `cards lint` reports them
    findings.sort(key=Finding.sort_key)
    return findings

