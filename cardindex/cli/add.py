"""`cards add`: write one new card, supersede what it replaces, update the index."""

from __future__ import annotations

import datetime as dt
import os
import sys
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import FORMAT, TYPES, Options, TextCommand, exit_with

if TYPE_CHECKING:
    from cardindex.store.vault import Vault


def run(*, vault: Vault, output_format: str = "text", to_log: bool = False, **options: Any) -> int:
    """Add a card (`options` as for `add_card`); print its path. Returns the exit code.

    `to_log`: a card the gate refuses only as session-only goes to today's raw log instead.
    """
    import json

    from cardindex.cli.index import report_takeover
    from cardindex.lifecycle.add import GateRefused, add_card

    try:
        added = add_card(vault=vault, **options)
    except GateRefused as refused:
        session_only = bool(refused.findings) and all(f.category == "session" for f in refused.findings)
        if to_log and session_only:
            return _logged_instead(vault, str(options.get("text") or ""), output_format)
        for f in refused.findings:
            print(f"{refused.name}:{f.line}: {f.code} {f.message}", file=sys.stderr)
        if session_only:
            print("hint: true only in this session: it belongs in the raw log; `cards add --to-log …` or "
                  "`cards log TEXT` appends it to today's log/ (`cards state` shows open work from there)",
                  file=sys.stderr)
        raise
    new, key = added.card, added.key
    shown = str(vault.path_of(new.path))
    if output_format == "json":
        print(json.dumps({
            "path": shown,
            "id": new.id,
            "status": added.status,
            "superseded": added.superseded,
            "conflicts_with": added.conflicts_with,
            "job": added.job,
        }))
    else:
        print(shown)
    for d in added.retired:
        print(f"superseded {d.step.card.id} (same key {key!r}); archived as {d.path}", file=sys.stderr)
    if added.conflicts_with:
        print(
            f"conflict: key {key!r} belongs to locked card {added.conflicts_with[0]}; the new card is marked conflict",
            file=sys.stderr,
        )
    for f in added.contradicts:
        print(f"warning: {added.card.path}:{f.line}: {f.code} {f.message}", file=sys.stderr)
    report_takeover(added.indexed.takeover)  # its MEMORY.md was kept by hand until now: say what was kept
    broken = added.indexed.broken
    if broken:
        names = ", ".join(c.path for c in broken[:3]) + (", …" if len(broken) > 3 else "")
        print(f"warning: {len(broken)} unreadable card(s) left out of {added.indexed.path} ({names}); "
              "`cards lint` says what is wrong with each", file=sys.stderr)
    return 0


def _logged_instead(vault: Vault, text: str, output_format: str) -> int:
    import json

    from cardindex.cli.log import log_entry

    entry = log_entry(vault, text)
    rel = vault.rel(entry.path)
    if output_format == "json":
        print(json.dumps({"logged": rel, "line": entry.line}))
    else:
        print(f"logged to {rel}:{entry.line} (session-only: not a card)")
    return 0


@click.command("add", cls=TextCommand)
@click.argument("text", required=False)
@click.option("-d", "--description", help="One line: what the fact is for (default: the text's first line).")
@click.option("-t", "--type", "card_type", type=click.Choice(TYPES), default="project", show_default=True,
              help="Kind of fact.")
@click.option("-k", "--key", help="The slot this fact fills; an older live card with the key is superseded.")
@click.option("-s", "--scope", help="global (default), path:src/api, repo:NAME, or free text.")
@click.option("-n", "--name", help="Short title; also names the file.")
@click.option("--lock", is_flag=True, help="Stated by the user: consolidation never changes it.")
@click.option("--source", help="Where the fact came from (a URL, a log line, 'user said').")
@click.option("--expires", type=click.DateTime(["%Y-%m-%d"]), help="Date after which the fact no longer holds.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("-f", "--force", is_flag=True, help="Write even when the write gate refuses the card.")
@click.option("--to-log", is_flag=True, help="If the gate refuses it as session-only, append it to today's log.")
@FORMAT
@click.pass_obj
def add_command(obj: Options, /, text: str | None, expires: dt.datetime | None, **options: Any) -> None:
    """Add a card from TEXT, from stdin with '-', or from $EDITOR with no TEXT.

    Prints the new card's path. A live card with the same single-valued --key is
    superseded and archived (journalled); a locked one makes the new card a conflict.

    \b
    Examples:
      cards add "Deploy to production on Thursdays only." --key deploy-day \\
          -d "Which weekday production deploys happen"
      echo "Prefers tabs" | cards add - --type user --name "Indentation"
      cards add --to-log "Halfway through the export screen"   # progress: to the log
      cards add -- "- [ ] text starting with a dash"   # -- before a TEXT that starts with '-'
      cards add            # opens $EDITOR
    """
    if text == "-":
        text = sys.stdin.read()
    elif text is None:
        text = _from_editor()
    vault = obj.open()
    exit_with(run(vault=vault, text=text, expires=expires.date() if expires else None, **options))


EDITOR_TEMPLATE = """
# Write the fact above. Lines starting with '#' are ignored; an empty text aborts.
# The first line becomes the description unless you pass --description.
"""


def _from_editor() -> str:
    from cardindex.errors import UsageError

    if not (os.environ.get("VISUAL") or os.environ.get("EDITOR")):
        raise UsageError("no TEXT given and $EDITOR is not set; pass TEXT, or '-' to read stdin")
    edited = click.edit(EDITOR_TEMPLATE, extension=".md", require_save=False)
    lines = [line for line in (edited or "").splitlines() if not line.startswith("#")]
    return "\n".join(lines)
