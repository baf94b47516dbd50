"""The `cards` command line: click options and dispatch, no logic.

Command modules are imported inside each command, so `cards --help` stays light.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path
from typing import Any

import click

from cardindex import __version__
from cardindex.errors import CardIndexError

TYPES = ("user", "feedback", "project", "reference")
FORMAT = click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
    help="Output format.",
)


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


class Options:
    def __init__(self, vault: str | None, use_cache: bool) -> None:
        self.vault = vault
        self.use_cache = use_cache

    def open(self, pending: str = "recover") -> Any:
        """The vault, after `recovery.opened` (`pending`: recover, warn or leave) saw to a killed job."""
        from cardindex.store.recovery import opened
        from cardindex.store.vault import Vault, find_root

        return opened(Vault(find_root(self.vault), use_cache=self.use_cache), pending)


@click.group(cls=CardsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--vault", metavar="PATH", help="The vault folder (default: $CARDS_VAULT, else the current folder).")
@click.option("--no-cache", is_flag=True, help="Parse every card again instead of using .cardindex/cache.")
@click.version_option(__version__, "--version", prog_name="cards")
@click.pass_context
def cli(ctx: click.Context, vault: str | None, no_cache: bool) -> None:
    """A card index for agent memory: one durable fact per file, one small INDEX.md.

    \b
    Examples:
      cards init                       make the current folder a vault
      cards add "Deploy on Thursdays only" --key deploy-day
      cards index --check              exit 1 when INDEX.md is out of date
      cards --vault memory list --format json
    """
    ctx.obj = Options(vault, not no_cache)


@cli.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--index-file", metavar="NAME", help="Index file name, e.g. MEMORY.md for a Claude Code memory dir.")
@click.option("--claude", is_flag=True,
              help="Manage a Claude Code memory directory: MEMORY.md as the index; without DIRECTORY, the one "
                   "Claude Code uses for the current project (~/.claude/projects/<project>/memory).")
@click.option("-n", "--dry-run", is_flag=True, help="Show the index it would write as a diff; write nothing.")
@click.pass_obj
def init(obj: Options, directory: Path | None, index_file: str | None, claude: bool, dry_run: bool) -> None:
    """Make a folder a vault: .cardindex.yaml, .cardindex/ and INDEX.md.

    Safe to run again: existing settings and cards are kept. A MEMORY.md kept by hand
    that only links to files is taken over (journalled: `cards undo` restores it).

    \b
    Examples:
      cards init
      cards init memory/
      cards init --claude                 # this project's Claude Code memory directory
      cards init ~/.claude/projects/-home-me-proj/memory --claude
      cards init --claude --dry-run       # the MEMORY.md it would write, as a diff
    """
    from cardindex.commands import init as command

    if claude:
        if index_file not in (None, "MEMORY.md"):
            raise click.UsageError("--claude uses MEMORY.md as the index file")
        root = directory or (Path(obj.vault) if obj.vault else command.claude_memory_dir(Path.cwd()))
        _exit(command.run(root=root, index_file="MEMORY.md", claude=True, dry_run=dry_run))
    root = directory or Path(obj.vault or os.environ.get("CARDS_VAULT") or ".")
    _exit(command.run(root=root, index_file=index_file, dry_run=dry_run))


@cli.command()
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
@FORMAT
@click.pass_obj
def add(obj: Options, /, text: str | None, expires: dt.datetime | None, **options: Any) -> None:
    """Add a card from TEXT, from stdin with '-', or from $EDITOR with no TEXT.

    Prints the new card's path. A live card with the same single-valued --key is
    superseded and archived (journalled); a locked one makes the new card a conflict.

    \b
    Examples:
      cards add "Deploy to production on Thursdays only." --key deploy-day \\
          -d "Which weekday production deploys happen"
      echo "Prefers tabs" | cards add - --type user --name "Indentation"
      cards add            # opens $EDITOR
    """
    from cardindex.commands import add as command

    if text == "-":
        text = sys.stdin.read()
    elif text is None:
        text = _from_editor()
    vault = obj.open()
    _exit(command.run(vault=vault, text=text, expires=expires.date() if expires else None, **options))


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


@cli.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--check", is_flag=True, help="Change nothing; exit 1 when the index is out of date.")
@click.option("-n", "--dry-run", is_flag=True, help="Show the new index as a diff against the current one; write nothing.")
@click.pass_obj
def index(obj: Options, /, files: tuple[str, ...], check: bool, dry_run: bool) -> None:
    """Regenerate INDEX.md from the cards (or MEMORY.md, per index_file).

    Broken cards are reported and left out; the rest are still indexed. With FILE
    arguments, works on the vault of each file (what the pre-commit hook passes).
    An index kept by hand that only links to files is taken over: links to notes
    that are not cards stay, in their own group; `cards undo` restores the old file.

    \b
    Examples:
      cards index
      cards index --check      # in CI or a pre-commit hook
      cards index --check memory/deploy-day.md
      cards index --dry-run    # the change as a diff, nothing written
    """
    from cardindex.commands import index as command

    if dry_run and (check or files):
        raise click.UsageError("--dry-run takes no FILE arguments and no --check")
    if dry_run:
        _exit(command.run(vault=obj.open(), dry_run=True))
    if files:
        _exit(command.run_files(vault_option=obj.vault, files=list(files), check=check, use_cache=obj.use_cache))
    _exit(command.run(vault=obj.open(), check=check))


@cli.command("list")
@click.option("-t", "--type", "card_type", type=click.Choice(TYPES), help="Only cards of this type.")
@click.option("--status", type=click.Choice(["active", "conflict", "stale", "superseded", "archived", "expired", "invalid"]),
              help="Only cards with this status.")
@click.option("-a", "--all", "show_all", is_flag=True, help="Include retired, expired, invalid and archived cards.")
@FORMAT
@click.pass_obj
def list_cards(obj: Options, /, **options: Any) -> None:
    """List the live cards: id, type and description.

    \b
    Examples:
      cards list
      cards list --type feedback
      cards list --all --format json
    """
    from cardindex.commands import browse

    _exit(browse.run_list(vault=obj.open("warn"), **options))


@cli.command()
@click.argument("card")
@click.option("--reveal", is_flag=True, help="Print the card as it is on disk, secrets and control characters too.")
@FORMAT
@click.pass_obj
def show(obj: Options, card: str, reveal: bool, output_format: str) -> None:
    """Print one card by id (billing/owner) or path (billing/owner.md).

    Secrets are shown as [redacted] and control characters escaped; --reveal prints
    the card as it is, for its owner.

    \b
    Examples:
      cards show deploy-day
      cards show billing/owner --format json
      cards show deploy-day --reveal
    """
    from cardindex.commands import browse

    _exit(browse.run_show(vault=obj.open("warn"), ref=card, output_format=output_format, reveal=reveal))


@cli.command()
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--select", multiple=True, metavar="RULES", help="Only these rules: codes, prefixes or categories (comma-separated).")
@click.option("--extend-select", multiple=True, metavar="RULES", help="Add rules to the selection.")
@click.option("--ignore", multiple=True, metavar="RULES", help="Leave these rules out.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "json-lines", "github", "sarif"]),
              default="text", show_default=True, help="Output format.")
@click.option("--statistics", "show_statistics", is_flag=True, help="Count findings per rule instead of listing them.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--fix", is_flag=True, help="Apply safe fixes: regenerate the index, quote values.")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix, also archive flagged cards (journalled; `cards journal`).")
@click.option("--repo", metavar="PATH", help="The repo to compare against (default: the git top-level above the vault).")
@click.option("--update-baseline", is_flag=True,
              help="Accept the secrets found now into .cardindex-secrets.json (commit it): lint leaves them out; "
                   "they stay redacted everywhere.")
@click.pass_obj
def lint(obj: Options, /, files: tuple[str, ...], **options: Any) -> None:
    """Flag what does not belong: session notes, copies of the code, duplicates,
    contradictions, stale facts, secrets, broken cards, a stale index.

    With FILE arguments, lints those cards (each against its own vault) and skips the
    vault-wide index checks. Exit 0 clean, 1 findings, 2 bad usage or config.

    \b
    Examples:
      cards lint
      cards lint --select session,secret --format json
      cards lint memory/deploy-day.md --ignore C
      cards lint --fix                 # regenerate INDEX.md, quote bad values
      cards lint --fix --unsafe-fixes  # also archive flagged cards
      cards lint --statistics
      cards lint --update-baseline     # accept the secrets found now
    """
    from cardindex.commands import lint as command

    _exit(command.run(vault_option=obj.vault, files=files, use_cache=obj.use_cache, **options))


@cli.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
@FORMAT
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Explain a lint rule (or a prefix or category of rules).

    \b
    Examples:
      cards rule S101
      cards rule session
      cards rule --all
    """
    from cardindex.commands import rule as command

    _exit(command.run(code=code, show_all=show_all, output_format=output_format))


