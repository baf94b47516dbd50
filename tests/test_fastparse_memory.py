"""Cards share their field names: 100k cards hold one `description` string, not 100k of them.

Field names the fast path reads are interned, so they are shared by every card of a
cold load and, through marshal (which keeps interned strings interned), of a warm one.
"""

from __future__ import annotations

import os
from pathlib import Path

from cardindex.store import loading
from cardindex.store.card import parse
from cardindex.store.parse_cache import ParseCache, digest

FLAT = "---\ndescription: {d}\ntype: project\nverified: 2026-10-01\n---\nBody {d}.\n"
NESTED = "---\nname: {d}\ndescription: {d}\nmetadata:\n  type: feedback\n  node_type: memory\n---\nBody.\n"


def _keys(meta: dict[str, object]) -> list[str]:
    inner = meta.get("metadata")
    return [*meta, *(inner if isinstance(inner, dict) else ())]


def test_two_parsed_cards_share_their_field_names() -> None:
    for form in (FLAT, NESTED):
        a = parse(form.format(d="Which queue holds retries"))
        b = parse(form.format(d="Which region hosts backups"))
        assert _keys(a.meta) == _keys(b.meta)
        assert all(x is y for x, y in zip(_keys(a.meta), _keys(b.meta), strict=True))


def test_cards_read_back_from_the_cache_share_their_field_names(tmp_path: Path) -> None:
    for name, d in (("retries.md", "Which queue holds retries"), ("backups.md", "Which region hosts backups")):
        (tmp_path / name).write_text(FLAT.format(d=d), encoding="utf-8")
    state = tmp_path / ".cardindex"
    first = ParseCache(state)
    for name in ("retries.md", "backups.md"):
        loading.read(str(tmp_path), name, os.stat(tmp_path / name), first)
    first.save()
    second = ParseCache(state)
    cards = [second._get(name, second._shard(name).entries.get(digest((tmp_path / name).read_bytes())))
             for name in ("retries.md", "backups.md")]
    assert all(card is not None for card in cards)
    a, b = (list(card.meta) for card in cards if card is not None)
    assert a == b and all(x is y for x, y in zip(a, b, strict=True))
