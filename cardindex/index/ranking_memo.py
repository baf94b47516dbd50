"""The remembered ranking of INDEX.md (`build.Ranked`, in plain tuples), keyed on a content fingerprint of the vault.

`build.write` keeps it after each render; `index.after_add` reads it before a `cards add`
writes and, when it was kept for exactly the vault as found, inserts the new card into it
instead of ranking every card again. The fingerprint is an order-free sum of one hash per
card (path and content hash), so the vault after adding one card is the old sum plus one
term: the add can key the ranking it leaves behind without listing the vault again, and a
card written a moment ago (whose stat the parse cache cannot vouch for yet) is read, not
a reason to miss.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from cardindex.index.takeover import stamp
from cardindex.index.withhold import _detector_stamp
from cardindex.store.remembered import Memo, digest
from cardindex.store.vault import Vault

MEMO = "ranking.marshal"
MAX_READS = 256  # files whose stat the parse cache cannot vouch for, read to fingerprint the vault; past it, no memo
_MOD = 1 << 128


def term(rel: str, content_key: bytes) -> int:
    """One card's part of the fingerprint."""
    h = hashlib.blake2b(rel.encode("utf-8", "surrogateescape") + b"\0" + content_key, digest_size=16)
    return int.from_bytes(h.digest(), "big")


# path -> (content hash, its term): `cards watch` fingerprints the vault on every pass, and
# nearly every card is what it was the pass before. Only for a vault whose parse cache is kept
# between runs (`ParseCache.keeps_cards`): a one-shot command fingerprints once.
_TERMS: dict[str, tuple[bytes, int]] = {}
_TERMS_MAX = 200_000


def fingerprint(vault: Vault) -> int | None:
    """The sum of every card's `term`, or None when the cache is off or too many files would have to be read."""
    keys = vault.content_keys(read_at_most=MAX_READS)
    if keys is None:
        return None
    cache = vault.parse_cache
    if cache is None or not cache.keeps_cards:
        return sum(term(rel, key) for rel, key in keys) % _MOD
    if len(_TERMS) >= _TERMS_MAX:
        _TERMS.clear()
    total = 0
    terms = _TERMS
    for rel, key in keys:
        found = terms.get(rel)
        if found is None or found[0] != key:
            found = terms[rel] = (key, term(rel, key))
        total += found[1]
    return total % _MOD


def plus(fp: int, rel: str, content_key: bytes) -> int:
    """The fingerprint of the vault `fp` with one more card."""
    return (fp + term(rel, content_key)) % _MOD


def _memo(vault: Vault, today: dt.date, fp: int, text: str | None, parts: tuple[object, ...]) -> Memo:
    """`parts`: what else the index text depends on (the template's stamp, the header), from `build`."""
    key = digest("ranking", fp, today.isoformat(), vault.config, vault.index_name, parts, text, stamp(vault, text),
                 _detector_stamp())
    return Memo(vault.state_dir / "cache" / MEMO, key)


def put(vault: Vault, today: dt.date, fp: int, text: str, parts: tuple[object, ...], value: Any) -> None:
    if vault.use_cache:
        _memo(vault, today, fp, text, parts).put(value)


def get(vault: Vault, today: dt.date, fp: int, text: str | None, parts: tuple[object, ...]) -> Any:
    return _memo(vault, today, fp, text, parts).get()
