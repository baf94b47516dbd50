"""`cards search`: ranked retrieval over the vault's search index, with filters.

The index (`store.search_index`, under `.cardindex/cache/`) is brought up to date first:
on an unchanged vault that costs a listing and a stat per card, and nothing is read;
after an edit, only the changed cards are analysed again. Ranking is `ranking` (BM25F
over stemmed title, description, key, tags and body). Live cards are searched unless
`status` (or `everything`) says otherwise; archived, superseded and expired cards come
back with their status, so they are marked; a conflict comes back with every side
of it, each marked. Hits whose best card holds too little of the query are marked
`weak`: the vault probably does not know what was asked.

`as_of` searches what the vault held at the end of that day (rewound through the
journal, `lifecycle.asof`), from an index built in memory for that one query.

`hybrid` (`cards search --hybrid`, or `embedding: wordllama` in .cardindex.yaml) lets an
embedding reorder the best candidates (`hybrid`); the ranking still finds them and says
whether the answer is weak. Off by default, and only with the `[embed]` extra.
"""

from __future__ import annotations

import datetime as dt
import marshal
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.agents import ranking
from cardindex.agents.facts import conflict_order
from cardindex.agents.scopes import scope_matches
from cardindex.errors import CardIndexError
from cardindex.meaning.hubs import is_hub
from cardindex.meaning.terms import FORMAT, adopt_irregular, irregular_forms, stem, surface_words, terms
from cardindex.store.card import Card, id_list
from cardindex.store.search_index import Loader, Row, SearchIndex, content_hash
from cardindex.store.vault import Vault, today

BODY_CHARS = 20_000
STATUSES = ("active", "conflict", "stale", "superseded", "archived", "expired", "any")


class Hit(NamedTuple):
    card: Card
    score: float  # 0-100
    field: str  # where the query matched best: title, description, key, tags or body
    status: str  # as `cards list` says it: active, conflict, superseded, archived, expired, ...
    weak: bool = False  # the vault probably does not know what was asked
    conflict_with: tuple[str, ...] = ()  # the other sides, when this card is one side of a conflict
    vault: Path | None = None  # the vault the card is in, when several are searched together


def row_of(card: Card) -> Row:
    """What the index keeps of `card`: its terms per field, its word forms and what the filters read."""
    tags = card.fields.get("tags")
    tag_text = " ".join(str(t) for t in tags) if isinstance(tags, list) else str(tags or "")
    kind = card.type or ""  # a user card is about the user: "what does the user prefer" finds it
    texts = (card.title, card.description, card.key or "", f"{tag_text} {kind}".strip(), card.body[:BODY_CHARS])
    forms = set().union(*(surface_words(t) for t in texts))
    info = {
        "type": card.type, "status": card.status if card.usable else "invalid", "usable": card.usable,
        "expires": card.expires.isoformat() if card.expires else None, "scope": card.scope,
        "conflicts_with": id_list(card.fields.get("conflicts_with")),
        "superseded_by": id_list(card.fields.get("superseded_by")),
        "hub": is_hub(card),  # a list of pointers to other cards states no fact: it ranks below them
    }
    return Row(tuple(" ".join(terms(t)) for t in texts),
               tuple((w, stem(w)) for w in sorted(forms) if len(w) >= 3 and w.isalpha()), info)


def open_index(vault: Vault) -> SearchIndex:
    """The vault's search index, current with what can have changed on disk (`store.search_fresh`)."""
    from cardindex.store.search_fresh import refresh

    index = SearchIndex(vault.state_dir if vault.use_cache else None, FORMAT)
    table = index.noted("irregular")
    if isinstance(table, bytes):  # the forms the index was analysed with, without importing their model
        adopt_irregular(marshal.loads(table))
    refresh(index, vault, read=_reader(vault), load=_loader(vault))
    if table is None:
        index.note("irregular", marshal.dumps(irregular_forms()))
    return index


def _reader(vault: Vault) -> Callable[[str], bytes | None]:
    root = str(vault.root)

    def read(rel: str) -> bytes | None:
        try:
            with open(os.path.join(root, rel), "rb") as fh:
                return fh.read()
        except OSError:
            return None

    return read


def _loader(vault: Vault) -> Loader:
    def load(rels: Sequence[str]) -> Iterator[tuple[str, tuple[bytes, Row]]]:
        """Each card of `rels` with its hash source and row, one at a time: the index takes each as it comes,
        so a first build holds one card and its row at a time, not the whole vault's."""
        if len(rels) < 64:
            for rel in rels:
                try:
                    card = vault.read_card(rel)
                except CardIndexError:  # gone since listed: simply not indexed
                    continue
                yield card.path, (_source(card), row_of(card))
        else:
            for card in vault.each_card(set(rels)):
                yield card.path, (_source(card), row_of(card))

    return load


