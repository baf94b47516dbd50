"""The layout rule's model (D103): which repo path a card names, and what the tree already says of it.

A card that places a path ("the pricing code is in api/pricing") or lists folders and
files with glosses says what `git ls-files` shows, unless it says more than the names of
the files under those paths (a reason, a date, a constraint). Pure functions of the
repo's facts and the card.
"""

from __future__ import annotations

from cardindex.lazy import lazy_pattern
from cardindex.meaning.claims import sentences
from cardindex.meaning.content import content_stems, has_date
from cardindex.meaning.repo_facts import RepoFacts
from cardindex.meaning.text import body_lines
from cardindex.store.card import Card


def resolve(repo: RepoFacts, reference: str) -> str | None:
    """The repo file or folder a path in a card names (exactly, or by a unique suffix)."""
    reference = reference.strip("./").rstrip("/")
    if not reference:
        return None
    if reference in repo.files or reference in repo.dirs:
        return reference
    matches = [f for f in repo.by_name.get(reference.rsplit("/", 1)[-1], ()) if f.endswith("/" + reference)]
    return matches[0] if len(matches) == 1 else None


_ENTRY = lazy_pattern(r"^\s*(?:[-*+]|\d+[.)]|\|)\s*\**`?((?:[\w.-]+/)*[\w.-]+/?)`?\**\s*(?:[-\u2014\u2013:|(]|$)(.*)$")


def listing(repo: RepoFacts, card: Card) -> tuple[int, int] | None:
    """A card that lists repo folders and files, each with a gloss the names under it bear out: (first line, entries)."""
    lines = [(n, line) for n, line in body_lines(card) if line.strip() and not line.lstrip().startswith("#")]
    reasons = {s.line for s in sentences(card) if s.reason}
    entries, glossed = [], []
    for number, line in lines:
        m = _ENTRY.match(line)
        found = resolve(repo, m.group(1)) if m else None
        if m is None or found is None:
            continue
        gloss = set(content_stems(m.group(2), split_camel=True)) - _LAYOUT_WORDS
        if len(gloss - _names_under(repo, [found])) <= 3:
            entries.append(number)
        elif number not in reasons and not has_date(line) and len(gloss) <= _GLOSS_STEMS:
            glossed.append(number)  # what the file is for, in a few words: what its code says
    if len(entries) >= 2 and len(entries) >= 0.6 * len(lines):
        return entries[0], len(entries)
    # A map of key files: three or more of the repo's files, each with a short gloss and no reason.
    every = sorted(entries + glossed)
    if len(every) >= _MAP_ENTRIES and len(every) >= 0.6 * len(lines):
        return every[0], len(every)
    return None


_GLOSS_STEMS = 8  # a gloss longer than this says more than what a file is for
_MAP_ENTRIES = 3


_LAYOUT_WORDS = frozenset(content_stems(
    "lives live living in under is are sits located can be found defined contains contain holds hold layout structure "
    "folder folders directory directories module modules package packages split into file files code source top level "
    "root repo repository tree"))


def _names_under(repo: RepoFacts, paths: list[str]) -> set[str]:
    """The stems of `paths` and of the names of every file and folder under them."""
    names: set[str] = set()
    for path in paths:
        names.update(content_stems(path.replace("/", " "), split_camel=True))
        prefix = path + "/"
        for f in repo.files:
            if f.startswith(prefix):
                names.update(content_stems(f[len(prefix):].replace("/", " "), split_camel=True))
    return names


def only_the_tree(repo: RepoFacts, sentence: str, paths: list[str]) -> bool:
    """Whether `sentence` says no more about `paths` than the names of the files and folders under them."""
    said = set(content_stems(sentence, split_camel=True)) - _LAYOUT_WORDS
    rest = said - _names_under(repo, paths)
    return len(rest) <= max(1, len(said) // 4)
