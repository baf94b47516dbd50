"""What a command does first about a process that died in the vault: finish its rollback, clean up.

A kill -9 can leave two things behind: a job marked pending (`jobs.recover` rolls
it back, see the invariant in `lifecycle`) and hidden temp files of the one writer
(`.NAME.<8 hex>.cards-tmp`, from `atomic.temp_path`). Commands that may write (and
`status`, `lint`, `index`, `undo`) call `settle` before they read a card; pure readers
call `warn_pending`, which says in one line that the vault may be half changed.

Only our own temp files are removed, and only those older than the moment we hold the
lock: a temp file's writer holds the lock (cards, INDEX.md, the journal), so one that
predates our lock is an orphan. The parse caches under `.cardindex/cache/` are written
without the lock, so a temp file there must also be `CACHE_GRACE` seconds old.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from cardindex.store.temps import _temps, remove_stale_temps
from cardindex.store.vault import Vault

STATE_FOLDERS = ("", "journal", "objects/pack", "cache")  # under .cardindex/, where a kill outside a job leaves temps


def pending_job(vault: Vault) -> str | None:
    """The id in the pending mark, without the lock (None: no job was interrupted)."""
    try:
        return (vault.state_dir / "pending").read_text(encoding="ascii").strip() or None
    except (OSError, ValueError):
        return None


def warn_pending(vault: Vault) -> None:
    """For a command that only reads: one stderr line when a job was interrupted."""
    job = pending_job(vault)
    if job is not None:
        print(f"warning: job {job} was interrupted and the vault may be half changed; "
              "`cards status` (or any command that writes) rolls it back", file=sys.stderr)


def opened(vault: Vault, pending: str) -> Vault:
    """What `cards` does on opening the vault: roll back a job a killed process left half
    done (`recover`), say so in one line (`warn`, for commands that only read), or leave
    it to the command (`leave`: status and undo say what they did about it)."""
    if pending == "recover":
        settle(vault)
    elif pending == "warn":
        warn_pending(vault)
    return vault


def settle(vault: Vault) -> str | None:
    """Roll back an interrupted job and remove our stale temp files, under the lock.

    Returns the id of the job rolled back, if any. Cheap when there is nothing to do:
    one stat for the pending mark and a listing of the few folders where a kill
    outside a job leaves temp files.
    """
    if pending_job(vault) is None and not any(_temps(_shallow(vault))):
        return None
    from cardindex.store.jobs import recover

    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(vault.lock())
        except OSError:  # a read-only vault, say: nothing can be rolled back, so say what is wrong
            warn_pending(vault)
            return None
        job = recover(vault)  # also removes the temp files of the whole vault
        if job is None:
            remove_stale_temps(vault, folders=_shallow(vault))
    return job


def _shallow(vault: Vault) -> list[Path]:
    return [vault.root, vault.index_path.parent, *(vault.state_dir / f for f in STATE_FOLDERS)]


