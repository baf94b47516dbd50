"""The vault lock: one writer at a time for INDEX.md, the journal and card moves."""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path
from types import TracebackType

from cardindex.errors import LockTimeout, UsageError

DEFAULT_TIMEOUT = 60.0


def lock_timeout() -> float:
    """Seconds to wait for the vault lock: `$CARDS_LOCK_TIMEOUT` (a number, 0 or more), else 60."""
    raw = os.environ.get("CARDS_LOCK_TIMEOUT")
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):  # also NaN
        raise UsageError(f"CARDS_LOCK_TIMEOUT must be a number of seconds (0 or more), got {raw!r}")
    return value


class VaultLock:
    """An exclusive `flock` on `.cardindex/lock` (never on a file that is replaced).

    The kernel drops the lock when its holder dies, so a killed process never leaves a
    stale lock behind; the file only records who held it last, for the error message:
    its pid and subcommand (`cards add`), never the arguments, which may hold a secret.
    """

    def __init__(self, state_dir: Path, timeout: float | None = None) -> None:
        self.path = state_dir / "lock"
        if timeout is None:
            timeout = lock_timeout()
        self.timeout = timeout
        self._fd: int | None = None
        self._depth = 0

    def __enter__(self) -> VaultLock:
        if self._depth:
            self._depth += 1
            return self
        import fcntl

        writable = True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise
            # A vault this process cannot write (read-only, another user's): a flock needs
            # only a read-only descriptor; with no lock file to open, go on unlocked: a
            # reader (`index --check`) needs none, a writer fails at its first write.
            writable = False
            try:
                fd = os.open(self.path, os.O_RDONLY)
            except OSError:
                self._depth = 1
                return self
        deadline = time.monotonic() + self.timeout
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    from cardindex.redaction import shown  # a lock file of an older version holds a whole command line

                    holder = shown(os.pread(fd, 200, 0).decode("utf-8", "replace").strip()) or "another process"
                    os.close(fd)
                    raise LockTimeout(
                        f"the vault is locked by {holder} (waited {self.timeout:g} s); "
                        "try again, or raise CARDS_LOCK_TIMEOUT",
                        path=str(self.path),
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        if writable:
            with contextlib.suppress(OSError):  # who holds it is only for the message; a full disk may refuse it
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"pid {os.getpid()} ({_command()})\n".encode("utf-8", "replace"), 0)
        self._fd = fd
        self._depth = 1
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


GLOBAL_OPTIONS_WITH_VALUE = ("--vault",)


def _command() -> str:
    """What holds the lock, for the message another process shows: `cards consolidate`, say.

    Only the program and its subcommand: the other arguments may hold a secret (a
    refused `cards add "token=..."`), and the lock file is read by every other process.
    """
    import sys

    from cardindex.redaction import printable

    program = os.path.basename(sys.argv[0]) or "python"
    if program in ("__main__.py", "-m", "-c"):
        program = "cards"
    args = iter(sys.argv[1:])
    for arg in args:
        if arg in GLOBAL_OPTIONS_WITH_VALUE:
            next(args, None)
        elif not arg.startswith("-"):
            return printable(f"{program} {arg}"[:60])
    return printable(program[:60])
