"""Keeping the search index current without stat'ing every card on every search.

What can change in a vault, and what tells us, cheapest first:

- **a card added, removed or renamed, or saved by rename** (what `cards` itself, vim and
  most tools do: write a temp file, rename it over): the folder's own mtime changes. So a
  search stats the folders it walked last time (a handful), and lists again only those
  that changed. The index keeps each folder's listing (every name with its inode and
  kind, `kept`), so a changed folder is compared with it in one pass: only names that
  are new, gone or under another inode are stat'ed and read (a save into a folder of 41k
  cards costs that folder's readdir, about 30 ms, and that card). A new subfolder
  changes its parent, so it is found too.
- **a card edited in place** (the same inode rewritten, as VS Code and Obsidian save):
  nothing but the file's own stat says so. Each search stats a slice of `SWEEP` indexed
  cards in turn, so a vault of up to `SWEEP` cards is checked whole on every search (as
  before), and a larger one within `ceil(n / SWEEP)` searches. The hits themselves are
  never trusted to the index: `agents.search` compares every card it shows with the
  hash the index holds and re-ranks when one changed, so a stale hit is never shown.

A folder modified within `RACY_NS` of the last sync could hide a second change in the
same timestamp; it is listed again until it is older ("racily clean", as git says).

The walk here is the vault's: the same files are cards (a test holds it to
`Vault.listing`). A vault holding a symlink is left to `Vault.listing` on every search,
which knows when two paths are one card.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from stat import S_ISDIR, S_ISLNK, S_ISREG
from typing import NamedTuple

from cardindex.store.search_index import Entry, Loader, RebuildNeeded, SearchIndex, Stamp, Synced, entry
from cardindex.store.vault import EDITOR_TEMP_NAMES, NOT_CARDS, Vault, valid_name

# Cards whose stat each search checks, in turn: a vault up to this size is checked whole on
# every search (an edit in place is always seen); a larger one within ceil(n / SWEEP) searches.
# 1,000 stats (and their rows) cost about 3 ms, 20,000 a third of a warm search at 10k cards.
# Real vaults hold hundreds of cards, and a hit is never shown stale whatever the sweep has reached.
SWEEP = 1_000


class Scan(NamedTuple):
    """What a walk found: card files, every folder walked with its stamp, whether a symlink was met,
    and every name in each folder walked with its inode."""

    cards: list[Entry]
    folders: dict[str, Stamp]
    linked: bool
    listings: dict[str, dict[str, int]]


def kept(e: os.DirEntry[str]) -> int:
    """What a folder's listing keeps of a name: its inode and kind, from the listing itself (no stat).

    The kind matters: a card removed and a folder made under its name may get the freed inode.
    """
    return e.inode() * 4 + (2 if e.is_symlink() else 1 if e.is_dir(follow_symlinks=False) else 0)


def stamp(st: os.stat_result) -> Stamp:
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class Walker:
    """The vault's rules for which files are cards, applied one folder at a time."""

    def __init__(self, vault: Vault) -> None:
        self.root = str(vault.root)
        self.archive = vault.archive_dir
        self.log = vault.log_dir
        self.not_cards = NOT_CARDS | {vault.index_name, vault.config.state_file}

    def archived(self, rel: str) -> bool:
        return rel.startswith(self.archive + "/")

    def folder(self, rel: str, names: dict[str, int] | None = None
               ) -> tuple[list[tuple[str, os.DirEntry[str]]], list[str], bool]:
        """(card files, subfolders, a symlink met) directly in the folder `rel` ('' the root); every
        name in it with its inode goes into `names` when given."""
        cards: list[tuple[str, os.DirEntry[str]]] = []
        subs: list[str] = []
        linked = False
        prefix = rel + "/" if rel else ""
        with os.scandir(os.path.join(self.root, rel) if rel else self.root) as found:
            for e in found:
                name = e.name
                if names is not None:
                    names[name] = kept(e)
                if name.startswith(".") or name in EDITOR_TEMP_NAMES:
                    continue
                try:
                    if e.is_symlink():
                        linked = True
                        continue
                    if e.is_dir():
                        child = prefix + name
                        if child != self.log:
                            subs.append(child)
                    elif name.endswith(".md") and name not in self.not_cards and e.is_file():
                        path = prefix + name
                        if valid_name(path):
                            cards.append((path, e))
                except OSError:
                    continue  # gone since listed
        return cards, subs, linked

    def names(self, rel: str) -> dict[str, int]:
        """Every name directly in the folder `rel` with its inode: what a changed folder is compared by."""
        with os.scandir(os.path.join(self.root, rel) if rel else self.root) as found:
            return {e.name: kept(e) for e in found}

    def some(self, rel: str, names: Iterable[str]) -> tuple[list[tuple[str, os.stat_result]], list[str], bool]:
        """(card files, subfolders, a symlink met) among `names` in the folder `rel`: `folder`'s rules, by lstat."""
        cards: list[tuple[str, os.stat_result]] = []
        subs: list[str] = []
        linked = False
        prefix = rel + "/" if rel else ""
        for name in names:
            if name.startswith(".") or name in EDITOR_TEMP_NAMES:
                continue
            path = prefix + name
            try:
                st = os.lstat(os.path.join(self.root, path))
            except OSError:
                continue  # gone since listed
            if S_ISLNK(st.st_mode):
                linked = True
            elif S_ISDIR(st.st_mode):
                if path != self.log:
                    subs.append(path)
            elif name.endswith(".md") and name not in self.not_cards and S_ISREG(st.st_mode) and valid_name(path):
                cards.append((path, st))
        return cards, subs, linked

    def walk(self, start: str = "") -> Scan:
        """Every card file and folder under `start`, with the stats the index keeps."""
        cards: list[Entry] = []
        folders: dict[str, Stamp] = {}
        listings: dict[str, dict[str, int]] = {}
        linked = False
        stack = [start]
        while stack:
            rel = stack.pop()
            names: dict[str, int] = {}
            try:
                st = os.stat(os.path.join(self.root, rel) if rel else self.root)
                found, subs, link = self.folder(rel, names)
            except OSError:
                continue
            folders[rel] = stamp(st)
            listings[rel] = names
            linked = linked or link
            stack.extend(subs)
            for path, e in found:
                try:
                    cards.append(entry(path, e.stat(), self.archived(path)))
                except OSError:
                    continue
        return Scan(cards, folders, linked, listings)


