"""The parse cache: what comes out of it equals what parsing gives, and a broken cache is ignored."""

from __future__ import annotations

import datetime as dt
import marshal
import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import same

import cardindex.store.parse_cache
from cardindex.store.parse_cache import ParseCache, digest, read_shard, shard_bytes
from cardindex.store.card import Card, Parsed, decode, parse
from cardindex.store.vault import STATE_DIR, Vault

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
FIXTURE_FILES = sorted(FIXTURES.glob("*/*.md"))



def same_cards(a: list[Card], b: list[Card]) -> bool:
    return len(a) == len(b) and all(
        x.path == y.path
        and x.text == y.text
        and same(dict(x.meta), dict(y.meta))
        and x.body_offset == y.body_offset
        and same(x.problems, y.problems)
        for x, y in zip(a, b, strict=True)
    )


def parsed_of(card: Card) -> Parsed:
    return Parsed(dict(card.meta), card.body_offset, tuple(card.problems))


def lookup(cache: ParseCache, rel: str, st: os.stat_result, key: bytes) -> Card | None:
    """Look a card up by its content hash."""
    return cache.by_content(rel, st, key)


CRAFTED = {
    "datetimes.md": (
        "---\ndescription: x\ntype: user\ncreated: 2026-01-02\nverified: 2026-01-02T10:15:00\n"
        "seen: 2026-01-02 10:15:00.5+01:00\n---\nBody.\n"
    ),
    "nested-dates.md": (
        "---\ndescription: x\ntype: user\nmetadata:\n  modified: 2026-03-15T09:41:07Z\n  day: 2026-03-15\n"
        "  deep: {a: [2026-01-01, {b: 2026-01-02T00:00:00}]}\n"
        "list: [2026-01-01, x, 3, 1.5, true, null]\n---\nBody.\n"
    ),
    "date-keys.md": "---\ndescription: x\ntype: user\nhistory:\n  2026-01-02: moved to Thursday\n  2026-03-01: back\n---\nB.\n",
    "flat-dates.md": "---\ndescription: x\ntype: user\ncreated: 2026-01-01\nexpires: 2027-01-01\n---\nBody.\n",
    "odd-values.md": "---\ndescription: x\ntype: user\nblob: !!binary aGVsbG8=\nbig: 123456789012345678901234567890\n"
    "inf: .inf\npairs: !!pairs [{t: x}]\n---\nBody.\n",
    "warning.md": "---\ndescription: Deploys: only Thursdays\ntype: project\n---\nBody.\n",
    "errors.md": "---\ndescription: ''\ntype: note\nverified: last week\n---\nBody.\n",
}


def all_inputs() -> list[tuple[str, bytes]]:
    inputs = [(f"{p.parent.name}-{p.name}", p.read_bytes()) for p in FIXTURE_FILES]
    inputs += [(name, text.encode()) for name, text in CRAFTED.items()]
    return inputs


INPUTS = all_inputs()


def fresh_card(rel: str, data: bytes) -> Card:
    text, problem = decode(data)
    if text is None:
        assert problem is not None
        return Card(rel, "", {}, 0, (problem,))
    return Card.from_text(rel, text)


