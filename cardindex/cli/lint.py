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
    from cardindex.lint.fixes import Fixes, Preview
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
    show_fixes: bool = False,
    diff: bool = False,
    output_file: str | None = None,
    repo: str | None = None,
    use_cache: bool = True,
    update_baseline: bool = False,
) -> int:
    """Lint the vault (or the given card files and folders) and print the findings. Returns the exit code."""
    import io

    from cardindex.errors import UsageError
    from cardindex.lint.finding import SAFE_FIXES, UNSAFE_FIXES
    from cardindex.lint.memo import RunMemo
    from cardindex.store.recovery import settle
    from cardindex.store.vault import Vault, today

    if diff and fix:
        raise UsageError("--diff shows what --fix would change without writing; give one of them")
    now = today()
    if repo is not None and not Path(repo).is_dir():
        raise UsageError(f"--repo {repo}: no such folder")
    fixes = SAFE_FIXES | UNSAFE_FIXES if unsafe_fixes else SAFE_FIXES
    buffer = io.StringIO()
    report = buffer if output_file else sys.stdout
    groups: list[tuple[Path, list[Finding]]] = []
    previews: list[tuple[Path, Preview]] = []
    would_fix = 0
    listed: list[tuple[Path, str, str]] = []
    checked = 0
    memos: list[RunMemo | None] = []
    for root, paths in _groups(vault_option, files):
        vault = Vault(root, use_cache=use_cache)
        settle(vault)  # a job a killed process left half done is rolled back before linting
        if update_baseline:
            _update_baseline(vault, paths)
        paths = _expanded(vault, paths)
        repo_root = vault.repo_root(Path(repo) if repo else None)
        universe = _tracked(root) if os.environ.get("PRE_COMMIT") else None
        # A vault where nothing changed since the last run gets its findings from the run memo, before
        # a rule is imported (the registry compiles every rule's patterns) or a card is loaded.
        memo = RunMemo(vault, ("selectors", select, extend_select, ignore), today=now.isoformat(), repo_root=repo_root,
                       paths=paths, universe=universe) if vault.use_cache else None
        findings = memo.get() if memo is not None else None
        if findings is None:
            from cardindex.lint.registry import selected
            from cardindex.lint.runner import lint

            rules = selected(select=select, extend_select=extend_select, ignore=ignore, config=dict(vault.config.lint))
            findings = lint(vault, rules, today=now, repo_root=repo_root, paths=paths, universe=universe, memo=memo)
        if output_format == "text":  # only the summary line counts the cards
            checked += len(vault.paths()) if paths is None else len(set(paths) & set(vault.paths()))
        if findings and (fix or diff or show_fixes):
            from cardindex.lint import fixes as planned

            plan = planned.plan(vault, findings, unsafe=unsafe_fixes)
            if diff:
                previews += [(root, p) for p in planned.preview(vault, plan, now)]
                would_fix += len(plan.fixed)
            if show_fixes:
                listed += [(root, path, what) for path, what in planned.described(plan)]
            if fix and _apply_fixes(vault, plan):
                from cardindex.lint.registry import selected
                from cardindex.lint.runner import lint

                vault = Vault(root, use_cache=use_cache)
                rules = selected(select=select, extend_select=extend_select, ignore=ignore, config=dict(vault.config.lint))
                findings = lint(vault, rules, today=now, repo_root=repo_root, paths=paths, universe=universe)
                memo = None  # fixed since: these findings are not the memo's
        groups.append((root, findings))
        memos.append(memo)
    everything = [f for _, found in groups for f in found]
    if diff:
        for root, change in previews:
            report.write(_diff_for(root, change))
    elif show_statistics:
        from cardindex.lint import statistics

        statistics.write(statistics.counts(everything, fixes=() if fix else fixes), report, output_format,
                         [root for root, _ in groups])
    else:
        marked = () if fix else fixes
        # One vault whose findings are the run memo's: its report is remembered with them (`RunMemo.output`).
        memo = memos[0] if len(memos) == 1 else None
        how = (output_format, sorted(marked), os.getcwd(), str(groups[0][0]) if groups else "")
        printed = memo.output(how) if memo is not None else None
        if printed is None:
            from cardindex.lint.formatters import FORMATTERS  # with the redaction: not needed for a remembered report

            out = io.StringIO()
            FORMATTERS[output_format](out, groups[0][0] if groups else Path("."), fixable=marked).write_groups(groups)
            printed = out.getvalue()
            if memo is not None:
                memo.put_output(how, printed)
        report.write(printed)
    if show_fixes and not diff:
        _list_fixes(listed, done=fix)
    if output_file:
        from cardindex.store.atomic import write_atomic

        write_atomic(Path(output_file), buffer.getvalue())
    if diff:
        changed = len({(root, p.path) for root, p in previews})
        print(f"Would fix {would_fix} finding(s) in {changed} file(s); "
              "run `cards lint --fix` to apply" if previews else "No fixes to make.", file=sys.stderr)
        return 1 if previews and not exit_zero else 0
    if output_format == "text" and (checked or everything or not files):  # quiet when no file was a card
        from cardindex.lint.formatters import summary

        print(summary(everything, checked, fixed=fix, fixes=fixes), file=sys.stderr)
    failing = any(f.severity == "error" for f in everything)
    return 0 if exit_zero or not failing else 1


