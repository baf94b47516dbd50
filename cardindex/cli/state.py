"""`cards state`: rewrite the working memory (the second tier, SPEC §10)."""

from __future__ import annotations

import click

from cardindex.cli.options import FORMAT, Options


@click.command("state")
@click.option("--budget", type=click.IntRange(200, 100_000), metavar="CHARS",
              help="Characters the working memory may hold (default: state_budget, 1500).")
@click.option("--dry-run", is_flag=True, help="Print the new working memory; write nothing.")
@click.option("--at", metavar="TIME", help="Build it as of this time (ISO); default: now.")
@click.option("--llm", "llm", metavar="CMD", help="Let CMD rewrite it (the deterministic version on stdin).")
@click.option("--with-llm", is_flag=True, help="Let the configured llm command rewrite it (see `cards trust`).")
@FORMAT
@click.pass_obj
def state_command(opts: Options, budget: int | None, dry_run: bool, at: str | None, llm: str | None,
                  with_llm: bool, output_format: str) -> None:
    """Rewrite CURRENT_STATE.md, the bounded working memory that replaces itself.

    From the last seven days of `cards log` entries still open (active work, next
    focus), the cards changed since the last run (recent learnings) and the top live
    cards (key context), within the budget; deterministic unless --llm or --with-llm
    lets a command rewrite it (same budget). The previous version is kept in the
    journal (`cards undo` brings it back); what dropped out is printed. Run it nightly,
    after `cards consolidate`, and load it at session start beside INDEX.md.

    \b
    Examples:
      cards state
      cards state --dry-run --budget 800
      cards state --format json
      cards state --llm "llm -m gpt-4o-mini"     # a command rewrites it, within the budget
    """
    from cardindex.agents.state import write
    from cardindex.cli.output import echo, echo_json
    from cardindex.store.daily_log import parse_time, utc_now

    now = parse_time(at, "--at") if at else utc_now()
    vault = opts.open()
    command = None
    if llm or with_llm:
        from cardindex.lifecycle.llm import chosen

        command = chosen(vault, llm)
        if command is None:
            echo("warning: no llm command is configured (or the vault's is not trusted); the state stays "
                 "deterministic", err=True)
    done = write(vault, now, budget, dry_run=dry_run, llm=command)
    state = done.state
    limit = budget or vault.config.state_budget
    if output_format == "json":
        echo_json({"path": done.path, "job": done.job, "characters": len(state.text), "budget": limit,
                   "open": len(state.open), "next": len(state.next), "learned": [c.id for c in state.learned],
                   "key": [c.id for c in state.key], "dropped": done.dropped, "added": done.added,
                   "text": state.text if dry_run else None})
        return
    if dry_run:
        echo(state.text, end="")
        return
    what = (f"{len(state.open)} active, {len(state.next)} next, {len(state.learned)} learned, "
            f"{len(state.key)} key card(s)")
    if done.job is None:
        echo(f"{done.path} is up to date ({len(state.text):,} of {limit:,} characters: {what})")
        return
    echo(f"wrote {done.path}: {len(state.text):,} of {limit:,} characters ({what}); job {done.job}")
    for line in done.dropped:
        echo(f"  dropped {line[2:]}")
    for line in done.added:
        echo(f"  new     {line[2:]}")
