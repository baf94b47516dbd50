"""Issue 18: the cold load on two processes, the sharded parse cache, and the watcher's kept cards.

Each speed-up must give exactly the cards a plain parse gives: the forked load against
the serial one (on every fixture card, good and bad, and on generated vaults), the shards
against a fresh read after adds, edits and removals, and a watcher pass that reuses its
cards against a fresh process's `cards index`.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.agents.watch import Watcher
from cardindex.index import build
from cardindex.store import loading, parse_cache
from cardindex.store.card import Card
from cardindex.store.vault import STATE_DIR, Vault

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
TODAY = "2026-11-30"


def plain(root: Path) -> list[Card]:
    return Vault(root, use_cache=False).cards


def same_cards(a: list[Card], b: list[Card]) -> bool:
    return [(c.path, c.text, c.body_offset) for c in a] == [(c.path, c.text, c.body_offset) for c in b] and all(
        same(dict(x.meta), dict(y.meta)) and same(x.problems, y.problems) for x, y in zip(a, b, strict=True))


def shard_files(root: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in (root / STATE_DIR / "cache").glob("cards-*/*.marshal")}


def fixture_vault(root: Path) -> None:
    root.mkdir()
    for p in sorted(FIXTURES.glob("*/*.md")):
        folder = root / p.parent.name
        folder.mkdir(exist_ok=True)
        shutil.copyfile(p, folder / p.name)


def old_enough(root: Path) -> None:
    """Move every card's stat 10 s into the past, then wait out the racy window (the cache trusts the stats)."""
    past = time.time() - 10
    for p in root.rglob("*.md"):
        os.utime(p, (past, past))


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fork from the first file to parse, and count the forks."""
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


# ------------------------------------------------------------------ the forked load


def test_forked_load_gives_the_cards_a_plain_parse_gives(tmp_path: Path, forks: list[int]) -> None:
    root = tmp_path / "v"
    fixture_vault(root)
    cards = Vault(root).cards
    assert forks, "the load did not fork"
    assert same_cards(cards, plain(root))
    assert same_cards(Vault(root).cards, plain(root))  # and what it cached reads back the same


def test_no_fork_below_the_threshold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "v"
    fixture_vault(root)
    monkeypatch.setattr(loading.os, "fork", lambda: pytest.fail("forked for a small vault"))
    assert same_cards(Vault(root).cards, plain(root))


def test_a_failed_fork_parses_in_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "v"
    fixture_vault(root)
    monkeypatch.setattr(loading, "FORK_AT", 1)

    def refuse() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(loading.os, "fork", refuse)
    assert same_cards(Vault(root).cards, plain(root))


def test_a_child_that_dies_costs_only_time(tmp_path: Path, forks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The child cannot hand back (here: pickling fails, so it exits 1): the parent parses its half."""
    root = tmp_path / "v"
    fixture_vault(root)

    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise ValueError("cannot pickle")

    monkeypatch.setattr(loading.pickle, "dumps", broken)
    assert same_cards(Vault(root).cards, plain(root))
    assert forks


def test_no_fork_while_another_thread_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "v"
    fixture_vault(root)
    monkeypatch.setattr(loading, "FORK_AT", 1)
    monkeypatch.setattr(loading.threading, "active_count", lambda: 2)
    monkeypatch.setattr(loading.os, "fork", lambda: pytest.fail("forked beside a thread"))
    assert same_cards(Vault(root).cards, plain(root))


TEXTS = st.lists(
    st.one_of(
        st.builds(lambda d, t, b: f"---\ndescription: {d}\ntype: {t}\n---\n{b}\n",
                  st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30),
                  st.sampled_from(["user", "project", "note"]), st.text(max_size=40)),
        st.text(max_size=60),  # not cards at all: no frontmatter, empty, odd bytes
        st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
    ),
    min_size=1, max_size=12,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=TEXTS)
