"""A question, or the answer it heads, tells how things are in general: not where a sitting's work stands.

"Why we have not moved the ledger to Python 3.13: …" and "What turns the bundle check
red" name a state of work ("have not moved", "red") inside a why/what clause that asks or
explains; a card of that shape is a durable reason. The same words stated as the writer's
position ("Haven't moved the ledger yet", "PR 88 is red") stay session-only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.session_work import work_note

DURABLE = [
    "Why we haven't moved the ledger service to Python 3.13: its numpy pin has no wheel for it yet upstream.",
    "What turns the bundle-size check in CI red: the gzipped vendor chunk growing past 300 kB.",
    "How the nightly export isn't lost when a node dies: each shard is written to object storage first.",
    "When the staging branch isn't rebased, the deploy job refuses it and says which commit is missing.",
]
SESSION = [
    "Haven't moved the ledger service to Python 3.13 yet; stopped at the numpy pin.",
    "PR 88 is red on the bundle-size check.",
]


@pytest.mark.parametrize("sentence", DURABLE)
def test_a_question_or_its_answer_is_no_work_note(sentence: str) -> None:
    assert work_note(sentence) is None


@pytest.mark.parametrize("sentence", SESSION)
def test_the_same_words_as_the_writers_position_are(sentence: str) -> None:
    assert work_note(sentence) is not None


def _session_findings(invoke: Callable[..., Result]) -> set[str]:
    done = invoke("lint", "--format", "json")
    return {f["path"] for f in json.loads(done.stdout) if f["category"] == "session"}


def test_lint_reports_the_position_and_not_the_reason(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / "ledger-python.md").write_text(
        f"---\ndescription: Why the ledger stays on Python 3.12\ntype: project\n---\n{DURABLE[0]}\n", encoding="utf-8")
    (vault / "ledger-upgrade-status.md").write_text(
        f"---\ndescription: Where the ledger upgrade stopped\ntype: project\n---\n{SESSION[0]}\n", encoding="utf-8")
    assert _session_findings(invoke) == {"ledger-upgrade-status.md"}
