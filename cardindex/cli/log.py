"""`cards log`: append a timestamped entry to today's raw log (the first tier, SPEC §10)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from cardindex.cli.options import FORMAT, Options, TextCommand

if TYPE_CHECKING:
    from cardindex.store.daily_log import Entry
    from cardindex.store.vault import Vault


def log_entry(vault: Vault, text: str, at: str | None = None) -> Entry:
    """Append `text` to the vault's log for its day (now, or `at`); refuses secrets, like `cards add`."""
    from cardindex.store import daily_log

    time = daily_log.parse_time(at, "--at") if at else daily_log.utc_now()
    return daily_log.log_to(vault.log_folder(), text, time)


@click.command("log", cls=TextCommand)
@click.argument("text", nargs=-1, required=True)
@click.option("--at", metavar="TIME", help="The entry's time (ISO, UTC if no zone); default: now.")
@FORMAT
@click.pass_obj
def log_command(opts: Options, text: tuple[str, ...], at: str | None, output_format: str) -> None:
    """Append an entry to today's raw log, log/YYYY-MM-DD.md.

    The raw tier: progress, what was tried, where work stopped, what comes next —
    what is true inside one session and is no card. Logs are never indexed or linted
    as cards and never rewritten; `cards state` and `cards consolidate` read them.
    Many processes may log at once: no entry is lost or interleaved.

    \b
    Examples:
      cards log "Left off in the export screen: CSV toggle next"
      git log -1 --format=%B | cards log -
      cards log --at 2026-11-30T17:05:00Z "Paused the auth cleanup"
    """
    from cardindex.cli.output import echo, echo_json

    body = sys.stdin.read() if text == ("-",) else " ".join(text)
    vault = opts.open()
    entry = log_entry(vault, body, at)
    rel = vault.rel(entry.path)
    if output_format == "json":
        from cardindex.store.daily_log import stamp

        assert entry.time is not None
        echo_json({"path": rel, "line": entry.line, "time": stamp(entry.time)})
    else:
        echo(f"logged to {rel}:{entry.line}")
