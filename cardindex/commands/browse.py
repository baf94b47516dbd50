"""`cards list` and `cards show`: read the vault.

What they print passes the one redaction (`output.echo`); `cards show --reveal` prints a
card as it is on disk, for its owner.
"""

from __future__ import annotations

import json
import sys

from cardindex.agents.summary import jsonable, summary
from cardindex.commands.output import echo, echo_json
from cardindex.store.vault import Vault, today


def run_list(
    *,
    vault: Vault,
    card_type: str | None = None,
    status: str | None = None,
    show_all: bool = False,
    output_format: str = "text",
) -> int:
    """List cards: live ones by default; `--all` adds retired, expired, invalid and archived."""
    now = today()
    cards = list(vault.cards) + (vault.archived() if show_all or status in ("archived", "superseded") else [])
    rows = [summary(c, now) for c in cards]
    if not show_all and status is None:
        rows = [r for r in rows if r["status"] in ("active", "conflict")]
    if status is not None:
        rows = [r for r in rows if r["status"] == status]
    if card_type is not None:
        rows = [r for r in rows if r["type"] == card_type]
    if output_format == "json":
        echo_json(rows)
        return 0
    width = min(max((len(r["id"]) for r in rows), default=0), 40)
    for r in rows:
        flag = "" if r["status"] == "active" else f"[{r['status']}] "
        text = r["description"] or (r["problems"][0] if r["problems"] else "")
        echo(f"{r['id']:<{width}}  {r['type'] or '-':<9}  {flag}{text}")
    return 0


def run_show(*, vault: Vault, ref: str, output_format: str = "text", reveal: bool = False) -> int:
    """Print one card (or its fields and body as JSON), secrets redacted; with `reveal`, as it is on disk."""
    card = vault.find(ref)
    if output_format == "json":
        data = summary(card, today())
        data["fields"] = jsonable(dict(card.meta))
        data["body"] = card.body
        if reveal:
            print(json.dumps(data, indent=1, ensure_ascii=False))
        else:
            echo_json(data)
    else:
        text = card.text if card.text.endswith("\n") or not card.text else card.text + "\n"
        if reveal:
            sys.stdout.write(text)
        else:
            echo(text, end="")
    for problem in card.problems:
        echo(f"{card.path}:{problem.line or 1}: {problem.severity}: {problem.message}", err=True)
    return 0 if card.usable else 1
