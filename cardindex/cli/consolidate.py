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
    from cardindex.lifecycle.review import Numbered
    from cardindex.store.card import Card
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
    diff: bool = False,
    only: str | None = None,
    skip: str | None = None,
    interactive: bool = False,
) -> int:
    from cardindex.agents.log_intake import Intake, intake
    from cardindex.cli.progress import Progress
    from cardindex.errors import Refused, UsageError
    from cardindex.index import build as index
    from cardindex.lifecycle import review, window
    from cardindex.store.jobs import apply, new_text, recover
    from cardindex.store.journal import sha256
    from cardindex.store.os_errors import all_or_nothing
    from cardindex.store.vault import today

    if only is not None and skip is not None:
        raise UsageError("give --only or --skip, not both")
    choosing = only is not None or skip is not None or interactive
    if choosing and dry_run:
        raise UsageError("--only, --skip and --interactive apply decisions; --dry-run (with --diff) shows them")
    if interactive and output_format == "json":
        raise UsageError("--interactive asks on a terminal; with --format json, use --dry-run, then --only N")
    dry_run = dry_run or (diff and not choosing)  # --diff alone previews
    now = now or today()
    options = {"all": everything, "since": since, "now": now, "deep": deep}
    expected = None
    chosen: list[int] | None = None
    if interactive:
        chosen, expected = _ask(vault, now, everything, since, deep, options)
        if not chosen:
            from cardindex.cli.output import echo

            echo("nothing chosen; nothing written" if chosen is not None else "nothing to do")
            return 0
    started = window.start()
    with Progress("consolidate") as progress, vault.lock():
        if not dry_run:  # (a dry run on a vault with an interrupted job was warned about when opened)
            recover(vault)
            index.ensure_replaceable(vault, index.read_index(vault))
        # The raw tier first: durable statements logged since the last run become cards
        # (through the write gate), so the plan below sees them with the rest. A chosen
        # subset applies the plan numbered over the cards as they are, so it reads no logs.
        taken = intake(vault, now, apply=not dry_run) if logs and not choosing else Intake((), (), None)
        if taken.job:
            vault.invalidate()  # the listing (and its file times, which the window reads) includes the new cards
        cards = vault.cards
        progress.phase(f"planning over {len(cards):,} cards")
        changed = None if everything else window.changed(vault, cards, since)
        numbered, forgotten = _numbered(vault, cards, now, changed, deep)
        decided = numbered.plan
        print_ = review.fingerprint(numbered, options)
        if dry_run:
            review.remember(vault, print_, len(numbered.items))
        elif interactive and print_ != expected:
            raise Refused("the vault changed while you chose; nothing written: run `cards consolidate --interactive` again")
        elif only is not None or skip is not None:
            review.check_remembered(vault, print_)
            picked = review.parse_numbers(only or skip or "", len(numbered.items))
            chosen = sorted(picked) if only is not None else [i.number for i in numbered.items if i.number not in picked]
        if chosen is not None:
            steps = review.subset(numbered, chosen)
        else:
            steps = decided.steps
            if deep:
                from cardindex.lifecycle.forget import steps as forget_steps

                steps = [*steps, *forget_steps(forgotten)]
        job = None
        if not dry_run:
            progress.phase("writing cards")
            steps = _rewrite_merged(vault, decided, llm, steps, _merge_numbers(numbered, chosen)) if decided.merges else steps
            with all_or_nothing(vault) as jobs:  # a window or index that cannot be written undoes the job
                job, done = apply(vault, steps, command="consolidate", day=now)
                jobs.add(job)
                if chosen is None:  # a subset leaves the window as it was: what was skipped is proposed again
                    known = window.seen(vault, cards, started)
                    known.update({d.path: sha256(new_text(d.step, d.step.card.text).encode("utf-8"))
                                  for d in done if d.path == d.step.card.path})
                    window.save(vault, started, known, job)
                else:
                    review.forget_remembered(vault)
                progress.phase(f"writing {vault.index_name}")
                index.write(vault, now)  # also when nothing was decided: cards may have changed by hand
    _report(vault, numbered, steps, job, dry_run, output_format, everything or changed is None, taken, forgotten,
            diff=diff, chosen=chosen)
    return 0