@cli.group(invoke_without_command=True)
@click.option("-n", "--limit", type=click.IntRange(min=1), help="Only the newest N jobs.")
@FORMAT
@click.pass_context
def journal(ctx: click.Context, limit: int | None, output_format: str) -> None:
    """List the jobs that changed cards, newest first, with each action and its reason.

    \b
    Examples:
      cards journal -n 5
      cards journal --format json
      cards journal prune --dry-run
    """
    from cardindex.commands import journal as command

    if ctx.invoked_subcommand is None:
        _exit(command.run(vault=ctx.obj.open("warn"), limit=limit, output_format=output_format))


@cli.command()
@click.argument("job", required=False)
@click.pass_obj
def undo(obj: Options, job: str | None) -> None:
    """Undo a job from the journal (default: the newest not yet undone), byte for byte.

    Refused when a later job, or a person, changed one of the job's files since: undo
    the later job first.

    \b
    Examples:
      cards undo
      cards undo 20261130T031500   # a job id, or a unique prefix of one (see cards journal)
    """
    from cardindex.commands import undo as command

    _exit(command.run(vault=obj.open("leave"), job=job))


DATE = click.DateTime(["%Y-%m-%d"])


@cli.command()
@click.option("-n", "--dry-run", is_flag=True, help="Print the plan; change nothing.")
@click.option("--all", "everything", is_flag=True, help="Consider every card, not only those changed since the last run.")
@click.option("--since", type=DATE, metavar="DATE", help="Consider cards modified, created or verified on or after DATE.")
@click.option("--now", type=DATE, metavar="DATE", help="Decide as of DATE (expiry, max_age), for reproducible runs.")
@click.option("--llm", "llm", metavar="CMD", help="Let CMD rewrite merged cards' text (instead of the configured command).")
@FORMAT
@click.pass_obj
def consolidate(obj: Options, dry_run: bool, everything: bool, since: dt.datetime | None, now: dt.datetime | None,
                llm: str | None, output_format: str) -> None:
    """Merge duplicates, supersede old values, mark conflicts, archive the expired.

    The offline pass between sessions ("sleep"). Cards changed since the last run start
    the decisions; a locked card is never changed. Every change is one journalled job:
    `cards journal` shows it, `cards undo` reverts it byte for byte. An llm command
    (--llm, your own config, or the vault's once you ran `cards trust`) may rewrite
    merged text; without one, everything is deterministic.

    \b
    Examples:
      cards consolidate --dry-run        # show the plan
      cards consolidate                  # apply it
      cards consolidate --all --format json
      cards consolidate --now 2026-12-01 --since 2026-11-01
    """
    from cardindex.commands import consolidate as command

    _exit(command.run(vault=obj.open("warn" if dry_run else "recover"), dry_run=dry_run, everything=everything,
                      since=since.date() if since else None, now=now.date() if now else None,
                      output_format=output_format, llm=llm))


