"""Tables built from the package's own data and code, remembered on disk between processes.

Some tables cost more to build than a whole `cards add` should: the WordNet synonym groups
by normalized word take about 0.26 s (32,000 words through `meaning.words.normal`), and by
Snowball stem 0.14 s more, in every process that compares two cards. They depend only on
the installed package (its data files and the code that derives from them), never on a
vault's cards; they are kept as marshal in the `.cardindex/cache/` of the vault this
process opened (`use`, called by `Vault` when its cache is on), as the vault's other caches
are: nothing is written outside the vault, and `--no-cache` builds them in memory.

A table is keyed on a digest of the tool's version, the interpreter's, and the path, size
and mtime of every file under the package folders it is built from (as the lint cache
keys its results on the sources): an edited source or a new version builds it again. A
table that is missing, unreadable or of other inputs is built and written (best effort: a
read-only or full disk only costs the build). The value must be marshal-able.

`keyed` is the same store for a table whose inputs the caller names by a key of its own:
the repo's passage index and blocks (`meaning.repo_facts.derived`) are keyed on the code's
digest and the repo's stamp, the key the repo's facts themselves are remembered under.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
PACKAGE = Path(__file__).resolve().parent.parent
FORMAT = 1


_FOLDER: list[Path] = []  # the cache folder of the vault opened last with its cache on (empty: none)


def use(folder: Path | None) -> None:
    """Keep tables in `folder` (a vault's `.cardindex/cache`), or nowhere (None)."""
    from cardindex import lazy

    lazy.kept_by(cache_folder, remembered, keep)  # compiled patterns are kept as one of these tables
    wanted = [] if folder is None else [folder]
    if _FOLDER != wanted:  # the same vault opened again keeps the object it had (nothing freed, nothing made)
        _FOLDER[:] = wanted


def cache_folder() -> Path | None:
    """The cache folder tables are kept in now (None: none, the cache is off or no vault is open)."""
    return _FOLDER[0] if _FOLDER else None


def inputs_digest(name: str, folders: Sequence[str]) -> bytes:
    """What table `name` is built from: the versions, and every file under `folders` (package-relative) by stat."""
    from cardindex import __version__

    h = hashlib.blake2b(f"{name}\0{__version__}\0{sys.version}\0{FORMAT}\0".encode(), digest_size=16)
    for folder in folders:
        for dirpath, dirnames, filenames in sorted(os.walk(PACKAGE / folder)):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for file in sorted(filenames):
                if file.endswith(".pyc"):
                    continue
                try:
                    st = os.stat(os.path.join(dirpath, file))
                except OSError:
                    continue
                rel = os.path.relpath(os.path.join(dirpath, file), PACKAGE)
                h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.digest()


def built(name: str, folders: Sequence[str], make: Callable[[], T]) -> T:
    """`make()`, or the table it made last time from the same `folders` of the package (see the module docstring)."""
    if not _FOLDER:
        return make()
    return keyed(name, inputs_digest(name, folders), make)


def keyed(name: str, key: bytes, make: Callable[[], T]) -> T:
    """`make()`, or the table it made last time under `key` (`make` must give the same table for the same key)."""
    found = remembered(name, key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    value = make()
    keep(name, key, value)
    return value


def remembered(name: str, key: bytes) -> Any:
    """The table kept as `name` under `key`, or None (none kept, another key, an unreadable file, no cache)."""
    if not _FOLDER:
        return None
    found = _load(_FOLDER[0] / f"built-{name}.marshal")
    return found[1] if found is not None and found[0] == key else None


def keep(name: str, key: bytes, value: Any) -> None:
    """Keep `value` (marshal-able) as table `name` under `key`, in the vault's cache folder (best effort)."""
    from cardindex.errors import CardIndexError
    from cardindex.store.atomic import write_atomic

    if not _FOLDER or not _FOLDER[0].is_dir():  # a vault without `.cardindex/cache/` gets none made for this
        return
    with contextlib.suppress(OSError, ValueError, CardIndexError):
        write_atomic(_FOLDER[0] / f"built-{name}.marshal", marshal.dumps((key, value)), durable=False)


def _load(path: Path) -> tuple[bytes, Any] | None:
    try:
        found = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], bytes):
        return found
    return None
