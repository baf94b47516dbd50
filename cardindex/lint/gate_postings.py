"""The write gate's postings: what pairing one new card with the vault asks of each card, kept by content hash.

`similarity.pairs_among` reads, of every live card, its `blocking.Record` (its key, its
description and statement words, what the restatement block reads: the vault's word
counts are made of them), and whether it is a document (`documents.document`). Loading
10k cards from the parse cache to ask that was most of `cards add`. This keeps, per card
path, the card's content hash (the parse cache's, which `Vault.content_keys` gives from
stat alone for an unchanged file), its record, its liveness and whether it is a document,
so the gate (`focused`) counts words without loading a card, loads only the cards a block
proposes (and the documents) and gives the whole-vault verdict: the pairs `find_pairs`
finds with the new card (`similarity.pairs_among` is the one pairing either way).

Kept under `.cardindex/cache/` in two files, never durable (lost, they cost one load of the
vault): the base, all cards, and a small delta of the cards changed since, so an add
writes a few hundred bytes, not the base. Both carry a stamp of the code, and the delta
the generation of the base it extends. Anything unexpected (no cache, too many racy
files) returns None, and the caller loads the vault.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import marshal
import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cardindex.store.card import LIVE_STATUSES, Card
from cardindex.store.vault import Vault

if TYPE_CHECKING:
    from cardindex.meaning.blocking import Counts
    from cardindex.meaning.similarity import Pair

VERSION = 3  # 2: each card's `blocking.Record`, instead of the head of its text; 3: with the counts of their words
BASE = "gate-postings.marshal"
DELTA = "gate-postings-delta.marshal"
MAX_DELTA = 512  # cards changed since the base was written, kept in the delta before the base is written again
MAX_LOADS = 1000  # cards changed since the postings were kept, loaded one by one; past it, the whole vault
MIN_CARDS = 500  # a smaller vault loads in a few milliseconds: no postings are kept (nor written on a full disk)
MAX_READS = 256  # files whose stat the parse cache cannot vouch for, read to know their content hash
CHUNK = 8192  # cards held at a time while their records are made (`_entries`)
STREAMED = 24 << 20  # a postings file larger than this (bytes) is decoded as it is read
NEVER = -1  # a card that is never live: unusable, or not active/conflict
ALWAYS = 0  # live, with no expiry; else the ordinal of its `expires` date

# (content hash, the card's `blocking.Record` as plain tuples (None: unusable), key, liveness, is a document)
Entry = tuple[bytes, Any, str | None, int, bool]


def entry(content_key: bytes, card: Card, made: tuple[Any, bool] | None = None) -> Entry:
    """What the postings keep of one card; `made`, when given, is its `_made` (by `many_records`)."""
    if not kept_whole(card):
        return (content_key, None, card.key, NEVER, False)
    record, long = _made(card) if made is None else made
    expires = card.expires
    live = ALWAYS if expires is None else expires.toordinal()
    return (content_key, record, card.key, live, long)


def kept_whole(card: Card) -> bool:
    """Whether the postings keep the card's record: it can be live (usable, active or in conflict)."""
    return card.usable and card.status in LIVE_STATUSES


def _made(card: Card) -> tuple[Any, bool]:
    """What the postings compute of a card that can be live: its record (plain), and whether it is a document."""
    from cardindex.meaning.documents import document
    from cardindex.meaning.similarity import plain_record

    return plain_record(card), document(card) is not None


def _entries(cards: Iterable[Card], key_of: dict[str, bytes], need: set[str]) -> dict[str, Entry]:
    """The entries of the cards in `need`, what they compute made a chunk at a time (`many_records`: on two
    cores when thousands), so that neither every card nor the memos of every card's text are held here."""
    from cardindex.meaning.many_records import records

    out: dict[str, Entry] = {}
    chunk: list[Card] = []
    chunks = max(1, math.ceil(len(need) / CHUNK))
    size = math.ceil(len(need) / chunks)  # chunks of one size: none so short that its records are made here

    def flush() -> None:
        for card, made in zip(chunk, records(chunk, _made), strict=True):
            out[card.path] = entry(key_of[card.path], card, made)
        chunk.clear()

    for card in cards:
        if card.path not in need:
            continue
        if kept_whole(card):
            chunk.append(card)
            if len(chunk) >= size:
                flush()
        else:
            out[card.path] = entry(key_of[card.path], card)
    flush()
    return out


def _misnamed(content_key: bytes) -> Entry:
    return (content_key, None, None, NEVER, False)  # a file whose name is not UTF-8: one unusable card


def _count(counts: Counts, found: Entry | None, sign: int) -> None:
    """Count (`sign` 1) or take away (-1) the record of an entry, when its card can be live at all."""
    if found is not None and found[3] != NEVER:
        from cardindex.meaning.blocking import add

        add(counts, found[1], sign)


