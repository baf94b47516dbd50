"""Consolidation reads the raw logs: durable statements in new entries become cards, through the gate.

The nightly pass (`cards consolidate`) takes what was appended to `log/` since its last
run, finds the explicit durable statements in it (corrections, decisions, preferences,
"remember that": `import_log.extract_log`, the same reading as `cards import
--from-log`), and reviews each as `cards add` would: a session note, a duplicate of a
card, a secret is refused. The accepted ones are one journalled job. Logs themselves
are never rewritten.

What was read is remembered in `.cardindex/log-read.json`: per day file, how many bytes
and their hash. A file that grew is read from where it was left; one whose read part
changed (edited by hand) is read again whole, and the gate refuses what is already a card.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import NamedTuple

from cardindex.agents.import_review import Input, Outcome, review, write_accepted
from cardindex.store.atomic import write_atomic
from cardindex.store.daily_log import days
from cardindex.store.journal import sha256
from cardindex.store.vault import Vault

READ_FILE = "log-read.json"


class Part(NamedTuple):
    """The unread part of one day's log: where it starts (line) and its text."""

    rel: str
    first_line: int
    text: str
    size: int  # the file's size once read: the new mark
    digest: str


class Intake(NamedTuple):
    parts: tuple[Part, ...]
    outcomes: tuple[Outcome, ...]
    job: str | None

    @property
    def entries_read(self) -> int:
        return sum(p.text.count("\n- ") + p.text.startswith("- ") for p in self.parts)


def _marks(vault: Vault) -> dict[str, dict[str, object]]:
    try:
        data = json.loads((vault.state_dir / READ_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def unread(vault: Vault) -> list[Part]:
    """The parts of the log days appended since the last consolidation, oldest day first."""
    marks = _marks(vault)
    out = []
    for _day, path in days(vault.log_folder()):
        rel = vault.rel(path)
        try:
            data = path.read_bytes()
        except OSError:
            continue
        mark = marks.get(rel) or {}
        size = mark.get("size") if isinstance(mark.get("size"), int) else 0
        assert isinstance(size, int)
        start = size if 0 < size <= len(data) and sha256(data[:size]) == mark.get("sha256") else 0
        if start == len(data):
            continue
        text = data[start:].decode("utf-8", "replace")
        out.append(Part(rel, data[:start].count(b"\n") + 1, text, len(data), sha256(data)))
    return out


def backlog(vault: Vault) -> tuple[int, int]:
    """(log days with unread entries, unread entries): what `cards status` shows of the raw tier."""
    parts = unread(vault)
    return len(parts), sum(_entries(p.text) for p in parts)


def _entries(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("- "))


def intake(vault: Vault, now: dt.date, *, apply: bool) -> Intake:
    """Review the durable statements of the unread log parts; with `apply`, write the accepted ones.

    The caller holds the vault lock when applying. The read marks move only after the
    job is written, so a failed run reads the same entries again.
    """
    from cardindex.agents.import_log import extract_log

    parts = unread(vault)
    if not parts:
        return Intake((), (), None)
    candidates = []
    for part in parts:
        found, _count = extract_log(part.text, part.rel)
        # Lines of the part are numbered from its first line in the file.
        candidates += [c._replace(line=c.line + part.first_line - 1) for c in found]
    inputs = [Input(p.rel, p.text, vault.root / p.rel) for p in parts]
    outcomes = tuple(review(vault, candidates, now, inputs))
    job = None
    if apply:
        accepted = [o for o in outcomes if o.accepted]
        if accepted:
            job, _ = write_accepted(vault, accepted, now, replace_index=False)
        marks = _marks(vault)
        marks.update({p.rel: {"size": p.size, "sha256": p.digest} for p in parts})
        write_atomic(vault.state_dir / READ_FILE, (json.dumps(marks, indent=1, sort_keys=True) + "\n").encode())
    return Intake(tuple(parts), outcomes, job)
