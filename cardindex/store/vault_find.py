"""Finding a vault: `--vault`, `$CARDS_VAULT`, or from the current folder the way git finds a repository; file names.

Split from `store/vault.py` (which loads and lists cards); `vault.py` re-exports these names.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from cardindex.errors import UsageError
from cardindex.store.config import CONFIG_FILE, DEFAULT_INDEX

REPO_VAULTS = ("memory", ".claude/memory")  # where a repository keeps its vault, found from anywhere in it


def find_root(vault: str | None) -> Path:
    """The vault folder: `--vault`, else `$CARDS_VAULT`, else found from the current folder (`discover`)."""
    chosen = vault or os.environ.get("CARDS_VAULT")
    if not chosen:
        found = discover(Path.cwd())
        if found is None:
            raise UsageError("not in a cards vault: no .cardindex.yaml in this folder or any above it, nor in "
                             "memory/ or .claude/memory/ of this repository; run `cards init` to make one, "
                             "or give --vault PATH")
        return found
    root = Path(chosen).expanduser()
    if not root.is_dir():
        raise UsageError(f"no such vault folder: {chosen}")
    return root


def discover(start: Path) -> Path | None:
    """The vault for a command run in `start`, found the way git finds a repository.

    The nearest folder at or above `start` holding `.cardindex.yaml`; from anywhere in a
    git repository, also a vault at the repository's `memory/` or `.claude/memory/`
    (holding `.cardindex.yaml`). The walk stops at the repository's top: a vault above it
    (a home folder's, say) is not this repository's. None when there is none.
    """
    try:
        here = start.resolve()
    except OSError:
        return None
    for folder in (here, *here.parents):
        if (folder / CONFIG_FILE).is_file():
            return _shown_path(folder)
        if (folder / ".git").exists():
            for sub in REPO_VAULTS:
                if (folder / sub / CONFIG_FILE).is_file():
                    return _shown_path(folder / sub)
            return None
    return None


def _shown_path(folder: Path) -> Path:
    """`folder` relative to the current one when it is the current one or below it ('.' stays '.')."""
    try:
        rel = folder.relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        return folder
    return rel if str(rel) != "." else Path(".")


def vault_of_file(path: Path) -> Path | None:
    """The nearest folder above `path` holding `.cardindex.yaml` or `INDEX.md` (None: no vault)."""
    for folder in path.resolve().parents:
        if (folder / CONFIG_FILE).is_file() or (folder / DEFAULT_INDEX).is_file():
            return folder
    return None


def vaults_of_files(files: Sequence[str], vault_option: str | None) -> tuple[dict[Path, list[str]], list[str]]:
    """Group files by their vault: `--vault`/`$CARDS_VAULT` when given, else each file's own.

    Returns the groups (vault root -> vault-relative paths) and the files in no vault.
    """
    explicit = find_root(vault_option) if (vault_option or os.environ.get("CARDS_VAULT")) else None
    groups: dict[Path, list[str]] = {}
    outside: list[str] = []
    for name in files:
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"no such file: {name}")
        root = explicit or vault_of_file(path)
        if root is None:
            outside.append(name)
            continue
        try:
            rel = path.resolve().relative_to(root.resolve()).as_posix()
            rel = rel if valid_name(rel) else escaped(rel)  # the listing's name for it: one F001 finding
        except ValueError:
            outside.append(name)  # outside the --vault given
            continue
        groups.setdefault(root, []).append(rel)
    return groups, outside


def valid_name(rel: str) -> bool:
    """Whether a listed path is valid UTF-8 (os.scandir hands other bytes over as surrogates)."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def escaped(rel: str) -> str:
    """A path that is not valid UTF-8, with its bad bytes shown as `\\xe9`: printable, and never a real card's."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")
