"""Derivable rules: what the code, docs or git history already record.

A remembered copy of what the repo says exists only to go stale against it. A card that
mentions code while stating an outside constraint ("`compute_total` must stay under
50 ms because the terminal times out") records something the code does not, and is
not flagged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain

from cardindex.lint.context import Hit, LintContext
from cardindex.meaning.repo_facts import RepoFacts
from cardindex.meaning.text import description_line, statements
from cardindex.store.card import Card

_PATH_LINE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9]{1,6})(?::|#L| line | lines? )(\d+)\b")
_PATH = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]*|[\w-]+\.[A-Za-z0-9]{1,6})(?![\w/])")
_IDENT = re.compile(r"`([A-Za-z_][\w.]*)(?:\(\))?`|\b([A-Za-z_]\w*)\(\)|\b([A-Za-z]+(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")

# A sentence with one of these states a constraint from outside the code.
_CONSTRAINT = re.compile(
    r"(?i)\b(?:must|mustn't|never|always|should|shouldn't|don't|do not|does not need|required?|because|"
    r"since|limit|legal|law|compliance|contract|sandbox|times? out|timeout|policy|sla|"
    r"regulat\w*|deadline|until|forbidden|allowed|approv\w*|avoid|careful|"
    r"warning|beware|breaks?|broke|fragile|flaky|hack|workaround|agreed|decided)\b"
)
_DESCRIBES = re.compile(
    r"(?i)\b(?:does|returns?|computes?|calculates?|handles?|takes|accepts?|validates?|parses?|builds?|"
    r"creates?|sends?|stores?|reads?|writes?|checks?|converts?|applies|multiplies|adds|wraps?|"
    r"implements?|raises?|retries|caches?|holds?|defines?|is (?:a|an|the) (?:\w+ )?(?:function|class|method|"
    r"constant|helper|module|dataclass|enum|type|struct|record|decorator|wrapper)|is set to|equals|is defined|"
    r"lives? in|is used (?:to|for)|gets|loads?|formats?|rounds?|allocates?|generates?|calls?|sums?|answers?|"
    r"responds?|looks? (?:\w+ ){0,3}up|dispatch\w*|with (?:\w+ )?fields|hard-?coded|(?:is|are) (?:set to )?(?:\d|\"|'))"
    r"\b|\s=\s"
)
_LAYOUT = re.compile(
    r"(?i)\b(?:lives? in|live under|is in|are in|sits? in|located|can be found|found in|defined in|"
    r"contains?|holds|is under|are under|layout|structure|folder|directory|module|package|split into)\b"
)


# Cheap to look for first: what `_PATH_LINE` and `_IDENT` cannot match without.
_LINE_HINT = re.compile(r"\.[A-Za-z0-9]{1,6}(?::|#L| lines? )\d")
_NAME_HINT = re.compile(r"[`_]|\(\)|[a-z0-9][A-Z]")


def _may_reach(a: str, b: str, score: float) -> bool:
    """Whether rapidfuzz's ratio (or token_sort_ratio, of single-spaced words) of `a` and `b` can reach `score`.

    The ratio is at most 200 * shorter / (both lengths): strings of very different
    lengths are not compared at all.
    """
    la, lb = len(a), len(b)
    return 200 * min(la, lb) >= score * (la + lb)


def _shared(tokens: Iterable[str], index: Mapping[str, list[int]]) -> Counter[int]:
    """For each item of an inverted index, how many of `tokens` it holds."""
    return Counter(chain.from_iterable(index.get(t, ()) for t in tokens))


def _resolve(repo: RepoFacts, reference: str) -> str | None:
    """The repo file or folder a path in a card names (exactly, or by a unique suffix)."""
    reference = reference.strip("./").rstrip("/")
    if not reference:
        return None
    if reference in repo.files or reference in repo.dirs:
        return reference
    matches = [f for f in repo.by_name.get(reference.rsplit("/", 1)[-1], ()) if f.endswith("/" + reference)]
    return matches[0] if len(matches) == 1 else None


def file_line(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A file and line number in the repo (`src/billing.py:42`): the code says what is there.

    Line numbers move with every edit; the reference goes stale silently. Point to the
    behaviour or constraint instead, or leave it to the code.
    """
    repo = ctx.repo
    if repo is None or not card.usable or not _LINE_HINT.search(card.text) or not _PATH_LINE.search(card.text):
        return
    for number, line in statements(card):
        for m in _PATH_LINE.finditer(line):
            found = _resolve(repo, m.group(1))
            if found:
                yield Hit(number, f"cites {found} line {m.group(2)}: the code already records it", fix="archive")
                return