@pytest.mark.parametrize(("name", "data"), INPUTS, ids=[name for name, _ in INPUTS])
def test_cache_round_trip_gives_equal_parse(tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    st = path.stat()
    key = digest(data)
    text, problem = decode(data)
    if text is None:
        assert problem is not None
        parsed = Parsed({}, 0, (problem,))
    else:
        parsed = parse(text)

    cache = ParseCache(tmp_path / "state")
    cache.put(name, st, key, text, parsed)
    cache.save()

    again = ParseCache(tmp_path / "state")
    card = lookup(again, name, st, key)
    assert card is not None
    assert card.path == name
    assert card.text == (text or "")
    assert same(parsed_of(card), parsed)
    # Each lookup gives fresh objects: changing one result does not change the next.
    if isinstance(card.meta, dict):
        card.meta.clear()
    second = lookup(again, name, st, key)
    assert second is not None and same(parsed_of(second), parsed)


def test_cache_miss_for_unknown_content(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"x")
    cache = ParseCache(tmp_path / "state")
    assert lookup(cache, "a.md", path.stat(), digest(b"x")) is None


def write_vault(root: Path) -> None:
    """A vault holding every fixture card (good and bad) and the crafted ones, some in folders."""
    root.mkdir()
    for p in FIXTURE_FILES:
        folder = root / ("" if p.parent.name == "good" else "bad")
        folder.mkdir(exist_ok=True)
        shutil.copyfile(p, folder / p.name)
    deep = root / "deep" / "er"
    deep.mkdir(parents=True)
    for name, text in CRAFTED.items():
        if name != "date-keys.md":  # has its own test below: it breaks every vault holding it
            (deep / name).write_bytes(text.encode())


def load(root: Path) -> list[Card]:
    """One run over the vault, with the cache."""
    return Vault(root).cards


def uncached(root: Path) -> list[Card]:
    return Vault(root, use_cache=False).cards


@pytest.fixture
def parse_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every text the vault parses (a cache hit parses nothing)."""
    calls: list[str] = []

    def counting(text: str) -> Parsed:
        calls.append(text)
        return parse(text)

    monkeypatch.setattr("cardindex.store.loading.parse", counting)
    return calls


@pytest.fixture
def trust_stat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the stat check trust files written a moment ago (no 'racily clean' window)."""
    monkeypatch.setattr(cardindex.store.parse_cache, "RACY_NS", 0)


def test_vault_cards_same_with_and_without_cache(tmp_path: Path, parse_calls: list[str]) -> None:
    root = tmp_path / "vault"
    write_vault(root)
    plain = uncached(root)
    texts = sum(1 for c in plain if c.text)
    assert len(plain) == len(FIXTURE_FILES) + len(CRAFTED) - 1
    assert len(parse_calls) == texts
    assert not (root / STATE_DIR).exists()

    parse_calls.clear()
    first = Vault(root).cards  # fills the cache
    assert same_cards(first, plain)
    assert len(parse_calls) == texts
    assert "*" in (root / STATE_DIR / ".gitignore").read_text().splitlines()

    parse_calls.clear()
    second = Vault(root).cards  # read from the cache
    assert parse_calls == []
    assert same_cards(second, plain)


def test_vault_cards_from_stat_cache(
    tmp_path: Path, parse_calls: list[str], monkeypatch: pytest.MonkeyPatch, trust_stat: None
) -> None:
    root = tmp_path / "vault"
    write_vault(root)
    plain = uncached(root)
    load(root)
    hashed: list[bytes] = []

    def counting_digest(data: bytes) -> bytes:
        hashed.append(data)
        return digest(data)

    monkeypatch.setattr("cardindex.store.loading.digest", counting_digest)
    parse_calls.clear()
    assert same_cards(Vault(root).cards, plain)
    assert parse_calls == []
    assert hashed == []  # unchanged stat: not even read


@pytest.mark.parametrize("use_cache", [False, True])
def test_card_with_dates_as_mapping_keys(tmp_path: Path, use_cache: bool) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "history.md").write_text(CRAFTED["date-keys.md"])
    (root / "other.md").write_text("---\ndescription: other\ntype: user\n---\nOther.\n")
    for _ in range(2):
        cards = Vault(root, use_cache=use_cache).cards
        assert [c.path for c in cards] == ["history.md", "other.md"]
        assert cards[0].meta["history"] == {dt.date(2026, 1, 2): "moved to Thursday", dt.date(2026, 3, 1): "back"}
        assert cards[0].usable


@pytest.mark.parametrize("trusted", [False, True], ids=["racy", "stat-trusted"])
@pytest.mark.parametrize("how", ["new-size", "same-size", "same-size-and-mtime"])
def test_editing_one_card_changes_only_that_card(
    tmp_path: Path, parse_calls: list[str], monkeypatch: pytest.MonkeyPatch, how: str, trusted: bool
) -> None:
    if trusted:
        monkeypatch.setattr(cardindex.store.parse_cache, "RACY_NS", 0)
    root = tmp_path / "vault"
    write_vault(root)
    before = Vault(root).cards
    target = root / "full-spec-card.md"
    old = target.read_bytes()
    old_stat = target.stat()
    if how == "new-size":
        new = old.replace(b"verified: 2026-09-14", b"verified: 2026-10-01\nstatus: stale")
    else:
        new = old.replace(b"verified: 2026-09-14", b"verified: 2026-09-15")
    assert new != old
    target.write_bytes(new)
    if how == "same-size-and-mtime":
        os.utime(target, ns=(old_stat.st_atime_ns, old_stat.st_mtime_ns))  # like cp -p or touch -r

    parse_calls.clear()
    after = Vault(root).cards
    assert parse_calls == [new.decode()]
    assert [c.path for c in after] == [c.path for c in before]
    changed = [c.path for c, b in zip(after, before, strict=True) if not same_cards([c], [b])]
    assert changed == ["full-spec-card.md"]
    card = next(c for c in after if c.path == "full-spec-card.md")
    assert card.verified == (dt.date(2026, 10, 1) if how == "new-size" else dt.date(2026, 9, 15))
    assert same_cards(after, uncached(root))


def test_unused_entries_are_dropped_on_save(tmp_path: Path, parse_calls: list[str]) -> None:
    root = tmp_path / "vault"
    root.mkdir()
    texts = {
        "a.md": "---\ndescription: a\ntype: user\n---\nA.\n",
        "b.md": "---\ndescription: b\ntype: user\n---\nB.\n",
    }
    for name, text in texts.items():
        (root / name).write_text(text)
    stats = {name: (root / name).stat() for name in texts}
    load(root)
    state = root / STATE_DIR
    cache = ParseCache(state)
    assert lookup(cache, "a.md", stats["a.md"], digest(texts["a.md"].encode())) is not None
    assert lookup(cache, "b.md", stats["b.md"], digest(texts["b.md"].encode())) is not None

    (root / "b.md").unlink()
    load(root)  # a run that does not see b.md
    cache = ParseCache(state)
    assert lookup(cache, "a.md", stats["a.md"], digest(texts["a.md"].encode())) is not None
    assert lookup(cache, "b.md", stats["b.md"], digest(texts["b.md"].encode())) is None

    # b.md comes back: parsed again, then cached again.
    (root / "b.md").write_text(texts["b.md"])
    parse_calls.clear()
    cards = Vault(root).cards
    assert parse_calls == [texts["b.md"]]
    assert [c.description for c in cards] == ["a", "b"]


