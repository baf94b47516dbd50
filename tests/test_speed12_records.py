"""Records made in forked children are the records made here (issue 18, twelfth pass).

`meaning/many_records.py` makes the blocking records of thousands of cards in two forked
children (the gate's postings, the watcher before its first save). A record is a function of
the card's text, so the postings, the watcher's remembered records and the pairs must be
exactly those made in one process; a child that fails costs only time.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest

from cardindex.agents.watch import Watcher, lint_cards
from cardindex.lint import gate_postings
from cardindex.meaning import many_records, similarity
from cardindex.meaning.blocking import Plain
from cardindex.store.card import Card
from cardindex.store.vault import Vault

PAIRS_DEV2 = Path(__file__).parent / "pairs_dev2"
TODAY = dt.date(2026, 12, 4)


@pytest.fixture
def vault_root(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    shutil.copytree(PAIRS_DEV2 / "vault", root)
    old = 1_700_000_000  # past the parse cache's racy window: stats are trusted, as in a settled vault
    for path in root.rglob("*.md"):
        os.utime(path, (old, old))
    return root


@pytest.fixture
def fork_for_few(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork for a handful of cards, as for thousands."""
    monkeypatch.setattr(many_records, "FORK_AT", 2)


def usable(root: Path) -> list[Card]:
    return [c for c in Vault(root, use_cache=False).cards if c.usable]


def test_forked_records_are_the_records_made_here(vault_root: Path, fork_for_few: None) -> None:
    cards = usable(vault_root)
    assert len(cards) > 100
    parent = os.getpid()
    made_here: list[str] = []

    def make(card: Card) -> Plain:
        if os.getpid() == parent:
            made_here.append(card.path)
        return similarity.plain_record(card)

    if not many_records.fork_pays():
        pytest.skip("the test is of the forked path: it needs a fork, two cores and no other thread")
    assert many_records.records(cards, make) == [similarity.plain_record(c) for c in cards]
    assert made_here == []  # every record came from a child


def test_a_failing_child_costs_only_time(vault_root: Path, fork_for_few: None) -> None:
    cards = usable(vault_root)
    parent = os.getpid()

    def make(card: Card) -> Plain:
        if os.getpid() != parent:
            raise RuntimeError("a child that fails")
        return similarity.plain_record(card)

    assert many_records.records(cards, make) == [similarity.plain_record(c) for c in cards]


def test_postings_made_in_children_are_those_made_here(vault_root: Path, fork_for_few: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_postings, "MIN_CARDS", 0)
    monkeypatch.setattr(gate_postings, "MAX_LOADS", 1)  # streamed, as at a first add
    monkeypatch.setattr(gate_postings, "CHUNK", 7)  # in chunks, the last one short
    gate_postings._LAST.clear()
    vault = Vault(vault_root)
    found = gate_postings.postings(vault)
    gate_postings._LAST.clear()
    assert found is not None
    keys = dict(Vault(vault_root).content_keys(read_at_most=10_000) or [])
    by_path = {c.path: c for c in Vault(vault_root, use_cache=False).cards}
    assert found.entries == [gate_postings.entry(keys[p], by_path[p]) for p in found.paths]


def test_a_prepared_watcher_pairs_as_one_that_is_not(vault_root: Path, fork_for_few: None) -> None:
    similarity._RECORDS.clear()
    prepared = Watcher(vault_root)
    prepared.prepare(TODAY)
    live = [c for c in Vault(vault_root).cards if c.usable and c.live(TODAY)]
    assert all(c.text in similarity._RECORDS for c in live)
    assert all(similarity._RECORDS[c.text] == similarity.plain_record(c) for c in live)
    fresh, cards, _ = prepared.refresh(TODAY)
    targets = cards[::20]
    with_records = lint_cards(fresh, cards, targets, TODAY)
    similarity._RECORDS.clear()
    fresh, cards, _ = Watcher(vault_root).refresh(TODAY)
    assert lint_cards(fresh, cards, cards[::20], TODAY) == with_records
    assert any(f.code.startswith(("U", "C")) for f in with_records)


def test_preparing_says_one_line_for_a_large_vault(vault_root: Path, fork_for_few: None) -> None:
    heard: list[str] = []
    Watcher(vault_root).prepare(TODAY, heard.append)
    assert len(heard) == 1 and heard[0].startswith("reading ") and "cards for pairing" in heard[0]


def test_a_writer_holding_the_vault_leaves_the_records_to_the_first_save(vault_root: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from cardindex.errors import LockTimeout

    def held(self: Vault) -> None:
        raise LockTimeout("another writer holds the vault")

    similarity._RECORDS.clear()
    monkeypatch.setattr(Vault, "lock", held)
    Watcher(vault_root).prepare(TODAY, lambda line: None)  # no error: preparing is only an optimisation
    assert not similarity._RECORDS
