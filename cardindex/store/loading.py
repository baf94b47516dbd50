"""Reading card files into `Card`s: one file at a time, through the parse cache, on both cores when it pays.

`Vault` lists the files; this reads them. A file whose stat the parse cache trusts is
not read; one whose bytes the cache knows is read and hashed, not parsed; the rest are
parsed. When thousands must be parsed (a cold vault), half of them are parsed in a
forked child, which hands its results back through a pipe: on two cores the parse
takes about half the time. The child does only what the parent would (read, hash,
parse); the parent puts everything in the cache and builds the cards, in listing order.
"""

from __future__ import annotations

import gc
import os
import pickle
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from cardindex.store.card import MAX_BYTES, Card, Parsed, Problem, decode, parse
from cardindex.store.parse_cache import ParseCache, digest
from cardindex.store.scanned import note, scan

FORK_AT = 2000  # files to parse before a second process pays for its fork and the hand-back
FREEZE_AT = 1000  # cards loaded before the collector is told to leave them be (`_freeze_once`)
_TOO_BIG = f"file is larger than {MAX_BYTES // 1_000_000} MB; a card holds one fact"

# What reading one file gives: a finished card (unreadable), None (gone), or its bytes' hash and parse.
Read = Card | None | tuple[bytes, str | None, Parsed | None]


def unreadable(rel: str, problem: Problem) -> Card:
    return Card(rel, "", {}, 0, (problem,))


def read(root: str, rel: str, st: os.stat_result, cache: ParseCache | None) -> Card | None:
    """The card at `rel` (stat `st`): from the cache by stat, by content, or parsed (and cached)."""
    if cache is not None:
        hit = cache.by_stat(rel, st)
        if hit is not None:
            return hit
    return finish(root, rel, st, cache, read_raw(root, rel, st, cache))


def read_raw(root: str, rel: str, st: os.stat_result, cache: ParseCache | None) -> Read:
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


def finish(root: str, rel: str, st: os.stat_result, cache: ParseCache | None, raw: Read) -> Card | None:
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


def load(root: str, files: Sequence[tuple[str, os.stat_result]], cache: ParseCache, *,
         save: bool = True) -> list[Card | None]:
    """The card of each of `files` (vault-relative path, stat), None for one gone since; saves the cache
    (`save`: these are all the vault's cards; a save drops what the run did not look at).

    The collector is off meanwhile: a load allocates a few objects per card and makes no
    cycles, and at 10k cards its passes over the growing heap cost a tenth of a second.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        found: list[Card | None] = [cache.by_stat(rel, st) for rel, st in files]
        missing = [i for i, card in enumerate(found) if card is None]
        raws = _in_two(root, [files[i] for i in missing], cache) if len(missing) >= FORK_AT else None
        from cardindex.store.progress import report

        for n, i in enumerate(missing):
            report("reading cards", n, len(missing))
            rel, st = files[i]
            if raws is not None:
                raw, raws[n] = raws[n], None  # handed on: what the card does not keep is freed as the load goes
            else:
                raw = read_raw(root, rel, st, cache)
            found[i] = finish(root, rel, st, cache, raw)
        if save:
            cache.save()
        return found
    finally:
        if collecting:
            gc.enable()
        if len(files) >= FREEZE_AT:
            _freeze_once()


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


def _in_two(root: str, files: Sequence[tuple[str, os.stat_result]], cache: ParseCache) -> list[Read] | None:
    """`read_raw` of every file, the second half in a forked child; None when forking is not safe or fails."""
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2 or threading.active_count() > 1:
        return None  # forking a process with threads (the watcher's observer) can deadlock the child
    half = len(files) // 2
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
    if pid == 0:  # the child: parse the second half (and scan it for secrets), hand it back, leave without cleanup
        code = 1
        try:
            os.close(readfd)
            raws = [read_raw(root, rel, st, cache) for rel, st in files[half:]]
            data = pickle.dumps((raws, scan(_texts(raws))), pickle.HIGHEST_PROTOCOL)
            with os.fdopen(writefd, "wb") as out:
                out.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(writefd)
    first = [read_raw(root, rel, st, cache) for rel, st in files[:half]]
    note(scan(_texts(first)))
    chunks = []
    with os.fdopen(readfd, "rb") as pipe:
        while chunk := pipe.read(1 << 20):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    second: list[Read] | None = None
    if status == 0:
        data = b"".join(chunks)
        chunks.clear()  # the pieces and the whole are not held at once (tens of MB at 100k cards)
        try:
            handed: Any = pickle.loads(data)  # our own child's bytes, made by the code above
            del data
            second, found = handed
            note(found)
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
            second = None
    if not isinstance(second, list) or len(second) != len(files) - half:
        second = [read_raw(root, rel, st, cache) for rel, st in files[half:]]
    return first + second


def _texts(raws: list[Read]) -> Iterator[str]:
    """The texts `read_raw` parsed (the cards' texts, as `finish` makes them)."""
    for raw in raws:
        if isinstance(raw, tuple) and raw[1]:
            yield raw[1]
