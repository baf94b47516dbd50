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
import tempfile
import threading
from collections.abc import Collection, Iterator, Sequence
from typing import Any, BinaryIO

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
    if fork and len(missing) >= FORK_AT:
        picked = [files[i] for i in missing]
        yield from ((missing[j], card) for j, card in _in_two(root, picked, cache))
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


def _in_two(root: str, files: Sequence[tuple[str, StatLike]], cache: ParseCache) -> Iterator[tuple[int, Card | None]]:
    """(index in `files`, its card or None) for each of `files`, about half of them made in a forked child;
    read here one at a time when forking is not safe or fails.

    The files are split by the parse cache's shard: the child reads, parses and scans the
    files of its shards, puts them in the cache and writes each shard file as soon as its
    files are done, and spools its cards (as their cache entries) into an unnamed temporary
    file, not a pipe the parent would have to drain while it works. Meanwhile this process
    does the same for the other shards, handing each card on as it is made (a caller that lets
    each go holds none), then reads the child's record of its shards through a pipe, adopts
    them as saved (`ParseCache.adopt`) and hands on the child's cards one batch at a time.
    Neither side ever holds every card's entry. A child that fails costs only time: its files
    are read here, and its shards written here.
    """
    order = sorted(range(len(files)), key=lambda i: cache.shard_number(files[i][0]))  # whole shards, one after another
    numbers = [cache.shard_number(rel) for rel, _ in files]
    theirs = _split(numbers)
    mine = [i for i in order if numbers[i] not in theirs]
    child = [i for i in order if numbers[i] in theirs]
    started = _fork(root, files, child, numbers, cache)
    if started is None:
        yield from _here(root, files, order, cache)
        return
    pid, readfd, spool = started
    try:
        yield from _made(root, files, mine, numbers, cache, len(files))
        handed: Any = None
        with os.fdopen(readfd, "rb") as pipe:
            readfd = -1
            try:  # the child's record of its shards and scans, once its work is done
                handed = pickle.load(pipe)  # our own child's bytes, made by the code in `_fork`
            except Exception:  # noqa: BLE001 - cut short or damaged: whatever it is, the files are read here instead
                handed = None
        _, status = os.waitpid(pid, 0)
        pid = 0
        try:
            found, records, count = handed if status == 0 else (None, None, None)
            if not isinstance(found, dict) or not isinstance(records, dict) or count != len(child):
                raise TypeError
        except (TypeError, ValueError):
            yield from _here(root, files, child, cache)  # the child failed: its files are read here
            return
        note(found)
        cache.adopt(records)
        spool.seek(0)
        done = 0
        try:
            while done < len(child):
                batch = pickle.load(spool)  # our own child's bytes, as above
                if not isinstance(batch, list) or not batch or done + len(batch) > len(child):
                    raise ValueError("not a batch of cards")
                for j, back in enumerate(batch):
                    i = child[done]
                    batch[j] = None  # each entry freed once decoded
                    rel, st = files[i]
                    if isinstance(back, bytes):  # the child's cache entry for it: decoded as a warm load would
                        back = cache.card_from(rel, back) or finish(root, rel, st, cache, read_raw(root, rel, st, None))
                    elif back is not None and not isinstance(back, Card):
                        raise ValueError("not a card")
                    done += 1
                    yield i, back
        except Exception:  # noqa: BLE001 - a spool cut short or damaged: the rest of its files are read here
            yield from _here(root, files, child[done:], cache)
    finally:
        spool.close()
        if readfd >= 0:
            os.close(readfd)
        if pid:
            os.waitpid(pid, 0)


def fork_pays() -> bool:
    """Whether a second process may share the work: a fork exists, there are two cores, and no threads run
    (forking a process with threads, the watcher's observer, can deadlock the child). `meaning.many_records`
    asks it too."""
    return hasattr(os, "fork") and (os.cpu_count() or 1) >= 2 and threading.active_count() == 1


