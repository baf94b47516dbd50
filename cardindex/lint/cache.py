"""The lint cache: what each card's own rules found, and what is derived from it, keyed on its content.

Most rules read one card and nothing else (structure, session, secret: `reads=""` in
the registry), or one card and a part of the repo (derivable: `reads="repo:PART"`).
Their hits for a card whose path and text did not change are taken from here, as are
the card's statement (for the duplicate and contradiction rules) and its normalized
sentences (for the derivable rules). Rules that read other cards, the date or the file
system run every time.

Everything cached is thrown away when the code that computed it changed (the stat of
`lint/`, `store/`, `index/`, `meaning/`, `secrets.py` and `redaction.py`: an editable install changes without
a new version), and a repo rule's hits when the part of the repo it reads did
(`repo.facts_digest`). Those digests, and the repo's facts, are kept under a stamp of
the repo made from git and stat (`repo.repo_stamp`): a run in an unchanged repo does
not read the repo at all, and a changed card is checked without reading it. The
duplicate and contradiction pairs are kept under a digest of every live card's path,
key and statement, in order: when no statement changed, no card is compared again.
Like the parse cache it is written with `marshal`, atomically, under `.cardindex/cache/`.
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cardindex import __version__
from cardindex.meaning.words import Statement, Words
from cardindex.store.atomic import write_atomic
from cardindex.store.card import Card

FORMAT = 4  # 3: the repo's facts in a file of their own (`remembered_facts`); 4: with code comments
_SOURCES = ("store", "index", "meaning", "secrets.py", "redaction.py", "lint")  # what cached results are computed by, under cardindex/

Hits = tuple[tuple[Any, ...], ...]  # the fields of each `Hit`, as plain tuples


class Found:
    """What is cached for one card: its statement, what else is derived from it alone, and the hits of its rules.

    `done` names every slot (a rule code, or "CODE@live" for reads="live" rules) that
    ran; `hits` holds the slots that found something. Most cards have no hits, and the
    `done` sets of all cards are one shared object in the file.
    """

    __slots__ = ("derived", "done", "hits", "statement")

    def __init__(self, statement: Any = None, done: frozenset[str] = frozenset(), hits: dict[str, Hits] | None = None,
                 derived: dict[str, Any] | None = None) -> None:
        self.statement = statement
        self.done = done
        self.hits: dict[str, Hits] = hits if hits is not None else {}
        self.derived: dict[str, Any] = derived if derived is not None else {}


def sources_digest() -> bytes:
    """A digest of the path, size and mtime of every source file the cached results come from."""
    package = Path(__file__).resolve().parent.parent
    h = hashlib.blake2b(__version__.encode(), digest_size=16)
    for name in _SOURCES:
        path = package / name
        files = sorted(path.glob("*.py")) if path.is_dir() else [path]
        for file in files:
            try:
                st = file.stat()
            except OSError:
                continue
            h.update(f"{file.name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.digest()


def card_key(card: Card) -> bytes:
    data = card.path.encode("utf-8", "surrogateescape") + b"\0" + card.text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


class LintCache:
    """Load once, look up and add per card, save once if anything changed."""

    def __init__(self, state_dir: Path, *, enabled: bool = True) -> None:
        self.folder = state_dir / "cache"
        self.path = self.folder / f"lint-{__version__}-{FORMAT}.marshal"
        self.enabled = enabled
        self.sources = sources_digest() if enabled else b""
        self._keys: dict[str, bytes] = {}
        self.repo_stamp: bytes | None = None  # this run's, once `check_repo` knows it
        self.state_dir = state_dir
        self._facts: Any = None  # the repo's facts of this run's stamp, once asked for or computed
        self._facts_dirty = False
        loaded: Any = None
        if enabled:
            try:
                loaded = marshal.loads(self.path.read_bytes())
                if not (isinstance(loaded, tuple) and len(loaded) == 5 and loaded[0] == self.sources):
                    loaded = None
            except (OSError, EOFError, ValueError, TypeError):
                loaded = None
        self.stamp, self.digests, records, self._pairs = loaded[1:] if loaded else (None, {}, {}, None)
        try:
            self._records = {k: Found(*r) for k, r in records.items()}
        except (AttributeError, TypeError, ValueError):  # not what this code writes: start afresh
            self.stamp, self.digests, self._pairs, self._records, loaded = None, {}, None, {}, None
        self._dirty = loaded is None

    def check_repo(self, stamp: bytes, digests: Callable[[], dict[str, bytes]]) -> None:
        """Drop the cached hits of each repo rule whose part of the repo changed.

        `digests()` gives, for each repo rule that runs, a digest of what it reads; it is
        called only when `stamp` differs from the stamp they were saved with.
        """
        self.repo_stamp = stamp
        if stamp == self.stamp:
            return
        fresh = digests()
        stale = {code for code, d in fresh.items() if self.digests.get(code) != d}
        self.stamp, self.digests = stamp, {**self.digests, **fresh}
        self._dirty = True
        for record in self._records.values():
            if stale & record.done:
                record.done = record.done - stale
                record.hits = {c: h for c, h in record.hits.items() if c not in stale}

    def key(self, card: Card) -> bytes:
        key = self._keys.get(card.path)
        if key is None:
            key = self._keys[card.path] = card_key(card)
        return key

    def found(self, card: Card) -> Found:
        """The record of `card`, created empty when there is none. Change it with `add`."""
        key = self.key(card)
        record = self._records.get(key)
        if record is None:
            record = self._records[key] = Found()
        return record

    def add(self, record: Found, slot: str, hits: Iterable[tuple[Any, ...]]) -> Hits:
        """Remember what the rule of `slot` found on the card of `record`."""
        plain = tuple(tuple(h) for h in hits)
        if self.enabled:
            record.done = record.done | {slot}
            if plain:
                record.hits[slot] = plain
            self._dirty = True
        return plain

    def derived(self, card: Card, name: str, compute: Callable[[Card], Any]) -> Any:
        """`compute(card)` (in marshal's types, from the card alone), remembered under `name`."""
        record = self.found(card)
        value = record.derived.get(name)
        if value is None:
            value = record.derived[name] = compute(card)
            self._dirty = True
        return value

    def statement(self, card: Card) -> Statement | None:
        record = self._records.get(self.key(card))
        if record is None or record.statement is None:
            return None
        # (text, values) of the description, the fact and both: tokens are the text's words.
        d, dv, f, fv, a, av = record.statement
        return Statement(Words(tuple(d.split()), dv, d), Words(tuple(f.split()), fv, f), Words(tuple(a.split()), av, a))

    def put_statement(self, card: Card, st: Statement) -> None:
        if self.enabled:
            d, f, a = st
            self.found(card).statement = (d.text, d.values, f.text, f.values, a.text, a.values)
            self._dirty = True

    def pairs(self, key: bytes) -> list[tuple[Any, ...]] | None:
        """The pairs remembered for `key`: (index of a, index of b, kind, reason, score, detail)."""
        if self._pairs is not None and self._pairs[0] == key:
            return list(self._pairs[1])
        return None

    def put_pairs(self, key: bytes, pairs: list[tuple[Any, ...]]) -> None:
        if self.enabled:
            self._pairs = (key, tuple(pairs))
            self._dirty = True

    def facts(self) -> Any:
        """The repo's facts (`repo.plain_facts`) saved under this run's repo stamp, or None."""
        if self.repo_stamp is None or not self.enabled:
            return None
        if self._facts is None:
            self._facts = remembered_facts(self.state_dir, self.repo_stamp, self.sources)
        return self._facts

    def facts_key(self) -> bytes | None:
        """The key of this run's repo facts (`facts_key`), once the repo's stamp is known and the cache is on."""
        if self.repo_stamp is None or not self.enabled:
            return None
        return facts_key(self.sources, self.repo_stamp)

    def put_facts(self, plain: Any) -> None:
        if self.enabled and self.repo_stamp is not None:
            self._facts = plain
            self._facts_dirty = True

    def save(self, cards: Iterable[Card]) -> None:
        """Write the records of `cards` (the vault's cards now) when anything changed."""
        if not self.enabled:
            return
        if self._facts_dirty and self.repo_stamp is not None:
            remember_facts(self.state_dir, self.repo_stamp, self._facts, self.sources)
            self._facts_dirty = False
        keep = {self.key(c) for c in cards}
        if not self._dirty and keep.issuperset(self._records):
            return
        shared: dict[frozenset[str], frozenset[str]] = {}
        records = {k: (r.statement, shared.setdefault(r.done, r.done), r.hits, r.derived)
                   for k, r in self._records.items() if k in keep}
        try:
            if not self.folder.is_dir():
                return  # the parse cache creates (and tags) the folder; without it, no cache
            data = marshal.dumps((self.sources, self.stamp, self.digests, records, self._pairs))
            write_atomic(self.path, data, durable=False)
        except (OSError, ValueError):
            pass  # a cache that cannot be written only costs speed


def facts_key(sources: bytes, stamp: bytes) -> bytes:
    """What the repo's facts read under the repo stamp `stamp` by the code of `sources` are keyed on, and the
    tables made from them (`repo_facts.vouch`)."""
    return hashlib.blake2b(b"facts\0" + sources + b"\0" + stamp, digest_size=16).digest()


def _facts_path(state_dir: Path) -> Path:
    return state_dir / "cache" / f"facts-{__version__}-{FORMAT}.marshal"


def remembered_facts(state_dir: Path, stamp: bytes, sources: bytes | None = None) -> Any:
    """The repo's facts (`repo_facts.plain_facts`) remembered under the repo stamp `stamp`, or None.

    Kept in a file of their own, so a caller that needs only them (the write gate) does
    not load every card's cached results.
    """
    try:
        saved_sources, saved_stamp, plain = marshal.loads(_facts_path(state_dir).read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if saved_stamp != stamp or saved_sources != (sources if sources is not None else sources_digest()):
        return None
    return plain


def remember_facts(state_dir: Path, stamp: bytes, plain: Any, sources: bytes | None = None) -> None:
    """Keep `plain` (the repo's facts) under the repo stamp `stamp`, when the cache folder exists."""
    path = _facts_path(state_dir)
    if plain is None or not path.parent.is_dir():
        return
    try:
        data = marshal.dumps((sources if sources is not None else sources_digest(), stamp, plain))
        write_atomic(path, data, durable=False)
    except (OSError, ValueError):
        pass  # a cache that cannot be written only costs speed