def _source(card: Card) -> bytes:
    """What a card's content hash is taken of."""
    return card.text.encode("utf-8", "surrogateescape")


def memory_index(cards: Sequence[Card], archive_dir: str) -> SearchIndex:
    """An index of `cards` held in memory (what the vault said at a past date)."""
    index = SearchIndex(None, FORMAT)
    index.fill((c.path, c.path.startswith(archive_dir + "/"), c.text.encode("utf-8", "surrogateescape"), row_of(c))
               for c in cards)
    return index


def _where(card_type: str | None, status: str | None, everything: bool, day: dt.date) -> tuple[str, list[Any]]:
    """The SQL filter on the index's docs for a type and a status as `cards list` names it."""
    clauses, params = ["usable = 1"], []
    if card_type:
        clauses.append("type = ?")
        params.append(card_type)
    live = "status IN ('active', 'conflict')"
    not_expired = "(expires IS NULL OR expires >= ?)"
    if everything or status == "any":
        pass
    elif status is None:
        clauses += ["archived = 0", live, not_expired]
        params.append(day.isoformat())
    elif status == "expired":
        clauses += [live, "expires < ?"]
        params.append(day.isoformat())
    elif status in ("active", "conflict"):
        clauses += ["archived = 0", "status = ?", not_expired]
        params += [status, day.isoformat()]
    else:
        clauses.append("status = ?")
        params.append(status)
    return " AND ".join(clauses), params


def status_of(info: Mapping[str, Any], day: dt.date) -> str:
    status = str(info.get("status") or "active")
    expires = info.get("expires")
    if status in ("active", "conflict") and expires and str(expires) < day.isoformat():
        return "expired"
    return status


def find(
    vault: Vault,
    query: str,
    *,
    card_type: str | None = None,
    scope: str | None = None,
    status: str | None = None,
    everything: bool = False,
    as_of: dt.date | None = None,
    limit: int = 10,
    min_score: float = 0.0,
    hybrid: bool | None = None,
) -> list[Hit]:
    """Ranked hits among the cards that pass the filters, best first (live ones unless `status`/`everything`).

    `hybrid` None: as the vault's `embedding` setting says."""
    day = as_of or today()
    if hybrid is None:
        hybrid = vault.config.embedding is not None
    if hybrid:
        from cardindex.meaning.embedding import check

        check()  # one clear line before any work when the extra is missing
    if as_of is not None:
        from cardindex.lifecycle.asof import cards_at, known_by

        known = {c.path: c for c in cards_at(vault, as_of) if known_by(c, as_of)}
        index = memory_index(list(known.values()), vault.archive_dir)
    else:
        known = {}
        index = open_index(vault)
    try:
        return _find(vault, index, known, query, card_type=card_type, scope=scope, status=status,
                     everything=everything, day=day, limit=limit, min_score=min_score, hybrid=hybrid)
    finally:
        index.close()


def _find(vault: Vault, index: SearchIndex, known: Mapping[str, Card], query: str, *, card_type: str | None,
          scope: str | None, status: str | None, everything: bool, day: dt.date, limit: int, min_score: float,
          hybrid: bool = False) -> list[Hit]:
    where, params = _where(card_type, status, everything, day)
    read: dict[str, Card | None] = {}
    for _attempt in range(3):
        p = ranking.plan(index, query)
        scored = ranking.rank(index, p, where=where, params=params,
                              limit=ranking.CANDIDATES * (10 if scope else 1))
        if scope is not None:
            scored = [s for s in scored if scope_matches(str(s.info.get("scope") or "global"), scope)]
        ordered = _hybrid(vault, index, known, query, scored, p.past) if hybrid else scored
        chosen = [s for s in ordered if s.score >= min_score][:limit]
        if known or not _stale(vault, index, chosen, read):
            break
    if not scored:
        return []
    is_weak = ranking.weak_hits(scored)
    by_path = {s.path: s for s in scored}
    hits: list[Hit] = []
    placed: set[str] = set()
    for s in chosen:
        if s.path in placed:
            continue
        card = read[s.path] if s.path in read else _card(vault, known, s.path)
        if card is None:
            continue
        sides = tuple(i for i in s.info.get("conflicts_with") or () if s.info.get("status") == "conflict")
        group = [Hit(card, s.score, s.field, status_of(s.info, day), is_weak, sides)]
        placed.add(s.path)
        for side in sides:  # every side of a conflict comes back with it, marked
            other = _card(vault, known, side + ".md")
            if other is None or other.path in placed or not other.usable:
                continue
            near = by_path.get(other.path)
            group.append(Hit(other, near.score if near else s.score, near.field if near else s.field,
                             "conflict" if other.status == "conflict" else other.status, is_weak,
                             tuple(id_list(other.fields.get("conflicts_with"))) or (card.id,)))
            placed.add(other.path)
        hits.extend(sorted(group, key=lambda h: conflict_order(h.card)) if len(group) > 1 else group)
    return hits


