"""Memory of a load: the parse cache lets go of its entries once saved, a kept cache too (it keeps the cards).

Every card's parse, marshalled, is held in the cache while a load looks cards up and
while the shards are written; after that a one-shot command (`cards index`, `lint`, `add`)
looks nothing up again, and at 100k cards those entries are tens of megabytes that lived
as long as the cards. `cards watch` keeps its cache (`keep_cards`) for its next pass: the
cards themselves, not their entries (read back from a shard's file when a pass asks again).
"""

from __future__ import annotations

from pathlib import Path

from cardindex.store.parse_cache import ParseCache
from cardindex.store.vault import STATE_DIR, Vault


def make_vault(root: Path, n: int) -> Path:
    (root / "birds").mkdir(parents=True)
    for i in range(n):
        (root / f"birds/feeder-{i}.md").write_text(
            f"---\ndescription: Feeder {i} is filled on Mondays\ntype: reference\n---\nFeeder {i} takes sunflower seed.\n")
    return root


def entries(cache: ParseCache) -> int:
    # What the cache holds in memory (`entries` would read a shard's entries back from its file)
    return sum(len(s._entries) for s in cache._shards if s is not None)  # noqa: SLF001 - what the cache holds


def test_a_one_shot_load_lets_go_of_the_entries(tmp_path):
    root = make_vault(tmp_path / "v", 40)
    vault = Vault(root)
    assert len(vault.cards) == 40
    assert vault.parse_cache is not None and entries(vault.parse_cache) == 0
    assert any((root / STATE_DIR / "cache").glob("cards-*/*.marshal"))  # written before they were let go
    again = Vault(root)
    assert [c.text for c in again.cards] == [c.text for c in vault.cards]  # the next process reads them back


def test_a_kept_cache_keeps_the_cards_not_their_entries(tmp_path):
    root = make_vault(tmp_path / "v", 40)
    cache = ParseCache(root / STATE_DIR)
    cache.keep_cards()
    vault = Vault(root, parse_cache=cache)
    assert len(vault.cards) == 40
    assert entries(cache) == 0
    (root / "birds/feeder-3.md").write_text("---\ndescription: Feeder 3 moved\ntype: reference\n---\nMoved.\n")
    second = Vault(root, parse_cache=cache)
    assert [c.text for c in second.cards] == [c.text for c in Vault(root, use_cache=False).cards]
    assert [c.text for c in Vault(root).cards] == [c.text for c in second.cards]  # the shards it wrote read back
