"""`cards index`: regenerate INDEX.md, or check that it is current, or show the change first."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from cardindex.cli.options import Options, exit_with

if TYPE_CHECKING:
    from cardindex.index.takeover import Takeover
    from cardindex.store.card import Card
    from cardindex.store.vault import Vault


def report_broken(cards: list[Card]) -> None:
    """One line per unusable card: `path:line: message`."""
    from cardindex.cli.output import echo

    for card in cards:
        for problem in card.problems:
            if problem.severity == "error":
                echo(f"{card.path}:{problem.line or 1}: {problem.message}", err=True)


def report_takeover(found: Takeover | None, *, dry_run: bool = False) -> None:
    """What replacing a hand-kept index kept, left out, and which hooks said more (stderr)."""
    from cardindex.index.takeover import summary

    if found is not None:
        for line in summary(found, dry_run=dry_run):
            print(line, file=sys.stderr)


def diff(name: str, current: str | None, new: str) -> str:
    """The change from `current` to `new` as a unified diff (secrets redacted, controls escaped)."""
    import difflib

    from cardindex.redaction import shown

    def lines(text: str) -> list[str]:
        out = text.splitlines(keepends=True)
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n\\ No newline at end of file\n"
        return out

    before = lines(current) if current is not None else []
    return shown("".join(difflib.unified_diff(before, lines(new), f"a/{name}" if current is not None else "/dev/null",
                                              f"b/{name}")))


def run_files(*, vault_option: str | None, files: list[str], check: bool, use_cache: bool = True) -> int:
    """Regenerate (or check) the index of every vault the files belong to: what pre-commit calls."""
    from cardindex.errors import CheckFailed
    from cardindex.store.recovery import settle
    from cardindex.store.vault import Vault, vaults_of_files

    groups, _ = vaults_of_files(files, vault_option)
    worst = 0
    for root in sorted(groups):
        try:
            vault = Vault(root, use_cache=use_cache)
            settle(vault)  # a job a killed process left half done is rolled back first
            worst = max(worst, run(vault=vault, check=check))
        except CheckFailed as exc:
            print(f"error: {root / exc.path if exc.path else root}: {exc.message}", file=sys.stderr)
            worst = max(worst, exc.exit_code)
    return worst


def counts(shown: int, omitted: int, notes: int) -> str:
    more = f"{shown} card{'' if shown == 1 else 's'}"
    more += f", {notes} note{'' if notes == 1 else 's'}" if notes else ""
    return more + (f", {omitted} left out by the budget" if omitted else "")


def run(*, vault: Vault, check: bool = False, dry_run: bool = False) -> int:
    from cardindex.cli.progress import Progress
    from cardindex.index import build as index
    from cardindex.store.vault import today

    if dry_run:
        return run_dry(vault=vault)
    with Progress("index"):  # a cold build reads every card: the line says how far
        result = index.write(vault, today(), check=check)
    report_broken(result.broken)
    more = counts(result.shown, result.omitted, result.notes)
    if check:
        print(f"{result.path} is up to date ({more})", file=sys.stderr)
    elif result.changed:
        print(f"wrote {result.path} ({more})", file=sys.stderr)
    else:
        print(f"{result.path} is up to date ({more})", file=sys.stderr)
    report_takeover(result.takeover)
    if result.withheld:  # not a failure of the index: `cards lint` fails on the secret itself
        print(f"{result.withheld} card(s) holding a secret withheld from {result.path}; run `cards lint`",
              file=sys.stderr)
    if result.broken:
        print(f"{len(result.broken)} unreadable card(s) left out of {result.path}", file=sys.stderr)
        return 1
    return 0


def run_dry(*, vault: Vault) -> int:
    """Print the new index as a diff against the current one; write nothing (no lock, no cache)."""
    from cardindex.store.vault import Vault

    return show_preview(Vault(vault.root, use_cache=False))


def show_preview(vault: Vault) -> int:
    """The diff `cards index` would make to `vault`'s index, and what a takeover would keep (writes nothing)."""
    from cardindex.index import build as index
    from cardindex.store.vault import today

    current, new, found = index.preview(vault, today())
    if current == new:
        print(f"{vault.index_name} is up to date; nothing to write (--dry-run)", file=sys.stderr)
        return 0
    sys.stdout.write(diff(vault.index_name, current, new))
    if found is not None:
        report_takeover(found, dry_run=True)
    else:
        print(f"would write {vault.index_name}; nothing written (--dry-run)", file=sys.stderr)
    return 0


@click.command("index")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--check", is_flag=True, help="Change nothing; exit 1 when the index is out of date.")
@click.option("-n", "--dry-run", is_flag=True, help="Show the new index as a diff against the current one; write nothing.")
@click.pass_obj
def index_command(obj: Options, /, files: tuple[str, ...], check: bool, dry_run: bool) -> None:
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
    if dry_run and (check or files):
        raise click.UsageError("--dry-run takes no FILE arguments and no --check")
    if dry_run:
        exit_with(run(vault=obj.open(), dry_run=True))
    if files:
        exit_with(run_files(vault_option=obj.vault, files=list(files), check=check, use_cache=obj.use_cache))
    exit_with(run(vault=obj.open(), check=check))
