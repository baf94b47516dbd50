"""The write gate's fast path (postings) against the whole-vault gate on tests/pairs_dev3 (issue 18, sixth pass).

The sixth pass changed what the gate imports and how the synonym tables are read
(`cardindex.lazy`, `store.built`), not how it pairs: every card of the third development
corpus of pairs, taken out and offered again, gets the same verdict from the postings as
from every card loaded, with the synonym tables read from the vault's cache.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardindex.meaning import synonyms
from cardindex.store.card import Card
from cardindex.store.vault import Vault
from tests.test_speed5_gate import both, postings_for_small_vaults  # noqa: F401  (the autouse fixture)

PAIRS_DEV3 = Path(__file__).parent / "pairs_dev3"


def test_pairs_dev3_each_card_offered_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    labels = json.loads((PAIRS_DEV3 / "labels.json").read_text())
    monkeypatch.setenv("CARDS_TODAY", labels["today"])
    root = tmp_path / "vault"
    shutil.copytree(PAIRS_DEV3 / "vault", root)
    (root / ".cardindex" / "cache").mkdir(parents=True, exist_ok=True)
    Vault(root)
    synonyms._tables.cache_clear()
    synonyms._tables()  # built and kept in the vault's cache: the gates below read them from there
    synonyms._tables.cache_clear()
    _ = Vault(root).cards  # the parse cache, as a vault in use has it
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md") if ".cardindex" not in p.parts)
    paths = paths[::4]  # every fourth card in path order, the rest left in the vault: a quarter of the whole walk
    refused = reported = answered = 0
    for rel in paths:
        file = root / rel
        text = file.read_text()
        file.unlink()
        try:
            whole, fast, used = both(root, Card.from_text(rel, text))
            assert fast == whole, rel
        finally:
            file.write_text(text)
        refused += bool(whole[0])
        reported += bool(whole[1])
        answered += used
    assert refused >= 6 and reported >= 10, (refused, reported)  # 8 and 14 of 48 cards on 5dcd20c
    assert answered == len(paths)
    assert (root / ".cardindex" / "cache" / "built-synonyms.marshal").is_file()
