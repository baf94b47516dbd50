"""What the operating system refuses (a full disk, a read-only vault, a name too long), as one line.

The core lets `OSError` rise; the CLI (`cli.main.CardsGroup`) and the MCP server turn it into
a `SystemFailure` here, so every command reports it the same way: the file, what went
wrong in words, the errno's name, exit 1 for the machine's state (SPEC §5: the command
failed) and exit 2 for a name that cannot work (SPEC §5: bad input).

`all_or_nothing` is the rule for a command that fails after its journalled job was
written (a full disk when INDEX.md is regenerated after `cards add`): the job is rolled
back, so a command that reports failure never leaves a card behind.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from cardindex.errors import CardIndexError

if TYPE_CHECKING:
    from cardindex.store.vault import Vault

# The name, not the path, is the problem: bad input (exit 2), like a usage error.
INPUT_ERRNOS = frozenset({errno.ENAMETOOLONG, errno.ENOTDIR, errno.EISDIR, errno.ELOOP, errno.ENOENT})
REASONS = {
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENAMETOOLONG: "file name too long",
    errno.EMFILE: "too many open files",
    errno.ENFILE: "too many open files in the system",
    errno.EIO: "input/output error",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.EISDIR: "is a folder",
    errno.ELOOP: "too many levels of symbolic links",
    errno.ENOENT: "no such file or folder",
    errno.ENXIO: "no reader on the other end",
}
HINTS = {
    errno.ENOSPC: "free some space and run it again",
    errno.EDQUOT: "free some space and run it again",
    errno.EMFILE: "raise the limit (ulimit -n) and run it again",
    errno.ENAMETOOLONG: "a name may have at most 255 bytes",
}
MAX_SHOWN_PATH = 120


class SystemFailure(CardIndexError):
    """The system refused a read or a write (disk full, read-only, no permission, name too long)."""

    exit_code = 1


def shown_path(path: object) -> str:
    """A path for a message: not-UTF-8 bytes escaped (`caf\\xe9.md`), an over-long one cut in the middle."""
    if isinstance(path, bytes):
        text = path.decode("utf-8", "backslashreplace")
    else:
        text = os.fsencode(str(path)).decode("utf-8", "backslashreplace")
    if len(text) > MAX_SHOWN_PATH:
        text = f"{text[:40]}…{text[-70:]} ({len(text):,} characters)"
    return text


def reason(exc: OSError) -> str:
    """`no space left on device (ENOSPC)`: the words and the errno's name."""
    code = exc.errno
    words = REASONS.get(code or -1) or (exc.strerror or str(exc)).lower() or "failed"
    name = errno.errorcode.get(code or -1)
    return f"{words} ({name})" if name else words


def describe(exc: OSError, note: str | None = None) -> str:
    """One line for `exc`: `PATH: no space left on device (ENOSPC); [note; ]free some space and run it again`."""
    line = reason(exc)
    if exc.filename is not None:
        line = f"{shown_path(exc.filename)}: {line}"
    return "; ".join(part for part in (line, note, HINTS.get(exc.errno or -1)) if part)


def failure(exc: OSError, note: str | None = None) -> SystemFailure:
    """The `SystemFailure` that reports `exc` (with `note` after what went wrong)."""
    problem = SystemFailure(describe(exc, note))
    if exc.errno in INPUT_ERRNOS:
        problem.exit_code = 2
    return problem


class Jobs:
    """The journalled jobs a command has written so far, to roll back if it then fails."""

    def __init__(self) -> None:
        self.ids: list[str] = []

    def add(self, job: str | None) -> None:
        if job is not None:
            self.ids.append(job)


@contextlib.contextmanager
def all_or_nothing(vault: Vault) -> Iterator[Jobs]:
    """A command's jobs stand only if the whole command succeeds.

    Record each job the block writes with `jobs.add(job)`. If the block then fails (an
    `OSError`, such as a full disk while INDEX.md is written, or a refusal), every
    recorded job is rolled back, newest first, and the failure is raised as one line
    saying so: the vault is as it was before the command. If the rollback itself cannot
    be written, the job is left marked interrupted (`.cardindex/pending`), so the next
    cards command finishes the rollback; the line says that instead.
    """
    jobs = Jobs()
    try:
        yield jobs
    except (OSError, CardIndexError) as exc:
        if not jobs.ids or isinstance(exc, BrokenPipeError):
            raise
        raise _rolled_back(vault, jobs.ids, exc) from None


def _rolled_back(vault: Vault, ids: list[str], exc: OSError | CardIndexError) -> CardIndexError:
    from cardindex.store.atomic import write_atomic
    from cardindex.store.jobs import roll_back
    from cardindex.store.journal import Journal

    journal = Journal(vault.state_dir)
    for job in reversed(ids):
        try:
            # roll_back expects the job marked pending (its folder fsyncs wait for the end,
            # and a crash part way must leave the next command something to finish).
            write_atomic(journal.pending_mark, job + "\n")
        except OSError as again:
            return _combined(exc, f"job {job} is complete and stays (rolling it back failed too: "
                                  f"{reason(again)}); `cards undo {job}` reverts it once there is room")
        try:
            roll_back(vault, journal, job)
        except (OSError, CardIndexError) as again:
            why = reason(again) if isinstance(again, OSError) else str(again)
            return _combined(exc, f"rolling back job {job} failed too ({why}); it stays marked interrupted "
                                  "and the next cards command rolls it back")
    vault.invalidate()
    done = ", ".join(reversed(ids))
    return _combined(exc, f"rolled back job {done}; the vault is as it was")


def _combined(exc: OSError | CardIndexError, note: str) -> CardIndexError:
    if isinstance(exc, OSError):
        return failure(exc, note)
    combined = CardIndexError(f"{exc.message}; {note}", path=exc.path, line=exc.line)
    combined.exit_code = exc.exit_code
    return combined
