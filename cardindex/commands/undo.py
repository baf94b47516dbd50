"""`cards undo [JOB]`: restore the vault to what it was before a job.

After a crash it is the user's natural next step, so it first finishes what the crash
left: a job marked pending is rolled back (the vault is as it was before it). When that
job is what `cards undo` would have undone, the rollback is the undo and nothing more
is undone; when the interrupted job was itself an undo, it is run again to the end.
"""

from __future__ import annotations

import sys

from .. import index
from ..errors import Refused
from ..journal import Journal
from ..lifecycle import recover
from ..recovery import settle
from ..undo import undo
from ..vault import Vault, today


def run(*, vault: Vault, job: str | None = None) -> int:
    with vault.lock():
        recovered = recover(vault)
        if recovered is None:
            settle(vault)  # no job was pending: only our stale temp files, if a kill left any
        # A job killed before its entry was written changed nothing: as if it never ran.
        entry = Journal(vault.state_dir).load(recovered) if recovered else None
        if entry is not None and entry.get("undoes") and job is None:
            job = entry["undoes"]  # the interrupted undo, run again
        elif entry is not None and (job is None or entry["id"].startswith(job)):
            _regenerate(vault)
            print(f"undo: job {entry['id']} needs no undo: it was interrupted and is rolled back; nothing else undone "
                  "(`cards undo` again undoes the job before it)")
            return 0
        undone_id, new_id, files = undo(vault, job)
        _regenerate(vault)
    for change in files:
        verb = "removed" if change.after is None else ("restored" if change.before is None else "reverted")
        print(f"{verb} {change.path}", file=sys.stderr)
    print(f"undid job {undone_id} (recorded as {new_id})")
    return 0


def _regenerate(vault: Vault) -> None:
    """INDEX.md for the restored cards, unless the undo put back an index kept by hand."""
    try:
        index.ensure_replaceable(vault, index.read_index(vault))
    except Refused:  # the undo put back an index kept by hand: it stays as restored
        print(f"note: {vault.index_name} is kept by hand again, as before the job; not regenerated",
              file=sys.stderr)
    else:
        index.write(vault, today())
