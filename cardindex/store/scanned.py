"""Which card texts hold a secret, as found while loading them: on both cores when the load forks.

A cold load parses half the cards in a forked child (`loading`); the child also asks
`secrets.has_secret` of each text it parsed, and the parent of its own half, so the
index's withholding (`index.withhold`) does not scan ten thousand texts again on one
core. Answers are kept for this process only, keyed like the withholding's own memo.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

_KNOWN: dict[bytes, bool] = {}


def text_key(text: str) -> bytes:
    """The key of a card text, in the withholding memo and here."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()


# path -> (the text last keyed there, its key): a long-running process (`cards watch`) keeps its
# unchanged cards, so their texts stay the same objects and are not hashed again on every pass.
# Only there (`remember_text_keys`, which `ParseCache.keep_cards` calls): a one-shot command
# hashes each text once anyway, and the memo would only add to its peak memory.
_BY_PATH: dict[str, tuple[str, bytes]] = {}
_BY_PATH_MAX = 200_000
_REMEMBERING: list[bool] = []


def remember_text_keys() -> None:
    """From now on, `card_text_key` remembers each path's key (this process keeps its cards between passes)."""
    if not _REMEMBERING:
        _REMEMBERING.append(True)


def card_text_key(path: str, text: str) -> bytes:
    """`text_key(text)` of the card at `path`, remembered while that path holds the same text object."""
    if not _REMEMBERING:
        return text_key(text)
    found = _BY_PATH.get(path)
    if found is not None and found[0] is text:
        return found[1]
    if len(_BY_PATH) >= _BY_PATH_MAX:
        _BY_PATH.clear()
    key = text_key(text)
    _BY_PATH[path] = (text, key)
    return key


def scan(texts: Iterable[str]) -> dict[bytes, bool]:
    """Whether each text holds a secret, by its key."""
    from cardindex.secrets import has_secret

    return {text_key(t): has_secret(t) for t in texts if t}


def note(found: dict[bytes, bool]) -> None:
    _KNOWN.update(found)


def known(key: bytes) -> bool | None:
    """What a scan during this process's load found for the text of `key` (None: not scanned)."""
    return _KNOWN.get(key)
