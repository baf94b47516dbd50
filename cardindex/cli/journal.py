"""`cards journal`: what cards changed in the vault, job by job."""

from __future__ import annotations

import datetime as dt
import sys
from typing import TYPE_CHECKING

import click

from cardindex.cli.options import FORMAT, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault
if TYPE_CHECKING:
    from cardindex.lifecycle.prune import Purged


DEFAULT_KEEP_DAYS = 90


def run(*, vault: Vault, limit: int | None = None, output_format: str = "text") -> int:
    from cardindex.cli.output import echo, echo_json
    from cardindex.store.journal import Journal

    jobs = Journal(vault.state_dir).jobs()
    if limit:
        jobs = jobs[-limit:]
    if output_format == "json":
        echo_json(jobs)
        return 0
    done = {job["undoes"] for job in jobs if job.get("undoes") and not job.get("rolled_back")}  # an undo rolled back undid nothing
    for job in reversed(jobs):
        if job.get("rolled_back"):
            mark = "  (interrupted; rolled back)"
        elif job["id"] in done:
            mark = "  (undone)"
        elif job.get("purged"):
            mark = f"  (purged: {', '.join(map(str, job['purged']))}; cannot be undone)"
        else:
            mark = f"  (undoes {job['undoes']})" if job.get("undoes") else ""
        echo(f"{job['id']}  {job['time']}  {job['command']}{mark}")
        for action in job.get("actions", []):
            echo(f"    {action['action']:<10} {action['card']}  ({action['reason']})")
    return 0


def run_prune(*, vault: Vault, keep_days: int | None = None, before: dt.date | None = None, dry_run: bool = False,
              output_format: str = "text") -> int:
    """`cards journal prune`: drop old jobs and the kept copies only they need."""
    import json

    from cardindex.lifecycle.prune import prune
    from cardindex.store.vault import today

    cut = before or today() - dt.timedelta(days=DEFAULT_KEEP_DAYS if keep_days is None else keep_days)
    with vault.lock():
        done = prune(vault, cut, dry_run=dry_run)
    freed = done.bytes_before - done.bytes_after
    if output_format == "json":
        print(json.dumps({**done._asdict(), "cut": cut.isoformat(), "dry_run": dry_run, "freed": freed}, indent=1))
        return 0
    verb = "would drop" if dry_run else "dropped"
    print(f"{verb} {done.jobs} job(s) from before {cut.isoformat()} ({done.kept_jobs} kept) and {done.blobs} kept "
          f"cop{'y' if done.blobs == 1 else 'ies'} nothing left can read: {_size(done.bytes_before)} -> "
          f"{_size(done.bytes_after)} ({_size(freed)} {'to free' if dry_run else 'freed'})")
    if dry_run:
        print("dry run: nothing changed", file=sys.stderr)
    elif done.jobs:
        print(f"note: `cards context --as-of` now goes back to {(cut - dt.timedelta(days=1)).isoformat()} at the "
              "earliest", file=sys.stderr)
    return 0


def run_purge(*, vault: Vault, refs: list[str]) -> int:
    """`cards journal purge ID`: delete a removed card's history from the journal."""
    from cardindex.lifecycle.prune import purge

    with vault.lock():
        results = [purge(vault, ref) for ref in refs]
    for done in results:
        print(purged_line(done))
        still_there(done)
    return 0


def still_there(done: Purged) -> None:
    """Say which other cards still hold one of the purged card's secrets (a merged copy, say)."""
    if done.still:
        print(f"note: {', '.join(done.still)} still hold(s) a secret of {done.card}: "
              f"remove it too (`cards rm ID --purge`), or edit it out", file=sys.stderr)


def purged_line(done: Purged) -> str:
    return (f"purged {done.card} from the journal: {done.blobs} kept cop{'y' if done.blobs == 1 else 'ies'} deleted"
            f" ({done.packs} pack(s) rewritten), {done.reasons} reason(s) blanked; "
            f"{done.jobs} job(s) can no longer be undone")


def _size(n: int) -> str:
    for unit, scale in (("MB", 1_000_000), ("KB", 1_000)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


@click.group("journal", invoke_without_command=True)
@click.option("-n", "--limit", type=click.IntRange(min=1), help="Only the newest N jobs.")
@FORMAT
@click.pass_context
def journal_command(ctx: click.Context, limit: int | None, output_format: str) -> None:
    """List the jobs that changed cards, newest first, with each action and its reason.

    \b
    Examples:
      cards journal -n 5
      cards journal --format json
      cards journal prune --dry-run
    """
    if ctx.invoked_subcommand is None:
        exit_with(run(vault=ctx.obj.open("warn"), limit=limit, output_format=output_format))


@click.command("prune")
@click.option("--keep-days", type=click.IntRange(min=0), metavar="N",
              help="Keep the jobs of the last N days (default: 90).")
@click.option("--before", type=click.DateTime(["%Y-%m-%d"]), metavar="DATE", help="Drop the jobs from before DATE.")
@click.option("-n", "--dry-run", is_flag=True, help="Say what would be dropped; change nothing.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format.")
@click.pass_obj
def prune_command(obj: object, keep_days: int | None, before: dt.datetime | None, dry_run: bool, output_format: str) -> None:
    """Drop old jobs from the journal, and the kept copies only they need.

    Keeps every copy that `cards undo` of a kept job, or `cards context --as-of` back to
    the day before the cut, can read; says what it dropped (jobs, copies, bytes).

    \b
    Examples:
      cards journal prune --dry-run
      cards journal prune                      # keep the last 90 days
      cards journal prune --keep-days 30
      cards journal prune --before 2026-06-01
    """
    if keep_days is not None and before is not None:
        raise click.UsageError("--keep-days and --before do not go together")
    code = run_prune(vault=obj.open(), keep_days=keep_days,  # type: ignore[attr-defined]
                             before=before.date() if before else None, dry_run=dry_run, output_format=output_format)
    click.get_current_context().exit(code)


@click.command("purge")
@click.argument("cards", nargs=-1, required=True)
@click.pass_obj
def purge_command(obj: object, cards: tuple[str, ...]) -> None:
    """Delete the journal's every copy of cards already removed (`cards rm ID --purge` does both).

    Also blanks reasons that quote them and clears the caches. Jobs whose undo needs a
    purged copy can no longer be undone. Interrupted, it can simply be run again.

    \b
    Examples:
      cards journal purge leaked-token
    """
    click.get_current_context().exit(run_purge(vault=obj.open(), refs=list(cards)))  # type: ignore[attr-defined]


journal_command.add_command(prune_command)
journal_command.add_command(purge_command)