def _numbered(vault: Vault, cards: Sequence[Card], now: dt.date, changed: set[str] | None,
              deep: bool) -> tuple[Numbered, list[Forgotten]]:
    """The numbered plan over `cards` (and, for the deep pass, what it forgets, numbered after)."""
    from cardindex.lifecycle.forget import steps as forget_steps
    from cardindex.lifecycle.forget import to_forget
    from cardindex.lifecycle.review import append_steps, numbered
    from cardindex.lint.context import vault_pairs

    kwargs: dict[str, Any] = {
        "now": now, "multi_valued": vault.config.multi_valued_keys, "max_age": vault.config.max_age, "window": changed,
        "find": lambda live: vault_pairs(vault, live, now),
        "absorbed": [c for c in vault.archived() if c.fields.get("merged_into")],
    }
    planned = numbered(cards, **kwargs)
    forgotten: list[Forgotten] = []
    if deep:  # the weekly pass: let what has not been confirmed for forget_after fall away
        forgotten = to_forget(vault.cards, now, vault.config.forget_after, taken=(s.card.path for s in planned.plan.steps))
        append_steps(planned, forget_steps(forgotten))
    return planned, forgotten


def _merge_numbers(numbered: Numbered, chosen: list[int] | None) -> set[tuple[str, frozenset[str]]] | None:
    """The merges a chosen subset applies, as (canonical id, merged ids); None: every merge."""
    if chosen is None:
        return None
    return {(i.card, frozenset(i.related)) for i in numbered.items if i.number in chosen and i.action == "merge"}


def _ask(vault: Vault, now: dt.date, everything: bool, since: dt.date | None, deep: bool,
         options: dict[str, Any]) -> tuple[list[int] | None, str]:
    """Plan, then ask per decision on the terminal, without holding the lock while a person reads."""
    from cardindex.cli.output import echo
    from cardindex.cli.review import ask
    from cardindex.errors import Refused
    from cardindex.lifecycle import review, window

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise Refused("--interactive asks on a terminal, and this is none: use --dry-run --diff, then --only N or --skip N")
    with vault.lock():
        cards = vault.cards
        changed = None if everything else window.changed(vault, cards, since)
        numbered, _ = _numbered(vault, cards, now, changed, deep)
    print_ = review.fingerprint(numbered, options)
    vault.invalidate()
    chosen = ask(vault, numbered.items, ARROWS, read=_read_answer, write=echo)
    return chosen, print_


def _read_answer(prompt: str) -> str:
    """One answer from the terminal; the end of input (Ctrl-D) stops asking, as q does."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    return line if line else "q"


def _rewrite_merged(vault: Vault, decided: Plan, given: str | None, steps: list[Step],
                    allowed: set[tuple[str, frozenset[str]]] | None = None) -> list[Step]:
    """Let the llm command (if one may run: `llm.choose`) write each merged canonical card's body (`allowed`: only these merges)."""
    from cardindex.lifecycle.llm import chosen, rewrite

    merges = [m for m in decided.merges
              if allowed is None or (m.canonical.id, frozenset(c.id for c in m.merged)) in allowed]
    command = chosen(vault, given) if merges else None
    if command is None:
        return steps
    bodies = {m.canonical.path: rewrite(vault, command, m) for m in merges}
    return [s._replace(body=bodies[s.card.path]) if s.op == "edit" and bodies.get(s.card.path) else s for s in steps]


