"""`cards git-setup` and `cards merge-index`: the index merges line by line in git (SPEC §8).

`merge` is what git runs for every merge that touches the index, so this module
imports only the pure merge (`cardindex.gitmerge`), the writer and the errors at load
time; the vault, the cards and YAML are never loaded for a merge.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    import subprocess

    from cardindex.gitmerge import Merged
    from cardindex.store.vault import Vault


DRIVER = "cards-index"
DRIVER_NAME = "cards: merge the card index line by line, keyed on card path"
DRIVER_COMMAND = "cards merge-index %O %A %B %P"
LABELS = ("ours", "theirs")


# --------------------------------------------------------------------------- git-setup


def setup(*, vault: Vault) -> int:
    """Route the vault's index file to the `cards-index` merge driver; change nothing already set."""
    from cardindex.errors import CardIndexError, UsageError

    top = _work_tree(vault)
    try:
        folder = vault.real_root.relative_to(top)
    except ValueError:
        raise UsageError(f"the vault is not inside the git work tree {top}", path=str(vault.root)) from None
    target = (folder / vault.index_name).as_posix()
    done: list[str] = []
    if _merge_attribute(top, target) != DRIVER:
        line = f"{gitattributes_pattern(target)} merge={DRIVER}"
        _append_line(top / ".gitattributes", line)
        done.append(f"wrote `{line}` to .gitattributes (commit it: every clone then merges the index alike)")
        found = _merge_attribute(top, target)
        if found != DRIVER:
            raise CardIndexError(
                f"another attributes file sets merge={found or 'unspecified'} for {target}, which wins over "
                f"the line written; see `git check-attr -a {target}`",
                path=".gitattributes",
            )
    configured = False
    for key, value in ((f"merge.{DRIVER}.name", DRIVER_NAME), (f"merge.{DRIVER}.driver", DRIVER_COMMAND)):
        current = _git(top, "config", "--local", "--get-all", key)
        if current.returncode != 0 or current.stdout != f"{value}\n":
            _check(_git(top, "config", "--local", "--replace-all", key, value), f"git config {key}")
            configured = True
    if configured:
        done.append(f"set the merge driver `{DRIVER_COMMAND}` in the local git config (merge.{DRIVER})")
    for message in done:
        print(message, file=sys.stderr)
    if done:
        print(f"{target} now merges line by line; after a merge, `cards index --check` confirms it", file=sys.stderr)
    else:
        print(f"{target} already merges with `cards merge-index`; nothing changed", file=sys.stderr)
    _warn_if_not_on_path()
    return 0


def gitattributes_pattern(path: str) -> str:
    """`path` as a .gitattributes pattern matching exactly that file."""
    import re

    pattern = re.sub(r"([\\*?\[])", r"\\\1", path)
    if pattern.startswith(("#", "!")):
        pattern = "\\" + pattern
    if re.search(r'[\s"]', pattern):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return pattern


def _work_tree(vault: Vault) -> Path:
    from cardindex.errors import UsageError

    found = _git(vault.real_root, "rev-parse", "--show-toplevel")
    top = found.stdout.rstrip("\n")
    if found.returncode != 0 or not top:
        raise UsageError(
            "not inside a git work tree; run `git init` (or put the vault in a repo) first", path=str(vault.root)
        )
    return Path(top).resolve()


def _merge_attribute(top: Path, target: str) -> str | None:
    """What `merge` attribute git gives `target` (None when unspecified)."""
    found = _check(_git(top, "check-attr", "-z", "merge", "--", target), "git check-attr")
    fields = found.stdout.split("\0")
    value = fields[2] if len(fields) > 2 else "unspecified"
    return None if value == "unspecified" else value


def _append_line(path: Path, line: str) -> None:
    from cardindex.errors import CardError
    from cardindex.store.atomic import write_atomic

    try:
        current = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        current = ""
    except UnicodeDecodeError:
        raise CardError("not UTF-8 text; add the line by hand: " + line, path=path.name) from None
    except OSError as exc:
        raise CardError(f"cannot read: {exc.strerror}", path=path.name) from None
    if current and not current.endswith("\n"):
        current += "\n"
    write_atomic(path, f"{current}{line}\n")


