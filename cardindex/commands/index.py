"""`cards index`: regenerate INDEX.md, or check that it is current, or show the change first."""

from __future__ import annotations

import sys

from cardindex.commands.output import echo
from cardindex.errors import CheckFailed
from cardindex.index import build as index
from cardindex.index.takeover import Takeover, summary
from cardindex.store.card import Card
from cardindex.store.recovery import settle
from cardindex.store.vault import Vault, today


def report_broken(cards: list[Card]) -> None:
    """One line per unusable card: `path:line: message`."""
    for card in cards:
        for problem in card.problems:
            if problem.severity == "error":
                echo(f"{card.path}:{problem.line or 1}: {problem.message}", err=True)


def report_takeover(found: Takeover | None, *, dry_run: bool = False) -> None:
    """What replacing a hand-kept index kept, left out, and which hooks said more (stderr)."""
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
    from cardindex.store.vault import vaults_of_files

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
    if dry_run:
        return run_dry(vault=vault)
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
    return show_preview(Vault(vault.root, use_cache=False))


def show_preview(vault: Vault) -> int:
    """The diff `cards index` would make to `vault`'s index, and what a takeover would keep (writes nothing)."""
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
