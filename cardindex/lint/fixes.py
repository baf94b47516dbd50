"""What `cards lint --fix` changes, planned once: applied by `--fix`, listed by `--show-fixes`, shown by `--diff`.

A fix is a job step (`store.jobs.Step`): quoting a value read leniently (F006, safe),
archiving a card flagged for deletion (duplicates, expired and superseded cards: unsafe,
only with `--unsafe-fixes`), and regenerating the index (I101, safe). The steps are
computed here from the findings and the cards, and `--fix` applies exactly these; the
preview reads what each step would write (`store.jobs.new_text`) and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Sequence
from typing import NamedTuple

from cardindex.errors import CardIndexError
from cardindex.lint.finding import Finding
from cardindex.store.card import Card
from cardindex.store.jobs import Step, free_name, new_text
from cardindex.store.vault import Vault

_FIELD = re.compile(r"\s*([A-Za-z_][\w-]*):")  # `key:` at the top level, or under metadata:


class Fixes(NamedTuple):
    """The steps of one `--fix`: quoting (one job), archiving (another), and whether the index is rewritten."""

    quotes: list[Step]
    archives: list[Step]
    reindex: bool
    fixed: list[Finding]  # the findings these fix, in order


class Preview(NamedTuple):
    """One file a fix changes: its path before and after (vault-relative), its texts, and why."""

    path: str
    new_path: str
    before: str
    after: str
    reason: str


def quoted_text(card: Card, findings: Sequence[Finding]) -> tuple[str, list[str]] | None:
    """`card` with the values F006 read leniently quoted, and which keys; None when nothing can be quoted."""
    if not card.rewritable:
        return None  # repeated keys or control characters: reported, never rewritten
    lines = card.text.splitlines()
    keys = []
    for f in findings:
        if f.path == card.path and f.fix == "quote-value" and 0 < f.line <= len(lines):
            m = _FIELD.match(lines[f.line - 1])
            if m and isinstance(card.fields.get(m.group(1)), str) and m.group(1) not in keys:
                keys.append(m.group(1))
    if not keys:
        return None
    return card.with_fields({k: card.fields[k] for k in keys}), keys


def plan(vault: Vault, findings: Sequence[Finding], *, unsafe: bool) -> Fixes:
    """The fixes `--fix` (with `unsafe`: `--fix --unsafe-fixes`) makes for `findings`."""
    cards = {c.path: c for c in vault.cards}
    quotes: list[Step] = []
    fixed: list[Finding] = []
    for path in sorted({f.path for f in findings if f.fix == "quote-value" and f.path in cards}):
        done = quoted_text(cards[path], findings)
        if done is not None:
            text, keys = done
            quotes.append(Step(cards[path], "replace", {}, "quote", f"quote {', '.join(keys)} (F006)", body=text))
            fixed += [f for f in findings if f.path == path and f.fix == "quote-value"]
    archives: list[Step] = []
    if unsafe:
        doomed: dict[str, Finding] = {}
        for f in findings:
            if f.fix == "archive" and f.path in cards:
                doomed.setdefault(f.path, f)
        archives = [Step(cards[p], "archive", {"status": "archived"}, "archive", f"{f.code} {f.message}")
                    for p, f in sorted(doomed.items())]
        fixed += [f for f in findings if f.fix == "archive" and f.path in doomed]
    reindex = any(f.fix == "reindex" for f in findings)
    fixed += [f for f in findings if f.fix == "reindex"]
    return Fixes(quotes, archives, reindex or bool(archives), sorted(set(fixed), key=Finding.sort_key))


def preview(vault: Vault, fixes: Fixes, today: dt.date) -> list[Preview]:
    """What each fix would write, computed from the very steps `--fix` applies; nothing is written."""
    out = [Preview(s.card.path, s.card.path, s.card.text, s.body or "", s.reason) for s in fixes.quotes]
    taken: set[str] = set()
    for step in fixes.archives:
        target = free_name(vault, step.card.id, folder=vault.archive_dir, taken=taken)
        taken.add(target)
        out.append(Preview(step.card.path, target, step.card.text, new_text(step, step.card.text), step.reason))
    if fixes.reindex:
        index = _index_preview(vault, fixes, today)
        if index is not None:
            out.append(index)
    return out


def _index_preview(vault: Vault, fixes: Fixes, today: dt.date) -> Preview | None:
    """The index as `--fix` would regenerate it (without the cards it archives), or None when it stays."""
    from cardindex.index import build as index

    # An archived card is passed as what it becomes (status archived, so out of the index) at
    # its old path, so that the index does not keep its file linked as a note.
    changed = {s.card.path: Card.from_text(s.card.path, s.body or "") for s in fixes.quotes}
    changed.update({s.card.path: Card.from_text(s.card.path, new_text(s, s.card.text)) for s in fixes.archives})
    cards = [changed.get(c.path, c) for c in vault.cards]
    current = index.read_index(vault)
    after = index.render(vault, cards, today).text
    if current == after:
        return None
    try:
        index.ensure_replaceable(vault, current)
    except CardIndexError:
        return None  # a hand-kept index with lines of its own: --fix refuses it too (I104 says so)
    return Preview(vault.index_name, vault.index_name, current or "", after, "regenerate the index (I101)")


def unified_diff(change: Preview) -> str:
    """`change` as a unified diff, `a/` and `b/` paths relative to the vault, like git's.

    Card text leaves the tool only through the one redaction: both sides are `shown`
    first, so a secret in a line of context reads `[redacted]` on both sides.
    """
    from cardindex.redaction import printable, shown

    before = shown(change.before).splitlines(keepends=True)
    after = shown(change.after).splitlines(keepends=True)
    lines = difflib.unified_diff(before, after, f"a/{printable(change.path)}", f"b/{printable(change.new_path)}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def described(fixes: Fixes) -> list[tuple[str, str]]:
    """(vault-relative path, what the fix does) per fix, for `--show-fixes`."""
    out = [(s.card.path, s.reason) for s in fixes.quotes]
    out += [(s.card.path, f"archive it ({s.reason})") for s in fixes.archives]
    if fixes.reindex:
        out.append(("", "regenerate the index"))
    return out
