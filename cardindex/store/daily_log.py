"""The raw tier: one append-only Markdown file per day under the vault's `log/` (SPEC §10).

An entry is a list item that starts with its UTC time; the lines of a longer text follow,
indented by two spaces, so the file reads as Markdown and splits back into entries:

    # Log 2026-12-01

    - 2026-12-01T09:14:03Z Left the export screen half done: the CSV toggle is next.
    - 2026-12-01T11:52:40Z Decided: exports stream rows, they never build the file in memory.
      The 2 GB customer export ran out of memory on the worker.

Many writers append at once (agents, hooks, the MCP server): each entry is one `write`
on a descriptor opened with O_APPEND, under an exclusive `flock` of that day's file, then
fsynced, so entries never interleave and none is lost. Logs are never cards, never
indexed, and never rewritten by cardindex: what was appended stays byte for byte.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from cardindex.errors import Refused, UsageError

MAX_ENTRY = 64 * 1024  # characters: a log entry is a note, not a file dump
_DAY_FILE = re.compile(r"^(\d{4}-\d{2}-\d{2})\.md$")
_ENTRY_START = re.compile(r"^- (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z) ?(.*)$")


class Entry(NamedTuple):
    """One log entry: when, what, and where it starts (file and 1-based line)."""

    time: dt.datetime | None  # None: a line written by hand, without a time
    text: str
    path: Path
    line: int


def utc_now() -> dt.datetime:
    """Now, in UTC to the second; `CARDS_NOW=ISO-TIME` pins it for scripts and tests."""
    pinned = os.environ.get("CARDS_NOW")
    if pinned:
        return parse_time(pinned, "CARDS_NOW")
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0)


def parse_time(text: str, what: str = "time") -> dt.datetime:
    """An ISO date or date-time; naive times are UTC."""
    try:
        value = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"{what} must be an ISO date or time such as 2026-12-01T09:30:00Z, got {text!r}") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc).replace(microsecond=0)


def stamp(time: dt.datetime) -> str:
    return time.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def format_entry(text: str, time: dt.datetime) -> str:
    """The bytes an entry adds to its day's file: a list item, continuation lines indented."""
    lines = text.strip("\n").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first, rest = lines[0].strip(), [line.rstrip() for line in lines[1:]]
    body = "".join(f"\n  {line}" if line else "\n" for line in rest)
    return f"- {stamp(time)} {first}{body}\n"


def check_text(text: str) -> str:
    """The text of an entry, or a one-line refusal: empty, too long, or holding control characters."""
    stripped = text.strip()
    if not stripped:
        raise UsageError("nothing to log: the entry is empty")
    if len(stripped) > MAX_ENTRY:
        raise UsageError(f"a log entry holds at most {MAX_ENTRY} characters (this one {len(stripped)}); "
                         "log a summary and a path instead")
    bad = next((c for c in stripped if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0), None)
    if bad is not None:
        raise UsageError(f"the entry holds a control character (U+{ord(bad):04X}); logs are plain text")
    return stripped


def day_path(log_dir: Path, day: dt.date) -> Path:
    return log_dir / f"{day.isoformat()}.md"


def append(log_dir: Path, text: str, time: dt.datetime) -> Entry:
    """Append one entry to its day's file, creating the folder and the file as needed.

    Safe under many concurrent writers: the entry is written in one `write` on an
    O_APPEND descriptor while holding an exclusive `flock` on that file, then fsynced.
    The header of a new day's file is written under the same lock, by whoever is first.
    """
    import fcntl

    entry = format_entry(check_text(text), time)
    path = day_path(log_dir, time.date())
    created = not log_dir.is_dir()
    log_dir.mkdir(parents=True, exist_ok=True)
    if created:
        _fsync_dir(log_dir.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        data = entry if size else f"# Log {time.date().isoformat()}\n\n{entry}"
        line = 1 + _lines_before(path, size) + (0 if size else 2)
        _write_all(fd, data.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)  # closing drops the flock
    if not size:
        _fsync_dir(log_dir)
    return Entry(time, text.strip(), path, line)


def _lines_before(path: Path, size: int) -> int:
    """How many lines the first `size` bytes of a log hold (the new entry's line follows them)."""
    if not size:
        return 0
    with open(path, "rb") as handle:
        return handle.read(size).count(b"\n")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def days(log_dir: Path) -> list[tuple[dt.date, Path]]:
    """The day files of a log folder, oldest first (other files are not days and are left alone)."""
    try:
        names = os.listdir(log_dir)
    except OSError:
        return []
    out = []
    for name in names:
        match = _DAY_FILE.match(name)
        if not match:
            continue
        try:
            out.append((dt.date.fromisoformat(match.group(1)), log_dir / name))
        except ValueError:
            continue
    return sorted(out)


def entries(path: Path) -> Iterator[Entry]:
    """The entries of one day's file, in order; a line written by hand is an entry without a time.

    The `# Log …` header and blank lines are not entries; a file that cannot be read or
    decoded yields nothing (logs are never judged as cards, so a bad one is not an error).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    current: list[str] = []
    start, time = 0, None

    def done() -> Iterator[Entry]:
        if current:
            yield Entry(time, "\n".join(current).strip(), path, start)

    for number, line in enumerate(text.split("\n"), 1):
        match = _ENTRY_START.match(line)
        if match:
            yield from done()
            current, start = [match.group(2)], number
            time = dt.datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
        elif current and (line.startswith("  ") or not line.strip()) and time is not None:
            current.append(line[2:] if line.startswith("  ") else "")
        elif line.strip() and not (number == 1 and line.startswith("# ")):
            yield from done()
            current, start, time = [line.strip()], number, None
        else:
            yield from done()
            current = []
    yield from done()


def log_to(log_dir: Path, text: str, time: dt.datetime) -> Entry:
    """`append`, refusing an entry that holds a secret (logs are committed and read by agents), as `cards add` does."""
    from cardindex.secrets import find_secrets

    found = find_secrets(text)
    if found:
        raise Refused(f"not logged: the entry holds a secret ({found[0].kind}); logs are committed and read by "
                      "agents. Keep the secret in a secret manager and log where it lives")
    return append(log_dir, text, time)
