"""Issue 18, sixth pass: the cold load split by parse-cache shard, and the flat frontmatter read.

A forked cold load now gives the child whole shards of the parse cache: it parses, caches
and writes those shard files itself, and the parent adopts them as saved. These tests hold
that to what a serial load gives: the same cards, a cache from which the next run reads no
file, and a child that fails or hands back nothing leaving a whole, right cache. The flat
read of `key: value` frontmatter (`fastparse._flat`) is held to the line-by-line loop it
stands in for, on generated text in and next to that shape.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.store import fastparse, loading, parse_cache
from cardindex.store.card import Card
from cardindex.store.vault import Vault

TOPICS = ["ledger export", "tenant region", "build cache", "release train", "pager rota", "font licence"]


def write_vault(root: Path, n: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        folder = root / f"area{i % 5}"
        folder.mkdir(exist_ok=True)
        topic = TOPICS[i % len(TOPICS)]
        if i % 17 == 3:
            text = f"---\ndescription: broken {i}\ntype: [\n---\nno closing bracket\n"  # YAML refuses it
        elif i % 11 == 5:
            text = f"no frontmatter at all, card {i}\n"
        else:
            text = (f"---\ndescription: \"The {topic} runs at {i % 24:02d}:00 for group {i}\"\ntype: project\n"
                    f"created: 2025-0{1 + i % 9}-1{i % 10}\ntags: [ops, n{i % 7}]\n---\n"
                    f"Group {i} keeps its {topic} on the {i % 24:02d}:00 slot.\n")
        (folder / f"fact-{i:04d}.md").write_text(text)
    settled(root)


def settled(root: Path) -> None:
    """Every card's stat in the past and its ctime 2 s old: the cache then trusts the stats it records."""
    past = time.time() - 10
    for p in root.rglob("*.md"):
        os.utime(p, (past, past))
    time.sleep(2.1)


def signature(cards: list[Card]) -> list[tuple[Any, ...]]:
    return [(c.path, c.text, c.body_offset, c.problems) for c in cards]


def same_cards(a: list[Card], b: list[Card]) -> bool:
    return signature(a) == signature(b) and all(same(dict(x.meta), dict(y.meta)) for x, y in zip(a, b, strict=True))


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fork for any cold load, and count the forks."""
    calls: list[int] = []
    real = os.fork

    def counting() -> int:
        pid = real()
        if pid:
            calls.append(pid)
        return pid

    monkeypatch.setattr(loading, "FORK_AT", 1)
    monkeypatch.setattr(loading.os, "fork", counting)
    return calls


def no_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> Any:
        raise AssertionError(f"read a file the cache should have held: {args[1]}")

    monkeypatch.setattr(loading, "read_raw", refuse)


def test_a_forked_cold_load_leaves_a_cache_the_next_run_reads_nothing_past(
        tmp_path: Path, forking: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "v"
    write_vault(root, 240)
    serial = Vault(root, use_cache=False).cards
    cold = Vault(root).cards
    assert forking, "the cold load did not fork"
    assert same_cards(cold, serial)
    shards = list((root / ".cardindex" / "cache").glob("cards-*/*.marshal"))
    assert len(shards) == parse_cache.SHARDS  # both sides wrote theirs (240 paths fill all 64)
    with monkeypatch.context() as m:
        no_reads(m)
        assert same_cards(Vault(root).cards, serial)


def test_a_child_that_fails_leaves_the_same_cache(tmp_path: Path, forking: list[int],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The child dies after writing its shards and before handing back: the parent reads its files and writes again."""
    root = tmp_path / "v"
    write_vault(root, 120)
    serial = Vault(root, use_cache=False).cards

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise ValueError("cannot pickle")

    with monkeypatch.context() as m:
        m.setattr(loading.pickle, "dumps", broken)
        assert same_cards(Vault(root).cards, serial)
    assert forking
    with monkeypatch.context() as m:
        no_reads(m)
        assert same_cards(Vault(root).cards, serial)


