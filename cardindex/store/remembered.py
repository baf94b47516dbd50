"""Remembered results: a value kept under `.cardindex/cache/` with a digest of its inputs.

Lets a derived result (the rendered index, a session-start context) be reused while
nothing it depends on has changed; with `Vault.fingerprint()` in the key, an unchanged
vault is not even loaded. Written with marshal (no pickle), never durable: a lost memo
only costs the work again.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
from pathlib import Path
from typing import Any


def digest(*parts: object) -> bytes:
    """A key for the inputs `parts` (their repr) and the tool's version."""
    from cardindex import __version__

    return hashlib.blake2b(repr((__version__, *parts)).encode("utf-8", "surrogatepass"), digest_size=16).digest()


class Memo:
    def __init__(self, path: Path, key: bytes | None) -> None:
        self.path = path
        self.key = key  # None: the inputs cannot be known cheaply; never hit, never stored

    def get(self) -> Any:
        """The remembered value, or None when there is none for this key."""
        if self.key is None:
            return None
        try:
            key, value = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        return value if key == self.key else None

    def put(self, value: Any) -> None:
        from cardindex.store.atomic import write_atomic

        if self.key is not None and self.path.parent.is_dir():
            with contextlib.suppress(OSError, ValueError):
                write_atomic(self.path, marshal.dumps((self.key, value)), durable=False)
