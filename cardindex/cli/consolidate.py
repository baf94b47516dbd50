"""`cards consolidate`: plan, then apply as one journalled job, then update INDEX.md."""

from __future__ import annotations

import datetime as dt
import sys
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import DATE, FORMAT, Options, exit_with

if TYPE_CHECKING:
    from cardindex.lifecycle.plan import Decision, Plan
    from cardindex.store.jobs import Step
    from cardindex.store.vault import Vault


ARROWS = {"merge": "←", "supersede": "→", "conflict": "↔", "keep": "↔", "resolve": "—"}


def run(
    *,
    vault: Vault,
    dry_run: bool = False,
    everything: bool = False,
    since: dt.date | None = None,
    now: dt.date | None = None,
    output_format: str = "text",
    llm: str | None = None,
) -> int:
    from cardindex.cli.output import echo
    from cardindex.index import build as index
    from cardindex.lifecycle import window
    from cardindex.lifecycle.plan import plan
    from cardindex.lint.context import vault_pairs
    from cardindex.store.jobs import apply, new_text, recover
    from cardindex.store.journal import sha256
    from cardindex.store.os_errors import all_or_nothing
    from cardindex.store.vault import today

    now = now or today()
    started = window.start()
    with vault.lock():
        if not dry_run:  # (a dry run on a vault with an interrupted job was warned about when opened)
            recover(vault)
            index.ensure_replaceable(vault, index.read_index(vault))
        cards = vault.cards
        if len(cards) > 5000 and sys.stderr.isatty():
            echo(f"consolidate: planning over {len(cards):,} cards…", err=True)
        changed = None if everything else window.changed(vault, cards, since)
        decided = plan(cards, now=now, multi_valued=vault.config.multi_valued_keys,
                       max_age=vault.config.max_age, window=changed,
                       find=lambda live: vault_pairs(vault, live, now),
                       absorbed=[c for c in vault.archived() if c.fields.get("merged_into")])
        steps = decided.steps
        job = None
        if not dry_run:
            steps = _rewrite_merged(vault, decided, llm) if decided.merges else steps
            with all_or_nothing(vault) as jobs:  # a window or index that cannot be written undoes the job
                job, done = apply(vault, steps, command="consolidate", day=now)
                jobs.add(job)
                known = window.seen(vault, cards, started)
                known.update({d.path: sha256(new_text(d.step, d.step.card.text).encode("utf-8"))
                              for d in done if d.path == d.step.card.path})
                window.save(vault, started, known, job)
                index.write(vault, now)  # also when nothing was decided: cards may have changed by hand
    _report(decided, steps, job, dry_run, output_format, everything or changed is None)
    return 0


def _rewrite_merged(vault: Vault, decided: Plan, given: str | None) -> list[Step]:
    """Let the llm command (if one may run: `llm.choose`) write each merged canonical card's body."""
    from cardindex.lifecycle.llm import chosen, rewrite

    command = chosen(vault, given)
    if command is None:
        return decided.steps
    bodies = {m.canonical.path: rewrite(vault, command, m) for m in decided.merges}
    return [s._replace(body=bodies[s.card.path]) if s.op == "edit" and bodies.get(s.card.path) else s
            for s in decided.steps]


def _report(decided: Plan, steps: list[Step], job: str | None, dry_run: bool, output_format: str, whole: bool) -> None:
    from cardindex.cli.output import echo, echo_json

    if output_format == "json":
        out: dict[str, Any] = {
            "job": job,
            "dry_run": dry_run,
            "live": decided.live,
            "window": decided.window,
            "decisions": [_as_json(d) for d in decided.decisions],
            "changes": [{"card": s.card.id, "op": s.op, "action": s.action, "reason": s.reason,
                         "fields": {k: _plain(v) for k, v in s.updates.items()},
                         **({"body": "rewritten"} if s.body is not None else {})} for s in steps],
        }
        echo_json(out)
        return
    scope = "all" if whole else f"{decided.window} changed since the last run, of"
    if not decided.decisions:
        echo(f"nothing to do ({scope} {decided.live} live cards)")
        return
    for d in decided.decisions:
        others = f" {ARROWS.get(d.action, '·')} {', '.join(d.related)}" if d.related else ""
        echo(f"{d.action:<10} {d.card}{others}  ({d.reason})")
    changed = sum(s.op != "remove" for s in steps)
    if dry_run:
        echo(f"dry run: {len(decided.decisions)} decision(s), {changed} card(s) would change; nothing written")
    elif job:
        echo(f"job {job}: {len(decided.decisions)} decision(s), {changed} card(s) changed; `cards undo` reverts it")
    else:
        echo(f"{len(decided.decisions)} decision(s); no card needed changing")


def _as_json(d: Decision) -> dict[str, Any]:
    return {"action": d.action, "card": d.card, "related": list(d.related), "reason": d.reason}


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


@click.command("consolidate")
@click.option("-n", "--dry-run", is_flag=True, help="Print the plan; change nothing.")
@click.option("--all", "everything", is_flag=True, help="Consider every card, not only those changed since the last run.")
@click.option("--since", type=DATE, metavar="DATE", help="Consider cards modified, created or verified on or after DATE.")
@click.option("--now", type=DATE, metavar="DATE", help="Decide as of DATE (expiry, max_age), for reproducible runs.")
@click.option("--llm", "llm", metavar="CMD", help="Let CMD rewrite merged cards' text (instead of the configured command).")
@FORMAT
@click.pass_obj
def consolidate_command(obj: Options, dry_run: bool, everything: bool, since: dt.datetime | None, now: dt.datetime | None,
                llm: str | None, output_format: str) -> None:
    """Merge duplicates, supersede old values, mark conflicts, archive the expired.

    The offline pass between sessions ("sleep"). Cards changed since the last run start
    the decisions; a locked card is never changed. Every change is one journalled job:
    `cards journal` shows it, `cards undo` reverts it byte for byte. An llm command
    (--llm, your own config, or the vault's once you ran `cards trust`) may rewrite
    merged text; without one, everything is deterministic.

    \b
    Examples:
      cards consolidate --dry-run        # show the plan
      cards consolidate                  # apply it
      cards consolidate --all --format json
      cards consolidate --now 2026-12-01 --since 2026-11-01
    """
    exit_with(run(vault=obj.open("warn" if dry_run else "recover"), dry_run=dry_run, everything=everything,
                      since=since.date() if since else None, now=now.date() if now else None,
                      output_format=output_format, llm=llm))
