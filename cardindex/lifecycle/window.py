"""Which cards changed since consolidation last ran: the window it starts decisions from.

After each run, `.cardindex/consolidated.json` records when the run started and the hash
of every card it read or wrote that is newer than that. A card is in the window when it
was modified after that start and is not exactly what the run saw or wrote. A second run with nothing new therefore
has an empty window, and plans nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from cardindex.store.atomic import write_atomic
from cardindex.store.card import Card
from cardindex.store.journal import sha256
from cardindex.store.vault import Vault

STATE = "consolidated.json"
MARGIN_NS = 1_000_000_000  # file times can lag the clock; look a second further back


def start() -> int:
    """The time to record for a run that starts now."""
    return time.time_ns() - MARGIN_NS


def load(vault: Vault) -> dict[str, Any] | None:
    try:
        state = json.loads((vault.state_dir / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(state, dict) or not isinstance(state.get("started_ns"), int):
        return None
    return state


def save(vault: Vault, started_ns: int, written: Mapping[str, str], job: str | None) -> None:
    state = {
        "started": dt.datetime.fromtimestamp(started_ns / 1e9, dt.timezone.utc).isoformat(timespec="seconds"),
        "started_ns": started_ns,
        "job": job,
        "written": dict(sorted(written.items())),
    }
    write_atomic(vault.state_dir / STATE, json.dumps(state, indent=1) + "\n", durable=False)


def seen(vault: Vault, cards: Sequence[Card], started_ns: int) -> dict[str, str]:
    """Hashes of the cards this run read that were modified after it started (less the margin).

    Recorded so that the next run does not take them for changes: only a different
    hash (someone wrote the card since this run read it) puts them in its window.
    """
    mtimes = vault.mtimes()
    return {c.path: sha256(c.text.encode("utf-8")) for c in cards if mtimes.get(c.path, 0) > started_ns}


def changed(vault: Vault, cards: Sequence[Card], since: dt.date | None = None) -> set[str] | None:
    """Paths of the cards in the window; None means every card (no run yet).

    With `since`, the window is every card modified on disk, created or verified on or
    after that date instead.
    """
    mtimes = vault.mtimes()
    if since is not None:
        cutoff = dt.datetime.combine(since, dt.time(), dt.timezone.utc).timestamp() * 1e9
        return {
            c.path for c in cards
            if mtimes.get(c.path, 0) >= cutoff or any(d is not None and d >= since for d in (c.created, c.verified))
        }
    state = load(vault)
    if state is None:
        return None
    started, written = state["started_ns"], state.get("written") or {}
    return {
        c.path for c in cards
        if mtimes.get(c.path, 0) > started and written.get(c.path) != sha256(c.text.encode("utf-8"))
    }
