"""The repo's history with its times: which commits came when, what they name, when each vault file last changed.

The stale rules weigh a card's date against later evidence, so unlike `repo_facts`
(commit subjects for the derivable rules) this keeps each commit's time. Read once per
lint run, and only when a card gives a rule something to look up (`LintContext.history`).
"""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

from cardindex.lazy import lazy_pattern

MAX_COMMITS = 20_000

# A tracker id: a short code and a number, with an optional sub-letter: P13, P6a, D-15, AC-070, SEV-42, PH-5
# (a step after it, P17b-0, belongs to P17b).
ID = lazy_pattern(r"(?<![\w/.#@-])([A-Za-z]{1,5})-?(\d{1,4})([a-z]?)(?:-\d{1,3}(?![\w/@]))?(?![\w/@]|\.\d|-\d)")
# Codes that name units, formats, versions or hardware, not pieces of work: never ids.
_NOT_ID = lazy_pattern(
    r"^(?:v|r|h|x|u|utf|sha|md|iso|rfc|ipv|http|es|py|mp|h\d|tls|ssl|x\d|k|m|g|gb|mb|kb|ms|s|px|pt|em|db|vm|os|"
    r"cpu|gpu|arm|amd|win|mac|php|net|node|java|c|q)$",
    re.IGNORECASE)
# A slash between two ids lists them ("P17/P18/P19"); it is not a path.
ID_SLASH = _ID_SLASH = lazy_pattern(r"(?<=\d)/(?=[A-Za-z]{1,5}-?\d)|(?<=\d[a-z])/(?=[A-Za-z]{1,5}-?\d)")
# Numeronyms: words spelled as a letter, a count and a letter.
_NUMERONYM = frozenset({"E2E", "I18N", "L10N", "A11Y", "K8S", "P2P", "B2B", "B2C", "M2M", "W3C", "G11N", "O11Y", "C14N"})


class History(NamedTuple):
    """What git says of the repo: commits newest first, an index of the ids they name, the vault files' times."""

    commits: list[tuple[str, int, str]]  # (hash, commit time in epoch seconds, subject)
    by_id: dict[str, list[int]]  # normalised id -> indexes into commits
    file_time: dict[str, int]  # vault-relative path -> time of the last commit that changed it


EMPTY = History([], {}, {})


def ids_in(text: str, *, strict: bool = False) -> list[str]:
    """The tracker ids a text names, normalised (`AC-070` and `ac070` are `AC070`), in order.

    `strict`: only ids written with capitals (a card's "P13", not the "e2e" of its prose);
    commit subjects write them in lower case too ("feat(p18b): …").
    """
    out = []
    for m in ID.finditer(_ID_SLASH.sub(" ", text) if "/" in text else text):
        letters, number, sub = m.groups()
        if _NOT_ID.match(letters) or (strict and not letters.isupper()):
            continue
        if f"{letters}{number}{sub}".upper() in _NUMERONYM:
            continue
        out.append(f"{letters.upper()}{number}{sub.lower()}")
    return out


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-c", "core.quotepath=false", "-C", str(root), *args], capture_output=True, text=True, timeout=30, check=False,
                              errors="replace")
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def load_history(root: Path, vault: Path) -> History:
    """The history of the repo at `root` as it bears on the cards of `vault` (EMPTY outside git)."""
    log = _git(root, "log", f"-n{MAX_COMMITS}", "--no-merges", "--format=%H%x00%ct%x00%s")
    if not log:
        return EMPTY
    commits: list[tuple[str, int, str]] = []
    for line in log.splitlines():
        parts = line.split("\0", 2)
        if len(parts) == 3 and parts[1].isdigit():
            commits.append((parts[0], int(parts[1]), parts[2]))
    by_id: dict[str, list[int]] = defaultdict(list)
    for i, (_, _, subject) in enumerate(commits):
        for found in dict.fromkeys(ids_in(subject)):
            by_id[found].append(i)
    return History(commits, dict(by_id), _file_times(root, vault))


def _file_times(root: Path, vault: Path) -> dict[str, int]:
    """When each file of the vault was last committed, by its vault-relative path."""
    try:
        rel = vault.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return {}
    log = _git(root, "log", f"-n{MAX_COMMITS}", "--format=%x01%ct", "--name-only", "--", rel if rel != "." else ".")
    if not log:
        return {}
    prefix = "" if rel == "." else rel + "/"
    times: dict[str, int] = {}
    when = 0
    for line in log.splitlines():
        if line.startswith("\x01"):
            when = int(line[1:]) if line[1:].isdigit() else 0
        elif line and line.startswith(prefix):
            times.setdefault(line[len(prefix):], when)  # newest first: the first time seen is the last change
    return times


def line_times(root: Path, rel: str) -> list[int]:
    """When each line of the repo file `rel` was last changed (`git blame`), by line number from 1 at index 0.

    Empty when git cannot say (an untracked file, no repo). A card updated over weeks dates
    each of its lines: what it says of an item dates from the line that says it.
    """
    out = _git(root, "blame", "--line-porcelain", "--", rel)
    if not out:
        return []
    times: list[int] = []
    for line in out.splitlines():
        if line.startswith("committer-time "):
            value = line[len("committer-time "):]
            times.append(int(value) if value.isdigit() else 0)
    return times
