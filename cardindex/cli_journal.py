"""`cards journal prune` and `cards journal purge`: click options only; the work is in
`cardindex.commands.journal` and `cardindex.lifecycle.prune`."""

from __future__ import annotations

import datetime as dt

import click


@click.command("prune")
@click.option("--keep-days", type=click.IntRange(min=0), metavar="N",
              help="Keep the jobs of the last N days (default: 90).")
@click.option("--before", type=click.DateTime(["%Y-%m-%d"]), metavar="DATE", help="Drop the jobs from before DATE.")
@click.option("-n", "--dry-run", is_flag=True, help="Say what would be dropped; change nothing.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format.")
@click.pass_obj
def prune(obj: object, keep_days: int | None, before: dt.datetime | None, dry_run: bool, output_format: str) -> None:
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
    from cardindex.commands import journal as command

    if keep_days is not None and before is not None:
        raise click.UsageError("--keep-days and --before do not go together")
    code = command.run_prune(vault=obj.open(), keep_days=keep_days,  # type: ignore[attr-defined]
                             before=before.date() if before else None, dry_run=dry_run, output_format=output_format)
    click.get_current_context().exit(code)


@click.command("purge")
@click.argument("cards", nargs=-1, required=True)
@click.pass_obj
def purge(obj: object, cards: tuple[str, ...]) -> None:
    """Delete the journal's every copy of cards already removed (`cards rm ID --purge` does both).

    Also blanks reasons that quote them and clears the caches. Jobs whose undo needs a
    purged copy can no longer be undone. Interrupted, it can simply be run again.

    \b
    Examples:
      cards journal purge leaked-token
    """
    from cardindex.commands import journal as command

    click.get_current_context().exit(command.run_purge(vault=obj.open(), refs=list(cards)))  # type: ignore[attr-defined]
