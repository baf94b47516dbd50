"""Reading card files into `Card`s: one file at a time, through the parse cache, on both cores when it pays.

`Vault` lists the files; this reads them. A file whose stat the parse cache trusts is
not read; one whose bytes the cache knows is read and hashed, not parsed; the rest are
parsed. When thousands must be parsed (a cold vault), the parse cache's shards are split
between this process and a forked child: each reads, parses and scans for secrets the
files of its shards, caches them and writes those shard files, so on two cores the whole
load (cache writes included) takes about half the time. The child hands its cards back
through a pipe; the cards come out in listing order.
"""

from __future__ import annotations

import gc
import os
import pickle
import threading
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from cardindex.store.card import MAX_BYTES, Card, Parsed, Problem, decode, parse
from cardindex.store.parse_cache import ParseCache, digest
from cardindex.store.scanned import note, scan
from cardindex.store.stats import StatLike

FORK_AT = 2000  # files to parse before a second process pays for its fork and the hand-back
FREEZE_AT = 1000  # cards loaded before the collector is told to leave them be (`_freeze_once`)
_TOO_BIG = f"file is larger than {MAX_BYTES // 1_000_000} MB; a card holds one fact"

# What reading one file gives: a finished card (unreadable), None (gone), or its bytes' hash and parse.
Read = Card | None | tuple[bytes, str | None, Parsed | None]


def unreadable(rel: str, problem: Problem) -> Card:
    return Card(rel, "", {}, 0, (problem,))


def read(root: str, rel: str, st: StatLike, cache: ParseCache | None) -> Card | None:
    """The card at `rel` (stat `st`): from the cache by stat, by content, or parsed (and cached)."""
    if cache is not None:
        hit = cache.by_stat(rel, st)
        if hit is not None:
            return hit
    return finish(root, rel, st, cache, read_raw(root, rel, st, cache))


