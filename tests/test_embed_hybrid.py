"""The optional embedding (issues 14, 15): `cards search --hybrid` and `embedding:` in .cardindex.yaml.

Without the `[embed]` extra (CI's install) the setting still parses and `--hybrid` fails
with one line; the tests that need the model skip. With it, the embedding may only
reorder what the ranking found: the same hits, the same scores, the same weak mark.

The cards are a bakery's: a baker's leave, a recipe freeze and an oven service, each
"over the holidays", so the ranking ties them and only what they mean tells them apart.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import Invoke, hits, ids, put

from cardindex.meaning import embedding
from cardindex.store.config import load_config


def bakery(root: Path) -> None:
    put(root, "leave.md", "Mira is on leave over the holidays", "She is away from December 23 to January 2.",
        type="user")
    put(root, "freeze.md", "Bread recipes stay frozen over the holidays", "The menu is locked on December 15.")
    put(root, "ovens.md", "The ovens are serviced after the holidays", "The technician comes in early January.")


# ----------------------------------------------------------------------------- without the extra


@pytest.mark.parametrize(("text", "expected"), [
    ("embedding: wordllama\n", "wordllama"),
    ("embedding: off\n", None),
    ("embedding: false\n", None),
    ("index_file: INDEX.md\n", None),
])
def test_the_setting_names_the_model_or_nothing(tmp_path: Path, text: str, expected: str | None) -> None:
    (tmp_path / ".cardindex.yaml").write_text(text, encoding="utf-8")
    assert load_config(tmp_path).embedding == expected


def test_an_unknown_model_is_one_line(invoke: Invoke, vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("embedding: word2vec\n", encoding="utf-8")
    result = invoke("search", "holidays")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == ["error: .cardindex.yaml: 'embedding' must be wordllama (or off)"]


@pytest.fixture
def no_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "PACKAGE", "cardindex_no_such_model")
    embedding._model.cache_clear()


@pytest.mark.parametrize("how", ["flag", "setting"])
def test_hybrid_without_the_extra_says_what_to_install(invoke: Invoke, vault: Path, no_extra: None,
                                                        how: str) -> None:
    bakery(vault)
    if how == "setting":
        (vault / ".cardindex.yaml").write_text("embedding: wordllama\n", encoding="utf-8")
    result = invoke("search", "holidays", *(["--hybrid"] if how == "flag" else []))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: the embedding needs the optional extra: pip install 'cardindex[embed]' (wordllama)"]


def test_no_hybrid_overrides_the_setting(invoke: Invoke, vault: Path, no_extra: None) -> None:
    bakery(vault)
    (vault / ".cardindex.yaml").write_text("embedding: wordllama\n", encoding="utf-8")
    assert ids(invoke, "holidays", "--no-hybrid") == ["freeze", "leave", "ovens"]


def test_default_search_loads_no_model(invoke: Invoke, vault: Path) -> None:
    """The default install stays model-free: a plain search never imports the embedding or numpy."""
    import subprocess
    import sys

    bakery(vault)
    code = ("import sys; from cardindex.cli import main; rc = main(['--vault', sys.argv[1], 'search', 'holidays']);"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'tokenizers', 'safetensors')"
            " or m == 'cardindex.meaning.embedding'))")
    done = subprocess.run([sys.executable, "-c", code, str(vault)], capture_output=True, text=True, check=False)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


# ----------------------------------------------------------------------------- with the model


@pytest.fixture
def model() -> None:
    pytest.importorskip("wordllama")
    pytest.importorskip("numpy")


def test_a_paraphrase_is_nearer_than_another_topic(model: None) -> None:
    vecs = embedding.embed(["staff vacation", "Mira is on leave", "the ovens are serviced", ""])
    assert abs(float(vecs[0] @ vecs[0]) - 1.0) < 1e-5
    assert float(vecs[0] @ vecs[1]) > float(vecs[0] @ vecs[2])
    assert not vecs[3].any()  # an empty text has no direction


def test_hybrid_reorders_a_tie_by_meaning_and_changes_no_score(invoke: Invoke, vault: Path, model: None) -> None:
    bakery(vault)
    plain = hits(invoke, "staff vacation over the holidays")
    mixed = hits(invoke, "staff vacation over the holidays", "--hybrid")
    assert [h["id"] for h in plain] == ["freeze", "leave", "ovens"]  # a tie, broken by path
    assert mixed[0]["id"] == "leave"
    assert {h["id"]: (h["score"], h["weak"]) for h in mixed} == {h["id"]: (h["score"], h["weak"]) for h in plain}


def test_the_setting_turns_hybrid_on(invoke: Invoke, vault: Path, model: None) -> None:
    bakery(vault)
    (vault / ".cardindex.yaml").write_text("embedding: wordllama\n", encoding="utf-8")
    assert ids(invoke, "staff vacation over the holidays")[0] == "leave"


def test_a_clear_winner_keeps_its_place(invoke: Invoke, vault: Path, model: None) -> None:
    bakery(vault)
    put(vault, "proofing.md", "Dough proofs overnight in the walk-in fridge", "Twelve hours at four degrees.")
    assert ids(invoke, "how long does dough proof", "--hybrid")[0] == "proofing"


def test_a_warm_search_embeds_only_the_query(invoke: Invoke, vault: Path, model: None,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    bakery(vault)
    embedded: list[str] = []
    real = embedding.embed

    def counting(texts: list[str]) -> object:
        embedded.extend(texts)
        return real(texts)

    monkeypatch.setattr(embedding, "embed", counting)
    first = ids(invoke, "staff vacation over the holidays", "--hybrid")
    assert len(embedded) == 4  # three cards and the query
    assert (vault / ".cardindex" / "cache" / embedding.CACHE_FILE).is_file()
    embedded.clear()
    assert ids(invoke, "staff vacation over the holidays", "--hybrid") == first
    assert embedded == ["staff vacation over the holidays"]
    put(vault, "leave.md", "Mira is on leave over the holidays", "She is away until January 3.", type="user")
    embedded.clear()
    ids(invoke, "staff vacation over the holidays", "--hybrid")
    assert len(embedded) == 2  # the edited card (a new content hash) and the query


def test_a_torn_cache_is_embedded_again(invoke: Invoke, vault: Path, model: None) -> None:
    bakery(vault)
    first = ids(invoke, "staff vacation over the holidays", "--hybrid")
    (vault / ".cardindex" / "cache" / embedding.CACHE_FILE).write_bytes(b"\x93NUMPY torn")
    assert ids(invoke, "staff vacation over the holidays", "--hybrid") == first
