"""Peak memory of a load (issue 18): what a run holds per card while it loads them all.

- A one-shot load drops each parse cache entry once it has decoded it (the card holds what
  it said); a shard that must be rewritten afterwards reads the dropped entries back from
  its file, so the next run still takes every unchanged card from the cache.
- Short repeated values (a type, a scope, a tag) and dates come out of the cache as one
  shared object each, not one per card.
- The listing keeps a small `Listed` per file, not its `os.DirEntry`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import cardindex.store.parse_cache as parse_cache
from cardindex.store.parse_cache import ParseCache
from cardindex.store.vault import STATE_DIR, Listed, Vault

CARD = ("---\ndescription: Hive {i} is inspected every {day}\ntype: reference\nscope: \"project:apiary\"\n"
        "created: 2026-04-01\nverified: 2026-05-0{v}\ntags: [bees, inspection]\n---\nHive {i} sits by the {spot}.\n")
DAYS = ["Monday", "Tuesday", "Friday"]


def make_vault(root: Path, n: int) -> Path:
    (root / "hives").mkdir(parents=True)
    (root / ".cardindex.yaml").write_text("")
    for i in range(n):
        (root / f"hives/hive-{i:03d}.md").write_text(
            CARD.format(i=i, day=DAYS[i % 3], v=1 + i % 2, spot="hedge" if i % 2 else "orchard wall"))
    return root


def held(cache: ParseCache) -> int:
    return sum(len(s._entries) for s in cache._shards if s is not None)  # noqa: SLF001 - held, not read on demand


def plain(root: Path) -> list[tuple[str, str, dict[str, object], int]]:
    return [(c.path, c.text, dict(c.meta), c.body_offset) for c in Vault(root, use_cache=False).cards]


def test_a_warm_load_holds_no_entry_once_it_has_decoded_it(tmp_path: Path, trusted: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", 60)
    assert len(Vault(root).cards) == 60  # fills the cache
    seen: list[int] = []
    real_save = ParseCache.save

    def save(self: ParseCache) -> None:  # how many entries the run still holds when it saves
        seen.append(held(self))
        real_save(self)

    monkeypatch.setattr(ParseCache, "save", save)
    vault = Vault(root)
    cards = vault.cards
    assert seen == [0]  # every card came by stat, and each entry went once decoded
    assert [(c.path, c.text, dict(c.meta), c.body_offset) for c in cards] == plain(root)


def test_a_shard_rewritten_after_a_warm_load_keeps_its_other_cards(tmp_path: Path, trusted: None,
                                                                   parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", 60)
    Vault(root).cards
    target = root / "hives/hive-007.md"
    target.write_text(target.read_text().replace("every Tuesday", "every Sunday"))
    parses.clear()
    Vault(root).cards  # the others by stat (entries dropped), this one parsed; its shard is rewritten
    assert len(parses) == 1
    parses.clear()
    again = Vault(root).cards
    assert parses == []  # the rewritten shard still holds the entries the last run had dropped
    assert [(c.path, c.text, dict(c.meta), c.body_offset) for c in again] == plain(root)
    assert next(c for c in again if c.path == "hives/hive-007.md").description == "Hive 7 is inspected every Sunday"


def test_an_entry_gone_from_the_shard_file_is_parsed_again_not_lost(tmp_path: Path, trusted: None,
                                                                    parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", 30)
    Vault(root).cards
    vault = Vault(root)
    vault.cards  # noqa: B018 - loads: every entry dropped once decoded
    cache = vault.parse_cache
    assert cache is not None
    for shard_file in (root / STATE_DIR / "cache").glob("cards-*/*.marshal"):
        shard_file.write_bytes(b"")  # another process broke the files meanwhile
    shard = cache._shard("hives/hive-003.md")  # noqa: SLF001
    shard.dirty = True
    shard.seen = dict(shard.files)
    cache.save()  # cannot take the entries back: forgets those paths rather than writing records without entries
    parses.clear()
    cards = Vault(root).cards
    assert len(parses) == 30
    assert [(c.path, c.text, dict(c.meta), c.body_offset) for c in cards] == plain(root)


def test_cards_from_the_cache_share_short_values_and_dates(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", 12)
    Vault(root).cards
    cards = Vault(root).cards  # from the cache
    first, second = cards[0], cards[2]
    for field in ("type", "scope", "created"):
        assert first.meta[field] == second.meta[field]
        assert first.meta[field] is second.meta[field]
    assert all(a is b for a, b in zip(first.meta["tags"], second.meta["tags"], strict=True))
    assert first.meta["tags"] is not second.meta["tags"]  # lists stay each card's own
    assert first.meta["description"] is not second.meta["description"]
    assert [(c.path, c.text, dict(c.meta), c.body_offset) for c in cards] == plain(root)


def test_long_values_are_not_interned() -> None:
    long = "x" * (parse_cache.SHARE_MAX + 1)
    meta, _ = parse_cache._encode_meta({"description": long, "type": "user"})  # noqa: SLF001
    assert meta["description"] == long and meta["type"] == "user"
    import sys

    assert sys.intern(meta["type"]) is meta["type"]
    fresh = "".join(["x"] * (parse_cache.SHARE_MAX + 1))
    assert meta["description"] is long and fresh is not long  # left as it was, not put in the intern table


def test_an_older_format_cache_is_left_alone_and_rebuilt(tmp_path: Path, parses: list[str]) -> None:
    root = make_vault(tmp_path / "v", 10)
    old = root / STATE_DIR / "cache" / f"cards-{parse_cache.__version__}-{parse_cache.FORMAT - 1}"
    old.mkdir(parents=True)
    (old / "00.marshal").write_bytes(b"\x00not a shard of this format")
    cards = Vault(root).cards
    assert len(parses) == 10
    assert [(c.path, c.text, dict(c.meta), c.body_offset) for c in cards] == plain(root)


def test_listed_answers_as_the_directory_entry(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "v", 3)
    (root / "linked").symlink_to(root / "hives")
    vault = Vault(root)
    listing = vault.listing()
    assert [rel for rel, _ in listing] == ["hives/hive-000.md", "hives/hive-001.md", "hives/hive-002.md"]
    for rel, listed in listing:
        assert isinstance(listed, Listed)
        assert listed.path == os.path.join(str(root), rel)
        assert listed.stat() == os.stat(os.path.join(str(root), rel))


def test_a_card_through_a_linked_folder_is_listed_by_its_link(tmp_path: Path) -> None:
    root = tmp_path / "v"
    root.mkdir()
    (root / ".cardindex.yaml").write_text("")
    shelf = root / "archive" / "shelf"  # never listed as a live card itself
    shelf.mkdir(parents=True)
    (shelf / "jar.md").write_text("---\ndescription: The honey jar is on the top shelf\ntype: reference\n---\nJar.\n")
    (root / "pantry").symlink_to(shelf)
    vault = Vault(root)
    paths = {rel: listed.path for rel, listed in vault.listing()}
    assert paths == {"pantry/jar.md": os.path.join(str(root), "pantry", "jar.md")}
    assert [c.description for c in vault.cards] == ["The honey jar is on the top shelf"]


def test_cli_index_and_lint_are_the_same_from_a_warm_cache(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    root = make_vault(tmp_path / "v", 40)
    assert run_cli("--vault", str(root), "--no-cache", "index").exit_code == 0
    index = (root / "INDEX.md").read_text()
    cold = run_cli("--vault", str(root), "--no-cache", "lint", "--exit-zero", "--format", "json").output
    for _ in range(2):  # the first run fills the cache, the second reads every card back from it
        (root / "INDEX.md").unlink()
        assert run_cli("--vault", str(root), "index").exit_code == 0
        assert (root / "INDEX.md").read_text() == index
        assert run_cli("--vault", str(root), "lint", "--exit-zero", "--format", "json").output == cold
