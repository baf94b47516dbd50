"""The blocking records of many cards at once, made in two forked children when thousands are asked for.

A card's `blocking.Record` costs about 0.3 ms (its statement, its restatement content, its
language, its typed values), so the gate's postings at 100k cards, and the first pass of
`cards watch` that pairs a saved card with all the others, spend half a minute making them.
Made in this process they also fill the per-text memos of `words`, `restatement`, `slots`
and `value_forms` to their bounds (about 150 MB at 100k cards) for texts never asked about
again. Made in two forked children, they take about half the time on two cores, and this
process holds only the records the children hand back, as `marshal` bytes in a temporary
file each (a reference per word after its first: the records' words are interned).

A record is a function of the card's text alone, so which process made it changes nothing.
A child that fails costs only time: its cards' records are made here. Forking is not safe
in a process with threads (the watcher's observer): then, and on one core, all are made here.
"""

from __future__ import annotations

import gc
import marshal
import os
import tempfile
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO

from cardindex.store.card import Card
from cardindex.store.loading import fork_pays

Make = Callable[[Card], Any]  # what is made of a card, in marshal's types (its record: `similarity.plain_record`)

FORK_AT = 2000  # records to make before two children pay for their forks and the hand-back (about 0.6 s here)
CHILDREN = 2


def records(cards: Sequence[Card], make: Make) -> list[Any]:
    """`make(card)` for each of `cards`, in order (`similarity.remember_records` and the gate's postings say how
    a record is made; this module only says where)."""
    if len(cards) < FORK_AT or not fork_pays():
        return [make(c) for c in cards]
    shares = [cards[k::CHILDREN] for k in range(CHILDREN)]
    started = [_fork(share, make) for share in shares]
    made = [_handed(child, share, make) for child, share in zip(started, shares, strict=True)]
    out: list[Any] = [None] * len(cards)
    for k, share_records in enumerate(made):
        out[k::CHILDREN] = share_records
    return out


def _fork(cards: Sequence[Card], make: Make) -> tuple[int, BinaryIO] | None:
    """A child making the records of `cards` into a temporary file: (its pid, the file), or None when it cannot start."""
    try:
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by `_handed`, or below when the fork fails
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        spool.close()
        return None
    if pid == 0:  # the child: its records, spooled; leave without cleanup
        code = 1
        try:
            gc.disable()  # a collection would touch every object the parent holds, copying its pages
            marshal.dump([make(c) for c in cards], spool)
            spool.flush()
            code = 0
        finally:
            os._exit(code)
    return pid, spool


def _handed(child: tuple[int, BinaryIO] | None, cards: Sequence[Card], make: Make) -> list[Any]:
    """What the child made of `cards`, or the records made here when it failed."""
    if child is None:
        return [make(c) for c in cards]
    pid, spool = child
    try:
        _, status = os.waitpid(pid, 0)
        found = None
        if status == 0:
            spool.seek(0)
            try:
                found = marshal.load(spool)  # our own child's bytes, made by `_fork`
            except (EOFError, ValueError, TypeError):
                found = None
        if not isinstance(found, list) or len(found) != len(cards):
            return [make(c) for c in cards]
        return found
    finally:
        spool.close()
