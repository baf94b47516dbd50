"""Which `[[links]]` in a card body are links, and whether each names something in the vault (F009).

A link is Markdown prose: `[[x]]` inside inline code (`` `[[ ]]` ``) or a fenced code
block is text about brackets, not a link. An embed (`![[diagram.png]]`) or a link to a
file that is not a card names that file: it stands when the file is in the vault, found
the way Obsidian finds it (beside the card, from the vault's root, or by file name
anywhere in the vault). Card links resolve by a card's name, id or file stem, as before;
a link that names a Markdown note the repository keeps outside the vault (by file name)
stands too.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import LintContext
from cardindex.meaning.text import body_lines
from cardindex.store.card import Card

_LINK = lazy_pattern(r"(!?)\[\[([^\]\n|#]+)(?:[|#][^\]\n]*)?\]\]")
_CODE_SPAN = lazy_pattern(r"(`+)(?!`).*?(?<!`)\1(?!`)")  # CommonMark: a run of backticks closed by a run as long
_SEPARATORS = lazy_pattern(r"[-_\s]+")
_ORDER_PREFIX = lazy_pattern(r"^\d+[-_.\s]+")  # `75-native-first.md`: a number that orders the files
_files_of: weakref.WeakKeyDictionary[LintContext, frozenset[str]] = weakref.WeakKeyDictionary()
_spellings_of: weakref.WeakKeyDictionary[LintContext, dict[str, str]] = weakref.WeakKeyDictionary()


def _without_code(line: str) -> str:
    """`line` with its code spans blanked (same length, so columns keep their meaning)."""
    if "`" not in line:
        return line
    return _CODE_SPAN.sub(lambda m: " " * len(m.group()), line)


def body_links(card: Card) -> Iterator[tuple[int, str, bool]]:
    """(file line, target, is an embed) for each `[[link]]` of the body outside code, in order."""
    if "[[" not in card.body:
        return
    for number, line in body_lines(card):
        if "[[" not in line:
            continue
        for m in _LINK.finditer(_without_code(line)):
            target = m.group(2).strip()
            if target:
                yield number, target, m.group(1) == "!"


def _file_names(ctx: LintContext) -> frozenset[str]:
    """Every file name in the vault (case-folded), outside hidden folders: read once per run, when asked."""
    names = _files_of.get(ctx)
    if names is None:
        found: set[str] = set()
        for _folder, dirs, files in os.walk(ctx.vault.root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            found.update(f.casefold() for f in files)
        names = _files_of[ctx] = frozenset(found)
    return names


def _names_a_file(card: Card, target: str, ctx: LintContext) -> bool:
    """Whether `target` (a link with a file suffix other than `.md`) is a file in the vault."""
    root = Path(ctx.vault.root)
    relative = PurePosixPath(target)
    if relative.is_absolute() or ".." in relative.parts:
        return False
    for base in (root / PurePosixPath(card.path).parent, root):
        if (base / relative).is_file():
            return True
    return relative.name.casefold() in _file_names(ctx)


def _names_a_repo_note(target: str, ctx: LintContext) -> bool:
    """Whether `target` names a Markdown file the repository holds outside the vault, by its
    file name (`[[node-ts-strip-only]]` for `knowledge/node-ts-strip-only.md`): a memory folder
    often sits beside the notes it links to, and such a link is not broken."""
    if ctx.repo_root is None:
        return False
    repo = ctx.repo
    if repo is None:
        return False
    name = PurePosixPath(target).name
    if not name.casefold().endswith(".md"):
        name += ".md"
    return any(not _in_vault(path, ctx) for path in repo.by_name.get(name, ()))


def _in_vault(path: str, ctx: LintContext) -> bool:
    """Whether `path` (relative to the repository root) lies inside the vault."""
    assert ctx.repo_root is not None
    vault = os.path.relpath(ctx.vault.real_root, ctx.repo_root)
    return vault == "." or path == vault or path.startswith(vault.rstrip("/") + "/")


def _folded(name: str) -> str:
    return _SEPARATORS.sub("-", name.casefold()).strip("-")


def _spellings(ctx: LintContext) -> dict[str, str]:
    """What a link may have meant: each card's file stem, under its stem and name with case and `-`/`_`/spaces
    folded, and without a leading ordering number. Only to suggest; a link resolves exactly or not at all."""
    found = _spellings_of.get(ctx)
    if found is None:
        found = {}
        for card in sorted(ctx.cards, key=lambda c: c.path):
            stem = card.id.rsplit("/", 1)[-1]
            for name in (stem, card.name or "", _ORDER_PREFIX.sub("", stem)):
                if name:
                    found.setdefault(_folded(name), stem)
        _spellings_of[ctx] = found
    return found


def dangling(card: Card, ctx: LintContext) -> Iterator[tuple[int, str]]:
    """(line, message) for each link or embed that names no card and no file in the vault."""
    for line, target, embed in body_links(card):
        name = target.casefold()
        if name.removesuffix(".md") in ctx.link_targets:
            continue
        suffix = PurePosixPath(name).suffix
        if suffix and suffix != ".md" and _names_a_file(card, target, ctx):
            continue
        if embed and suffix and suffix != ".md":
            yield line, f"![[{target}]] embeds no file"
            continue
        if _names_a_repo_note(target, ctx):
            continue
        meant = _spellings(ctx).get(_folded(name.removesuffix(".md")))
        hint = f"; did you mean [[{meant}]]?" if meant else ""
        yield line, f"{'!' if embed else ''}[[{target}]] links to no card{hint}"
