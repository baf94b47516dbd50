"""The session look-alike corpus (tests/session5_corpus): its development half stays scored.

`dev/` is the half the session rules were tuned on; `held/` was scored only before and
after the tuning (`python bench/eval_lint.py tests/session5_corpus/held`), so it is not
asserted here. Every card is labelled `session` or clean; a clean card must get no
session finding.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.test_lint_rules import lint_json

CORPUS = Path(__file__).parent / "session5_corpus"


def _scores(half: str, tmp_path: Path, run_cli: Callable[..., Result]) -> tuple[float, float, list[str]]:
    labels = json.loads((CORPUS / half / "labels.json").read_text(encoding="utf-8"))["cards"]
    vault = tmp_path / half
    shutil.copytree(CORPUS / half / "vault", vault)
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    _, findings = lint_json(run_cli, vault, "--select", "session")
    flagged = {f["path"] for f in findings}
    session = {p for p, cats in labels.items() if "session" in cats}
    correct = flagged & session
    wrong = sorted(flagged - session) + [f"missed {p}" for p in sorted(session - flagged)]
    return len(correct) / max(1, len(flagged)), len(correct) / max(1, len(session)), wrong


def test_the_corpus_halves_are_balanced() -> None:
    for half in ("dev", "held"):
        cards = json.loads((CORPUS / half / "labels.json").read_text(encoding="utf-8"))["cards"]
        session = sum("session" in c for c in cards.values())
        assert session >= 20 and len(cards) - session >= 20, half


@pytest.mark.parametrize("half", ["dev"])
def test_the_development_half_scores(half: str, tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    precision, recall, wrong = _scores(half, tmp_path, run_cli)
    assert precision >= 0.95 and recall >= 0.9, wrong
