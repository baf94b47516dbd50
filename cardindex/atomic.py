"""The one writer: every file cardindex writes goes through here, atomically.

A reader (an editor, a watcher, an agent, a crash) sees the old file or the new one,
never half of either.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

TEMP_SUFFIX = ".cards-tmp"


def temp_path(target: Path) -> Path:
    """A hidden temp file beside `target`: never taken for a card, removed on failure."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def _write_temp(target: Path, data: bytes, mode: int | None, durable: bool = True) -> Path:
    tmp = temp_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(target: Path, data: bytes | str, *, durable: bool = True) -> None:
    """Replace `target` with `data`: temp file, fsync, keep the mode, rename, fsync the folder.

    `durable=False` skips the fsyncs, for caches: still atomic, just not crash-proof.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    tmp = _write_temp(target, data, mode, durable)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_dir(target.parent)


def create_new(target: Path, data: bytes | str) -> bool:
    """Create `target` with `data` only if nothing is there; False when the name is taken.

    The content is complete on disk before the name appears (a hard link of the temp
    file), so no other process ever sees the file empty or half written.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(target, data, None)
    try:
        os.link(tmp, target)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _fsync_dir(target.parent)
    return True


def move_new(source: Path, target: Path, data: bytes | str) -> bool:
    """Write `data` to `target` (which must not exist), then remove `source`.

    Used to archive a card with updated fields: the new file is complete before the old
    one goes, so a crash leaves at worst both, never neither.
    """
    if not create_new(target, data):
        return False
    os.unlink(source)
    _fsync_dir(source.parent)
    return True
