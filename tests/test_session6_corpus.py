"""The session look-alike corpus of the sixth pass (tests/session6_corpus): its tuning half stays scored.

`tune/` is the half the session rules were tuned on; `held/` was scored only before and
after (`python bench/eval_lint.py tests/session6_corpus/held`), so it is not asserted here.
Every card is labelled `session` or clean; the session cards are work left mid-way,
counts, branch and PR states, hand-offs and plans told without trigger words, and the
clean ones are checklists, dated decisions, policies "as of" a year, lessons and
first-person preferences.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests import test_session5_corpus

CORPUS = Path(__file__).parent / "session6_corpus"


def test_the_corpus_halves_are_balanced() -> None:
    for half in ("tune", "held"):
        cards = json.loads((CORPUS / half / "labels.json").read_text(encoding="utf-8"))["cards"]
        session = sum("session" in c for c in cards.values())
        assert session >= 20 and len(cards) - session >= 20, half


def test_the_tuning_half_scores(tmp_path: Path, run_cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_session5_corpus, "CORPUS", CORPUS)  # the same scoring, on this corpus
    precision, recall, wrong = test_session5_corpus._scores("tune", tmp_path, run_cli)
    assert precision >= 0.95 and recall >= 0.9, wrong
