"""One updating progress line on stderr for work that takes more than about a second.

Shown only when it helps and cannot hurt: stderr is a terminal, `-q/--quiet` was not
given, `CI` is not set and neither `NO_COLOR` nor `TERM=dumb` asks for plain output.
The line appears after a second (`CARDS_PROGRESS_DELAY` seconds, for tests), is
redrawn in place with `\\r` (`undo: restoring files 120/1,600`), never wider than the
terminal, and erased when the work ends, so what the command prints stays as it was.
The core reports through `store.progress.report`; commands name phases with `phase`.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from types import TracebackType
from typing import TextIO

QUIET = False  # set by the `cards` group from -q/--quiet
DELAY = 1.0
INTERVAL = 0.1


def wanted(stream: TextIO) -> bool:
    """Whether a progress line may be drawn on `stream`."""
    if QUIET or os.environ.get("CI") or "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """`with Progress("consolidate") as p: p.phase("planning")`: the line for one command's long work."""

    def __init__(self, command: str, stream: TextIO | None = None) -> None:
        self.command = command
        self.stream = stream or sys.stderr
        self.enabled = wanted(self.stream)
        self._what = ""
        self._done: int | None = None
        self._total: int | None = None
        self._since = time.monotonic()
        self._drawn = 0  # width of what is on the line now
        self._last = ""
        self._due = float("inf")  # when the line may next be drawn (set once the delay has passed)
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._listening = contextlib.ExitStack()

    def __enter__(self) -> Progress:
        if self.enabled:
            from cardindex.store.progress import listening

            self._listening.enter_context(listening(self.update))
            self._thread = threading.Thread(target=self._run, name="cards-progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop drawing and erase the line (idempotent)."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        self._thread = None
        self._listening.close()
        with self._lock:
            self._erase()

    def phase(self, what: str, total: int | None = None) -> None:
        """Start a new part of the work (`planning over 10,000 cards`), with a count to come or none."""
        with self._lock:
            self._what, self._done, self._total, self._since = what, (0 if total else None), total, time.monotonic()

    def update(self, what: str, done: int, total: int | None = None) -> None:
        """How far the current part got (what `store.progress.report` calls)."""
        with self._lock:
            now = time.monotonic()
            if what != self._what:
                self._since = now
            self._what, self._done, self._total = what, done, total
            if self._due <= now:  # drawn from here too, so a count moves as fast as the work (at most every INTERVAL)
                self._draw(self.line())

    def line(self) -> str:
        """The text drawn now."""
        text = f"{self.command}: {self._what}" if self._what else f"{self.command}: working"
        if self._done is not None and self._total:
            text += f" {self._done:,}/{self._total:,}"
        elif self._done:
            text += f" {self._done:,}"
        seconds = int(time.monotonic() - self._since)
        return text + (f" ({seconds}s)" if seconds >= 2 and not self._total else "")

    def _run(self) -> None:
        if self._stop.wait(_delay()):
            return
        while not self._stop.is_set():
            with self._lock:
                if self._due == float("inf") or self._due <= time.monotonic():
                    self._draw(self.line())
            self._stop.wait(INTERVAL)

    def _draw(self, text: str) -> None:
        import shutil  # only when a bar is drawn: it imports the archive modules (bz2, lzma), 5 ms on every command

        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 10)
        text = text[:width]
        if text == self._last:
            return
        pad = " " * max(self._drawn - len(text), 0)
        try:
            self.stream.write("\r" + text + pad + "\b" * len(pad))
            self.stream.flush()
        except (OSError, ValueError):
            self._stop.set()
            return
        self._drawn, self._last = len(text), text
        self._due = time.monotonic() + INTERVAL

    def _erase(self) -> None:
        self._due = float("inf")
        if self._drawn:
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\r" + " " * self._drawn + "\r")
                self.stream.flush()
            self._drawn, self._last = 0, ""


def _delay() -> float:
    try:
        return max(float(os.environ.get("CARDS_PROGRESS_DELAY", DELAY)), 0.0)
    except ValueError:
        return DELAY
