"""`cards undo [JOB]`: restore the vault to what it was before a job."""

from __future__ import annotations

from .. import index
from ..errors import Refused
from ..undo import undo
from ..vault import Vault, today
from .output import echo


def run(*, vault: Vault, job: str | None = None) -> int:
    with vault.lock():
        undone_id, new_id, files = undo(vault, job)
        try:
            index.ensure_replaceable(vault, index.read_index(vault))
        except Refused:  # the undo put back an index kept by hand: it stays as restored
            echo(f"note: {vault.index_name} is kept by hand again, as before the job; not regenerated", err=True)
        else:
            index.write(vault, today())
    for change in files:
        verb = "removed" if change.after is None else ("restored" if change.before is None else "reverted")
        echo(f"{verb} {change.path}", err=True)
    echo(f"undid job {undone_id} (recorded as {new_id})")
    return 0
