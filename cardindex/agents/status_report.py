"""What `cards status` and the MCP `status` tool report: each tier's backlog, conflicts, the index budget, the last job."""

from __future__ import annotations

from typing import Any

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


def tiers(vault: Vault) -> dict[str, Any]:
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
        "log": {"folder": vault.log_dir, "days": len(days(vault.log_folder())),
                "unread_days": unread_days, "unread_entries": unread_entries},
        "state": {"file": vault.config.state_file, "written": written.isoformat() if written else None,
                  "age_hours": round((utc_now() - written).total_seconds() / 3600, 1) if written else None},
    }


def report(vault: Vault, recovered: str | None = None) -> dict[str, Any]:
    """The status of `vault` as one JSON-ready mapping (`recovered`: a job rolled back just before)."""
    from cardindex.index import build as index
    from cardindex.lifecycle import window
    from cardindex.store.card import id_list
    from cardindex.store.journal import Journal
    from cardindex.store.vault import today

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
    tier_backlog = tiers(vault)
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
        "tiers": tier_backlog,
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
    return out
