"""The parsed settings of a vault's `.cardindex.yaml`, kept by the hash of its bytes, so a warm run imports no YAML.

Importing PyYAML costs a warm `cards search` 8-10 ms, a tenth of the whole process, to
read a handful of settings that change once a month. So `config.read_settings`, having
read and checked the file's bytes, asks `recall` first: when the memo beside the vault's
other caches (`.cardindex/cache/settings.marshal`) was made from the same bytes (a
BLAKE2 hash of them, not their stat, so an edit in the same second is never missed), its
mapping is the one YAML gave, and every check of the file (no anchors, no key twice) was
passed by those very bytes. Otherwise the file is parsed, and `keep` writes the memo
(atomically, `store.atomic`) when that cache folder already exists: a folder that is not
yet a vault gets nothing written. A memo that cannot be read or written is no error: the
file is simply parsed. What YAML gives that marshal cannot hold (a date) is not kept.
"""

from __future__ import annotations

import hashlib
import marshal
from pathlib import Path
from typing import Any

MEMO = ("cache", "settings.marshal")
STATE = ".cardindex"
_VERSION = 1


def _memo(path: Path) -> Path:
    return path.parent.joinpath(STATE, *MEMO)


def _digest(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=16).digest()


def recall(path: Path, raw: bytes) -> dict[str, Any] | None:
    """The mapping parsed earlier from exactly `raw` (the bytes of the settings file at `path`), or None."""
    try:
        with open(_memo(path), "rb") as fh:
            kept = marshal.loads(fh.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if not (isinstance(kept, tuple) and len(kept) == 3 and kept[0] == _VERSION and kept[1] == _digest(raw)):
        return None
    data = kept[2]
    return data if isinstance(data, dict) else None


def keep(path: Path, raw: bytes, data: dict[str, Any]) -> None:
    """Remember that `raw` parses to `data`, when the vault's cache folder exists (best effort)."""
    memo = _memo(path)
    if not memo.parent.is_dir():
        return
    try:
        blob = marshal.dumps((_VERSION, _digest(raw), data))
    except ValueError:  # a value marshal cannot hold (a date): parsed again each time
        return
    from cardindex.store.atomic import write_atomic

    try:
        write_atomic(memo, blob, durable=False)
    except OSError:  # a read-only vault: parsed again each time
        return
