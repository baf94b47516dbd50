"""The one writer's temp files that a killed process left behind: finding and removing them.

`atomic` writes `.NAME.<8 hex>.cards-tmp` beside its target and renames it; a kill -9
between the two leaves it. `jobs.recover` and `recovery.settle` remove the stale ones.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from pathlib import Path

from cardindex.store.atomic import TEMP_SUFFIX
from cardindex.store.vault import Vault

TEMP_NAME = re.compile(r"\..+\.[0-9a-f]{8}" + re.escape(TEMP_SUFFIX))


CACHE_GRACE = 10.0  # seconds: a lock-free cache writer is never this slow between its write and its rename


def remove_stale_temps(vault: Vault, *, folders: Iterable[Path] | None = None) -> int:
    """Remove our temp files older than now (caller holds the lock); returns how many.

    `folders`: only these (not their subfolders); default the whole vault tree, hidden
    folders skipped except `.cardindex/`.
    """
    now = time.time()
    cache = vault.state_dir / "cache"
    removed = 0
    for path in _temps(_tree(vault) if folders is None else folders):
        limit = now - CACHE_GRACE if cache in (path.parent, path.parent.parent) else now  # the parse cache's shards: a folder below
        try:
            if os.lstat(path).st_mtime < limit:
                os.unlink(path)
                removed += 1
        except FileNotFoundError:
            continue
    return removed


def _temps(folders: Iterable[Path]) -> Iterable[Path]:
    """Our temp files directly in each folder (a missing folder has none)."""
    seen: set[Path] = set()
    for folder in folders:
        if folder in seen:
            continue
        seen.add(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(TEMP_SUFFIX) and TEMP_NAME.fullmatch(entry.name) and not entry.is_dir(follow_symlinks=False):
                yield Path(entry.path)


def _tree(vault: Vault) -> list[Path]:
    """Every folder of the vault (symlinks not followed; hidden ones skipped except `.cardindex/`)."""
    out: list[Path] = []
    stack = [vault.root]
    while stack:
        folder = stack.pop()
        out.append(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and (not entry.name.startswith(".") or Path(entry.path) == vault.state_dir):
                stack.append(Path(entry.path))
    return out
