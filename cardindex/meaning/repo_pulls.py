"""Pull requests the git history records: GitHub writes the number into the merged commit's subject.

A squash merge's subject ends in `(#305)`, a merge commit's reads `Merge pull request #305
from …`. A card that states what happened in "PR #305" repeats what `git log` holds; one
that cites the PR in parentheses, as the evidence of a lesson ("the bootstrap now installs
the schedule (PR #206)"), points to it and is left alone. Pure functions of the subjects.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cardindex.lazy import lazy_pattern

_SQUASHED = lazy_pattern(r"\(#(\d{1,6})\)\s*$")
_MERGED = lazy_pattern(r"^Merge pull request #(\d{1,6})\b")
# "PR #126", "PR 126", "pull request #126": a number called a pull request, not any "#12".
_CITED = lazy_pattern(r"(?i)\b(?:PR|pull request)\s*#?(\d{2,6})\b")

_memo: list[tuple[object, dict[str, tuple[str, str]]]] = []


def merged_pulls(subjects: Sequence[tuple[str, str, str, frozenset[str]]]) -> dict[str, tuple[str, str]]:
    """Pull request number -> (commit hash, subject) of the commit that merged it, made once per history."""
    if _memo and _memo[0][0] is subjects:
        return _memo[0][1]
    out: dict[str, tuple[str, str]] = {}
    for commit_hash, subject, _, _ in subjects:
        m = _SQUASHED.search(subject) or _MERGED.match(subject)
        if m is not None:
            out.setdefault(m.group(1), (commit_hash, subject))
    _memo[:] = [(subjects, out)]
    return out


def stated_pulls(text: str) -> Iterator[str]:
    """The pull request numbers `text` states something of: not those cited inside parentheses."""
    for m in _CITED.finditer(text):
        before = text[:m.start()]
        if before.count("(") > before.count(")"):
            continue  # "(… / PR #275.)": the evidence of what the sentence says
        yield m.group(1)
