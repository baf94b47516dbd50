"""`cards consolidate`: plan, then apply as one journalled job, then update INDEX.md."""

from __future__ import annotations

import datetime as dt
import sys
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import DATE, FORMAT, Options, exit_with

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cardindex.agents.log_intake import Intake
    from cardindex.lifecycle.forget import Forgotten
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
    logs: bool = True,
    deep: bool = False,
) -> int:
    from cardindex.agents.log_intake import Intake, intake
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
        # The raw tier first: durable statements logged since the last run become cards
        # (through the write gate), so the plan below sees them with the rest.
        taken = intake(vault, now, apply=not dry_run) if logs else Intake((), (), None)
        if taken.job:
            vault.invalidate()  # the listing (and its file times, which the window reads) includes the new cards
        cards = vault.cards
        if len(cards) > 5000 and sys.stderr.isatty():
            echo(f"consolidate: planning over {len(cards):,} cards…", err=True)
        changed = None if everything else window.changed(vault, cards, since)
        decided = plan(cards, now=now, multi_valued=vault.config.multi_valued_keys,
                       max_age=vault.config.max_age, window=changed,
                       find=lambda live: vault_pairs(vault, live, now),
                       absorbed=[c for c in vault.archived() if c.fields.get("merged_into")])
        steps = decided.steps
        forgotten = []
        if deep:  # the weekly pass: let what has not been confirmed for forget_after fall away
            from cardindex.lifecycle.forget import steps as forget_steps
            from cardindex.lifecycle.forget import to_forget

            forgotten = to_forget(vault.cards, now, vault.config.forget_after, taken=(s.card.path for s in steps))
            steps = [*steps, *forget_steps(forgotten)]
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
    _report(decided, steps, job, dry_run, output_format, everything or changed is None, taken, forgotten)
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


def _report(decided: Plan, steps: list[Step], job: str | None, dry_run: bool, output_format: str, whole: bool,
            taken: Intake, forgotten: Sequence[Forgotten] = ()) -> None:
    from cardindex.cli.output import echo, echo_json

    from_logs = [{"source": o.candidate.where, "card": o.path, "accepted": o.accepted,
                  "refused": [f"{f.code} {f.message}" for f in o.findings]} for o in taken.outcomes]

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
            "from_logs": {"job": taken.job, "read": [p.rel for p in taken.parts], "candidates": from_logs},
            "forgotten": [{"card": f.card.id, "days": f.days, "forget_after": f.limit} for f in forgotten],
        }
        echo_json(out)
        return
    if taken.parts:
        accepted = [o for o in taken.outcomes if o.accepted]
        verb = "would become" if dry_run else "became"
        echo(f"logs: {taken.entries_read} new entr(ies) in {len(taken.parts)} day(s); "
             f"{len(accepted)} durable statement(s) {verb} cards, {len(taken.outcomes) - len(accepted)} refused by the gate"
             + (f" (job {taken.job})" if taken.job else ""))
        for o in taken.outcomes:
            echo(f"  {'add' if o.accepted else 'refused':<8} {o.candidate.where} -> {o.path}"
                 + ("" if o.accepted else f"  ({o.findings[0].code} {o.findings[0].message})"))
    for f in forgotten:
        echo(f"{'forget':<10} {f.card.id}  (not confirmed for {f.days} days; forget_after for {f.card.type}: {f.limit})")
    scope = "all" if whole else f"{decided.window} changed since the last run, of"
    if not decided.decisions and not forgotten:
        echo(f"nothing to do ({scope} {decided.live} live cards)")
        return
    for d in decided.decisions:
        others = f" {ARROWS.get(d.action, '·')} {', '.join(d.related)}" if d.related else ""
        echo(f"{d.action:<10} {d.card}{others}  ({d.reason})")
    changed = sum(s.op != "remove" for s in steps)
    if dry_run:
        echo(f"dry run: {len(decided.decisions) + len(forgotten)} decision(s), {changed} card(s) would change; nothing written")
    elif job:
        echo(f"job {job}: {len(decided.decisions) + len(forgotten)} decision(s), {changed} card(s) changed; `cards undo` reverts it")
    else:
        echo(f"{len(decided.decisions) + len(forgotten)} decision(s); no card needed changing")


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
@click.option("--no-logs", "no_logs", is_flag=True, help="Do not read new `cards log` entries for durable statements.")
@click.option("--deep", is_flag=True,
              help="The weekly pass: every card (as --all), and archive what is unconfirmed past forget_after.")
@FORMAT
@click.pass_obj
def consolidate_command(obj: Options, dry_run: bool, everything: bool, since: dt.datetime | None, now: dt.datetime | None,
                llm: str | None, no_logs: bool, deep: bool, output_format: str) -> None:
    """Merge duplicates, supersede old values, mark conflicts, archive the expired.

    The offline pass between sessions ("sleep"). First, durable statements in what was
    logged since the last run (`cards log`: decisions, corrections, "remember that")
    become cards through the write gate. Cards changed since the last run start
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
      cards consolidate --deep           # weekly: the whole vault, and forget_after
    """
    exit_with(run(vault=obj.open("warn" if dry_run else "recover"), dry_run=dry_run, everything=everything or deep,
                      since=since.date() if since else None, now=now.date() if now else None,
                      output_format=output_format, llm=llm, logs=not no_logs, deep=deep))
