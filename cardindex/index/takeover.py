"""Taking over an index file that cards did not generate (SPEC §3: never destroy what a person wrote).

A hand-kept index (no generated header) is replaced only when every line of it other
than blanks, headings and HTML comments is a link to a file that exists in the vault.
Anything else (an inline note, a bullet without a link, a link to a missing file) is
the person's own and makes cards refuse, pointing to `cards import`.

A link to a file that is not a card (a note without frontmatter, an unreadable file, a
README) stays linked in the generated index, in its own group, with the title and hook
the person wrote. The generator finds those links again on every later run in the
current index file itself, so they stay for as long as the file they point to exists,
with no state beside the index; their lines have the shape of every other index line
(`- [title](path) — hook`), sorted by title then path, so the merge driver merges them
keyed by path like card lines.

The first replacement of a hand-kept index is one journalled job (`lifecycle.apply`, a
"replace" step) holding its prior bytes, so `cards undo` restores it exactly. What it
kept, what it left out and which hand-written hooks said more than their card's
description is returned as a `Takeover` for the command to print.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import unquote

from cardindex.redaction import shown

if TYPE_CHECKING:
    from cardindex.store.card import Card
    from cardindex.store.vault import Vault

NOTES_TITLE = "Notes"  # the group heading of linked files that are not cards (merge.NOTES_HEADING)
MAX_LISTED = 3  # lines of its own quoted in a refusal
_QUOTE_CHARS = 60

_LINK_LINE = re.compile(
    r"\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?\[(?P<title>(?:[^\]\\]|\\.)*)\]\((?P<link><[^<>]*>|[^()]*)\)(?P<rest>.*)"
)
_HOOK_LEAD = re.compile("^\\s*(?:[\u2014\u2013:|]|-{1,2}(?=\\s))\\s*")  # an em or en dash, colon, bar, hyphen
_UNESCAPE = re.compile(r"\\(.)")
_URL_UNSAFE = re.compile(r"[\s()<>%\[\]\x00-\x1f\x7f-\x9f]")  # control characters too: never raw in the index
_WORD = re.compile(r"\w+")
_BREAK = re.compile(r"([-*_])(?:[ \t]*\1){2,}")


class Link(NamedTuple):
    """One link line of an index file."""

    line: int  # 1-based
    text: str  # the line as written
    title: str  # the link text as written (Markdown-escaped)
    target: str  # the vault-relative path it points at ("" when it cannot be one)
    hook: str  # what follows the link, its separator dropped


class Note(NamedTuple):
    """A linked file that is not a card, as the generated index lists it."""

    title: str  # Markdown-escaped, as the line shows it
    link: str
    hook: str
    path: str


class Stray(NamedTuple):
    """A line of a hand-kept index that is not a link to an existing file."""

    line: int
    text: str
    why: str  # "" (text of its own), or what is wrong with the link


class Takeover(NamedTuple):
    """What replacing a hand-kept index kept and left out (`job` None: not applied yet)."""

    file: str
    job: str | None
    cards: tuple[str, ...]  # linked cards the new index lists
    notes: tuple[str, ...]  # linked files that are not cards, kept in the notes group
    left_out: tuple[tuple[str, str], ...]  # (path, why) of linked cards the new index does not list
    hooks: tuple[tuple[str, str], ...]  # (card path, hook) of hooks that say more than the description


def is_generated(text: str) -> bool:
    from cardindex.index.build import GENERATED_MARK

    return GENERATED_MARK in text.split("\n", 1)[0]


def _target(link: str) -> str:
    raw = link[1:-1] if link.startswith("<") and link.endswith(">") else link
    raw = raw.strip().split("#", 1)[0].split("?", 1)[0]
    if not raw or "://" in raw or raw.startswith(("/", "mailto:")):
        return ""
    target = posixpath.normpath(unquote(raw))
    return "" if target in (".", "..") or target.startswith("../") else target


def parse_links(text: str) -> tuple[list[Link], list[Stray]]:
    """The link lines of an index text, and the other lines that are not layout.

    Layout is what a takeover may drop: blank lines, headings, HTML comments and
    thematic breaks (`---`); a byte order mark is not part of the first line.
    """
    links: list[Link] = []
    other: list[Stray] = []
    in_comment = False
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        stripped = line.strip()
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            continue
        if not stripped or stripped.startswith("#") or _BREAK.fullmatch(stripped):
            continue
        m = _LINK_LINE.fullmatch(line)
        if m is None:
            other.append(Stray(number, line, ""))
            continue
        hook = _HOOK_LEAD.sub("", m["rest"], count=1).strip()
        links.append(Link(number, line, m["title"], _target(m["link"]), hook))
    return links, other


def existing(root: Path, target: str) -> bool:
    """Whether `target` is a regular file inside the vault at `root` (symlinks may not leave it)."""
    if not target:
        return False
    try:
        path = root / target
        real, top = os.path.realpath(path), os.path.realpath(root)
        return real.startswith(top + os.sep) and path.is_file()
    except (OSError, ValueError):
        return False


def stray_lines(root: Path, text: str) -> list[Stray]:
    """Lines of a hand-kept index that replacing it would lose: text of its own, links to no file."""
    if is_generated(text):
        return []
    links, other = parse_links(text)
    dead = [Stray(link.line, link.text, f"{link.target or 'its target'} is not a file in the vault")
            for link in links if not existing(root, link.target)]
    return sorted(other + dead)


def describe(strays: Sequence[Stray]) -> str:
    """The first few stray lines, quoted (secrets redacted, cut), for a refusal."""
    quoted = []
    for stray in strays[:MAX_LISTED]:
        text = " ".join(shown(stray.text).split())
        text = text if len(text) <= _QUOTE_CHARS else text[: _QUOTE_CHARS - 1] + "…"
        quoted.append(f'line {stray.line} "{text}"' + (f" ({stray.why})" if stray.why else ""))
    more = len(strays) - MAX_LISTED
    return ", ".join(quoted) + (f" and {more} more" if more > 0 else "")


def advice(strays: Sequence[Stray]) -> str:
    """What to do about the stray lines."""
    parts = []
    if any(not s.why for s in strays):
        parts.append("move those facts into cards first (`cards import`)")
    if any(s.why for s in strays):
        parts.append("fix or remove the links to missing files")
    return ", ".join(parts)


def has_frontmatter(card: Card) -> bool:
    """Whether a file the vault loaded starts as a card does (a broken card is still a card; a note is not)."""
    return card.text.split("\n", 1)[0].lstrip("\ufeff").rstrip() == "---"


def notes_of(vault: Vault, cards: Sequence[Card], text: str | None) -> list[Note]:
    """Each file the index `text` links that exists and is not a card, with its title and hook.

    A card is a file the vault loads as one with frontmatter (usable or broken); a card
    under the archive folder is retired, not a note. The first link to a file wins.
    Title and hook pass `shown()`; the link is the generator's form of the path.
    """
    if not text:
        return []
    links, _ = parse_links(text)
    if not links:
        return []
    by_path = {c.path: c for c in cards}
    archive = vault.archive_dir + "/"
    out: list[Note] = []
    seen: set[str] = set()
    for link in links:
        target = link.target
        if target in seen or not target:
            continue
        card = by_path.get(target)
        if card is not None and (card.usable or has_frontmatter(card)):
            continue
        if card is None and (target.startswith(archive) and vault.is_card_name(target.rsplit("/", 1)[-1])):
            continue
        if not existing(vault.root, target):
            continue
        seen.add(target)
        title = " ".join(shown(_UNESCAPE.sub(r"\1", link.title)).split()) or target.rsplit("/", 1)[-1]
        title = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
        hook = " ".join(shown(link.hook).split())
        out.append(Note(title, link_of(target), hook, target))
    return out


def link_of(path: str) -> str:
    """A vault-relative path as an index link (what `index.entry` writes for a card)."""
    return _URL_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), path)


def stamp(vault: Vault, text: str | None) -> tuple[tuple[str, bool], ...]:
    """Whether each file the index links that the card listing cannot hold exists (for a memo key).

    A card file's presence and content are in the vault's fingerprint already; the rest
    (a README, a `.txt` note, a file in the archive) is stat'ed, without listing the vault.
    """
    if not text:
        return ()
    links, _ = parse_links(text)
    return tuple((link.target, existing(vault.root, link.target)) for link in links if not _listed(vault, link.target))


def _listed(vault: Vault, target: str) -> bool:
    """Whether the vault's card listing would hold `target` if it existed (SPEC §1)."""
    parts = target.split("/")
    return (vault.is_card_name(parts[-1]) and not target.startswith(vault.archive_dir + "/")
            and not any(part.startswith(".") for part in parts))


