"""The write gate's postings: what pairing one new card with the vault asks of each card, kept by content hash.

`similarity.pairs_with` reads, of every live card, its description and body head lowered
(`similarity.probe_text`: does it contain the new card's words, and how many cards do),
its key, and whether it is a document (`documents.document`). Loading 10k cards from the
parse cache to ask that was most of `cards add`. This keeps, per card path, the card's
content hash (the parse cache's, which `Vault.content_keys` gives from stat alone for an
unchanged file) and those four answers, so the gate (`focused`) counts words in one
joined string, loads only the cards that can pair (a few partners, the key's holders
and the documents) and gives the whole-vault path's verdict: `similarity.pairs_among` is
the one pairing, asked through `Partners` either way.

Kept under `.cardindex/cache/` in two files, never durable (lost, they cost one load of the
vault): the base, all cards, and a small delta of the cards changed since, so an add
writes a few hundred bytes, not the base. Both carry a stamp of the code, and the delta
the generation of the base it extends. Anything unexpected (no cache, too many racy
files, a card text holding the separator) returns None, and the caller loads the vault.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import marshal
import os
import re
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cardindex.store.card import LIVE_STATUSES, Card
from cardindex.store.vault import Vault

if TYPE_CHECKING:
    from cardindex.meaning.similarity import Pair

VERSION = 1
BASE = "gate-postings.marshal"
DELTA = "gate-postings-delta.marshal"
MAX_DELTA = 512  # cards changed since the base was written, kept in the delta before the base is written again
MAX_LOADS = 1000  # cards changed since the postings were kept, loaded one by one; past it, the whole vault
MIN_CARDS = 500  # a smaller vault loads in a few milliseconds: no postings are kept (nor written on a full disk)
MAX_READS = 256  # files whose stat the parse cache cannot vouch for, read to know their content hash
SEP = "\x00"
FEW = 64  # a word in more cards than this is counted by one regular-expression pass
_REST = "[^\x00]*"  # the rest of one card's text in the joined text
NEVER = -1  # a card that is never live: unusable, or not active/conflict
ALWAYS = 0  # live, with no expiry; else the ordinal of its `expires` date

# (content hash, probe text, key, liveness, is a document)
Entry = tuple[bytes, str, str | None, int, bool]


def entry(content_key: bytes, card: Card) -> Entry:
    """What the postings keep of one card."""
    from cardindex.meaning.documents import document
    from cardindex.meaning.similarity import probe_text

    if not card.usable or card.status not in LIVE_STATUSES:
        live = NEVER
    else:
        expires = card.expires
        live = ALWAYS if expires is None else expires.toordinal()
    return (content_key, probe_text(card), card.key, live, document(card) is not None)


def _misnamed(content_key: bytes) -> Entry:
    return (content_key, "", None, NEVER, False)  # a file whose name is not UTF-8: one unusable card


class Postings:
    """Every card outside the archive, in the vault's order: its path and `Entry`."""

    def __init__(self, vault: Vault, paths: list[str], entries: list[Entry]) -> None:
        self.vault = vault
        self.paths = paths
        self.entries = entries
        # What changed since they were kept (None: removed), and the kept state it extends
        # (folder, stamp, generation, delta): written by `keep` once the add is written, never by a refusal.
        self.changes: dict[str, Entry | None] = {}
        self.kept: tuple[Path, bytes, bytes | None, dict[str, Entry | None]] | None = None

    def partners(self, new_path: str, today: dt.date) -> Indexed | None:
        """The live cards other than `new_path`, as `similarity.Partners` (None: a text holds the separator)."""
        day = today.toordinal()
        chosen = [i for i, e in enumerate(self.entries)
                  if (e[3] == ALWAYS or e[3] >= day) and self.paths[i] != new_path]
        texts = [self.entries[i][1] for i in chosen]
        big = SEP.join(texts)
        if big.count(SEP) != max(len(texts) - 1, 0):
            return None
        return Indexed(self, chosen, big)

    def holders(self, key: str, today: dt.date) -> list[Card]:
        """The live cards holding `key`, loaded (`cards add`'s supersession)."""
        day = today.toordinal()
        found = [self.paths[i] for i, e in enumerate(self.entries) if e[2] == key and (e[3] == ALWAYS or e[3] >= day)]
        return [c for c in self.vault.cards_at(found) if c.key == key and c.live(today)] if found else []


