"""The remembered ranking of an INDEX.md already written, kept afterwards: `cards watch`'s passes.

`build.write` keeps the ranking it rendered from (`ranking_memo`) before it writes INDEX.md,
so the next `cards add` can insert its card instead of ranking the vault again. Keying it
costs a fingerprint of every card (about a quarter of a watch pass at 10k cards), which a
watcher need not pay between a save and the new INDEX.md: it renders with the cards it
loaded (`build.write(cards=...)`, which keeps no ranking) and calls `remember` once the
index is written and the changed cards are linted.

By then a card may have changed again on disk. The fingerprint is taken from the disk
(`ranking_memo.fingerprint`), the ranking from the cards the pass loaded: the ranking is
kept only when every card's content hash in that fingerprint is the hash of the text the
pass loaded, and INDEX.md still holds what the pass wrote. Otherwise nothing is kept, and
the next add renders the whole vault, as it would with no memo.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from cardindex.index import build, ranking_memo
from cardindex.store.card import Card
from cardindex.store.parse_cache import digest
from cardindex.store.vault import Vault


def remember(vault: Vault, today: dt.date, cards: Sequence[Card], written: str) -> bool:
    """Keep the ranking of `cards` (as loaded) for the vault as it is, if it is still that; `written`: the index text
    the pass left. Returns whether it was kept. The caller holds the vault's lock."""
    if not vault.use_cache or any(not c.usable for c in cards):
        return False
    if build.read_index(vault) != written:
        return False
    keys = vault.content_keys(read_at_most=ranking_memo.MAX_READS)
    if keys is None or len(keys) != len(cards):
        return False
    for (rel, key), card in zip(keys, cards, strict=True):  # both sorted by path
        if rel != card.path or digest(card.text.encode("utf-8", "surrogateescape")) != key:
            return False  # changed since the pass loaded it: the next pass keeps the ranking
    fp = ranking_memo.fingerprint(vault)
    if fp is None:
        return False
    rendered, ranked = build.render_ranked(vault, cards, today)
    if rendered.text != written:
        return False
    ranking_memo.put(vault, today, fp, written, build.memo_parts(vault), ranked.plain())
    return True