def test_a_warm_vault_with_many_changes_forks_and_keeps_the_rest(tmp_path: Path, forking: list[int],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Half the cards edited, some removed, some added: a forked load of a half-warm cache drops and keeps right."""
    root = tmp_path / "v"
    write_vault(root, 150)
    assert Vault(root).cards
    cards = sorted(root.rglob("*.md"))
    for p in cards[::2]:
        p.write_text(p.read_text().replace("keeps its", "moved its"))
    for p in cards[1:40:3]:
        p.unlink()
    (root / "area0" / "new-one.md").write_text("---\ndescription: A new fact\ntype: user\n---\nNew.\n")
    settled(root)
    serial = Vault(root, use_cache=False).cards
    forking.clear()
    assert same_cards(Vault(root).cards, serial)
    assert forking
    with monkeypatch.context() as m:
        no_reads(m)
        assert same_cards(Vault(root).cards, serial)


@given(st.lists(st.integers(0, parse_cache.SHARDS - 1), min_size=1, max_size=400))
def test_the_split_gives_the_child_whole_shards_and_about_half(numbers: list[int]) -> None:
    theirs = loading._split(numbers)
    child = sum(1 for n in numbers if n in theirs)
    biggest = max(numbers.count(n) for n in set(numbers))
    assert abs(2 * child - len(numbers)) <= biggest  # greedy by size: off by at most one shard
    assert theirs <= set(numbers)


# --------------------------------------------------------------------------- the flat frontmatter read

KEYS = st.sampled_from(["type", "description", "key", "a_b", "x-1", "Tags", "on", "null", "1st", "bad key", "",
                        "-x", "type "])
VALUES = st.one_of(
    st.sampled_from(["plain words", '"quoted: words"', "'single'", "[a, b]", "[]", "2026-11-30", "2026-02-30",
                     "7", "010", "yes", "a: b", "x #c", "~", "", " ", "  padded  ", "[a, [b]]", '"\\n"', "é漢",
                     "2026-11-30T08:15:00Z", "1.5", "trailing:"]),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
)
LINE = st.one_of(
    st.tuples(KEYS, VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}"),
    st.sampled_from(["", "# a comment", "  indented: x", "- item", "key:", "key:value", "metadata:", "x:\r"]),
)


def loop_only(text: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        m.setattr(fastparse, "_flat", lambda text: None)
        return fastparse.fast_fields(text.splitlines(keepends=True))


@settings(max_examples=800, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(LINE, LINE, st.tuples(KEYS, VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}")),
                      max_size=8),
       newline=st.booleans())
def test_the_flat_read_answers_what_the_loop_answers(lines: list[str], newline: bool,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = "\n".join(lines) + ("\n" if newline and lines else "")
    fast = fastparse.fast_fields(text.splitlines(keepends=True))
    assert same(fast, loop_only(text, monkeypatch)), text


GOOD_KEYS = st.sampled_from(["type", "description", "key", "a_b", "x-1", "Tags", "on", "null", "_x"])
FLAT_TEXT = st.lists(st.tuples(GOOD_KEYS, VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}\n"), min_size=1, max_size=6).map(
    "".join)


@settings(max_examples=800, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=FLAT_TEXT)
def test_the_flat_read_agrees_on_text_in_its_own_shape(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only `key: value` lines, so that most examples are read by `_flat` itself, not handed to the loop."""
    fast = fastparse.fast_fields(text.splitlines(keepends=True))
    assert same(fast, loop_only(text, monkeypatch)), text


def test_the_flat_read_takes_the_common_card_and_leaves_blocks_to_the_loop() -> None:
    flat = "description: \"The export waits for the ledger\"\ntype: project\ncreated: 2025-03-04\ntags: [ops, x]\n"
    assert fastparse._flat(flat) == {"description": "The export waits for the ledger", "type": "project",
                                     "created": __import__("datetime").date(2025, 3, 4), "tags": ["ops", "x"]}
    assert fastparse._flat("description: x\nmetadata:\n  type: user\n") is None
    assert fastparse._flat("description: x\n# note\n") is None
    assert fastparse._flat("type: a\ntype: b\n") == {}
    assert fastparse._flat("type:   padded  \nkey: a b \n") == {"type": "padded", "key": "a b"}


def test_a_handed_back_entry_that_does_not_decode_is_read_again(tmp_path: Path, forking: list[int],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The child hands back its cards as cache entries; one the parent cannot decode costs a read, not a card."""
    root = tmp_path / "v"
    write_vault(root, 90)
    serial = Vault(root, use_cache=False).cards
    asked: list[str] = []

    def undecodable(self: parse_cache.ParseCache, rel: str, entry: bytes) -> Card | None:
        asked.append(rel)
        return None

    monkeypatch.setattr(parse_cache.ParseCache, "card_from", undecodable)
    assert same_cards(Vault(root).cards, serial)
    assert forking
    assert len(asked) > 20  # the child's side came back as entries


# --------------------------------------------------------------------------- the compact stats


def test_the_archive_is_stat_afresh_on_each_load(tmp_path: Path) -> None:
    """Only the live listing's stats are kept: an archived card edited between two loads of one Vault is read again."""
    root = tmp_path / "v"
    (root / "archive").mkdir(parents=True)
    old = root / "archive" / "retired.md"
    old.write_text("---\ndescription: The old export window\ntype: project\n---\nIt ran at 02:00.\n")
    (root / "live.md").write_text("---\ndescription: The export window\ntype: project\n---\nIt runs at 03:00.\n")
    settled(root)
    vault = Vault(root)
    assert vault.cards  # the live stats, kept
    assert "02:00" in vault.archived()[0].text
    old.write_text("---\ndescription: The old export window\ntype: project\n---\nIt ran at 01:30 at first.\n")
    settled(root)
    assert "01:30" in vault.archived()[0].text
    assert "01:30" in Vault(root).archived()[0].text


def test_the_kept_stat_is_the_files_own(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("---\ndescription: x\ntype: user\n---\n")
    from cardindex.store.stats import stat_path

    st, kept = os.stat(path), stat_path(str(path))
    assert (kept.st_mtime_ns, kept.st_ctime_ns, kept.st_size, kept.st_ino) == (
        st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
