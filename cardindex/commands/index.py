"""`cards index`: regenerate INDEX.md, or check that it is current."""

from __future__ import annotations

import sys

from .. import index
from ..card import Card
from ..errors import CheckFailed
from ..recovery import settle
from ..vault import Vault, today


def report_broken(cards: list[Card]) -> None:
    """One line per unusable card: `path:line: message`."""
    for card in cards:
        for problem in card.problems:
            if problem.severity == "error":
                print(f"{card.path}:{problem.line or 1}: {problem.message}", file=sys.stderr)


def run_files(*, vault_option: str | None, files: list[str], check: bool, use_cache: bool = True) -> int:
    """Regenerate (or check) the index of every vault the files belong to: what pre-commit calls."""
    from ..vault import vaults_of_files

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


def run(*, vault: Vault, check: bool = False) -> int:
    result = index.write(vault, today(), check=check)
    report_broken(result.broken)
    more = f"{result.shown} card{'' if result.shown == 1 else 's'}"
    more += f", {result.omitted} left out by the budget" if result.omitted else ""
    if check:
        print(f"{result.path} is up to date ({more})", file=sys.stderr)
    elif result.changed:
        print(f"wrote {result.path} ({more})", file=sys.stderr)
    else:
        print(f"{result.path} is up to date ({more})", file=sys.stderr)
    if result.broken:
        print(f"{len(result.broken)} unreadable card(s) left out of {result.path}", file=sys.stderr)
        return 1
    return 0