def _report(vault: Vault, numbered: Numbered, steps: list[Step], job: str | None, dry_run: bool, output_format: str,
            whole: bool, taken: Intake, forgotten: Sequence[Forgotten] = (), *, diff: bool = False,
            chosen: list[int] | None = None) -> None:
    from cardindex.cli.output import echo, echo_json
    from cardindex.cli.review import diff as diff_of
    from cardindex.cli.review import explain, headline

    decided = numbered.plan
    items = numbered.items if chosen is None else [i for i in numbered.items if i.number in chosen]
    from_logs = [{"source": o.candidate.where, "card": o.path, "accepted": o.accepted,
                  "refused": [f"{f.code} {f.message}" for f in o.findings]} for o in taken.outcomes]

    if output_format == "json":
        plan_count = len(decided.decisions)
        out: dict[str, Any] = {
            "job": job,
            "dry_run": dry_run,
            "live": decided.live,
            "window": decided.window,
            "decisions": [{"number": i.number, **_as_json(d),
                           **({"explained": explain(i, vault.archive_dir), "diff": diff_of(vault, i.steps)} if diff else {})}
                          for i, d in zip(numbered.items, decided.decisions, strict=False) if chosen is None or i.number in chosen],
            "changes": [{"card": s.card.id, "op": s.op, "action": s.action, "reason": s.reason,
                         "fields": {k: _plain(v) for k, v in s.updates.items()},
                         **({"body": "rewritten"} if s.body is not None else {})} for s in steps],
            "from_logs": {"job": taken.job, "read": [p.rel for p in taken.parts], "candidates": from_logs},
            "forgotten": [{"card": f.card.id, "days": f.days, "forget_after": f.limit,
                           "number": plan_count + n} for n, f in enumerate(forgotten, start=1)
                          if chosen is None or plan_count + n in chosen],
        }
        if chosen is not None:
            out["chosen"] = chosen
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
    scope = "all" if whole else f"{decided.window} changed since the last run, of"
    if not numbered.items:
        echo(f"nothing to do ({scope} {decided.live} live cards)")
        return
    if dry_run or diff:  # numbered, so that --only / --skip can name them
        for item in items:
            echo(headline(item, ARROWS))
            if diff:
                echo(f"     {explain(item, vault.archive_dir)}")
                shown_diff = diff_of(vault, item.steps)
                echo(shown_diff.rstrip("\n") if shown_diff else "     (no file changes)")
    else:
        plan_count = len(decided.decisions)
        for n, f in enumerate(forgotten, start=plan_count + 1):
            if chosen is None or n in chosen:
                echo(f"{'forget':<10} {f.card.id}  (not confirmed for {f.days} days; "
                     f"forget_after for {f.card.type}: {f.limit})")
        for item in (i for i in items if i.number <= plan_count):
            others = f" {ARROWS.get(item.action, '·')} {', '.join(item.related)}" if item.related else ""
            echo(f"{item.action:<10} {item.card}{others}  ({item.reason})")
    changed = sum(s.op != "remove" for s in steps)
    count = len(items)
    skipped = "" if chosen is None else f" of {len(numbered.items)} (skipped: {_ranges([i.number for i in numbered.items if i.number not in chosen]) or 'none'})"
    if dry_run:
        echo(f"dry run: {count} decision(s), {changed} card(s) would change; nothing written"
             " (apply some with --only N,… or --skip N,…)")
    elif job:
        echo(f"job {job}: {count} decision(s){skipped}, {changed} card(s) changed; `cards undo` reverts it")
    else:
        echo(f"{count} decision(s){skipped}; no card needed changing")


def _ranges(numbers: list[int]) -> str:
    return ",".join(str(n) for n in numbers)


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
@click.option("--diff", is_flag=True,
              help="Show each decision's change as a diff, with its reason (a dry run, unless --only/--skip apply some).")
@click.option("--only", metavar="N[,N…]", help="Apply only these decisions of the plan --dry-run numbered (1,3 or 2-4).")
@click.option("--skip", metavar="N[,N…]", help="Apply every decision of the plan --dry-run numbered but these.")
@click.option("-i", "--interactive", is_flag=True, help="Ask per decision on a terminal: y, n, q (stop), d (diff).")
@FORMAT
@click.pass_obj
def consolidate_command(obj: Options, dry_run: bool, everything: bool, since: dt.datetime | None, now: dt.datetime | None,
                llm: str | None, no_logs: bool, deep: bool, diff: bool, only: str | None, skip: str | None,
                interactive: bool, output_format: str) -> None:
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
      cards consolidate --dry-run        # show the numbered plan
      cards consolidate --dry-run --diff # each change as a diff, with its reason
      cards consolidate --only 1,3       # apply decisions 1 and 3 of that plan
      cards consolidate --interactive    # ask per decision
      cards consolidate                  # apply it all
      cards consolidate --all --format json
      cards consolidate --now 2026-12-01 --since 2026-11-01
      cards consolidate --deep           # weekly: the whole vault, and forget_after
    """
    previewing = dry_run or (diff and only is None and skip is None and not interactive)
    exit_with(run(vault=obj.open("warn" if previewing else "recover"), dry_run=dry_run, everything=everything or deep,
                  since=since.date() if since else None, now=now.date() if now else None,
                  output_format=output_format, llm=llm, logs=not no_logs, deep=deep, diff=diff, only=only,
                  skip=skip, interactive=interactive))
