"""What a run keeps of a card file's stat: the four numbers the parse cache compares, not the whole `os.stat_result`.

An `os.stat_result` holds about 15 objects (its times three ways, its mode, links, owner,
blocks...): about 640 bytes a card, 64 MB at 100k cards, and a `DirEntry` that is asked
`stat()` keeps it as long as the listing lives. `Vault` stats each listed file once with
`os.stat` (which the entry does not keep) and holds a `Stat`; its numbers are the very
objects the parse cache's records hold.
"""

from __future__ import annotations

import os
from typing import NamedTuple


class Stat(NamedTuple):
    """A file's stat as the parse cache reads it (the attribute names of `os.stat_result`)."""

    st_mtime_ns: int
    st_ctime_ns: int
    st_size: int
    st_ino: int


StatLike = os.stat_result | Stat


def compact(st: os.stat_result) -> Stat:
    return Stat(st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def stat_path(path: str) -> Stat:
    """`compact(os.stat(path))` (following links, as `DirEntry.stat()` does); raises OSError."""
    return compact(os.stat(path))