def test_forked_and_serial_loads_agree(tmp_path_factory: pytest.TempPathFactory, texts: list[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path_factory.mktemp("v")
    for i, text in enumerate(texts):
        (root / f"c{i}.md").write_bytes(text.encode("utf-8", "surrogatepass"))
    serial = plain(root)
    with monkeypatch.context() as m:
        m.setattr(loading, "FORK_AT", 1)
        forked = Vault(root).cards
    assert same_cards(forked, serial)
    assert same_cards(Vault(root).cards, serial)  # from the cache


# ------------------------------------------------------------------ the sharded cache


def test_an_add_rewrites_one_shard_not_the_cache(tmp_path: Path, run_cli: Callable[..., Any],
                                                  make_card: Callable[..., str]) -> None:
    root = tmp_path / "v"
    assert run_cli("init", str(root)).exit_code == 0
    for i in range(300):
        (root / f"fact-{i:03d}.md").write_text(make_card(f"Which region hosts tenant group {i}",
                                                         body=f"Tenant group {i} lives in region r{i % 7}."))
    old_enough(root)
    time.sleep(0.01)
    assert run_cli("--vault", str(root), "index").exit_code == 0
    before = shard_files(root)
    assert len(before) > 32, "the cache is not sharded"
    result = run_cli("--vault", str(root), "add", "Invoices are archived after seven years.", "-d",
                     "How long invoices are kept", "--force")
    assert result.exit_code == 0, result.stderr
    after = shard_files(root)
    rewritten = [name for name in after if after[name] != before.get(name)]
    assert len(rewritten) == 1, rewritten
    assert same_cards(Vault(root).cards, plain(root))


def test_shards_follow_edits_and_removals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          make_card: Callable[..., str]) -> None:
    monkeypatch.setattr(parse_cache, "RACY_NS", 0)  # trust every stat at once
    root = tmp_path / "v"
    root.mkdir()
    for i in range(80):
        (root / f"n{i}.md").write_text(make_card(f"Owner of queue {i}", body=f"Queue {i} belongs to team {i % 5}."))
    assert same_cards(Vault(root).cards, plain(root))
    (root / "n3.md").write_text(make_card("Owner of queue 3", body="Queue 3 moved to team 9."))
    for i in range(10, 80):
        (root / f"n{i}.md").unlink()
    assert same_cards(Vault(root).cards, plain(root))
    assert "team 9" in next(c for c in Vault(root).cards if c.path == "n3.md").text
    assert len(shard_files(root)) <= 10  # the shards only removed cards hashed to are gone


# ------------------------------------------------------------------ the watcher's kept cards


def test_watcher_reuses_unchanged_cards_and_sees_every_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              make_card: Callable[..., str]) -> None:
    import datetime as dt

    root = tmp_path / "v"
    root.mkdir()
    for i in range(40):
        (root / f"k{i}.md").write_text(make_card(f"Retention of log stream {i}", body=f"Stream {i} keeps {i} days.",
                                                 verified=f"2026-0{1 + i % 9}-1{i % 10}"))
    old_enough(root)
    time.sleep(2.1)  # out of the racy window: the stats are trusted
    today = dt.date.fromisoformat(TODAY)
    watcher = Watcher(root)
    _, first, _ = watcher.refresh(today)
    shard_loads: list[Path] = []
    real_init = parse_cache._Shard.__init__

    def counting(self: Any, path: Path, enabled: bool) -> None:
        shard_loads.append(path)
        real_init(self, path, enabled)

    monkeypatch.setattr(parse_cache._Shard, "__init__", counting)
    _, second, change = watcher.refresh(today)
    assert shard_loads == []  # the cache was kept, not read again
    assert [a is b for a, b in zip(first, second, strict=True)] == [True] * 40
    assert not change.changed

    # An edit that keeps the size and the mtime (only the ctime moves) is still seen.
    path = root / "k7.md"
    text = path.read_text()
    st = path.stat()
    path.write_text(text.replace("keeps 7 days", "keeps 9 days"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    _, third, change = watcher.refresh(today)
    assert change.changed == ["k7.md"]
    assert "keeps 9 days" in next(c for c in third if c.path == "k7.md").text
    fresh = build.render(Vault(root, use_cache=False), plain(root), today).text
    assert (root / "INDEX.md").read_text() == fresh


def test_the_first_big_load_freezes_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector leaves the loaded cards be after the first big load, and only then."""
    import gc

    root = tmp_path / "v"
    fixture_vault(root)
    monkeypatch.setattr(loading, "_FROZEN", [])
    monkeypatch.setattr(loading, "FREEZE_AT", 10_000)
    gc.unfreeze()
    try:
        assert Vault(root).cards
        assert gc.get_freeze_count() == 0  # a small load: nothing frozen
        monkeypatch.setattr(loading, "FREEZE_AT", 1)
        assert Vault(root).cards
        frozen = gc.get_freeze_count()
        assert frozen > 0
        assert Vault(root).cards
        assert gc.get_freeze_count() == frozen  # once per process: later loads are collected as usual
    finally:
        gc.unfreeze()
