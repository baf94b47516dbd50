"""How long work says how far it got: the core calls `report`; the command line may listen.

The core never draws anything: it names what it is doing and how far it got (`reading
cards`, 120 of 10,000). `cli/progress.py` installs a listener that draws one updating
line on a terminal; with no listener, `report` is one global lookup and returns.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

Listener = Callable[[str, int, "int | None"], None]

_listener: Listener | None = None


def report(what: str, done: int, total: int | None = None) -> None:
    """Say that `done` of `total` (None: unknown) units of `what` are finished."""
    if _listener is not None:
        _listener(what, done, total)


@contextlib.contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send every `report` inside the block to `listener`."""
    global _listener
    previous, _listener = _listener, listener
    try:
        yield
    finally:
        _listener = previous