def _fork(root: str, files: Sequence[tuple[str, StatLike]], child: list[int], numbers: list[int],
          cache: ParseCache) -> tuple[int, int, BinaryIO] | None:
    """Start the child that makes the cards of `files` at `child` (see `_in_two`): (its pid, the pipe it
    reports on, its spool), or None when forking is not safe or fails."""
    if not fork_pays():
        return None
    try:
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by `_in_two`, or below when the fork fails
    except OSError:
        return None
    try:
        readfd, writefd = os.pipe()
    except OSError:
        spool.close()
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(readfd)
        os.close(writefd)
        spool.close()
        return None
    if pid == 0:  # the child: its shards' files, cached and saved, spooled; leave without cleanup
        code = 1
        try:
            os.close(readfd)
            found: dict[bytes, bool] = {}
            records: dict[int, tuple[dict[str, Any], dict[bytes, bytes]]] = {}
            batch: list[Card | bytes | None] = []
            count = 0
            for i, last_of_shard, card, key, text in _making(root, files, child, numbers, cache):
                if text:
                    found.update(scan((text,)))
                # Each card as its cache entry (marshal bytes: pickled as they are), or itself when it has none
                batch.append(card if key is None or card is None else cache.entry(card.path, key) or card)
                count += 1
                if len(batch) >= _BATCH or count == len(child):
                    spool.write(pickle.dumps(batch, pickle.HIGHEST_PROTOCOL))
                    batch = []
                if last_of_shard:
                    records.update(cache.save_shards(frozenset({numbers[i]})))
                    cache.let_go(numbers[i])
            spool.flush()
            with os.fdopen(writefd, "wb") as out:
                out.write(pickle.dumps((found, records, count), pickle.HIGHEST_PROTOCOL))
            code = 0
        finally:
            os._exit(code)
    os.close(writefd)
    return pid, readfd, spool


_BATCH = 1000  # cards the child spools at a time, and so the most of its cards the parent holds undecoded


def _here(root: str, files: Sequence[tuple[str, StatLike]], which: list[int],
          cache: ParseCache) -> Iterator[tuple[int, Card | None]]:
    """(index, card) of each of `files` at `which`, read and parsed in this process."""
    from cardindex.store.progress import report

    for n, i in enumerate(which):
        report("reading cards", n, len(which))
        rel, st = files[i]
        yield i, finish(root, rel, st, cache, read_raw(root, rel, st, cache))


def _made(root: str, files: Sequence[tuple[str, StatLike]], which: list[int], numbers: list[int],
          cache: ParseCache, total: int) -> Iterator[tuple[int, Card | None]]:
    """(index, card) of each of `files` at `which` (whole shards in turn), made here beside the child: each text
    scanned for secrets, each shard written (and its entries let go) once its files are done."""
    from cardindex.store.progress import report

    for n, (i, last_of_shard, card, _, text) in enumerate(_making(root, files, which, numbers, cache)):
        report("reading cards", 2 * n, total)
        if text:
            note(scan((text,)))
        yield i, card
        if last_of_shard:
            cache.save_now(frozenset({numbers[i]}))


def _making(root: str, files: Sequence[tuple[str, StatLike]], which: list[int], numbers: list[int],
            cache: ParseCache) -> Iterator[tuple[int, bool, Card | None, bytes | None, str | None]]:
    """For each of `files` at `which`: (its index, whether it is its shard's last, its card, its content hash
    (None for one gone or unreadable), the text parsed (None when not parsed))."""
    for n, i in enumerate(which):
        rel, st = files[i]
        raw = read_raw(root, rel, st, cache)
        key: bytes | None = None
        text: str | None = None
        if raw is not None and not isinstance(raw, Card):  # read: (content hash, text, parse)
            key, text = raw[0], raw[1]
        card = finish(root, rel, st, cache, raw)
        last = n + 1 == len(which) or numbers[which[n + 1]] != numbers[i]
        yield i, last, card, key if card is not None else None, text


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