@cli.command()
@click.argument("old")
@click.argument("new")
@click.option("-f", "--force", is_flag=True, help="Also when OLD is locked.")
@click.pass_obj
def supersede(obj: Options, old: str, new: str, force: bool) -> None:
    """Mark OLD as replaced by NEW and move it to the archive (journalled).

    \b
    Examples:
      cards supersede deploy-day-tuesday deploy-day
      cards undo                         # put it back
    """
    from cardindex.commands import lifecycle as command

    _exit(command.supersede(vault=obj.open(), old=old, new=new, force=force))


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("-f", "--force", is_flag=True, help="Also locked cards.")
@click.option("-r", "--reason", help="Why, for the journal.")
@click.pass_obj
def archive(obj: Options, cards: tuple[str, ...], force: bool, reason: str | None) -> None:
    """Move cards to the archive: kept, never indexed (journalled).

    \b
    Examples:
      cards archive sprint-42-goal
      cards archive old-a old-b --reason "the project ended"
    """
    from cardindex.commands import lifecycle as command

    _exit(command.archive(vault=obj.open(), refs=list(cards), force=force, reason=reason))


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("-f", "--force", is_flag=True, help="Also locked cards.")
@click.option("--purge", is_flag=True, help="Also delete every copy the journal keeps of them, and reasons quoting "
              "them (for a card that held a secret; cannot be undone).")
