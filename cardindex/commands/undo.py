"""`cards undo [JOB]`: restore the vault to what it was before a job."""

from __future__ import annotations

from .. import index
from ..os_errors import describe
from ..takeover import is_generated
from ..undo import undo
from ..vault import Vault, today
from .output import echo


def run(*, vault: Vault, job: str | None = None) -> int:
    with vault.lock():
        undone_id, new_id, files = undo(vault, job)
        current = index.read_index(vault)
        if current is not None and current.strip() and not is_generated(current):
            # The undo put back an index kept by hand (or undid its takeover): it stays as restored.
            echo(f"note: {vault.index_name} is kept by hand again, as before the job; not regenerated", err=True)
        else:
            try:
                index.write(vault, today())
            except OSError as exc:  # the undo stands: the cards are as before the job, only the index is behind
                echo(f"warning: {vault.index_name} was not regenerated ({describe(exc)}); "
                     "run `cards index` once it can be written", err=True)
    for change in files:
        verb = "removed" if change.after is None else ("restored" if change.before is None else "reverted")
        echo(f"{verb} {change.path}", err=True)
    echo(f"undid job {undone_id} (recorded as {new_id})")
    return 0