def _diff_for(root: Path, change: Preview) -> str:
    """A fix's unified diff with `a/` and `b/` paths relative to the current folder, as text output names files."""
    from cardindex.lint.fixes import unified_diff

    where = os.path.relpath(root)
    if where == ".":
        return unified_diff(change)
    return unified_diff(change._replace(path=f"{where}/{change.path}", new_path=f"{where}/{change.new_path}"))


def _list_fixes(listed: list[tuple[Path, str, str]], *, done: bool) -> None:
    """`--show-fixes`: per file, what --fix does (or, with --fix, did), on stderr after the findings."""
    from cardindex.redaction import printable, shown

    if not listed:
        print("No fixes available.", file=sys.stderr)
        return
    print("Fixed:" if done else "Would fix (cards lint --fix):", file=sys.stderr)
    for root, path, what in listed:
        name = os.path.relpath(root / path) if path else f"{os.path.relpath(root)} (index)"
        print(f"  {printable(name)}: {shown(what)}", file=sys.stderr)


def _expanded(vault: Vault, paths: list[str] | None) -> list[str] | None:
    """Card paths, with each folder (`sub/`, as `_groups` names one) replaced by the cards under it."""
    if paths is None or not any(p.endswith("/") for p in paths):
        return paths
    folders = tuple(p for p in paths if p.endswith("/"))
    return [p for p in paths if not p.endswith("/")] + [c.path for c in vault.cards if c.path.startswith(folders)]


def _update_baseline(vault: Vault, paths: list[str] | None) -> None:
    from cardindex.lint import baseline

    done = baseline.update(vault, paths)
    changes = f"{done.added} new, {done.dropped} dropped"
    print(f"{done.path}: {done.accepted} secret(s) accepted ({changes}); lint leaves them out, "
          "every output still redacts them", file=sys.stderr)


def _groups(vault_option: str | None, files: Sequence[str]) -> list[tuple[Path, list[str] | None]]:
    """Which vault each file or folder belongs to; with none given, the whole vault.

    A folder is the vault itself (all of it, index checks too) or a folder in one (its
    cards, named `sub/`). Markdown files in no vault (a CHANGELOG, docs) are not cards:
    pre-commit passes every Markdown file of a commit, so they are skipped, with a note
    outside pre-commit. A folder in no vault is an error: nothing there is a card.
    """
    from cardindex.errors import UsageError
    from cardindex.store.vault import find_root, vault_of_file, vaults_of_files

    if not files:
        return [(find_root(vault_option), None)]
    folders = [f for f in files if Path(f).is_dir()]
    explicit = find_root(vault_option) if (vault_option or os.environ.get("CARDS_VAULT")) else None
    groups: dict[Path, list[str] | None] = {}
    for name in folders:
        folder = Path(name).resolve()
        root = explicit or vault_of_file(folder / "_")  # the nearest vault at or above the folder
        if root is None or not folder.is_relative_to(root.resolve()):
            raise UsageError(f"{name}: not in a cards vault (no .cardindex.yaml or INDEX.md in it or above it); "
                             "run `cards init` there, or give --vault PATH")
        rel = folder.relative_to(root.resolve()).as_posix()
        key = next((r for r in groups if r.resolve() == root.resolve()), root)
        if rel == "." or groups.get(key, []) is None:
            groups[key] = None  # the whole vault
        else:
            groups.setdefault(key, []).append(rel + "/")  # type: ignore[union-attr]  # None handled above
    rest = [f for f in files if f not in folders]
    if rest:
        found, outside = vaults_of_files(rest, vault_option)
        if outside and not os.environ.get("PRE_COMMIT"):
            print(f"skipped {len(outside)} file(s) in no vault (no .cardindex.yaml or INDEX.md above them)", file=sys.stderr)
        for root, paths in found.items():
            key = next((r for r in groups if r.resolve() == root.resolve()), root)
            if key in groups and groups[key] is None:
                continue
            groups.setdefault(key, []).extend(paths)  # type: ignore[union-attr]  # None handled above
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