def survey(vault: Vault, current: str, new_text: str, cards: Sequence[Card], today: dt.date) -> Takeover:
    """What replacing the hand-kept `current` by `new_text` keeps, leaves out, and which hooks say more."""
    links, _ = parse_links(current)
    listed = {link.target for link in parse_links(new_text)[0]}
    by_path: Mapping[str, Card] = {c.path: c for c in cards}
    kept_cards: list[str] = []
    kept_notes: list[str] = []
    left_out: list[tuple[str, str]] = []
    hooks: list[tuple[str, str]] = []
    seen: set[str] = set()
    for link in links:
        target = link.target
        if target in seen:
            continue
        seen.add(target)
        card = by_path.get(target)
        if target in listed:
            if card is None or not (card.usable or has_frontmatter(card)):
                kept_notes.append(target)
                continue
            kept_cards.append(target)
            if link.hook and says_more(link.hook, card):
                hooks.append((target, " ".join(shown(link.hook).split())))
        elif card is None:
            left_out.append((target, "archived" if _archived(vault, target) else "not a file"))
        elif not card.usable:
            left_out.append((target, "a broken card; fix it and run `cards index`"))
        elif not card.live(today):
            left_out.append((target, f"not live: {'expired' if card.expired(today) else card.status}"))
        else:
            left_out.append((target, "left out by the budget, or withheld"))
    return Takeover(vault.index_name, None, tuple(kept_cards), tuple(kept_notes), tuple(left_out), tuple(hooks))


