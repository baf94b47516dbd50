"""`cards status`: the backlog a user should see before trusting the index."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from cardindex.cli.options import FORMAT, Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


def run(*, vault: Vault, output_format: str = "text") -> int:
    from cardindex.agents.status_report import report
    from cardindex.cli.output import echo, echo_json
    from cardindex.errors import Refused
    from cardindex.store.recovery import settle

    try:
        recovered = settle(vault)  # a job a killed process left half done: rolled back first
    except (Refused, OSError) as exc:  # cannot be rolled back (a damaged pack, a read-only vault): shown below
        print(f"warning: {exc}", file=sys.stderr)
        recovered = None
    out = report(vault, recovered)
    if output_format == "json":
        echo_json(out)
        return 0
    ix = out["index"]
    changed = out["changed_since_consolidation"]
    pending = "every card (never consolidated)" if changed is None else f"{len(changed)} card(s)"
    echo(f"{out['live']} live card(s) in {vault.root}")
    echo(f"changed since the last consolidation: {pending}"
          + (f" (last run {out['last_consolidation']})" if out["last_consolidation"] else ""))
    log, st = out["tiers"]["log"], out["tiers"]["state"]
    echo(f"raw log: {log['unread_entries']} entr(ies) in {log['unread_days']} day(s) not yet consolidated"
         f" ({log['days']} day file(s) under {log['folder']}/)")
    age = "never written" if st["written"] is None else f"written {st['written']}, {st['age_hours']} h ago"
    echo(f"working memory: {st['file']} {age} (`cards state` rewrites it)")
    groups = out["conflict_groups"]
    echo(f"open conflicts: {len(groups)}" + (f" ({len(out['conflicts'])} cards)" if groups else ""))
    for group in groups:
        echo("  " + " ↔ ".join(group))
    if out["expired"]:
        echo(f"expired but live: {len(out['expired'])} (cards consolidate archives them)")
    if out["broken"]:
        echo(f"unreadable cards: {len(out['broken'])} (cards lint shows why)")
    echo(f"{ix['file']}: {ix['lines']}/{ix['budget_lines']} lines, {ix['bytes']:,}/{ix['budget_bytes']:,} bytes, "
          f"{ix['shown']} shown, {ix['omitted']} left out" + ("" if ix["current"] else "; out of date (cards index)"))
    last_job = out["last_job"]
    if last_job:
        echo(f"last job: {last_job['id']} ({last_job['command']}, {last_job['time']})")
    else:
        echo("last job: none")
    if recovered:
        echo(f"interrupted job: {recovered}, rolled back just now (the vault is as it was before it)")
    if out["interrupted_job"]:
        echo(f"interrupted job: {out['interrupted_job']}, not rolled back yet; the vault may be half changed")
    return 0


@click.command("status")
@FORMAT
@click.pass_obj
def status_command(obj: Options, output_format: str) -> None:
    """The backlog: cards changed since the last consolidation, conflicts, index budget, last job.

    \b
    Examples:
      cards status
      cards status --format json
    """
    exit_with(run(vault=obj.open("leave"), output_format=output_format))
