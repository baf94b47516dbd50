"""The `cards` group: global options, the translation of errors into one line and an exit code, `main`.

Every command is in its own module of this package (parse options, call the core, print)
and is registered here; the core is imported inside each command, so `cards --help`
loads click and nothing heavy.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from cardindex import __version__
from cardindex.cli.options import Options
from cardindex.errors import CardIndexError


class CardsGroup(click.Group):
    """Turn the core's errors, and what the system refuses (OSError), into one line on stderr and an exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        from cardindex.redaction import shown  # an error may quote a card, an argument or a file name

        try:
            return super().invoke(ctx)
        except (CardIndexError, OSError) as exc:
            if isinstance(exc, BrokenPipeError):
                raise  # main() handles a closed stdout
            exc = exc if isinstance(exc, CardIndexError) else _os_failure(exc)
            click.echo(f"error: {shown(str(exc))}", err=True)
            ctx.exit(exc.exit_code)
        except click.ClickException as exc:  # click's own usage errors echo the arguments
            exc.__dict__["message"] = shown(exc.message)  # `message` is Final to type checkers only
            raise


def _os_failure(exc: OSError) -> CardIndexError:
    from cardindex.store.os_errors import failure

    return failure(exc)


@click.group(cls=CardsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--vault", metavar="PATH", help="The vault folder (default: $CARDS_VAULT, else the current folder).")
@click.option("--no-cache", is_flag=True, help="Parse every card again instead of using .cardindex/cache.")
@click.option("-q", "--quiet", is_flag=True, help="Draw no progress line on stderr during long work.")
@click.version_option(__version__, "--version", prog_name="cards")
@click.pass_context
def cli(ctx: click.Context, vault: str | None, no_cache: bool, quiet: bool) -> None:
    """A card index for agent memory: one durable fact per file, one small INDEX.md.

    \b
    Examples:
      cards init                       make the current folder a vault
      cards add "Deploy on Thursdays only" --key deploy-day
      cards index --check              exit 1 when INDEX.md is out of date
      cards --vault memory list --format json
    """
    from cardindex.cli import progress

    progress.QUIET = quiet
    ctx.obj = Options(vault, not no_cache)


def main(argv: list[str] | None = None) -> int:
    """Run `cards`; return the exit code."""
    try:
        cli.main(args=argv, prog_name="cards", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        return 130
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:  # outside a command (click writing its output to a full disk, say)
        failed = _os_failure(exc)
        click.echo(f"error: {failed}", err=True)
        return failed.exit_code
    return 0


# name -> (module in this package, its command): each is imported only when it runs (or for --help),
# so `cards search` loads click, the search command and the core it calls, and nothing else.
COMMANDS = {
    "init": ("init", "init_command"), "add": ("add", "add_command"), "index": ("index", "index_command"),
    "list": ("browse", "list_cards_command"), "show": ("browse", "show_command"), "lint": ("lint", "lint_command"),
    "rule": ("rule", "rule_command"), "journal": ("journal", "journal_command"), "undo": ("undo", "undo_command"),
    "consolidate": ("consolidate", "consolidate_command"), "supersede": ("lifecycle", "supersede_command"),
    "archive": ("lifecycle", "archive_command"), "rm": ("lifecycle", "rm_command"),
    "status": ("status", "status_command"), "context": ("context", "context_command"),
    "search": ("search", "search_command"), "watch": ("watch", "watch_command"),
    "git-setup": ("git", "git_setup_command"), "merge-index": ("git", "merge_index_command"),
    "import": ("import_", "import_cards_command"), "mcp": ("mcp", "mcp_command"),
    "trust": ("trust", "trust_vault_command"), "log": ("log", "log_command"), "state": ("state", "state_command"),
    "completion": ("completion", "completion_command"),
}


class _Commands(dict[str, Any]):
    """The group's commands, each imported from its module on first use (click reads `commands` as a dict)."""

    def __getitem__(self, name: str) -> Any:
        value = super().__getitem__(name)
        if isinstance(value, tuple):
            import importlib

            module, attr = value
            value = getattr(importlib.import_module(f"cardindex.cli.{module}"), attr)
            super().__setitem__(name, value)
        return value

    def get(self, name: str, default: Any = None) -> Any:
        if name not in self:
            return default
        return self[name]

    def values(self) -> Any:
        return [self[k] for k in self]

    def items(self) -> Any:
        return [(k, self[k]) for k in self]


cli.commands = _Commands(COMMANDS)