class Indexed:
    """`similarity.Partners` from the postings: word counts in one joined string; cards loaded when asked."""

    def __init__(self, postings: Postings, chosen: list[int], big: str) -> None:
        self.postings = postings
        self.chosen = chosen  # indices into the postings, in order
        self.big = big
        entries = postings.entries
        self.starts = list(accumulate((len(entries[i][1]) + 1 for i in chosen[:-1]), initial=0))  # each text's place
        self.loaded: dict[str, Card] = {}
        self._hits: dict[str, list[int]] = {}

    def __len__(self) -> int:
        return len(self.chosen)

    def frequency(self, probe: str) -> int:
        if not probe or SEP in probe:
            return sum(probe in self.postings.entries[i][1] for i in self.chosen)
        found = self._hits.get(probe)
        if found is not None:
            return len(found)
        places, resume = self._scan(probe, FEW)
        if resume == -1:
            self._hits[probe] = places
            return len(places)
        # A common word: one match per further card (its first place in a card's text, then the rest of that text).
        return len(places) + len(re.compile(re.escape(probe) + _REST).findall(self.big, resume))

    def hits(self, probe: str) -> list[int]:
        """The places (into `chosen`) of the cards whose text contains `probe`."""
        found = self._hits.get(probe)
        if found is None:
            if not probe or SEP in probe:
                found = [j for j, i in enumerate(self.chosen) if probe in self.postings.entries[i][1]]
            else:
                found = self._scan(probe, len(self.chosen))[0]
            self._hits[probe] = found
        return found

    def _scan(self, probe: str, limit: int) -> tuple[list[int], int]:
        """The places of the first `limit` cards holding `probe`, and where the joined text goes on after them
        (-1: no card after them holds it)."""
        big, starts = self.big, self.starts
        found: list[int] = []
        pos = big.find(probe)
        while pos != -1:
            if len(found) == limit:
                return found, pos
            found.append(bisect.bisect_right(starts, pos) - 1)
            end = big.find(SEP, pos)
            if end == -1:
                break
            pos = big.find(probe, end + 1)
        return found, -1

    def matching(self, rare: Sequence[str], said: Sequence[str], key: str | None) -> list[tuple[Card, int, int, bool]]:
        shared: Counter[int] = Counter(j for probe in rare for j in self.hits(probe))
        again: Counter[int] = Counter(j for probe in said for j in self.hits(probe))
        entries = self.postings.entries
        keyed = set() if key is None else {j for j, i in enumerate(self.chosen) if entries[i][2] == key}
        places = sorted(set(shared) | set(again) | keyed)
        cards = self._cards(places)
        return [(card, shared[j], again[j], j in keyed) for j, card in zip(places, cards, strict=True)]

    def long_cards(self, every: bool) -> list[Card]:
        entries = self.postings.entries
        return self._cards(range(len(self.chosen)) if every else
                           [j for j, i in enumerate(self.chosen) if entries[i][4]])

    def _cards(self, places: Sequence[int]) -> list[Card]:
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
    gen, stored, delta = _read(folder, stamp)
    need = {rel for rel, key in keys if key != b"misnamed" and (stored.get(rel) or (b"",))[0] != key}
    made_now: dict[str, Entry] = {}
    if need:
        # Many changed (a first add): each card streamed through the parse cache, only its entry kept, so the
        # vault is not held whole (at 100k cards, twice the gate's memory) and the gate pairs from the postings.
        cards = vault.each_card(need, archive=False) if len(need) > MAX_LOADS else vault.cards_at(need)
        key_of = dict(keys)
        made_now = {c.path: entry(key_of[c.path], c) for c in cards if c.path in need}
    paths: list[str] = []
    entries: list[Entry] = []
    changes: dict[str, Entry | None] = {}
    for rel, key in keys:
        if key == b"misnamed":
            found: Entry = _misnamed(key)
        elif rel in made_now:
            found = changes[rel] = made_now[rel]
        else:
            old = stored.get(rel)
            if old is None or old[0] != key:
                return None  # gone while it was being loaded
            found = old
        paths.append(rel)
        entries.append(found)
    current = set(paths)
    changes.update((rel, None) for rel in stored if rel not in current and rel not in changes)
    made = Postings(vault, paths, entries)
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
            changes[added.path] = every[added.path] = entry(key, added)
    if changes:
        _write(folder, stamp, gen, delta, changes, every)
    made.kept = None  # written: a second call has nothing to add


def _read(folder: Path, stamp: bytes) -> tuple[bytes | None, dict[str, Entry], dict[str, Entry | None]]:
    """(the base's generation, every card's entry, the delta's changes) as kept; empty when none are."""
    base = _load(os.path.join(folder, BASE))
    if base is None or base[1] != stamp:
        return None, {}, {}
    gen, stored = base[2], base[3]
    changes = _load(os.path.join(folder, DELTA))
    delta: dict[str, Entry | None] = {}
    if changes is not None and changes[1] == stamp and changes[2] == gen:
        delta = changes[3]
        for rel, value in delta.items():
            if value is None:
                stored.pop(rel, None)
            else:
                stored[rel] = value
    return gen, stored, delta


def _load(path: str) -> Any:
    try:
        with open(path, "rb") as f:
            value = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(value, tuple) and len(value) == 4 and value[0] == VERSION and isinstance(value[3], dict)):
        return None
    return value


def _write(folder: Path, stamp: bytes, gen: bytes | None, delta: dict[str, Entry | None],
           changes: dict[str, Entry | None], every: dict[str, Entry]) -> None:
    """Keep `changes` in the delta while it is small and a base exists; else write the base again."""
    from cardindex.store.atomic import write_atomic

    if not os.path.isdir(folder):
        return
    merged = {**delta, **changes}
    with contextlib.suppress(OSError, ValueError):
        if gen is not None and len(merged) <= MAX_DELTA:
            write_atomic(Path(folder, DELTA), marshal.dumps((VERSION, stamp, gen, merged)), durable=False)
        else:  # a new generation: the old delta no longer applies
            write_atomic(Path(folder, BASE), marshal.dumps((VERSION, stamp, os.urandom(8), every)),
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
    if partners is None:
        return None
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
