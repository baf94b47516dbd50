"""`cards undo [JOB]`: restore the vault to what it was before a job.

After a crash it is the user's natural next step, so it first finishes what the crash
left: a job marked pending is rolled back (the vault is as it was before it). When that
job is what `cards undo` would have undone, the rollback is the undo and nothing more
is undone; when the interrupted job was itself an undo, it is run again to the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cardindex.cli.completion import job_ids
from cardindex.cli.options import Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


SHOWN_FILES = 10  # files listed without --verbose; the rest are counted


def run(*, vault: Vault, job: str | None = None, verbose: bool = False) -> int:
    from cardindex.cli.output import echo
    from cardindex.cli.progress import Progress
    from cardindex.lifecycle.undo import undo
    from cardindex.store.jobs import recover
    from cardindex.store.journal import Journal
    from cardindex.store.recovery import settle

    with Progress("undo") as progress, vault.lock():
        progress.phase("checking the files of the job")
        recovered = recover(vault)
        if recovered is None:
            settle(vault)  # no job was pending: only our stale temp files, if a kill left any
        # A job killed before its entry was written changed nothing: as if it never ran.
        entry = Journal(vault.state_dir).load(recovered) if recovered else None
        if entry is not None and entry.get("undoes") and job is None:
            job = entry["undoes"]  # the interrupted undo, run again
        elif entry is not None and (job is None or entry["id"].startswith(job)):
            _regenerate(vault)
            echo(f"undo: job {entry['id']} needs no undo: it was interrupted and is rolled back; nothing else undone "
                 "(`cards undo` again undoes the job before it)")
            return 0
        undone_id, new_id, files = undo(vault, job)
        _regenerate(vault)
    counts: dict[str, int] = {}
    for n, change in enumerate(files):
        verb = "removed" if change.after is None else ("restored" if change.before is None else "reverted")
        counts[verb] = counts.get(verb, 0) + 1
        if verbose or n < SHOWN_FILES:
            echo(f"{verb} {change.path}", err=True)
    if not verbose and len(files) > SHOWN_FILES:
        echo(f"… and {len(files) - SHOWN_FILES} more file(s) (`cards undo --verbose` lists every one)", err=True)
    summary = ", ".join(f"{n} {verb}" for verb, n in sorted(counts.items())) or "no files"
    echo(f"undid job {undone_id} (recorded as {new_id}): {summary}")
    return 0


def _regenerate(vault: Vault) -> None:
    """INDEX.md for the restored cards, unless the undo put back an index kept by hand (or undid its takeover)."""
    from cardindex.cli.output import echo
    from cardindex.index import build as index
    from cardindex.index.takeover import is_generated
    from cardindex.store.os_errors import describe
    from cardindex.store.vault import today

    current = index.read_index(vault)
    if current is not None and current.strip() and not is_generated(current):
        echo(f"note: {vault.index_name} is kept by hand again, as before the job; not regenerated", err=True)
        return
    try:
        index.write(vault, today())
    except OSError as exc:  # the undo stands: the cards are as before the job, only the index is behind
        echo(f"warning: {vault.index_name} was not regenerated ({describe(exc)}); "
             "run `cards index` once it can be written", err=True)


@click.command("undo")
@click.argument("job", required=False, shell_complete=job_ids)
@click.option("-v", "--verbose", is_flag=True, help=f"List every file put back (else the first {SHOWN_FILES}).")
@click.pass_obj
def undo_command(obj: Options, job: str | None, verbose: bool) -> None:
    """Undo a job from the journal (default: the newest not yet undone), byte for byte.

    Refused when a later job, or a person, changed one of the job's files since: undo
    the later job first.

    \b
    Examples:
      cards undo
      cards undo 20261130T031500   # a job id, or a unique prefix of one (see cards journal)
    """
    exit_with(run(vault=obj.open("leave"), job=job, verbose=verbose))