def _warn_if_not_on_path() -> None:
    import shutil

    if shutil.which("cards") is None:
        print("note: `cards` is not on PATH here; git runs the driver through PATH, so merges of the "
              "index fail until it is", file=sys.stderr)


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    import subprocess

    from cardindex.errors import UsageError

    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed (or not on PATH)") from None


def _check(result: subprocess.CompletedProcess[str], what: str) -> subprocess.CompletedProcess[str]:
    from cardindex.errors import CardIndexError

    if result.returncode != 0:
        reason = (result.stderr.strip().splitlines() or ["failed"])[-1]
        raise CardIndexError(f"{what}: {reason}")
    return result


# --------------------------------------------------------------------------- merge-index


def merge(*, base: str, ours: str, theirs: str, path: str | None) -> int:
    """Merge the three index versions git hands the driver into OURS: 0 clean, 1 conflicts."""
    from cardindex.gitmerge import merge3
    from cardindex.store.atomic import write_atomic

    name = path or ours
    texts = [_read(file, side, name) for file, side in ((base, "base"), (ours, "our"), (theirs, "their"))]
    result = merge3(*texts, labels=LABELS) or _line_merge(base, ours, theirs)
    write_atomic(Path(ours), result.text)
    for note in result.notes:
        print(f"{name}: {note}", file=sys.stderr)
    if result.conflicts:
        print(f"{name}: conflict in {', '.join(result.conflicts)}: both sides changed it differently; "
              "resolve the markers, then run `cards index`", file=sys.stderr)
        return 1
    return 0


def _read(file: str, side: str, name: str) -> str:
    from cardindex.errors import CardError, UsageError

    try:
        data = Path(file).read_bytes()
    except FileNotFoundError:
        raise UsageError(f"no such file: {file}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {file}: {exc.strerror}") from None
    if b"\0" in data:
        raise CardError(f"{side} version is binary; resolve it by hand, then run `cards index`", path=name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardError(
            f"{side} version is not UTF-8 text (byte {exc.start}); resolve it by hand, then run `cards index`",
            path=name,
        ) from None


def _line_merge(base: str, ours: str, theirs: str) -> Merged:
    """Git's own line merge, for an index that is not generated (kept by hand, or half resolved)."""
    import subprocess

    from cardindex.errors import CardIndexError, UsageError
    from cardindex.gitmerge import Merged

    command = ["git", "merge-file", "-p", "-L", LABELS[0], "-L", "base", "-L", LABELS[1], ours, base, theirs]
    try:
        found = subprocess.run(command, capture_output=True, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed (or not on PATH)") from None
    if not 0 <= found.returncode < 128:
        reason = (found.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[-1]
        raise CardIndexError(f"git merge-file: {reason}")
    conflicts = (f"{found.returncode} hunk(s) of a hand-kept index",) if found.returncode else ()
    note = "not a generated index (kept by hand?): merged line by line, as git would"
    return Merged(found.stdout.decode("utf-8"), conflicts, (note,))


@click.command("git-setup")
@click.pass_obj
def git_setup_command(obj: object) -> None:
    """Register the INDEX.md merge driver in .gitattributes and the local git config.

    Writes `INDEX.md merge=cards-index` (the vault's index file, relative to the repo
    root) to .gitattributes and `cards merge-index %O %A %B %P` as the driver in
    .git/config. Running it again changes nothing.

    \b
    Examples:
      cards git-setup
      cards --vault memory git-setup
    """
    click.get_current_context().exit(setup(vault=obj.open()))  # type: ignore[attr-defined]


@click.command("merge-index")
@click.argument("base")
@click.argument("ours")
@click.argument("theirs")
@click.argument("path", required=False)
def merge_index_command(base: str, ours: str, theirs: str, path: str | None) -> None:
    """Git merge driver for INDEX.md: merge BASE, OURS and THEIRS line by line into OURS.

    Lines are keyed on the card they link to, so different cards added, edited or
    removed on two branches merge cleanly. Exits 1, leaving conflict markers, only when
    both sides changed one card's line differently. Reads no card files.

    \b
    Examples:
      cards merge-index %O %A %B %P      # what git runs (set up by cards git-setup)
      cards merge-index base.md ours.md theirs.md INDEX.md
    """
    click.get_current_context().exit(merge(base=base, ours=ours, theirs=theirs, path=path))
