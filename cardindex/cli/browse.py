"""`cards list` and `cards show`: read the vault.

What they print passes the one redaction (`output.echo`); `cards show --reveal` prints a
card as it is on disk, for its owner.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.completion import card_ids
from cardindex.cli.options import FORMAT, TYPES, Options, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


def run_list(
    *,
    vault: Vault,
    card_type: str | None = None,
    status: str | None = None,
    show_all: bool = False,
    output_format: str = "text",
) -> int:
    """List cards: live ones by default; `--all` adds retired, expired, invalid and archived."""
    from cardindex.agents.summary import summary
    from cardindex.cli.output import echo, echo_json
    from cardindex.store.vault import today

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
    import json

    from cardindex.agents.summary import jsonable, summary
    from cardindex.cli.output import echo, echo_json
    from cardindex.store.vault import today

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


@click.command("list")
@click.option("-t", "--type", "card_type", type=click.Choice(TYPES), help="Only cards of this type.")
@click.option("--status", type=click.Choice(["active", "conflict", "stale", "superseded", "archived", "expired", "invalid"]),
              help="Only cards with this status.")
@click.option("-a", "--all", "show_all", is_flag=True, help="Include retired, expired, invalid and archived cards.")
@FORMAT
@click.pass_obj
def list_cards_command(obj: Options, /, **options: Any) -> None:
    """List the live cards: id, type and description.

    \b
    Examples:
      cards list
      cards list --type feedback
      cards list --all --format json
    """
    exit_with(run_list(vault=obj.open("warn"), **options))


@click.command("show")
@click.argument("card", shell_complete=card_ids)
@click.option("--reveal", is_flag=True, help="Print the card as it is on disk, secrets and control characters too.")
@FORMAT
@click.pass_obj
def show_command(obj: Options, card: str, reveal: bool, output_format: str) -> None:
    """Print one card by id (billing/owner) or path (billing/owner.md).

    Secrets are shown as [redacted] and control characters escaped; --reveal prints
    the card as it is, for its owner.

    \b
    Examples:
      cards show deploy-day
      cards show billing/owner --format json
      cards show deploy-day --reveal
    """
    exit_with(run_show(vault=obj.open("warn"), ref=card, output_format=output_format, reveal=reveal))