def _archived(vault: Vault, target: str) -> bool:
    return target.startswith(vault.archive_dir + "/")


def says_more(hook: str, card: Card) -> bool:
    """Whether a hand-written hook holds words the card's title and description do not.

    Words are compared as the duplicate rules compare them (`similarity.words`: case
    folded, stemmed, stop words dropped), so a hook in another language, or one naming
    a detail the description lacks, says more; a shorter wording of the description
    does not. A word in another script counts unless the description has it too.
    """
    from cardindex.meaning.similarity import words

    against = f"{card.title} {card.description}"
    if set(words(hook).tokens) - set(words(against).tokens):
        return True
    # `words` reads ASCII words only.
    foreign = {w for w in _WORD.findall(hook.casefold()) if not w.isascii()}
    return bool(foreign - set(_WORD.findall(against.casefold())))


def replace(vault: Vault, current: str, new_text: str, found: Takeover) -> Takeover:
    """Replace the hand-kept index by `new_text` as one journalled job (caller holds the lock)."""
    from cardindex.store.card import Card
    from cardindex.store.jobs import Step, apply

    reason = f"took over the hand-kept index: {len(found.cards)} card link(s), {len(found.notes)} note link(s) kept"
    step = Step(Card.from_text(vault.index_name, current), "replace", {}, "takeover", reason, body=new_text)
    job, _ = apply(vault, [step], command="index")
    return found._replace(job=job)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def summary(found: Takeover, *, dry_run: bool = False) -> list[str]:
    """What a command says about a takeover: one line, then what was left out and which hooks say more."""
    counts = (f"{_plural(len(found.cards) + len(found.notes), 'link')} kept "
              f"({_plural(len(found.cards), 'card')}, {_plural(len(found.notes), 'note')})")
    if dry_run:
        head = (f"would take over {found.file} (hand-kept): {counts}; its prior version would be journalled "
                "(`cards undo` restores it); nothing written (--dry-run)")
    else:
        head = f"took over {found.file} (hand-kept): {counts}; prior version in job {found.job} (`cards undo` restores it)"
    lines = [head] + [f"  not listed: {path} ({why})" for path, why in found.left_out]
    if found.hooks:
        lines.append(f"{_plural(len(found.hooks), 'hand-written hook')} said more than the card's description; to keep "
                     "what they add, edit the description or put it in a card (`cards add`, `cards import FILE`):")
        lines += [f'  {path}: "{hook}"' for path, hook in found.hooks]
    return lines