def cache_files(root: Path) -> list[Path]:
    """The parse cache's shard files (the cache is a folder of them)."""
    return sorted((root / STATE_DIR / "cache").glob("cards-*/*.marshal"))


def corruptions() -> list[tuple[str, Any]]:
    rng = random.Random(1234)
    out: list[tuple[str, Any]] = [
        ("empty", b""),
        ("random", bytes(rng.randrange(256) for _ in range(4096))),
        ("text", b"not a cache at all\n"),
        ("none", marshal.dumps(None)),
        ("list", marshal.dumps([1, 2, 3])),
        ("dict", marshal.dumps({"a": 1})),
        ("short-tuple", marshal.dumps((1, 2))),
        ("wrong-types", marshal.dumps(("x", [], []))),
        ("bad-records", marshal.dumps((0, {"full-spec-card.md": "x", "a": (1,)}, {b"k": 5}))),
        ("bad-records-as-a-shard", shard_bytes(0, {"full-spec-card.md": "x", "a": (1,)}, {b"k": 5})),  # type: ignore[dict-item]
        ("huge-head", (2**63).to_bytes(8, "little") + marshal.dumps((0, {}))),
        ("head-past-the-end", (10**6).to_bytes(8, "little") + marshal.dumps((0, {}))),
        ("entries-not-a-dict", shard_bytes(0, {}, {})[:-2] + marshal.dumps([1])),
    ]
    for i in range(5):
        out.append((f"random-{i}", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))))
    return out


@pytest.mark.parametrize(("kind", "data"), corruptions(), ids=[k for k, _ in corruptions()])
def test_corrupt_cache_file_is_ignored(tmp_path: Path, kind: str, data: bytes) -> None:
    root = tmp_path / "vault"
    write_vault(root)
    plain = uncached(root)
    load(root)
    for path in cache_files(root):
        path.write_bytes(data)
    assert same_cards(Vault(root).cards, plain)
    assert same_cards(Vault(root).cards, plain)  # and the rewritten cache is good again


def test_truncated_cache_file_is_ignored(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write_vault(root)
    plain = uncached(root)
    load(root)
    for path in cache_files(root):
        whole = path.read_bytes()
        for size in sorted({0, 1, 5, len(whole) // 3, len(whole) // 2, len(whole) - 1}):
            path.write_bytes(whole[:size])
            assert same_cards(Vault(root).cards, plain), size
            path.write_bytes(whole)


def _entry_variants() -> list[tuple[str, bytes]]:
    return [
        ("garbage-bytes", b"\xff\x00garbage"),
        ("not-a-tuple", marshal.dumps(5)),
        ("short-tuple", marshal.dumps(("text", {}))),
        ("missing-date-key", marshal.dumps(("t", {"description": "x"}, ("created",), 0, ()))),
        ("bad-date", marshal.dumps(("t", {"created": "2026-99-99"}, ("created",), 0, ()))),
        ("bad-tag", marshal.dumps(("t", {"created": ("d",)}, None, 0, ()))),
        ("bad-problem", marshal.dumps(("t", {}, (), 0, (("x",),)))),
        ("problems-not-a-list", marshal.dumps(("t", {}, (), 0, 5))),
        ("meta-not-a-mapping", marshal.dumps(("t", ["x"], None, 0, ()))),
        ("offset-not-an-int", marshal.dumps(("t", {"description": "x"}, (), "0", ()))),
    ]


@pytest.mark.parametrize("trusted", [False, True], ids=["by-content", "by-stat"])
@pytest.mark.parametrize(("kind", "entry"), _entry_variants(), ids=[k for k, _ in _entry_variants()])
def test_malformed_cache_entries_are_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, entry: bytes, trusted: bool
) -> None:
    if trusted:
        monkeypatch.setattr(cardindex.store.parse_cache, "RACY_NS", 0)
    root = tmp_path / "vault"
    write_vault(root)
    plain = uncached(root)
    load(root)
    for path in cache_files(root):
        started, files, entries = read_shard(path)
        path.write_bytes(shard_bytes(started, files, {k: entry for k in entries}))
    cards = Vault(root).cards
    assert same_cards(cards, plain)
    for card in cards:  # usable as cards, whatever the cache held
        assert isinstance(card.description, str)
        assert isinstance(card.body, str)


def test_unwritable_state_folder_only_costs_speed(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    write_vault(root)
    (root / STATE_DIR).write_text("a file where the state folder should be")
    assert same_cards(Vault(root).cards, uncached(root))