class Postings:
    """Every card outside the archive, in the vault's order: its path and `Entry`; and the counts of the
    words of every card that can be live (`blocking.Counts`), kept beside them instead of counted again."""

    def __init__(self, vault: Vault, paths: list[str], entries: list[Entry], counts: Counts) -> None:
        self.vault = vault
        self.paths = paths
        self.entries = entries
        self.counts = counts
        # What changed since they were kept (None: removed), and the kept state it extends
        # (folder, stamp, generation, delta): written by `keep` once the add is written, never by a refusal.
        self.changes: dict[str, Entry | None] = {}
        self.kept: tuple[Path, bytes, bytes | None, dict[str, Entry | None]] | None = None

    def partners(self, new_path: str, today: dt.date) -> Indexed:
        """The live cards other than `new_path`, as `similarity.Partners`: the counts without the cards
        expired by `today` and without `new_path`'s own."""
        day = today.toordinal()
        chosen = []
        counts: Counts | None = None
        for i, e in enumerate(self.entries):
            if (e[3] == ALWAYS or e[3] >= day) and self.paths[i] != new_path:
                chosen.append(i)
            elif e[3] != NEVER:
                if counts is None:
                    counts = self.counts.copy()
                _count(counts, e, -1)
        return Indexed(self, chosen, self.counts if counts is None else counts)

    def holders(self, key: str, today: dt.date) -> list[Card]:
        """The live cards holding `key`, loaded (`cards add`'s supersession)."""
        day = today.toordinal()
        found = [self.paths[i] for i, e in enumerate(self.entries) if e[2] == key and (e[3] == ALWAYS or e[3] >= day)]
        return [c for c in self.vault.cards_at(found) if c.key == key and c.live(today)] if found else []


class Indexed:
    """`similarity.Partners` from the postings: the kept records; cards loaded when asked."""

    def __init__(self, postings: Postings, chosen: list[int], counts: Counts) -> None:
        self.postings = postings
        self.chosen = chosen  # indices into the postings, in order
        entries = postings.entries
        self.records = [entries[i][1] for i in chosen]
        self.counts = counts  # of `records`
        self.loaded: dict[str, Card] = {}

    def cards(self, places: Sequence[int]) -> list[Card]:
        paths = [self.postings.paths[self.chosen[j]] for j in places]
        wanted = [p for p in paths if p not in self.loaded]
        if wanted:
            vault = self.postings.vault
            got = vault.cards if len(wanted) > MAX_LOADS else vault.cards_at(wanted)
            want = set(wanted)
            self.loaded.update((c.path, c) for c in got if c.path in want)
        missing = [p for p in paths if p not in self.loaded]
        if missing:  # gone since the vault was listed: the caller's whole-vault path decides
            raise _Changed(missing[0])
        return [self.loaded[p] for p in paths]

    def long_places(self) -> list[int]:
        entries = self.postings.entries
        return [j for j, i in enumerate(self.chosen) if entries[i][4]]


class _Changed(Exception):
    """A card the postings name could not be loaded."""


_LAST: list[tuple[Vault, list[tuple[str, bytes]], Postings]] = []  # the last vault's, for the listing it was made of


def postings(vault: Vault) -> Postings | None:
    """The vault's postings, brought up to date (the changed cards loaded, the files rewritten), or None."""
    if not vault.use_cache:
        return None
    keys = vault.content_keys(read_at_most=MAX_READS)
    if keys is None or len(keys) < MIN_CARDS:
        return None
    if _LAST and _LAST[0][0] is vault and _LAST[0][1] is keys:
        return _LAST[0][2]
    made = _brought_up_to_date(vault, keys)
    _LAST[:] = [(vault, keys, made)] if made is not None else []
    return made


def _brought_up_to_date(vault: Vault, keys: list[tuple[str, bytes]]) -> Postings | None:
    from cardindex.lint.cache import sources_digest

    stamp = sources_digest()  # what computed the entries: the lint cache's stamp of the sources
    folder = vault.state_dir / "cache"
    gen, stored, delta, counts = _read(folder, stamp)
    need = {rel for rel, key in keys if key != b"misnamed" and (stored.get(rel) or (b"",))[0] != key}
    made_now: dict[str, Entry] = {}
    if need:
        # Many changed (a first add): each card streamed through the parse cache, only its entry kept, so the
        # vault is not held whole (at 100k cards, twice the gate's memory) and the gate pairs from the postings.
        cards = vault.each_card(need, archive=False) if len(need) > MAX_LOADS else vault.cards_at(need)
        made_now = _entries(cards, dict(keys), need)
    paths: list[str] = []
    entries: list[Entry] = []
    changes: dict[str, Entry | None] = {}
    for rel, key in keys:
        if key == b"misnamed":
            found: Entry = _misnamed(key)
            _count(counts, stored.get(rel), -1)
        elif rel in made_now:
            found = changes[rel] = made_now[rel]
            _count(counts, stored.get(rel), -1)
            _count(counts, found, 1)
        else:
            old = stored.get(rel)
            if old is None or old[0] != key:
                return None  # gone while it was being loaded
            found = old
        paths.append(rel)
        entries.append(found)
    current = set(paths)
    for rel in stored:
        if rel not in current and rel not in changes:
            changes[rel] = None
            _count(counts, stored[rel], -1)
    made = Postings(vault, paths, entries, counts)
    made.changes, made.kept = changes, (folder, stamp, gen, delta)
    return made


