"""A warm search does less than reading the vault (issue 15): what it imports, stats and computes.

- The bounded edit distance that typo correction uses (`meaning.edits`) equals rapidfuzz's
  optimal string alignment wherever it answers, and rapidfuzz is not imported to search.
- The model of statements (`meaning.words`) is not imported on a warm search: the index
  hands over the irregular forms it was analysed with, and they still fold ("sent": "send").
- A search stats at most `SWEEP` cards besides the folders, however large the vault.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from cardindex.agents import search
from cardindex.meaning.edits import osa_within, pieces
from cardindex.store import search_fresh, search_index
from cardindex.store.vault import Vault

LETTERS = st.text(alphabet="abcdr", max_size=12)


@settings(max_examples=400, deadline=None)
@given(LETTERS, LETTERS, st.sampled_from([1, 2]))
def test_bounded_distance_is_rapidfuzz_osa_within_the_bound(a: str, b: str, limit: int) -> None:
    expected = OSA.distance(a, b)
    assert osa_within(a, b, limit) == (expected if expected <= limit else None)


@given(st.text(alphabet="abcdefgh", min_size=5, max_size=14), st.sampled_from([1, 2]))
def test_a_word_one_edit_away_keeps_a_piece(word: str, limit: int) -> None:
    # every kind of edit: a letter dropped, added, changed, two swapped
    edited = [word[1:], word[:2] + "z" + word[2:], word[:-1] + "z", word[1] + word[0] + word[2:]]
    for form in edited:
        assert any(p in form for p in pieces(word, limit))
        assert osa_within(word, form, limit) == OSA.distance(word, form)


def test_typical_typos() -> None:
    assert osa_within("rotaton", "rotation", 1) == 1
    assert osa_within("tabel", "table", 1) == 1  # a swap is one edit
    assert osa_within("kuberntes", "kubernetes", 1) == 1
    assert osa_within("postgers", "postgres", 1) == 1
    assert osa_within("chart", "cart", 1) == 1
    assert osa_within("deploy", "display", 1) is None
    assert osa_within("infrastructre", "infrastructure", 2) == 1
    assert osa_within("abc", "xyz", 2) is None


PROBE = """
import json, sys
from cardindex.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""


def probe(tmp_path: Path, vault: Path, *args: str) -> tuple[int, list[str], str]:
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PYTHONPATH")}
    env["HOME"] = str(tmp_path / "home")
    done = subprocess.run([sys.executable, "-c", PROBE, str(out), "--vault", str(vault), *args], env=env,
                          capture_output=True, text=True, check=False, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    return data["code"], data["modules"], done.stdout


@pytest.fixture
def bakery(tmp_path: Path) -> Path:
    root = tmp_path / "bakery"
    root.mkdir()
    (root / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, desc, body in [
        ("orders.md", "When bread orders are sent to the mill", "Orders are sent to the mill every Friday."),
        ("oven.md", "How the rotation of oven shifts works", "The oven rotation changes every Monday."),
        ("flour.md", "Which flour the sourdough uses", "Rye and spelt, stone-ground."),
    ]:
        (root / name).write_text(f"---\ndescription: {desc}\ntype: project\n---\n{body}\n", encoding="utf-8")
    return root


def test_a_warm_search_imports_neither_rapidfuzz_nor_the_statement_model(tmp_path: Path, bakery: Path) -> None:
    code, modules, _ = probe(tmp_path, bakery, "search", "mill")  # builds the index
    assert code == 0
    # warm, with a typo to correct ("rotaton") and an irregular form to fold ("send" for "sent")
    code, modules, out = probe(tmp_path, bakery, "search", "oven rotaton")
    assert code == 0 and "oven" in out
    assert not [m for m in modules if m.startswith("rapidfuzz")]
    assert "cardindex.meaning.words" not in modules
    code, modules, out = probe(tmp_path, bakery, "search", "when do we send orders")
    assert code == 0 and out.splitlines()[0].split()[1] == "orders"
    assert "cardindex.meaning.words" not in modules


def test_a_search_stats_a_slice_of_a_large_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "big"
    root.mkdir()
    (root / ".cardindex.yaml").write_text("", encoding="utf-8")
    for i in range(40):
        (root / f"c{i:02}.md").write_text(f"---\ndescription: Card {i} about sails\ntype: project\n---\nSail {i}.\n",
                                          encoding="utf-8")
    monkeypatch.setattr(search_index, "RACY_NS", 0)  # the cards just written are trusted by their stat at once
    search.open_index(Vault(root)).close()
    monkeypatch.setattr(search_fresh, "SWEEP", 10)
    stats: list[str] = []
    real = os.stat

    def counting(path: object, *args: object, **kwargs: object) -> os.stat_result:
        stats.append(str(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search_fresh.os, "stat", counting)
    search.open_index(Vault(root)).close()
    cards = [s for s in stats if Path(s).name.startswith("c") and s.endswith(".md")]
    assert 0 < len(cards) <= 10


def test_the_sweep_is_a_slice_not_the_vault() -> None:
    # 1,000 stats cost about 3 ms; a slice of 20,000, as before, was a third of a warm search at 10k cards
    assert 0 < search_fresh.SWEEP <= 1_000
