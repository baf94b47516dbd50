"""Peak memory at 100k cards (issue 18): the commands that read every card once stream them.

- A first `cards search` builds its index from each card as the parse cache gives it, one at
  a time (`Vault.each_card`), instead of loading the vault and analysing every card before
  the first insert. The rows wait in a temporary table and go into the index in the listing's
  order, so ids (ranking's tie-break, the sweep's order) are what one insert after another gave.
- The write gate's postings, made from many changed cards (a first `cards add`), keep each
  card's entry, not the card: the vault is not loaded, and the gate pairs from the postings.

The vault here is a beekeepers' club's memory, of a shape no corpus has.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.agents import search
from cardindex.lint import gate_postings
from cardindex.store import parse_cache
from cardindex.store.vault import STATE_DIR, Vault

CARD = ("---\ndescription: Hive {i} is inspected every {day}\ntype: reference\n"
        "created: 2026-04-01\ntags: [bees]\n---\nHive {i} stands by the {spot}; its queen is marked {colour}.\n")
DAYS = ["Monday", "Wednesday", "Saturday"]
SPOTS = ["hedge", "orchard wall", "pond", "shed"]
COLOURS = ["white", "yellow", "red", "green", "blue"]


def make_vault(root: Path, n: int, archived: int = 0) -> Path:
    for folder in ("hives", "apiary/north", "archive"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text("")
    for i in range(n):
        folder = "hives" if i % 3 else "apiary/north"
        (root / f"{folder}/hive-{i:03d}.md").write_text(
            CARD.format(i=i, day=DAYS[i % 3], spot=SPOTS[i % 4], colour=COLOURS[i % 5]))
    for i in range(archived):
        (root / f"archive/old-hive-{i:02d}.md").write_text(
            CARD.format(i=100 + i, day="Sunday", spot="old barn", colour="white"))
    return root




def shown(cards: object) -> list[tuple[str, str, int]]:
    return sorted((c.path, c.text, c.body_offset) for c in cards)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Vault.each_card


def test_each_card_gives_every_card_once_and_holds_none(tmp_path: Path, trusted: None) -> None:
    root = make_vault(tmp_path / "v", 90, archived=5)
    loaded = Vault(root, use_cache=False)
    expected = shown([*loaded.cards, *loaded.archived()])
    vault = Vault(root)
    assert shown(vault.each_card()) == expected  # cold: parsed
    assert not vault.cards_loaded
    assert shown(Vault(root).each_card()) == expected  # from the parse cache


def test_each_card_saves_the_cache_a_full_load_would(tmp_path: Path, trusted: None, parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", 70, archived=3)
    list(Vault(root).each_card())
    parses.clear()
    vault = Vault(root)
    vault.cards  # noqa: B018 - every live card by stat
    vault.archived()
    assert parses == []


def test_each_card_of_some_keeps_the_others_cached_undecoded(tmp_path: Path, trusted: None, parses: list[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", 70)
    Vault(root).cards  # noqa: B018 - the parse cache
    decoded: list[str] = []
    real = parse_cache.ParseCache._get

    def counting(rel: str, entry: bytes | None):  # type: ignore[no-untyped-def]
        decoded.append(rel)
        return real(rel, entry)

    monkeypatch.setattr(parse_cache.ParseCache, "_get", staticmethod(counting))
    wanted = {"hives/hive-001.md", "apiary/north/hive-003.md"}
    assert sorted(c.path for c in Vault(root).each_card(wanted)) == sorted(wanted)
    assert sorted(decoded) == sorted(wanted)  # the others were only counted as seen
    parses.clear()
    assert len(Vault(root).cards) == 70
    assert parses == []  # and stay in the cache: none is parsed again


def test_each_card_stopped_early_saves_nothing(tmp_path: Path, trusted: None, parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", 40)
    Vault(root).cards  # noqa: B018 - the parse cache
    target = root / "hives/hive-002.md"
    target.write_text(target.read_text().replace("stands by", "stood by"))
    cards = Vault(root).each_card()
    next(cards)
    cards.close()
    parses.clear()
    assert len(Vault(root).cards) == 40
    assert len(parses) == 1  # the edited card, parsed now: the early stop wrote no cache without it


# ---------------------------------------------------------------- the search index


def docs_by_id(root: Path) -> list[str]:
    db = sqlite3.connect(root / STATE_DIR / "cache" / "search.sqlite")
    try:
        return [p for (p,) in db.execute("SELECT path FROM docs ORDER BY id")]
    finally:
        db.close()


def test_a_first_search_index_does_not_load_the_vault(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", 80, archived=4)
    vault = Vault(root)
    index = search.open_index(vault)
    try:
        assert index.last is not None and index.last.analysed == 84
    finally:
        index.close()
    assert not vault.cards_loaded  # each card analysed as it came, none kept


def test_a_first_search_gives_ids_in_listing_order_and_the_same_hits(tmp_path: Path,
                                                                      run_cli: Callable[..., Result]) -> None:
    root = make_vault(tmp_path / "v", 80, archived=4)
    first = run_cli("--vault", str(root), "search", "queen marked yellow", "--format", "json")
    assert first.exit_code == 0, first.output
    ids = docs_by_id(root)
    from cardindex.store.search_fresh import Walker

    listed = [e[0] for e in Walker(Vault(root)).walk().cards]
    assert ids == listed  # as inserted one after another in the listing's order
    # Built again, every card now from the parse cache (another order of arrival): the same ids, the same hits.
    (root / STATE_DIR / "cache" / "search.sqlite").unlink()
    again = run_cli("--vault", str(root), "search", "queen marked yellow", "--format", "json")
    assert again.output == first.output
    assert docs_by_id(root) == ids


def test_many_edited_cards_are_analysed_again_in_bulk(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = make_vault(tmp_path / "v", 90)
    assert run_cli("--vault", str(root), "search", "pond").exit_code == 0
    for i in range(90):  # every card changed: a bulk re-analysis in an index that holds them all
        file = next(root.glob(f"*/**/hive-{i:03d}.md"))
        file.write_text(file.read_text().replace("inspected", "checked"))
    out = run_cli("--vault", str(root), "search", "checked every Saturday", "--format", "json")
    assert out.exit_code == 0 and "is checked every Saturday" in out.output
    assert sorted(docs_by_id(root)) == sorted(c.path for c in Vault(root, use_cache=False).cards)
    db = sqlite3.connect(root / STATE_DIR / "cache" / "search.sqlite")
    try:
        assert db.execute("SELECT count(*) FROM terms WHERE terms MATCH 'inspect'").fetchone()[0] == 0
        assert db.execute("SELECT count(*) FROM terms").fetchone()[0] == 90
        docs = [i for (i,) in db.execute("SELECT id FROM docs ORDER BY id")]
        assert [i for (i,) in db.execute("SELECT rowid FROM terms ORDER BY rowid")] == docs  # each row its terms
    finally:
        db.close()


# ---------------------------------------------------------------- the write gate's postings


def test_postings_made_from_many_cards_do_not_load_the_vault(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_postings, "MIN_CARDS", 0)
    monkeypatch.setattr(gate_postings, "MAX_LOADS", 10)
    root = make_vault(tmp_path / "v", 60)
    Vault(root).cards  # noqa: B018 - the parse cache, as a vault in use has it
    gate_postings._LAST.clear()
    vault = Vault(root)
    made = gate_postings.postings(vault)
    assert made is not None and len(made.paths) == 60
    assert not vault.cards_loaded
    whole = {c.path: gate_postings.entry(k, c) for c, (_, k) in
             zip(Vault(root).cards, Vault(root).content_keys(read_at_most=100) or [], strict=True)}
    assert dict(zip(made.paths, made.entries, strict=True)) == whole
    gate_postings._LAST.clear()


def test_a_first_add_is_judged_as_before(tmp_path: Path, run_cli: Callable[..., Result],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate of a first add (no postings kept yet) refuses a copy and lets a new fact in."""
    monkeypatch.setattr(gate_postings, "MIN_CARDS", 0)
    monkeypatch.setattr(gate_postings, "MAX_LOADS", 10)
    root = make_vault(tmp_path / "v", 60)
    assert run_cli("--vault", str(root), "index").exit_code == 0
    copy = run_cli("--vault", str(root), "add", "Hive 7 stands by the pond; its queen is marked red.",
                   "-d", "Hive 7 is inspected every Wednesday")
    assert copy.exit_code != 0 and "hive-007" in copy.output
    gate_postings._LAST.clear()
    new = run_cli("--vault", str(root), "add", "The club's honey extractor is kept in the village hall.",
                  "-d", "Where the honey extractor is kept")
    assert new.exit_code == 0, new.output
    assert (root / STATE_DIR / "cache" / gate_postings.BASE).exists()
