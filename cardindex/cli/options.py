"""What every command shares: the global options (`--vault`, `--no-cache`), `--format`, card types, dates, the exit."""

from __future__ import annotations

from typing import Any

import click

TYPES = ("user", "feedback", "project", "reference")
FORMAT = click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="Output format.",
)
DATE = click.DateTime(["%Y-%m-%d"])


class Options:
    def __init__(self, vault: str | None, use_cache: bool) -> None:
        self.vault = vault
        self.use_cache = use_cache

    def open(self, pending: str = "recover") -> Any:
        """The vault, after `recovery.opened` (`pending`: recover, warn or leave) saw to a killed job."""
        from cardindex.store.recovery import opened
        from cardindex.store.vault import Vault, find_root

        return opened(Vault(find_root(self.vault), use_cache=self.use_cache), pending)


def exit_with(code: int) -> None:
    click.get_current_context().exit(code)