def refresh(
    index: SearchIndex,
    vault: Vault,
    *,
    read: Callable[[str], bytes | None],
    load: Loader,
) -> Synced:
    """Bring `index` up to the vault on disk, looking at what can have changed (module docstring)."""
    walker = Walker(vault)
    known = index.folder_stamps()
    if not known or index.linked():
        return _full(index, vault, walker, read, load)
    trusted = index.trusted_before()
    dirty = []
    for rel in known:
        try:
            now = stamp(os.stat(os.path.join(walker.root, rel) if rel else walker.root))
        except OSError:
            now = None
        if now != known[rel] or now[0] >= trusted or now[1] >= trusted:
            dirty.append(rel)
    changed: dict[str, Entry] = {}
    gone: set[str] = set()
    folders: dict[str, Stamp] = {}
    listings: dict[str, dict[str, int]] = {}
    folders_gone: set[str] = set()
    for rel in sorted(dirty, key=lambda r: r.count("/")):
        if rel in folders_gone or any(rel.startswith(g + "/") for g in folders_gone if g):
            continue
        before = index.listing(rel)
        try:
            st = os.stat(os.path.join(walker.root, rel) if rel else walker.root)
            names = walker.names(rel)
        except OSError:
            if not rel:
                raise
            folders_gone.add(rel)
            continue
        if before is None:  # not kept (a folder listed before listings were): compared with the cards indexed
            before = {p.rpartition("/")[2]: i * 4 for p, i in index.cards_in(rel).items()}
            before.update((s.rpartition("/")[2], 0) for s in known if s and s.rpartition("/")[0] == rel)
        new = [n for n, _ in names.items() - before.items()]  # new, or another file under the name
        lost = before.keys() - names.keys()
        found, subs, linked = walker.some(rel, new)
        if linked:
            return _full(index, vault, walker, read, load)
        folders[rel] = stamp(st)
        listings[rel] = names
        prefix = rel + "/" if rel else ""
        for path, est in found:
            changed[path] = entry(path, est, walker.archived(path))
        cards = {p for p, _ in found}
        gone.update(prefix + n for n in new if prefix + n not in cards and n.endswith(".md"))  # no longer a card
        gone.update(prefix + n for n in lost if n.endswith(".md"))
        for sub in subs:
            if sub not in known:
                scan = walker.walk(sub)
                if scan.linked:
                    return _full(index, vault, walker, read, load)
                folders.update(scan.folders)
                listings.update(scan.listings)
                changed.update((e[0], e) for e in scan.cards)
        folders_gone.update(prefix + n for n in lost if prefix + n in known)
        folders_gone.update(prefix + n for n in new if prefix + n in known and prefix + n not in subs)
    for rel in index.racy_paths():  # recorded too close to a sync to be trusted by stat: hashed again
        if rel not in changed and rel not in gone:
            _restat(walker, rel, changed, gone)
    sweep, cursor = _sweep(index, walker, trusted, changed, gone)
    try:
        return index.apply(list(changed.values()), gone | sweep, folders, folders_gone, cursor,
                           racy=bool(dirty), read=read, load=load, listings=listings)
    except RebuildNeeded:
        return _full(index, vault, walker, read, load)


