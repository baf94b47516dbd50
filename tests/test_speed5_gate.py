"""The write gate from the vault's postings gives the verdict of the whole-vault gate (issue 18, fifth pass).

`cards add` pairs its one new card from postings kept by content hash
(`lint/gate_postings.py`) and loads only the cards that can pair. Its verdict (what it
refuses, what it reports) must be exactly what the gate says with every card loaded
(`Gate(vault, fast=False)`): on a development corpus of pairs (each card taken out of the
vault and offered again), on generated vaults, and after the vault changed under the
postings (an edit, a removal, a key given, a card archived, an expiry passed).
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.lint import gate_postings
from cardindex.lint.gate import Gate
from cardindex.meaning.blocking import Counts
from cardindex.store.card import Card
from cardindex.store.vault import Vault

PAIRS_DEV2 = Path(__file__).parent / "pairs_dev2"


@pytest.fixture(autouse=True)
def postings_for_small_vaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """The vaults here are small: keep postings for them too (`MIN_CARDS` is for vaults that load in no time)."""
    monkeypatch.setattr(gate_postings, "MIN_CARDS", 0)


def verdict(root: Path, card: Card, *, fast: bool) -> tuple[Any, ...]:
    gate = Gate(Vault(root), fast=fast)
    refused = gate.review(card)
    return (tuple((f.code, f.line, f.message, f.related, f.severity) for f in refused),
            tuple((f.code, f.line, f.message, f.related) for f in gate.reported))


def both(root: Path, card: Card) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
    """(the whole-vault verdict, the postings' verdict, whether the postings answered)."""
    whole = verdict(root, card, fast=False)
    answered = _answered(root, card)
    gate_postings._LAST.clear()
    return whole, verdict(root, card, fast=True), answered


def _answered(root: Path, card: Card) -> bool:
    """Whether the postings answered for `card` (they are then kept, as `cards add` keeps them)."""
    from cardindex.store.vault import today

    gate_postings._LAST.clear()
    vault = Vault(root)
    answered = gate_postings.focused(vault, card, today()) is not None
    gate_postings.keep(vault)
    return answered


def test_pairs_dev2_each_card_offered_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card of the corpus, taken out and offered to the gate: the same verdict both ways."""
    labels = json.loads((PAIRS_DEV2 / "labels.json").read_text())
    monkeypatch.setenv("CARDS_TODAY", labels["today"])
    root = tmp_path / "vault"
    shutil.copytree(PAIRS_DEV2 / "vault", root)
    Vault(root).cards  # the parse cache, as a vault in use has it
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    paths = paths[::4]  # every fourth card in path order, the rest left in the vault: a quarter of the whole walk
    refused = reported = answered = 0
    for rel in paths:
        file = root / rel
        text = file.read_text()
        file.unlink()
        try:
            card = Card.from_text(rel, text)
            whole, fast, used = both(root, card)
            assert fast == whole, rel
        finally:
            file.write_text(text)
        refused += bool(whole[0])
        reported += bool(whole[1])
        answered += used
        if whole[0] or whole[1]:
            assert labels["cards"][rel], rel  # never a clean card refused or reported
    # The corpus is made of pairs: many cards offered again are refused as duplicates or reported.
    # (dup8: team/junseo_hours.md, a duplicate once reported as a contradiction, is now refused as one.)
    assert refused >= 6 and reported >= 1, (refused, reported)  # 8 and 1 of 45 cards on 5dcd20c
    assert answered == len(paths)  # the postings answered every time (the whole vault was never the fallback)


TOPICS = ["billing", "ledger", "gateway", "spool", "harbor", "quartz", "mosaic", "tundra"]
VERBS = ["rotates", "flushes", "compacts", "mirrors", "archives"]
UNITS = ["hours", "minutes", "days"]


def _fact(topic: int, verb: int, amount: int, unit: int, *, key: bool) -> str:
    name = TOPICS[topic]
    fields = f"key: {name}-{VERBS[verb]}\n" if key else ""
    return (f"---\ndescription: The {name} service {VERBS[verb]} its files every {amount} {UNITS[unit]}\n"
            f"type: project\n{fields}---\nThe {name} service {VERBS[verb]} its files every {amount} "
            f"{UNITS[unit]} on the edge nodes.\n")


facts = st.tuples(st.integers(0, len(TOPICS) - 1), st.integers(0, len(VERBS) - 1), st.integers(1, 9),
                  st.integers(0, len(UNITS) - 1), st.booleans())


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(vault_facts=st.lists(facts, min_size=3, max_size=25), offered=st.lists(facts, min_size=1, max_size=4))
def test_generated_vaults(tmp_path_factory: pytest.TempPathFactory, vault_facts: list[tuple[int, int, int, int, bool]],
                          offered: list[tuple[int, int, int, int, bool]]) -> None:
    """Vaults of one-line facts on a few topics (copies, other values, shared keys): the same verdict both ways."""
    root = tmp_path_factory.mktemp("gen")
    for i, f in enumerate(vault_facts):
        (root / f"c{i:03d}.md").write_text(_fact(*f[:4], key=f[4]))
    (root / "long.md").write_text("---\ndescription: The spool runbook\ntype: reference\n---\n" + "\n".join(
        f"- The spool service {VERBS[i % 5]} its files every {i} hours on node {i}." for i in range(1, 9)) + "\n")
    Vault(root).cards
    for f in offered:
        new = Card.from_text("zz-new.md", _fact(*f[:4], key=f[4]))
        whole, fast, used = both(root, new)
        assert used and fast == whole


def _write(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    (root / rel).write_text(f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    root.mkdir()
    _write(root, "kiln.md", "The kiln fires at 1200 degrees for stoneware",
           "The kiln fires at 1200 degrees for stoneware glazes.")
    _write(root, "clay.md", "Clay is wedged for ten minutes before throwing",
           "Clay is wedged for ten minutes before throwing on the wheel.")
    _write(root, "shelf.md", "Greenware dries on the top shelf for three days",
           "Greenware dries on the top shelf for three days before bisque.")
    Vault(root).cards
    return root


KILN_AGAIN = Card.from_text("kiln-again.md", "---\ndescription: Stoneware is fired at 1200 degrees in the kiln\n"
                            "type: project\n---\nStoneware glazes are fired at 1200 degrees in the kiln.\n")
KILN_OTHER = Card.from_text("kiln-other.md", "---\ndescription: The kiln fires at 1300 degrees for stoneware\n"
                            "type: project\n---\nThe kiln fires at 1300 degrees for stoneware glazes.\n")


def _change(small: Path, change: str) -> None:
    """Change the kiln card of the `small` vault in one of the ways postings must follow."""
    kiln = small / "kiln.md"
    if change == "edit":
        _write(small, "kiln.md", "Raku pieces are pulled from the kiln red hot", "Raku pieces are pulled red hot.")
    elif change == "remove":
        kiln.unlink()
    elif change == "archive":
        kiln.write_text(kiln.read_text().replace("type: project\n", "type: project\nstatus: archived\n"))
    elif change == "expire":
        kiln.write_text(kiln.read_text().replace("type: project\n", "type: project\nexpires: 2026-05-31\n"))
    elif change == "key":
        kiln.write_text(kiln.read_text().replace("type: project\n", "type: project\nkey: kiln-temperature\n"))


@pytest.mark.parametrize("change", ["edit", "remove", "archive", "expire", "key", "nothing"])
def test_postings_follow_the_vault(small: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """Postings kept before a change answer for the vault after it, as the whole-vault gate does."""
    monkeypatch.setenv("CARDS_TODAY", "2026-06-01")
    assert both(small, KILN_AGAIN)[0] == both(small, KILN_AGAIN)[1]  # the postings are kept now
    _change(small, change)
    for card in (KILN_AGAIN, KILN_OTHER, KILN_OTHER._replace(
            text=KILN_OTHER.text.replace("type: project\n", "type: project\nkey: kiln-temperature\n"))):
        card = Card.from_text(card.path, card.text)
        whole, fast, used = both(small, card)
        assert used and fast == whole, change
    whole, _, _ = both(small, KILN_AGAIN)
    assert bool(whole[0]) is (change in ("nothing", "key"))  # the premise: only a live kiln card refuses the copy


def test_the_delta_then_a_new_base(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Changes go to the small delta file until it is full; then the base is written again, and both still answer."""
    monkeypatch.setattr(gate_postings, "MAX_DELTA", 2)
    cache = small / ".cardindex" / "cache"
    assert _answered(small, KILN_AGAIN)
    base = (cache / gate_postings.BASE).read_bytes()
    for n in range(1, 5):
        _write(small, f"extra{n}.md", f"Bisque firing number {n} runs overnight", f"Bisque firing {n} runs overnight.")
        assert _answered(small, KILN_AGAIN)
        if n <= 2:
            assert (cache / gate_postings.BASE).read_bytes() == base
            assert (cache / gate_postings.DELTA).exists()
        # What the base and the delta keep counts every card's words, as counting them again would.
        from cardindex.meaning.blocking import plain
        from cardindex.meaning.similarity import record_of

        counts = gate_postings._read(cache, _stamp())[3]
        assert counts == Counts.of(plain(record_of(c)) for c in Vault(small).cards), n
    assert (cache / gate_postings.BASE).read_bytes() != base  # the delta overflowed: a new generation
    whole, fast, used = both(small, KILN_AGAIN)
    assert used and fast == whole and whole[0]


@pytest.mark.parametrize("damage", [b"", b"not marshal", b"\xe3\x00"])
def test_damaged_postings_are_rebuilt(small: Path, damage: bytes) -> None:
    assert _answered(small, KILN_AGAIN)
    cache = small / ".cardindex" / "cache"
    (cache / gate_postings.BASE).write_bytes(damage)
    (cache / gate_postings.DELTA).write_bytes(damage)
    whole, fast, used = both(small, KILN_AGAIN)
    assert used and fast == whole and whole[0]


def test_a_text_holding_nul_gets_the_whole_vault_verdict(small: Path) -> None:
    """A card whose text holds NUL (once a separator of the postings' joined text) changes nothing."""
    (small / "nul.md").write_text("---\ndescription: A kiln note\ntype: project\n---\nThe kiln\x00fires at 1200 degrees.\n")
    whole, fast, _ = both(small, KILN_AGAIN)
    assert fast == whole


def test_no_cache_no_postings(small: Path) -> None:
    assert gate_postings.postings(Vault(small, use_cache=False)) is None
    gate = Gate(Vault(small, use_cache=False))
    assert gate.review(KILN_AGAIN)


def test_add_through_the_cli_refuses_a_copy_and_keeps_the_postings(
        vault: Path, invoke: Callable[..., Any]) -> None:
    """`cards add` of a copy is refused through the postings; the next add reads the postings it left."""
    first = invoke("add", "The glaze bucket is stirred for two minutes before dipping", "-d", "Stir the glaze bucket")
    assert first.exit_code == 0, first.output
    again = invoke("add", "The glaze bucket is stirred for two minutes before dipping", "-d", "Stir the glaze bucket")
    assert again.exit_code == 1 and "duplicate" in again.output
    assert (vault / ".cardindex" / "cache" / gate_postings.BASE).exists()  # kept by the second add, for the next
    other = invoke("add", "Kiln shelves are washed with alumina once a month", "-d", "Kiln wash on the shelves")
    assert other.exit_code == 0, other.output
    assert sorted(p.name for p in vault.glob("*.md") if p.name != "INDEX.md") == [
        "kiln-wash-on-the-shelves.md", "stir-the-glaze-bucket.md"]


def test_holders_match_the_whole_vault(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDS_TODAY", "2026-06-01")
    for rel, expires in (("kiln.md", ""), ("clay.md", "expires: 2026-05-01\n"), ("shelf.md", "expires: 2026-07-01\n")):
        file = small / rel
        file.write_text(file.read_text().replace("type: project\n", f"type: project\nkey: studio-rule\n{expires}"))
    today = dt.date(2026, 6, 1)
    found = gate_postings.holders(Vault(small), "studio-rule", today)
    assert found is not None
    assert [c.path for c in found] == [c.path for c in Vault(small).cards if c.key == "studio-rule" and c.live(today)]
    assert [c.path for c in found] == ["kiln.md", "shelf.md"]


def test_kept_records_are_what_the_blocks_read_of_each_card(small: Path) -> None:
    """What the postings keep of a card, read back from their file, is its `blocking.Record` as lint computes it."""
    from cardindex.meaning.blocking import plain
    from cardindex.meaning.similarity import record_of

    assert _answered(small, KILN_AGAIN)
    gen, stored, _, counts = gate_postings._read(small / ".cardindex" / "cache", _stamp())
    assert gen is not None
    cards = {c.path: c for c in Vault(small).cards}
    assert set(stored) == set(cards)
    for path, kept in stored.items():
        assert kept[1] == plain(record_of(cards[path])), path
    assert counts == Counts.of(plain(record_of(c)) for c in cards.values())


@pytest.mark.parametrize("change", ["edit", "remove", "archive", "expire", "key", "nothing"])
def test_kept_counts_follow_the_vault(small: Path, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """The word counts kept beside the postings, brought up to date, are those of the cards that can be live now."""
    from cardindex.meaning.blocking import plain
    from cardindex.meaning.similarity import record_of
    from cardindex.store.card import LIVE_STATUSES

    monkeypatch.setenv("CARDS_TODAY", "2026-06-01")
    assert _answered(small, KILN_AGAIN)
    _change(small, change)
    gate_postings._LAST.clear()
    made = gate_postings.postings(Vault(small))
    assert made is not None
    live = [c for c in Vault(small).cards if c.usable and c.status in LIVE_STATUSES]
    assert made.counts == Counts.of(plain(record_of(c)) for c in live)
    partners = made.partners("kiln.md", dt.date(2026, 6, 1))
    today_live = [c for c in live if c.live(dt.date(2026, 6, 1)) and c.path != "kiln.md"]
    assert partners.counts == Counts.of(plain(record_of(c)) for c in today_live)


def _stamp() -> bytes:
    from cardindex.lint.cache import sources_digest

    return sources_digest()


def test_a_refused_add_writes_no_postings_and_an_add_keeps_its_card(vault: Path, invoke: Callable[..., Any]) -> None:
    """Postings are written once a card is: with it, so the next add loads no card to bring them up to date."""
    for n in range(3):
        assert invoke("add", f"Glaze batch {n} is sieved through an 80 mesh screen", "-d", f"Glaze batch {n} sieve").exit_code == 0
    state = sorted((p.relative_to(vault), p.read_bytes()) for p in (vault / ".cardindex").rglob("*") if p.is_file()
                   and p.name != "lock")
    refused = invoke("add", "Currently sieving glaze batch 2, halfway through", "-d", "Sieving now")
    assert refused.exit_code == 1
    assert sorted((p.relative_to(vault), p.read_bytes()) for p in (vault / ".cardindex").rglob("*") if p.is_file()
                  and p.name != "lock") == state
    gate_postings._LAST.clear()
    made = gate_postings.postings(Vault(vault))
    assert made is not None and made.changes == {}  # the last add kept its own card
    assert len(made.paths) == 3


def test_many_changes_load_the_vault_once(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MAX_LOADS` changed cards the postings are made from the whole vault, loaded once: the same verdict."""
    assert _answered(small, KILN_AGAIN)
    monkeypatch.setattr(gate_postings, "MAX_LOADS", 0)
    _write(small, "clay.md", "Clay is wedged for twenty minutes", "Clay is wedged for twenty minutes on plaster.")
    whole, fast, used = both(small, KILN_AGAIN)
    assert used and fast == whole and whole[0]
    gate_postings._LAST.clear()
    made = gate_postings.postings(Vault(small))
    assert made is not None and made.changes == {}  # kept after the whole-vault load, only the edited card new


def test_a_small_vault_keeps_no_postings(small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gate_postings, "MIN_CARDS", 4)
    assert gate_postings.postings(Vault(small)) is None  # three cards: the gate loads them
    assert verdict(small, KILN_AGAIN, fast=True) == verdict(small, KILN_AGAIN, fast=False)
    assert not (small / ".cardindex" / "cache" / gate_postings.BASE).exists()
