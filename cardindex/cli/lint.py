"""`cards lint`: report what does not belong in the vault; fix what is safe to fix."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import Options, exit_with

if TYPE_CHECKING:
    from cardindex.lint.finding import Finding
    from cardindex.store.card import Card
    from cardindex.store.vault import Vault


def run(
    *,
    vault_option: str | None,
    files: Sequence[str] = (),
    select: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    output_format: str = "text",
    show_statistics: bool = False,
    exit_zero: bool = False,
    fix: bool = False,
    unsafe_fixes: bool = False,
    repo: str | None = None,
    use_cache: bool = True,
    update_baseline: bool = False,
) -> int:
    """Lint the vault (or the given card files) and print the findings. Returns the exit code."""
    from cardindex.errors import UsageError
    from cardindex.lint.formatters import FORMATTERS, statistics, summary
    from cardindex.lint.registry import selected
    from cardindex.lint.runner import lint
    from cardindex.store.recovery import settle
    from cardindex.store.vault import Vault, today

    now = today()
    if repo is not None and not Path(repo).is_dir():
        raise UsageError(f"--repo {repo}: no such folder")
    everything: list[Finding] = []
    checked = 0
    for root, paths in _groups(vault_option, files):
        vault = Vault(root, use_cache=use_cache)
        settle(vault)  # a job a killed process left half done is rolled back before linting
        if update_baseline:
            _update_baseline(vault, paths)
        rules = selected(select=select, extend_select=extend_select, ignore=ignore, config=dict(vault.config.lint))
        repo_root = vault.repo_root(Path(repo) if repo else None)
        universe = _tracked(root) if os.environ.get("PRE_COMMIT") else None
        findings = lint(vault, rules, today=now, repo_root=repo_root, paths=paths, universe=universe)
        checked += len(vault.cards) if paths is None else len(set(paths) & {c.path for c in vault.cards})
        if fix and findings and _apply_fixes(vault, findings, unsafe=unsafe_fixes):
            vault = Vault(root, use_cache=use_cache)
            findings = lint(vault, rules, today=now, repo_root=repo_root, paths=paths, universe=universe)
        formatter = FORMATTERS[output_format](sys.stdout, root)
        if show_statistics:
            statistics(findings, sys.stdout)
        else:
            formatter.write(findings)
        everything.extend(findings)
    if output_format == "text" and (checked or everything or not files):  # quiet when no file was a card
        print(summary(everything, checked, fixed=fix), file=sys.stderr)
    failing = any(f.severity == "error" for f in everything)
    return 0 if exit_zero or not failing else 1


def _update_baseline(vault: Vault, paths: list[str] | None) -> None:
    from cardindex.lint import baseline

    done = baseline.update(vault, paths)
    changes = f"{done.added} new, {done.dropped} dropped"
    print(f"{done.path}: {done.accepted} secret(s) accepted ({changes}); lint leaves them out, "
          "every output still redacts them", file=sys.stderr)


def _groups(vault_option: str | None, files: Sequence[str]) -> list[tuple[Path, list[str] | None]]:
    """Which vault each file belongs to; with no files, the whole vault.

    Markdown files in no vault (a CHANGELOG, docs) are not cards: pre-commit passes every
    Markdown file of a commit, so they are skipped, with a note outside pre-commit.
    """
    from cardindex.store.vault import find_root, vaults_of_files

    if not files:
        return [(find_root(vault_option), None)]
    groups, outside = vaults_of_files(files, vault_option)
    if outside and not os.environ.get("PRE_COMMIT"):
        print(f"skipped {len(outside)} file(s) in no vault (no .cardindex.yaml or INDEX.md above them)", file=sys.stderr)
    return list(groups.items())


def _tracked(root: Path) -> set[str] | None:
    """Cards git tracks (under pre-commit, untracked drafts are not compared against)."""
    import subprocess

    try:
        done = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--full-name", "--", "."],
                              capture_output=True, text=True, timeout=20, check=False)
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-prefix"],
                             capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 or top.returncode != 0:
        return None
    prefix = top.stdout.strip()
    return {f[len(prefix):] for f in done.stdout.split("\0") if f.startswith(prefix)}


def _apply_fixes(vault: Vault, findings: list[Finding], *, unsafe: bool) -> bool:
    """Apply safe fixes (and archiving, when `unsafe`), journalled. True when anything changed."""
    from cardindex.index import build as index
    from cardindex.store.jobs import Step, apply
    from cardindex.store.os_errors import all_or_nothing
    from cardindex.store.vault import today

    changed = False
    with vault.lock(), all_or_nothing(vault) as jobs:  # a later step that fails undoes the earlier jobs
        cards = {c.path: c for c in vault.cards}
        quoted = [f for f in findings if f.fix == "quote-value" and f.path in cards]
        if quoted:
            job = _quote_values(vault, cards, quoted)
            jobs.add(job)
            changed |= job is not None
        if unsafe:
            doomed: dict[str, Finding] = {}
            for f in findings:
                if f.fix == "archive" and f.path in cards:
                    doomed.setdefault(f.path, f)
            if doomed:
                steps = [Step(cards[p], "archive", {"status": "archived"}, "archive", f"{f.code} {f.message}")
                         for p, f in sorted(doomed.items())]
                job, done = apply(vault, steps, command="lint --unsafe-fixes")
                jobs.add(job)
                for d in done:
                    print(f"archived {d.step.card.path} as {d.path}", file=sys.stderr)
                changed = True
        vault.invalidate()
        if changed or any(f.fix == "reindex" for f in findings):
            result = index.write(vault, today())
            changed |= result.changed
    return changed


def _quote_values(vault: Vault, cards: dict[str, Card], findings: list[Finding]) -> str | None:
    """Quote `key: text with: colons` values so every YAML tool reads them (one journalled job: its id)."""
    import re

    from cardindex.store.jobs import Step, apply

    steps = []
    for path in sorted({f.path for f in findings}):
        card = cards[path]
        if not card.rewritable:
            continue  # repeated keys or control characters: reported, never rewritten
        lines = card.text.splitlines()
        keys = []
        for f in findings:
            if f.path == path and 0 < f.line <= len(lines):
                m = re.match(r"\s*([A-Za-z_][\w-]*):", lines[f.line - 1])  # top level, or under metadata:
                if m and isinstance(card.fields.get(m.group(1)), str):
                    keys.append(m.group(1))
        if keys:
            text = card.with_fields({k: card.fields[k] for k in keys})
            steps.append(Step(card, "replace", {}, "quote", f"quote {', '.join(keys)} (F006)", body=text))
    if not steps:
        return None
    job, done = apply(vault, steps, command="lint --fix")
    for d in done:
        print(f"fixed {d.step.card.path}: quoted a value with ': ' in it", file=sys.stderr)
    return job


@click.command("lint")
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
def lint_command(obj: Options, /, files: tuple[str, ...], **options: Any) -> None:
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
    exit_with(run(vault_option=obj.vault, files=files, use_cache=obj.use_cache, **options))
