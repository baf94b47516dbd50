"""The parse cache finds a card's parse by content in any opened shard, in one look.

A card renamed to a path that hashes to another shard keeps its cached parse (no
re-parse); content that no shard holds is parsed.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pytest

from cardindex.store import loading
from cardindex.store.parse_cache import SHARDS, ParseCache

CARD = "---\ndescription: Which port the staging proxy listens on\ntype: reference\n---\nPort 8443.\n"


def _shard_of(rel: str) -> int:
    return zlib.crc32(rel.encode()) % SHARDS


def _other_shard_name(rel: str) -> str:
    return next(f"moved-{i}.md" for i in range(1000) if _shard_of(f"moved-{i}.md") != _shard_of(rel))


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = loading.parse

    def counting(text: str) -> loading.Parsed:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(loading, "parse", counting)
    return calls


def test_a_renamed_card_is_taken_from_another_shard_unparsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / ".cardindex"
    (tmp_path / "proxy.md").write_text(CARD, encoding="utf-8")
    first = ParseCache(state)
    before = loading.read(str(tmp_path), "proxy.md", os.stat(tmp_path / "proxy.md"), first)
    first.save()
    moved = _other_shard_name("proxy.md")
    os.rename(tmp_path / "proxy.md", tmp_path / moved)
    calls = _count_parses(monkeypatch)
    second = ParseCache(state)
    second.by_stat("proxy.md", os.stat(tmp_path / moved))  # opens the old path's shard, as a vault load does
    after = loading.read(str(tmp_path), moved, os.stat(tmp_path / moved), second)
    assert calls == []
    assert after is not None and before is not None
    assert (after.path, after.meta, after.body) == (moved, before.meta, before.body)


def test_content_no_shard_holds_is_parsed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "proxy.md").write_text(CARD, encoding="utf-8")
    calls = _count_parses(monkeypatch)
    cache = ParseCache(tmp_path / ".cardindex")
    card = loading.read(str(tmp_path), "proxy.md", os.stat(tmp_path / "proxy.md"), cache)
    assert card is not None and card.description == "Which port the staging proxy listens on"
    assert len(calls) == 1
