"""The journal: every change cards makes to the user's cards, with what it replaced.

A job is one JSON file under `.cardindex/journal/`, named by a sortable id. Each action
names the card, the reason, and the files it touched with content hashes before and
after; the prior bytes of every file changed or removed are kept under
`.cardindex/objects/` by hash, so a job can be audited and undone byte for byte.

Kept bytes live in one of two places, and `Journal.blob` finds them in either:

- a loose object, `objects/ab/cdef…` (the sha256 hex split after two digits), one file
  per blob: what `keep` writes (undo, `lint --fix`) and what older vaults hold;
- a pack, `objects/pack/<sha256 of the pack>.pack`, every prior blob of one job in one
  file (one write, one fsync, instead of one durable file per card): what `keep_many`
  writes for `jobs.apply`. The job's entry names it (`"pack": "<sha256>"`).

A pack is plain and self-describing, binary-safe (a blob is any bytes, counted, never
escaped), readable with `less`:

    cardindex-pack 1
    blob <sha256 hex> <size in bytes>
    <exactly size bytes>
    (a newline)
    … one `blob` header, bytes and newline per blob …
    end <number of blobs>

The `end` line tells a complete pack from a truncated one, and every blob is checked
against its hash when it is read, so a damaged pack is reported (`DamagedPack`), never
taken for the card's old text.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.errors import CardIndexError
from cardindex.store.atomic import remove, write_atomic

PACK_MAGIC = b"cardindex-pack 1\n"


class FileChange(NamedTuple):
    """One file a job touched. `before`/`after` are sha256 hex digests; None: absent."""

    path: str
    before: str | None
    after: str | None


class Action(NamedTuple):
    action: str  # add, supersede, archive, merge, conflict, ...
    card: str  # the card id the action is about
    reason: str
    files: tuple[FileChange, ...] = ()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class DamagedPack(CardIndexError):
    """A pack file that should hold kept bytes is truncated or corrupt."""

    exit_code = 1


class _Pack(NamedTuple):
    """A parsed pack: where each blob is in `data`, and what is wrong with the rest (if anything)."""

    data: bytes
    spans: dict[str, tuple[int, int]]  # digest -> (start, end) in data
    problem: str | None  # None: complete and well formed


def _parse_pack(data: bytes) -> _Pack:
    """Index a pack's blobs; a pack damaged part way keeps the blobs before the damage."""
    spans: dict[str, tuple[int, int]] = {}
    if not data.startswith(PACK_MAGIC):
        return _Pack(data, spans, "not a cardindex pack (bad first line)")
    pos = len(PACK_MAGIC)
    while True:
        eol = data.find(b"\n", pos)
        if eol < 0:
            return _Pack(data, spans, f"truncated at byte {len(data)} (no end line)")
        fields = data[pos:eol].split(b" ")
        if fields[0] == b"end" and len(fields) == 2:
            if fields[1] != str(len(spans)).encode() or eol + 1 != len(data):
                return _Pack(data, spans, f"damaged end line at byte {pos}")
            return _Pack(data, spans, None)
        if (len(fields) != 3 or fields[0] != b"blob" or len(fields[1]) != 64 or not fields[2].isdigit()):
            return _Pack(data, spans, f"damaged blob header at byte {pos}")
        start = eol + 1
        end = start + int(fields[2])
        if end >= len(data) or data[end:end + 1] != b"\n":
            return _Pack(data, spans, f"truncated in the blob at byte {start}")
        spans[fields[1].decode("ascii")] = (start, end)
        pos = end + 1


def pack_bytes(blobs: Iterable[bytes]) -> bytes:
    """The pack holding `blobs` (each once, in the order given)."""
    unique = {sha256(b): b for b in blobs}
    parts = [PACK_MAGIC]
    for digest, data in unique.items():
        parts += [f"blob {digest} {len(data)}\n".encode("ascii"), data, b"\n"]
    parts.append(f"end {len(unique)}\n".encode("ascii"))
    return b"".join(parts)


