"""The one writer: every file cardindex writes goes through here, atomically.

A reader (an editor, a watcher, an agent, a crash) sees the old file or the new one,
never half of either.

Durability has two halves: the file's bytes (fsync of the file before it gets its name)
and the name itself (fsync of the folder after the rename, link or unlink). Each write
does both, unless it runs inside `deferred_folder_syncs()`, which defers the second half
so that a job touching many files fsyncs each folder once instead of once per file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

TEMP_SUFFIX = ".cards-tmp"


class Folders:
    """Folders whose entries changed (a rename, a link, an unlink) and are not yet durable.

    `sync` fsyncs each distinct folder once, however many of its files changed.
    """

    def __init__(self) -> None:
        self._folders: dict[Path, None] = {}  # insertion-ordered set

    def add(self, folder: Path) -> None:
        self._folders[folder] = None

    def sync(self) -> None:
        for folder in self._folders:
            _fsync_dir(folder)
        self._folders.clear()


_deferred: ContextVar[Folders | None] = ContextVar("cardindex_deferred_folders", default=None)


@contextlib.contextmanager
def deferred_folder_syncs() -> Iterator[Folders]:
    """Within the block, durable writes defer their folder fsync; leaving it fsyncs each folder once.

    `write_atomic`, `create_new`, `move_new` and `remove` still fsync every file's bytes
    before the file gets its name, so no name ever points at bytes that are not on disk.
    Only the folder fsync (which makes the new name, or a removal, survive a power loss)
    is collected, and done once per folder when the block ends, also when it ends with
    an exception.

    Safe only for the card writes of a journalled job while its pending mark is set
    (`jobs.run_job`, `jobs.roll_back`): the prior bytes and the journal entry are
    durable before the first write, and the mark is cleared only after the block. A
    crash or a power loss inside the block, which can lose any of the job's renames,
    links or unlinks (in any combination, since folders are synced in no particular
    order), leaves the mark set, and the next job rolls the interrupted one back: each
    file is what the job found, what it wrote, or missing, and the journal has the
    bytes to put back. Nothing else may write inside the block: its names would not be
    durable until the end, with no mark to repair them.

    A block rather than an argument, so the writers keep their signatures (the fault
    injection tests replace `lifecycle.create_new` and `lifecycle.move_new` with
    functions of exactly those). A ContextVar, so another thread is not affected.
    """
    folders = Folders()
    token = _deferred.set(folders)
    try:
        yield folders
    finally:
        _deferred.reset(token)
        folders.sync()


def _folder_changed(folder: Path) -> None:
    """Make a new entry of `folder` durable: now, or when the deferring block ends."""
    collector = _deferred.get()
    if collector is None:
        _fsync_dir(folder)
    else:
        collector.add(folder)


def temp_path(target: Path) -> Path:
    """A hidden temp file beside `target`: never taken for a card, removed on failure."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def _make_folder(folder: Path, durable: bool) -> None:
    """Create `folder` and any missing parents; each new folder's own name is made durable too."""
    if folder.is_dir():
        return
    missing = []
    probe = folder
    while not probe.exists() and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    folder.mkdir(parents=True, exist_ok=True)
    if durable:
        for made in reversed(missing):
            _folder_changed(made.parent)


@contextlib.contextmanager
def _removed_on_error(tmp: Path, target: Path) -> Iterator[None]:
    """On any error, remove the temp file `tmp` and re-raise (an OSError as one about `target`)."""
    try:
        yield
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _about(exc, target) from None
        raise


def _write_temp(target: Path, data: bytes, mode: int | None, durable: bool = True) -> Path:
    tmp = temp_path(target)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    except OSError as exc:
        raise _about(exc, target) from None
    with _removed_on_error(tmp, target):
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
    return tmp


def _about(exc: OSError, target: Path) -> OSError:
    """`exc` naming the file the caller asked for, not our temp file (nor no file: a failed write names none)."""
    if isinstance(exc, BrokenPipeError) or (exc.filename is not None and exc.filename2 is None
                                            and not str(exc.filename).endswith(TEMP_SUFFIX)):
        return exc
    return OSError(exc.errno, exc.strerror or os.strerror(exc.errno or 0), str(target))


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
    Inside `deferred_folder_syncs()` the folder fsync waits for the end of the block.

    Only a regular file is replaced. A symlink is followed (the file it points to is
    replaced, the link stays a link). A FIFO or a character device (`/dev/null`,
    `/dev/stdout`, a terminal) is written into, as a shell's `>` does: renaming over it
    would put a regular file in its place; so is any name under /dev/ or /proc/ (they
    name what is already open: `/dev/stdout` may be a shell's `>>` file). Anything else
    (a block device, a socket) is refused with one line, and nothing is written.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    st: os.stat_result | None = None
    try:
        st = os.lstat(target)
        if stat.S_ISLNK(st.st_mode):
            st = os.stat(target)  # what the link names (FileNotFoundError: a dangling link)
            if stat.S_ISREG(st.st_mode) and not _under_system_folder(target):
                target = Path(os.path.realpath(target))
    except FileNotFoundError:
        if st is not None:  # a dangling link: create the file it names, and keep the link
            target = Path(os.path.realpath(target))
        st = None
    except OSError as exc:
        raise _about(exc, target) from None
    if st is not None and (not stat.S_ISREG(st.st_mode) or _under_system_folder(target)):
        _write_special(target, data, st)
        return
    _make_folder(target.parent, durable)
    mode = None if st is None else st.st_mode & 0o7777
    tmp = _write_temp(target, data, mode, durable)
    with _removed_on_error(tmp, target):
        os.replace(tmp, target)
    if durable:
        _folder_changed(target.parent)


def _under_system_folder(target: Path) -> bool:
    """`/dev/stdout`, `/proc/self/fd/1`: names for what is already open, never renamed over."""
    return os.path.abspath(target).startswith(("/dev/", "/proc/"))


def _write_special(target: Path, data: bytes, st: os.stat_result) -> None:
    """Write into a FIFO or a character device in place; refuse any other file that is not a regular one."""
    from cardindex.errors import Refused

    if stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    if not (stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode) or stat.S_ISREG(st.st_mode)):
        kind = "a block device" if stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file"
        raise Refused(f"{target}: {kind}; cards writes only regular files, FIFOs and character devices. Nothing written")
    try:
        flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | (os.O_TRUNC if stat.S_ISREG(st.st_mode) else 0)
        fd = os.open(target, flags)  # a FIFO blocks here until a reader opens it
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
    except OSError as exc:
        raise _about(exc, target) from None


def create_new(target: Path, data: bytes | str) -> bool:
    """Create `target` with `data` only if nothing is there; False when the name is taken.

    The content is complete on disk before the name appears (a hard link of the temp
    file), so no other process ever sees the file empty or half written.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    _make_folder(target.parent, True)
    tmp = _write_temp(target, data, None)
    try:
        os.link(tmp, target)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _folder_changed(target.parent)
    return True


def move_new(source: Path, target: Path, data: bytes | str) -> bool:
    """Write `data` to `target` (which must not exist), then remove `source`.

    Used to archive a card with updated fields: the new file is complete before the old
    one goes, so a crash leaves at worst both, never neither. (Inside
    `deferred_folder_syncs()` a power loss can keep the removal and lose the new name;
    the pending job's rollback then puts the source back from the journal.)
    """
    if not create_new(target, data):
        return False
    remove(source)
    return True


def remove(target: Path) -> None:
    """Delete `target` (FileNotFoundError if it is not there) and make the removal durable."""
    os.unlink(target)
    _folder_changed(target.parent)