def _hybrid(vault: Vault, index: SearchIndex, known: Mapping[str, Card], query: str,
            scored: list[ranking.Scored], past: bool) -> list[ranking.Scored]:
    """`scored` reordered by `hybrid.rerank` (a query about the past keeps the ranking's order)."""
    if past or len(scored) < 2:
        return scored
    from cardindex.agents.hybrid import rerank

    cache = vault.state_dir / "cache" if vault.use_cache and not known else None
    return rerank(index, query, scored, lambda path: _card(vault, known, path), cache)


def _stale(vault: Vault, index: SearchIndex, chosen: Sequence[ranking.Scored], read: dict[str, Card | None]) -> bool:
    """Whether a chosen hit's card differs from what the index holds; if so, the index takes it again.

    Every hit is read to be shown, so its bytes are compared with the index's hash: a card
    edited since the index last looked (in place, outside the sweep) is never shown stale.
    """
    paths = [s.path for s in chosen if s.path not in read]
    held = index.hashes(paths)
    stale = []
    for path in paths:
        card = read[path] = _card(vault, {}, path)
        if card is None or content_hash(_source(card)) != held.get(path):
            stale.append(path)
    if not stale:
        return False
    for path in stale:
        read.pop(path, None)
    from cardindex.store.search_fresh import retake

    retake(index, vault, stale, read=_reader(vault), load=_loader(vault))
    return True


def _card(vault: Vault, known: Mapping[str, Card], path: str) -> Card | None:
    if known:
        return known.get(path)
    try:
        return vault.read_card(path)
    except CardIndexError:  # removed since the index was synced
        return None


def relevance(vault: Vault, query: str, cards: Sequence[Card] | None = None) -> dict[str, float]:
    """path -> score (0-100) of every live card matching `query` (of `cards` when given, else the vault's)."""
    day = today()
    index = memory_index(cards, vault.archive_dir) if cards is not None else open_index(vault)
    try:
        where, params = ("usable = 1", []) if cards is not None else _where(None, None, False, day)
        p = ranking.plan(index, query)
        return {s.path: s.score for s in ranking.rank(index, p, where=where, params=params, limit=100_000)}
    finally:
        index.close()


USER_VAULT = "CARDS_USER_VAULT"


def layers(vault: Vault, extra: Sequence[str] = ()) -> list[Vault]:
    """The vaults read together: `vault` (the project's, where writes go), then each of `extra`
    and the user-level vault (`$CARDS_USER_VAULT`, else `user_vault:` in the user's config), each once."""
    from cardindex.errors import UsageError

    out = [vault]
    seen = {vault.real_root}
    named = [*extra, *([os.environ[USER_VAULT]] if os.environ.get(USER_VAULT) else _configured())]
    for name in named:
        root = Path(name).expanduser()
        if not root.is_dir():
            raise UsageError(f"no such vault folder: {name}")
        other = Vault(root, use_cache=vault.use_cache)
        if other.real_root not in seen:
            seen.add(other.real_root)
            out.append(other)
    return out


def _configured() -> list[str]:
    from cardindex.store.trust import user_config_path

    if not user_config_path().exists():  # the common case, without loading the settings reader
        return []
    from cardindex.store.trust import user_config

    configured = user_config().user_vault
    return [str(configured)] if configured is not None else []


def find_layered(vaults: Sequence[Vault], query: str, *, limit: int = 10, **filters: Any) -> list[Hit]:
    """`find` over several vaults at once: the hits of all, best first, each naming its vault.

    Scores are shares of the query (0-100) in every vault, so they compare across vaults;
    the hits are weak when the best of all of them is.
    """
    if len(vaults) == 1:
        return find(vaults[0], query, limit=limit, **filters)
    found = [h._replace(vault=v.root) for v in vaults for h in find(v, query, limit=limit, **filters)]
    found.sort(key=lambda h: -h.score)  # stable: the project vault first among equals
    chosen = found[:limit]
    weak = bool(chosen) and chosen[0].weak
    return [h._replace(weak=weak) for h in chosen]
