"""The journal: every change cards makes to the user's cards, with what it replaced.

A job is one JSON file under `.cardindex/journal/`, named by a sortable id. Each action
names the card, the reason, and the files it touched with content hashes before and
after; the prior bytes of every file changed or removed are kept under
`.cardindex/objects/` by hash, so a job can be audited and undone byte for byte.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import secrets
from pathlib import Path
from typing import Any, NamedTuple

from .atomic import write_atomic


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


class Journal:
    def __init__(self, state_dir: Path) -> None:
        self.folder = state_dir / "journal"
        self.objects = state_dir / "objects"
        self.pending_mark = state_dir / "pending"  # the id of a job being applied right now

    def keep(self, data: bytes) -> str:
        """Store bytes by content hash (once) and return the hash."""
        digest = sha256(data)
        target = self.objects / digest[:2] / digest[2:]
        if not target.exists():
            write_atomic(target, data)
        return digest

    def blob(self, digest: str) -> bytes:
        return (self.objects / digest[:2] / digest[2:]).read_bytes()

    def record(
        self,
        command: str,
        actions: list[Action],
        *,
        now: dt.datetime | None = None,
        undoes: str | None = None,
        pending: bool = False,
        day: dt.date | None = None,
    ) -> str:
        """Write one job and return its id.

        `day`: the vault's date for the job when it is not the clock's (`--now`,
        `CARDS_TODAY`), which `cards context --as-of` rewinds by.
        `pending`: the job is about to be applied; until `clear_pending`, a crash leaves
        it marked, and the next job rolls it back (`lifecycle.recover`).
        """
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
            "actions": [
                {
                    "action": a.action,
                    "card": a.card,
                    "reason": a.reason,
                    "files": [f._asdict() for f in a.files],
                }
                for a in actions
            ],
        }
        write_atomic(self._path(job_id), json.dumps(entry, indent=1, ensure_ascii=False) + "\n")
        if pending:
            write_atomic(self.pending_mark, job_id + "\n")
        return job_id

    def _path(self, job_id: str) -> Path:
        return self.folder / f"{job_id}.json"

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
        if self.pending() == job_id:
            self.pending_mark.unlink()

    def mark_rolled_back(self, job_id: str) -> None:
        entry = self.load(job_id)
        if entry is not None:
            entry["rolled_back"] = True
            write_atomic(self._path(job_id), json.dumps(entry, indent=1, ensure_ascii=False) + "\n")
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
