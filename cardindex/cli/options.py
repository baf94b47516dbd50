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


class TextCommand(click.Command):
    """A command whose argument is free text: a text that starts with '-' gets a hint, not "No such option '- '".

    The shell hands `cards add "- [ ] rename the queue"` over as one word starting with
    '-', which click reads as options; `--` before it says "the rest is text".
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            if exc.option_name.startswith("- ") or " " in exc.option_name.strip():
                raise click.UsageError(
                    f"a TEXT that starts with '-' reads as options; put -- before it: cards {self.name} -- \"- …\"",
                    ctx) from None
            raise