@click.pass_obj
def rm(obj: Options, cards: tuple[str, ...], force: bool, purge: bool) -> None:
    """Delete cards (live or archived). The journal keeps their bytes: `cards undo` restores them.

    \b
    Examples:
      cards rm scratch-note
      cards rm archive/old-deploy-day
      cards rm leaked-token --purge
    """
    from cardindex.commands import lifecycle as command

    _exit(command.remove(vault=obj.open(), refs=list(cards), force=force, purge=purge))


@cli.command()
@FORMAT
@click.pass_obj
def status(obj: Options, output_format: str) -> None:
    """The backlog: cards changed since the last consolidation, conflicts, index budget, last job.

    \b
    Examples:
      cards status
      cards status --format json
    """
    from cardindex.commands import status as command

    _exit(command.run(vault=obj.open("leave"), output_format=output_format))


@cli.command()
@click.option("-s", "--scope", metavar="SCOPE", help="Where the agent works: a path (src/api), path:…, repo:NAME or a free-text scope.")
@click.option("-b", "--budget", type=click.IntRange(min=200), default=6000, show_default=True, metavar="CHARS",
              help="At most this many characters.")
@click.option("--as-of", type=DATE, metavar="DATE", help="What the vault said at the end of DATE (from the journal).")
@click.option("-o", "--output", metavar="FILE", help="Write to FILE (atomically) instead of stdout.")
@FORMAT
@click.pass_obj
def context(obj: Options, scope: str | None, budget: int, as_of: dt.datetime | None, output: str | None,
            output_format: str) -> None:
    """What an agent should read at session start: the live cards that matter, within a budget.

    Locked, conflicting, user and feedback cards first, then the newest evidence; a
    conflict shows every side, marked "verify before acting". Expired, stale and
    archived cards are left out; a last line says how many did not fit.

    \b
    Examples:
      cards context                          # in a session-start hook
      cards context --scope src/api --budget 1500
      cards context --budget 1500 --output CURRENT_STATE.md
      cards context --as-of 2026-10-01 --format json
    """
    from cardindex.commands import context as command

    _exit(command.run(vault=obj.open("warn"), scope=scope, budget=budget, as_of=as_of.date() if as_of else None,
                      output_format=output_format, output=output))


@cli.command()
@click.argument("query")
@click.option("-t", "--type", "card_type", type=click.Choice(TYPES), help="Only cards of this type.")
@click.option("-s", "--scope", metavar="SCOPE", help="Only cards that apply to this scope (global ones always do).")
@click.option("--status", type=click.Choice(["active", "conflict", "stale", "superseded", "archived", "expired", "any"]),
              help="Only cards with this status (default: live ones; archived ones need --status).")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=10, show_default=True, help="At most N results.")
@click.option("--min-score", type=click.FloatRange(0, 100), default=40.0, show_default=True, help="Leave out weaker matches (0-100).")
@FORMAT
@click.pass_obj
def search(obj: Options, query: str, card_type: str | None, scope: str | None, status: str | None, limit: int,
           min_score: float, output_format: str) -> None:
    """Find cards by fuzzy match over names, descriptions and bodies, best first.

    Exit 1 when nothing matches (like grep).

    \b
    Examples:
      cards search "deploy day"
      cards search postgres --type reference --format json
      cards search "release freeze" --status archived
    """
    from cardindex.commands import search as command

    _exit(command.run(vault=obj.open("warn"), query=query, card_type=card_type, scope=scope, status=status, limit=limit,
                      min_score=min_score, output_format=output_format))


def _exit(code: int) -> None:
    click.get_current_context().exit(code)


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


def _register_more() -> None:
    """Commands defined in their own CLI modules (each imports only click at startup)."""
    from cardindex.cli_git import git_setup, merge_index
    from cardindex.cli_import import import_cards
    from cardindex.cli_journal import prune, purge
    from cardindex.cli_mcp import mcp
    from cardindex.cli_trust import trust_vault
    from cardindex.cli_watch import watch

    journal.add_command(prune)
    journal.add_command(purge)
    for command in (watch, git_setup, merge_index, import_cards, mcp, trust_vault):
        cli.add_command(command)


_register_more()