def _apply_fixes(vault: Vault, plan: Fixes) -> bool:
    """Apply the planned fixes, journalled (quoting one job, archiving another). True when anything changed."""
    from cardindex.index import build as index
    from cardindex.store.jobs import apply
    from cardindex.store.os_errors import all_or_nothing
    from cardindex.store.vault import today

    changed = False
    with vault.lock(), all_or_nothing(vault) as jobs:  # a later step that fails undoes the earlier jobs
        if plan.quotes:
            job, done = apply(vault, plan.quotes, command="lint --fix")
            jobs.add(job)
            for d in done:
                print(f"fixed {d.step.card.path}: quoted a value with ': ' in it", file=sys.stderr)
            changed = True
        if plan.archives:
            job, done = apply(vault, plan.archives, command="lint --unsafe-fixes")
            jobs.add(job)
            for d in done:
                print(f"archived {d.step.card.path} as {d.path}", file=sys.stderr)
            changed = True
        vault.invalidate()
        if changed or plan.reindex:
            result = index.write(vault, today())
            changed |= result.changed
    return changed


@click.command("lint")
@click.argument("files", nargs=-1, type=click.Path())
@click.option("--select", multiple=True, metavar="RULES", help="Only these rules: codes, prefixes or categories (comma-separated).")
@click.option("--extend-select", multiple=True, metavar="RULES", help="Add rules to the selection.")
@click.option("--ignore", multiple=True, metavar="RULES", help="Leave these rules out.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "json-lines", "github", "sarif"]),
              default="text", show_default=True, help="Output format.")
@click.option("--statistics", "show_statistics", is_flag=True, help="Count findings per rule instead of listing them.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--fix", is_flag=True, help="Apply safe fixes: regenerate the index, quote values. Text marks them [*].")
@click.option("--unsafe-fixes", is_flag=True,
              help="With --fix (or --diff, --show-fixes), also archive flagged cards (journalled; `cards journal`).")
@click.option("--show-fixes", is_flag=True, help="After the findings, list per file what --fix would do (with --fix: did).")
@click.option("--diff", is_flag=True, help="Print the unified diff --fix would make and write nothing; exit 1 when there is one.")
@click.option("--output-file", "-o", metavar="PATH", help="Write the report (any --format) to PATH, atomically, not stdout.")
@click.option("--repo", metavar="PATH", help="The repo to compare against (default: the git top-level above the vault).")
@click.option("--update-baseline", is_flag=True,
              help="Accept the secrets found now into .cardindex-secrets.json (commit it): lint leaves them out; "
                   "they stay redacted everywhere.")
@click.pass_obj
def lint_command(obj: Options, /, files: tuple[str, ...], **options: Any) -> None:
    """Flag what does not belong: session notes, copies of the code, duplicates,
    contradictions, stale facts, secrets, broken cards, a stale index.

    With FILE arguments, lints those cards (each against its own vault) and skips the
    vault-wide index checks; a folder argument lints the cards under it (the vault's own
    folder: all of it). Exit 0 clean, 1 findings, 2 bad usage or config.

    \b
    Examples:
      cards lint
      cards lint --select session,secret --format json
      cards lint memory/deploy-day.md --ignore C
      cards lint --fix                 # regenerate INDEX.md, quote bad values
      cards lint --fix --unsafe-fixes  # also archive flagged cards
      cards lint memory/               # a folder: the cards under it
      cards lint --diff                # what --fix would change, written nowhere
      cards lint --statistics --format json
      cards lint --format sarif -o lint.sarif
      cards lint --update-baseline     # accept the secrets found now
    """
    exit_with(run(vault_option=obj.vault, files=files, use_cache=obj.use_cache, **options))