class Journal:
    def __init__(self, state_dir: Path) -> None:
        self.folder = state_dir / "journal"
        self.objects = state_dir / "objects"
        self.pending_mark = state_dir / "pending"  # the id of a job being applied right now
        self._packs: dict[str, _Pack] = {}  # read once per Journal

    def keep(self, data: bytes) -> str:
        """Store bytes by content hash (once) as a loose object and return the hash."""
        digest = sha256(data)
        target = self.objects / digest[:2] / digest[2:]
        if not target.exists():
            write_atomic(target, data)
        return digest

    def keep_many(self, blobs: Iterable[bytes]) -> str | None:
        """Store several blobs as one pack (one durable file) and return its name, for `record(pack=)`.

        None when there is nothing to keep. The pack is durable when this returns.
        """
        data = pack_bytes(blobs)
        pack = _parse_pack(data)
        if not pack.spans:
            return None
        name = sha256(data)
        target = self._pack_path(name)
        if not target.exists():
            write_atomic(target, data)
        self._packs[name] = pack
        return name

    def blob(self, digest: str, pack: str | None = None) -> bytes:
        """The kept bytes with this hash: from `pack` (the job's, when known), a loose object, or any pack.

        FileNotFoundError when no copy is left; DamagedPack when none is left intact
        and a pack that holds (or may hold) it is damaged.
        """
        damaged: DamagedPack | None = None
        if pack is not None:
            try:
                found = self._from_pack(pack, digest)
            except DamagedPack as exc:
                found, damaged = None, exc
            if found is not None:
                return found
        try:
            return (self.objects / digest[:2] / digest[2:]).read_bytes()
        except FileNotFoundError:
            pass
        folder = self.objects / "pack"  # asked without the job, or its pack lost it: look in every pack
        for name in sorted(p.stem for p in folder.glob("*.pack")) if folder.is_dir() else []:
            if name == pack:
                continue
            try:
                found = self._from_pack(name, digest)
            except DamagedPack as exc:
                found, damaged = None, damaged or exc
            if found is not None:
                return found
        if damaged is not None:
            raise damaged
        raise FileNotFoundError(f"no kept copy of {digest}")

    def _pack_path(self, name: str) -> Path:
        return self.objects / "pack" / f"{name}.pack"

    def _from_pack(self, name: str, digest: str) -> bytes | None:
        """The blob from pack `name`; None when the pack is missing, or complete without it."""
        pack = self._packs.get(name)
        path = self._pack_path(name)
        if pack is None:
            try:
                pack = self._packs[name] = _parse_pack(path.read_bytes())
            except FileNotFoundError:
                return None
        span = pack.spans.get(digest)
        if span is None:
            if pack.problem is None:
                return None
            raise DamagedPack(f"pack {path.name} is damaged: {pack.problem}")
        data = pack.data[span[0]:span[1]]
        if sha256(data) != digest:
            raise DamagedPack(f"pack {path.name} is damaged: the blob at byte {span[0]} does not match its hash")
        return data

    def record(
        self,
        command: str,
        actions: list[Action],
        *,
        now: dt.datetime | None = None,
        undoes: str | None = None,
        pending: bool = False,
        day: dt.date | None = None,
        pack: str | None = None,
    ) -> str:
        """Write one job and return its id.

        `pack`: the pack holding the job's prior bytes (`keep_many`), named in the entry
        so `blob` reads it first.
        `day`: the vault's date for the job when it is not the clock's (`--now`,
        `CARDS_TODAY`), which `cards context --as-of` rewinds by.
        `pending`: the job is about to be applied; the pending mark naming it is written
        before the entry, and until `clear_pending` a crash leaves it marked, so the next
        command rolls it back (`jobs.recover`) and an entry whose job never ran is
        never taken for a done one.
        """
        from cardindex.redaction import shown

        now = now or dt.datetime.now(dt.timezone.utc)
        # Sortable by time to the microsecond (writers hold the vault lock, so jobs do
        # not share one), with a random tail in case the clock steps back.
        job_id = f"{now:%Y%m%dT%H%M%S%f}-{secrets.token_hex(2)}"
        entry = {
            "id": job_id,
            "time": now.isoformat(timespec="seconds"),
            **({"day": day.isoformat()} if day else {}),
            "command": command,
            "pid": os.getpid(),
            **({"undoes": undoes} if undoes else {}),
            **({"pack": pack} if pack else {}),
            "actions": [
                {
                    "action": a.action,
                    "card": a.card,
                    "reason": shown(a.reason),  # journal files and `cards journal` never hold a secret
                    "files": [f._asdict() for f in a.files],
                }
                for a in actions
            ],
        }
        if pending:  # the mark first: an entry never exists without its mark until the job is done
            write_atomic(self.pending_mark, job_id + "\n")
            fault("mark")
        try:
            write_atomic(self._path(job_id), json.dumps(entry, indent=1, ensure_ascii=False) + "\n")
        except OSError:  # a full disk: no job ran, so no mark may stay to name a job that is not there
            if pending:
                with contextlib.suppress(OSError):
                    remove(self.pending_mark)
            raise
        return job_id

    def _path(self, job_id: str) -> Path:
        return self.folder / f"{job_id}.json"

    def has_entry(self, job_id: str) -> bool:
        """Whether the job's entry was written (readable or not)."""
        return self._path(job_id).exists()

    def load(self, job_id: str) -> dict[str, Any] | None:
        try:
            entry: dict[str, Any] = json.loads(self._path(job_id).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry

    def pending(self) -> str | None:
        """The id of a job that was being applied when its process stopped, if any."""
        try:
            job_id = self.pending_mark.read_text(encoding="ascii").strip()
        except (OSError, ValueError):
            return None
        return job_id or None

    def clear_pending(self, job_id: str) -> None:
        """The job is complete: remove the mark, durably (else a power cut could bring it back
        and the next run would roll a finished job back)."""
        if self.pending() == job_id:
            remove(self.pending_mark)

    def mark_rolled_back(self, job_id: str) -> None:
        entry = self.load(job_id)
        if entry is not None:
            entry["rolled_back"] = True
            write_atomic(self._path(job_id), json.dumps(entry, indent=1, ensure_ascii=False) + "\n")
        if self.pending() == job_id:
            with contextlib.suppress(FileNotFoundError):
                self.pending_mark.unlink()

    def last(self, command: str | None = None) -> dict[str, Any] | None:
        """The newest job (of `command`, if given) that was not rolled back."""
        for job in reversed(self.jobs()):
            if not job.get("rolled_back") and (command is None or job.get("command") == command):
                found: dict[str, Any] = job
                return found
        return None

    def jobs(self) -> list[dict[str, Any]]:
        """Every job, oldest first; unreadable entries are skipped."""
        if not self.folder.is_dir():
            return []
        out = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                out.append(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
        return out


def fault(point: str) -> None:
    """A real kill -9 right after a durable step, when `CARDS_TEST_KILL_AT` names it (tests only)."""
    if os.environ.get("CARDS_TEST_KILL_AT") == point:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def job_day(job: dict[str, object]) -> dt.date:
    """The vault's date of a job: its `day` (the date cards used), else its clock time's."""
    try:
        if job.get("day"):
            return dt.date.fromisoformat(str(job["day"]))
        return dt.datetime.fromisoformat(str(job["time"])).date()
    except (KeyError, ValueError):
        return dt.date.max