def keep(vault: Vault, added: Card | None = None) -> None:
    """Write the postings `vault` was paired from, brought up to date and with the card `added` since (if any).

    `cards add` calls it once the card is written: a refused card leaves `.cardindex/` as it was.
    """
    found = [made for v, _, made in _LAST if v is vault]
    if not found or found[0].kept is None:
        return
    made = found[0]
    assert made.kept is not None
    folder, stamp, gen, delta = made.kept
    changes = dict(made.changes)
    every = dict(zip(made.paths, made.entries, strict=True))
    if added is not None:
        from cardindex.store.parse_cache import digest

        try:
            key = digest(vault.path_of(added.path).read_bytes())  # as `Vault.content_keys` will find it
        except OSError:
            key = None
        if key is not None:
            _count(made.counts, every.get(added.path), -1)
            changes[added.path] = every[added.path] = entry(key, added)
            _count(made.counts, every[added.path], 1)
    if changes:
        _write(folder, stamp, gen, delta, changes, every, made.counts)
    made.kept = None  # written: a second call has nothing to add


def _read(folder: Path, stamp: bytes) -> tuple[bytes | None, dict[str, Entry], dict[str, Entry | None], Counts]:
    """(the base's generation, every card's entry, the delta's changes, the counts of the entries) as kept;
    empty when none are."""
    from collections import Counter

    from cardindex.meaning.blocking import Counts

    base = _load(os.path.join(folder, BASE))
    if base is None or base[1] != stamp or len(base) != 5:
        return None, {}, {}, Counts.of(())
    gen, stored = base[2], base[3]
    try:
        counts = Counts(*(Counter(found) for found in base[4]))
    except (TypeError, ValueError):
        return None, {}, {}, Counts.of(())
    changes = _load(os.path.join(folder, DELTA))
    delta: dict[str, Entry | None] = {}
    if changes is not None and changes[1] == stamp and changes[2] == gen:
        delta = changes[3]
        for rel, value in delta.items():
            _count(counts, stored.get(rel), -1)
            if value is None:
                stored.pop(rel, None)
            else:
                stored[rel] = value
                _count(counts, value, 1)
    return gen, stored, delta, counts


def _load(path: str) -> Any:
    try:
        with open(path, "rb") as f:
            # A large file is decoded as it is read, never held whole beside what it holds (at 100k cards,
            # 60 MB less at the peak); a smaller one is read at once, which decodes in half the time.
            value = marshal.load(f) if os.fstat(f.fileno()).st_size > STREAMED else marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(value, tuple) and len(value) in (4, 5) and value[0] == VERSION and isinstance(value[3], dict)):
        return None
    return value


def _write(folder: Path, stamp: bytes, gen: bytes | None, delta: dict[str, Entry | None],
           changes: dict[str, Entry | None], every: dict[str, Entry], counts: Counts) -> None:
    """Keep `changes` in the delta while it is small and a base exists; else write the base again."""
    from cardindex.store.atomic import write_atomic

    if not os.path.isdir(folder):
        return
    merged = {**delta, **changes}
    with contextlib.suppress(OSError, ValueError):
        if gen is not None and len(merged) <= MAX_DELTA:
            write_atomic(Path(folder, DELTA), marshal.dumps((VERSION, stamp, gen, merged)), durable=False)
        else:  # a new generation: the old delta no longer applies
            kept = tuple(dict(c) for c in counts)  # plain dicts: what marshal writes
            write_atomic(Path(folder, BASE), marshal.dumps((VERSION, stamp, os.urandom(8), every, kept)),
                         durable=False)


class Focused(NamedTuple):
    """What the gate's context needs to pair one card: the vault cards it loaded, and the pairs by path."""

    cards: list[Card]
    pairs: dict[str, list[Pair]]


def focused(vault: Vault, card: Card, today: dt.date) -> Focused | None:
    """`LintContext.pairs` for `card` alone against the vault's live cards, from the postings (None: load the vault).

    The same pairs, grouped the same way, as the context computes with `focus=(card,)`.
    """
    from cardindex.meaning.similarity import pairs_among

    found_postings = postings(vault)
    if found_postings is None:
        return None
    partners = found_postings.partners(card.path, today)
    try:
        found = pairs_among(card, partners, vault.config.multi_valued_keys) if card.live(today) else []
    except _Changed:
        return None
    out: dict[str, list[Pair]] = {}
    seen: set[tuple[str, str]] = set()
    for pair in found:
        key = (min(pair.a.path, pair.b.path), max(pair.a.path, pair.b.path))
        if key in seen:
            continue
        seen.add(key)
        out.setdefault(pair.a.path, []).append(pair)
        out.setdefault(pair.b.path, []).append(pair)
    return Focused(sorted(partners.loaded.values(), key=lambda c: c.path), out)


def holders(vault: Vault, key: str, today: dt.date) -> list[Card] | None:
    """The live cards holding `key`, from the postings without loading the vault (None: no postings)."""
    found = postings(vault)
    return None if found is None else found.holders(key, today)