def read_raw(root: str, rel: str, st: StatLike, cache: ParseCache | None) -> Read:
    """Read and hash one file, and parse it unless `cache` already holds what its bytes parse to."""
    if st.st_size > MAX_BYTES:
        return unreadable(rel, Problem(None, _TOO_BIG, kind="unreadable"))
    try:
        with open(os.path.join(root, rel), "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None  # removed since the folder was listed
    except OSError as exc:
        return unreadable(rel, Problem(None, f"cannot read: {exc.strerror}", kind="unreadable"))
    if len(data) > MAX_BYTES:
        return unreadable(rel, Problem(None, _TOO_BIG, kind="unreadable"))
    key = digest(data)
    if cache is not None and cache.knows(rel, key):
        return key, None, None
    text, problem = decode(data)
    parsed = parse(text) if text is not None else Parsed({}, 0, (problem,) if problem else ())
    return key, text, parsed


def finish(root: str, rel: str, st: StatLike, cache: ParseCache | None, raw: Read) -> Card | None:
    """The card from what `read_raw` gave (in this process or a child), cached."""
    if raw is None or isinstance(raw, Card):
        return raw
    key, text, parsed = raw
    if cache is not None:
        hit = cache.by_content(rel, st, key)
        if hit is not None:
            cache.handed_out(rel, hit)
            return hit
    if parsed is None:  # the cache knew the bytes, yet its entry did not decode: parse them after all
        raw = read_raw(root, rel, st, None)
        if raw is None or isinstance(raw, Card):
            return raw
        key, text, parsed = raw
        assert parsed is not None  # read_raw without a cache always parses
    card = Card(rel, text or "", *parsed)
    if cache is not None:
        cache.put(rel, st, key, text, parsed)
        cache.handed_out(rel, card)
    return card


def load(root: str, files: Sequence[tuple[str, StatLike]], cache: ParseCache, *,
         save: bool = True) -> list[Card | None]:
    """The card of each of `files` (vault-relative path, stat), None for one gone since; saves the cache
    (`save`: these are all the vault's cards; a save drops what the run did not look at).

    The collector is off meanwhile: a load allocates a few objects per card and makes no
    cycles, and at 10k cards its passes over the growing heap cost a tenth of a second.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        found: list[Card | None] = [None] * len(files)
        if save:
            for i, card in _walk(root, files, cache):
                found[i] = card
            return found
        for i, (rel, st) in enumerate(files):
            found[i] = cache.by_stat(rel, st, drop=False)
        for i, card in _read_missing(root, files, [i for i, card in enumerate(found) if card is None], cache, fork=False):
            found[i] = card
        return found
    finally:
        if collecting:
            gc.enable()
        if len(files) >= FREEZE_AT:
            _freeze_once()


def each(root: str, files: Sequence[tuple[str, StatLike]], cache: ParseCache,
         wanted: Collection[str] | None = None) -> Iterator[Card]:
    """The cards of `files` whose path is in `wanted` (None: all), one at a time as each is made, none kept here.

    What `load` with `save` does (the one walk, `_walk`), for a caller that reads each card
    once and lets it go (the search index built from every card: at 100k cards, holding them
    all and their analyses was most of a first search's 900 MB). The cards come in the parse
    cache's shard order, not the listing's. A file not wanted whose stat the cache trusts is
    not decoded, only kept as seen; every other file is read as `load` reads it, and the cache
    is saved once all are done (`files` are all of the area's cards, as for `load`). Stop
    early and nothing is saved.
    """
    collecting = gc.isenabled()
    gc.disable()  # as in `load`: a card and its analysis hold no cycles, and nothing here grows
    try:
        for i, card in _walk(root, files, cache, wanted):
            if card is not None and (wanted is None or files[i][0] in wanted):
                yield card
    finally:
        if collecting:
            gc.enable()


def _walk(root: str, files: Sequence[tuple[str, StatLike]], cache: ParseCache,
          wanted: Collection[str] | None = None) -> Iterator[tuple[int, Card | None]]:
    """(index in `files`, its card or None) for every file read, then the cache saved: a saving load's one walk.

    One shard at a time: its entries are read when its first card is decoded and dropped as each
    is (`drop`), so a walk never holds every card's entry beside every card (60 MB at 100k
    cards). A file not `wanted` whose stat the cache trusts is only marked seen, never decoded.
    """
    missing: list[int] = []
    for i in sorted(range(len(files)), key=lambda i: cache.shard_number(files[i][0])):
        rel, st = files[i]
        if wanted is not None and rel not in wanted:
            if not cache.seen_unread(rel, st):
                missing.append(i)
            continue
        card = cache.by_stat(rel, st, drop=True)
        if card is None:
            missing.append(i)
        else:
            yield i, card
    missing.sort()
    yield from _read_missing(root, files, missing, cache, fork=True)
    cache.save()


def _read_missing(root: str, files: Sequence[tuple[str, StatLike]], missing: list[int], cache: ParseCache, *,
                  fork: bool) -> Iterator[tuple[int, Card | None]]:
    """(index, card or None) for each file at `missing`, read and parsed one at a time, or in two processes
    when `fork` and they are many (then all at once, as the child hands them back)."""
    done = _in_two(root, [files[i] for i in missing], cache) if fork and len(missing) >= FORK_AT else None
    if done is not None:
        yield from zip(missing, done, strict=True)
        return
    from cardindex.store.progress import report

    for n, i in enumerate(missing):
        report("reading cards", n, len(missing))
        rel, st = files[i]
        yield i, finish(root, rel, st, cache, read_raw(root, rel, st, cache))


_FROZEN: list[bool] = []


def _freeze_once() -> None:
    """After the first big load of a process, move everything alive into the collector's permanent generation.

    The cards of a command live as long as it runs and hold no cycles; without this, each
    later full collection (every few thousand allocations, while rendering or linting)
    walks them all: 0.17 s a time at 50k cards, and `cards add` did several. Only the
    first load: a long-running process (`cards watch`, `cards mcp`) freezes once, and what
    it loads later is collected as usual.
    """
    if not _FROZEN:
        _FROZEN.append(True)
        gc.freeze()


def _in_two(root: str, files: Sequence[tuple[str, StatLike]], cache: ParseCache) -> list[Card | None] | None:
    """The card of each of `files`, about half of them made in a forked child; None when forking is not safe or fails.

    The files are split by the parse cache's shard: the child reads, parses and scans the
    files of its shards, puts them in the cache and writes those shard files itself, then
    hands its cards back through a pipe; this process does the same for the other shards
    meanwhile, and adopts the child's shards as saved (`ParseCache.adopt`). A child that
    fails costs only time: its files are read here, and its shards written here.
    """
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or threading.active_count() > 1:
        return None  # forking a process with threads (the watcher's observer) can deadlock the child
    numbers = [cache.shard_number(rel) for rel, _ in files]
    theirs = _split(numbers)
    child_side = [n in theirs for n in numbers]
    try:
        readfd, writefd = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(readfd)
        os.close(writefd)
        return None
    if pid == 0:  # the child: its shards' files, cached and saved, handed back; leave without cleanup
        code = 1
        try:
            os.close(readfd)
            made, texts, keys = _made(root, files, child_side, True, cache)
            records = cache.save_shards(theirs)
            # Each card as its cache entry (marshal bytes: pickled as they are), or itself when it has none
            handed_back = [card if key is None or card is None else cache.entry(card.path, key) or card
                           for card, key in zip(made, keys, strict=True)]
            data = pickle.dumps((handed_back, scan(texts), records), pickle.HIGHEST_PROTOCOL)
            with os.fdopen(writefd, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(writefd)
    mine, texts, _ = _made(root, files, child_side, False, cache)
    note(scan(texts))
    del texts
    cache.save_now(frozenset(numbers) - theirs)  # written before the child's cards arrive, and their entries let go
    handed: Any = None
    with os.fdopen(readfd, "rb") as pipe:
        try:  # read as it comes: the whole hand-back is never held as bytes (tens of MB at 100k cards)
            handed = pickle.load(pipe)  # our own child's bytes, made by the code above
        except Exception:  # noqa: BLE001 - cut short or damaged: whatever it is, the files are read here instead
            handed = None
    _, status = os.waitpid(pid, 0)
    if status != 0:
        handed = None
    theirs_back: list[Card | bytes | None]
    try:
        theirs_back, found, records = handed
        if (not isinstance(theirs_back, list) or len(theirs_back) + len(mine) != len(files)
                or not isinstance(records, dict)):
            raise TypeError
    except (TypeError, ValueError):
        made, _, _ = _made(root, files, child_side, True, cache)  # the child failed: its files are read here
        theirs_back, records, found = list(made), {}, {}
    note(found)
    cache.adopt(records)
    ours, n = iter(mine), 0
    result: list[Card | None] = []
    for (rel, st), side in zip(files, child_side, strict=True):
        if not side:
            result.append(next(ours))
            continue
        back, theirs_back[n] = theirs_back[n], None  # each entry freed once decoded
        n += 1
        if isinstance(back, bytes):  # the child's cache entry for it: decoded as a warm load would
            back = cache.card_from(rel, back) or finish(root, rel, st, cache, read_raw(root, rel, st, None))
        result.append(back)
    return result


def _split(numbers: list[int]) -> frozenset[int]:
    """The shards whose files the child takes (`numbers`: each file's shard): about half the files, whole shards."""
    counts: dict[int, int] = {}
    for number in numbers:
        counts[number] = counts.get(number, 0) + 1
    theirs, mine, taken = set(), 0, 0
    for number, count in sorted(counts.items(), key=lambda pair: -pair[1]):
        if taken <= mine:
            theirs.add(number)
            taken += count
        else:
            mine += count
    return frozenset(theirs)


def _made(root: str, files: Sequence[tuple[str, StatLike]], child_side: list[bool], child: bool,
          cache: ParseCache) -> tuple[list[Card | None], list[str], list[bytes | None]]:
    """The cards of the files on the child's side (`child`) or on this one, in order, the texts parsed,
    and each card's content hash (None for one gone or unreadable)."""
    from cardindex.store.progress import report

    cards: list[Card | None] = []
    texts: list[str] = []
    keys: list[bytes | None] = []
    for (rel, st), side in zip(files, child_side, strict=True):
        if side is not child:
            continue
        if not child:
            report("reading cards", 2 * len(cards), len(files))
        raw = read_raw(root, rel, st, cache)
        key: bytes | None = None
        if raw is not None and not isinstance(raw, Card):  # read: (content hash, text, parse)
            key = raw[0]
            if raw[1]:
                texts.append(raw[1])
        card = finish(root, rel, st, cache, raw)
        cards.append(card)
        keys.append(key if card is not None else None)
    return cards, texts, keys