def retake(
    index: SearchIndex,
    vault: Vault,
    paths: Sequence[str],
    *,
    read: Callable[[str], bytes | None],
    load: Loader,
) -> Synced:
    """Analyse `paths` again (or drop those gone): cards found to differ from what the index holds."""
    walker = Walker(vault)
    changed: dict[str, Entry] = {}
    gone: set[str] = set()
    for rel in paths:
        _restat(walker, rel, changed, gone)
    _, cursor = index.slice(0)
    try:
        return index.apply(list(changed.values()), gone, {}, (), cursor, racy=True, read=read, load=load, forced=True)
    except RebuildNeeded:
        return _full(index, vault, walker, read, load)


def _restat(walker: Walker, rel: str, changed: dict[str, Entry], gone: set[str]) -> None:
    try:
        changed[rel] = entry(rel, os.stat(os.path.join(walker.root, rel)), walker.archived(rel))
    except OSError:
        gone.add(rel)


def _sweep(index: SearchIndex, walker: Walker, trusted: int, changed: dict[str, Entry], gone: set[str]
           ) -> tuple[set[str], int]:
    """Stat the next `SWEEP` indexed cards; those whose stat changed go into `changed`, those gone are returned."""
    missing: set[str] = set()
    rows, cursor = index.slice(SWEEP)
    root = walker.root + os.sep
    for e in rows:
        rel = e[0]
        if rel in changed or rel in gone:
            continue
        try:
            now = entry(rel, os.stat(root + rel), e[5])
        except OSError:
            missing.add(rel)
            continue
        if now != e or now[1] >= trusted or now[2] >= trusted:
            changed[rel] = now
    return missing, cursor


def _full(index: SearchIndex, vault: Vault, walker: Walker, read: Callable[[str], bytes | None],
          load: Loader) -> Synced:
    scan = walker.walk()
    cards = scan.cards
    if scan.linked:  # the vault's own listing knows when two paths are one card
        cards = list(_vault_entries(vault))
    return index.sync(cards, read=read, load=load, folders=scan.folders, linked=scan.linked, listings=scan.listings)


def _vault_entries(vault: Vault) -> Iterator[Entry]:
    archive = vault.archive_dir + "/"
    for archived in (False, True):
        for rel, e in vault.listing(archived=archived):
            try:
                yield entry(rel, e.stat(), archived or rel.startswith(archive))
            except OSError:
                continue
