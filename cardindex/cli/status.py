"""`cards status`: the backlog a user should see before trusting the index."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import FORMAT, Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.card import Card
    from cardindex.store.vault import Vault


def conflict_groups(conflicts: list[Card]) -> list[list[str]]:
    """One group per open conflict: the cards that name each other in `conflicts_with`, sorted.

    Two cards in conflict are one conflict, not two; a card whose other side is gone
    (archived, renamed) is a group of its own.
    """
    from cardindex.store.card import id_list

    ids = {c.id for c in conflicts}
    parent = {i: i for i in ids}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for c in conflicts:
        for other in id_list(c.fields.get("conflicts_with")):
            if other in ids:
                parent[root(other)] = root(c.id)
    groups: dict[str, list[str]] = {}
    for i in sorted(ids):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())


def _tiers(vault: Vault) -> dict[str, Any]:
    """The backlog of the raw log and the age of the working memory (SPEC §10)."""
    from cardindex.agents.log_intake import backlog
    from cardindex.agents.state import written_at
    from cardindex.store.daily_log import days, utc_now

    unread_days, unread_entries = backlog(vault)
    try:
        text = vault.path_of(vault.config.state_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    written = written_at(text)
    return {
        "log": {"folder": vault.log_dir, "days": len(days(vault.root / vault.log_dir)),
                "unread_days": unread_days, "unread_entries": unread_entries},
        "state": {"file": vault.config.state_file, "written": written.isoformat() if written else None,
                  "age_hours": round((utc_now() - written).total_seconds() / 3600, 1) if written else None},
    }


def run(*, vault: Vault, output_format: str = "text") -> int:
    from cardindex.cli.output import echo, echo_json
    from cardindex.errors import Refused
    from cardindex.index import build as index
    from cardindex.lifecycle import window
    from cardindex.store.card import id_list
    from cardindex.store.journal import Journal
    from cardindex.store.recovery import settle
    from cardindex.store.vault import today

    try:
        recovered = settle(vault)  # a job a killed process left half done: rolled back first
    except (Refused, OSError) as exc:  # cannot be rolled back (a damaged pack, a read-only vault): shown below
        print(f"warning: {exc}", file=sys.stderr)
        recovered = None
    now = today()
    cards = vault.cards
    live = [c for c in cards if c.live(now)]
    changed = window.changed(vault, cards)
    state = window.load(vault)
    journal = Journal(vault.state_dir)
    last_job = journal.last()
    rendered = index.render(vault, cards, now)
    budget = vault.config.index_budget
    conflicts = [c for c in live if c.status == "conflict"]
    expired = [c for c in cards if c.usable and c.status in ("active", "conflict") and c.expired(now)]
    broken = [c for c in cards if not c.usable]
    tiers = _tiers(vault)
    out: dict[str, Any] = {
        "vault": str(vault.root),
        "live": len(live),
        "changed_since_consolidation": None if changed is None else sorted(changed),
        "last_consolidation": state.get("started") if state else None,
        "last_job": {"id": last_job["id"], "time": last_job["time"], "command": last_job["command"]} if last_job else None,
        "interrupted_job": journal.pending(),
        "rolled_back_job": recovered,
        "conflicts": [{"card": c.id, "with": id_list(c.fields.get("conflicts_with"))} for c in conflicts],
        "conflict_groups": conflict_groups(conflicts),
        "expired": [c.id for c in expired],
        "broken": [c.path for c in broken],
        "tiers": tiers,
        "index": {
            "file": vault.index_name,
            "lines": rendered.text.count("\n"),
            "bytes": len(rendered.text.encode("utf-8")),
            "budget_lines": budget.lines,
            "budget_bytes": budget.bytes,
            "shown": rendered.shown,
            "omitted": rendered.omitted,
            "current": index.read_index(vault) == rendered.text,
        },
    }
    if output_format == "json":
        echo_json(out)
        return 0
    ix = out["index"]
    pending = "every card (never consolidated)" if changed is None else f"{len(changed)} card(s)"
    echo(f"{len(live)} live card(s) in {vault.root}")
    echo(f"changed since the last consolidation: {pending}"
          + (f" (last run {out['last_consolidation']})" if state else ""))
    log, st = tiers["log"], tiers["state"]
    echo(f"raw log: {log['unread_entries']} entr(ies) in {log['unread_days']} day(s) not yet consolidated"
         f" ({log['days']} day file(s) under {log['folder']}/)")
    age = "never written" if st["written"] is None else f"written {st['written']}, {st['age_hours']} h ago"
    echo(f"working memory: {st['file']} {age} (`cards state` rewrites it)")
    groups = conflict_groups(conflicts)
    echo(f"open conflicts: {len(groups)}" + (f" ({len(conflicts)} cards)" if groups else ""))
    for group in groups:
        echo("  " + " ↔ ".join(group))
    if expired:
        echo(f"expired but live: {len(expired)} (cards consolidate archives them)")
    if broken:
        echo(f"unreadable cards: {len(broken)} (cards lint shows why)")
    echo(f"{ix['file']}: {ix['lines']}/{ix['budget_lines']} lines, {ix['bytes']:,}/{ix['budget_bytes']:,} bytes, "
          f"{ix['shown']} shown, {ix['omitted']} left out" + ("" if ix["current"] else "; out of date (cards index)"))
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