def code_symbol(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Describes what a function, class or constant defined in the repo does.

    The code and its docstrings are the source of truth; a copy in memory drifts.
    Mentioning a name while stating an outside constraint is fine.
    """
    repo = ctx.repo
    if repo is None or not card.usable:
        return
    if not _NAME_HINT.search(card.text, card.body_offset) and not _NAME_HINT.search(card.description):
        return  # nothing in it looks like a code name
    named = {next(g for g in m.groups() if g).rsplit(".", 1)[-1] for m in _IDENT.finditer(card.text, card.body_offset)}
    named.update(next(g for g in m.groups() if g).rsplit(".", 1)[-1] for m in _IDENT.finditer(card.description))
    if repo.symbols.keys().isdisjoint(named):
        return  # names no symbol of the repo
    for number, line in statements(card):
        for sentence in re.split(r"(?<=[.!?;])\s+", line):
            if _CONSTRAINT.search(sentence):
                continue
            for m in _IDENT.finditer(sentence):
                name = next(g for g in m.groups() if g).rsplit(".", 1)[-1]
                symbol = repo.symbols.get(name)
                if symbol and _DESCRIBES.search(sentence):
                    yield Hit(number, f"describes {name} ({symbol.path}:{symbol.line}): the code already records it",
                              fix="archive")
                    return


def layout(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Describes the module layout (where files and folders are): a file listing shows it."""
    repo = ctx.repo
    if repo is None or not card.usable:
        return
    if not any(_resolve(repo, m.group(1)) for m in _PATH.finditer(card.text[card.body_offset:].replace("`", " "))):
        return  # names no file or folder of the repo
    for number, line in statements(card):
        for sentence in re.split(r"(?<=[.!?;])\s+", line):
            if _CONSTRAINT.search(sentence) or not _LAYOUT.search(sentence):
                continue
            if _PATH_LINE.search(sentence):
                continue  # reported as a file and line
            for m in _PATH.finditer(sentence.replace("`", " ")):
                found = _resolve(repo, m.group(1))
                if found:
                    yield Hit(number, f"describes where {found} is: the repo layout already shows it", fix="archive")
                    return


def commit(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Repeats a commit: its hash, or its subject. `git log` already records it.

    Keep the why that the commit message does not say, if any, and drop the rest.
    """
    repo = ctx.repo
    if repo is None or not card.usable or not repo.commits:
        return
    from rapidfuzz import fuzz

    described = description_line(card)
    for number, hexes, sentences in ctx.said(card):
        for hex_string in hexes:
            for commit_hash, subject, _, _ in repo.subjects:
                if commit_hash.startswith(hex_string):
                    yield Hit(number, f"cites commit {commit_hash[:10]} ({subject!r}): git history records it", fix="archive")
                    return
        if number == described:
            continue  # a description says what the card is for, not what happened
        for said in sentences:
            if said.count(" ") < 2:
                continue
            said_tokens = set(said.split())
            if len(repo.subject_index.keys() & said_tokens) < 2:
                continue  # no subject can share two words with it
            shared = _shared(said_tokens, repo.subject_index)
            for i in (i for i, n in shared.items() if n >= 2):
                commit_hash, subject, normalized, wanted = repo.subjects[i]
                if len(wanted) < 3:
                    continue
                covered = len(wanted & said_tokens) >= 0.8 * len(wanted) and fuzz.token_set_ratio(said, normalized) >= 90
                if covered or (_may_reach(said, normalized, 80) and fuzz.ratio(said, normalized) >= 80):
                    yield Hit(number, f"repeats commit {commit_hash[:10]} {subject!r}: git history records it", fix="archive")
                    return


def docs_text(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Says what the README or docs already say (the same sentence, however lightly reworded)."""
    repo = ctx.repo
    if repo is None or not card.usable or not repo.docs:
        return
    from rapidfuzz import fuzz

    for number, _, sentences in ctx.said(card):
        for said in sentences:
            tokens = set(said.split())
            if len(tokens) < 5 or len(repo.doc_index.keys() & tokens) < 2:
                continue  # too short, or no doc sentence can share two of its words
            counts = _shared(tokens, repo.doc_index)
            for i in (i for i, n in counts.items() if n >= 2):
                doc = repo.docs[i]
                if (_may_reach(said, doc.text, 75) and fuzz.token_set_ratio(said, doc.text) >= 90
                        and fuzz.token_sort_ratio(said, doc.text) >= 75):
                    yield Hit(number, f"{doc.path} line {doc.line} already says this", fix="archive")
                    return


