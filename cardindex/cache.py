"""The parse cache: what parsing a card's bytes gave, keyed on a hash of those bytes.

Keys are content hashes, not mtimes (git churns mtimes), and the file name carries the
tool version, so an upgrade never reads another version's results. It is written with
`marshal` (fast, and unlike pickle it cannot run code); dates travel as tagged tuples.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import marshal
from pathlib import Path
from typing import Any

from . import __version__
from .atomic import write_atomic
from .card import Parsed, Problem

FORMAT = 1
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# cardindex parse cache; safe to delete.\n"


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class ParseCache:
    """Load once, look up per card, save once if anything changed."""

    def __init__(self, state_dir: Path, *, enabled: bool = True) -> None:
        self.folder = state_dir / "cache"
        self.path = self.folder / f"cards-{__version__}-{FORMAT}.marshal"
        self.enabled = enabled
        self._entries: dict[bytes, tuple[Any, ...]] = {}
        self._used: set[bytes] = set()
        self._dirty = False
        if enabled:
            try:
                loaded = marshal.loads(self.path.read_bytes())
            except (OSError, EOFError, ValueError, TypeError):
                loaded = {}
            if isinstance(loaded, dict):
                self._entries = loaded

    def get(self, key: bytes) -> Parsed | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        self._used.add(key)
        try:
            meta, offset, problems = entry
            return Parsed(_decode(meta), offset, tuple(Problem(*p) for p in problems))
        except (TypeError, ValueError):
            return None

    def put(self, key: bytes, parsed: Parsed) -> None:
        self._entries[key] = (_encode(parsed.meta), parsed.body_offset, tuple(tuple(p) for p in parsed.problems))
        self._used.add(key)
        self._dirty = True

    def save(self) -> None:
        """Write the entries used in this run, when anything was added or dropped."""
        if not self.enabled:
            return
        if not self._dirty and len(self._used) == len(self._entries):
            return
        keep = {k: self._entries[k] for k in self._used}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            tag = self.folder / "CACHEDIR.TAG"
            if not tag.exists():
                write_atomic(tag, TAG)
                ignore = self.folder.parent / ".gitignore"
                if not ignore.exists():
                    write_atomic(ignore, "# cardindex local state: never committed\n*\n")
            write_atomic(self.path, marshal.dumps(keep))
        except OSError:
            pass  # a cache that cannot be written only costs speed


def _encode(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dt.datetime):
        return ("t", value.isoformat())
    if isinstance(value, dt.date):
        return ("d", value.isoformat())
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, tuple):
        kind, text = value
        return dt.datetime.fromisoformat(text) if kind == "t" else dt.date.fromisoformat(text)
    return value
