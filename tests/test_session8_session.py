"""Session-only notes told by the writer's now (issue 14, eighth pass; meaning/session_now.py).

What the pass models: a span counted from the moment of writing ("restored an hour ago",
"two more days", "ETA: …"), the latest of a repeated act ("Last command: …"), the sitting's
own things ("for this task", "in my terminal", "Open tabs:"), one numbered run of a repeated
act ("Deploy #482 went out at 14:10") and the place reached in a numbered sequence ("Step 4
of 7 is done"); a gloss told of any one of a kind is a definition ("Blocked on: a job's
`blocked_on` field names …"); Czech "rozdělaná práce" and "zbývají" open a snapshot. The
hard negatives use the same surface forms durably. `tests/session8_corpus/tune` is scored
here; `held/` only once, by hand, at the end (see its README).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import session_now, session_words
from tests import test_session5_corpus
from tests.test_lint_rules import lint_json, make_vault

CORPUS = Path(__file__).parent / "session8_corpus"

SESSION = [
    "The cache was flushed twenty minutes ago, so the first page loads are slow.",
    "Estimate for the report rewrite: three more days.",
    "ETA is Thursday for the search fix.",
    "Last run: 41 failures, all in the date parser.",
    "Latest build — green except the lint job.",
    "Using a throwaway database for this task.",
    "The dev server is running in my terminal on :3000.",
    "Open tabs: the queue dashboard and the failing job's log.",
    "Deploy #91 went out after lunch and the alarms stopped.",
    "Build #3307 failed on the arm runner.",
    "Run 2 of 4: p95 at 530 ms.",
    "Part 3 of 5 of the data fix is done.",
    "Trying the old driver to see if the crash goes away.",
    "The demo with the client moved to Thursday afternoon.",
]
DURABLE = [
    "Tokens expire an hour after login; the client refreshes them in the background.",
    "The worker retries for two more minutes before it gives up.",
    "The last step of a release is pushing the tag.",
    "Last-write-wins: the newest edit of a field is kept.",
    "A run of the nightly job takes about forty minutes.",
    "Step 4 of the upgrade guide is the data migration; it can be rerun safely.",
    "Each deploy gets a number; the changelog lists them.",
    "For this kind of task, start from the template in docs/tasks.md.",
    "Blocked on: a job's `blocked_on` field names the job it waits for.",
    "Pending: a payment's state between the checkout and the bank's answer.",
    "Testing a migration to see whether it is reversible is part of the review.",
    "The standup moved to Tuesdays in 2025.",
]


def _judged(text: str) -> session_words.WordHit | None:
    lines = list(enumerate(text.split("\n"), start=1))
    return session_words.temporal(lines) or session_words.narrative(lines)


@pytest.mark.parametrize("sentence", SESSION)
def test_the_writers_now_makes_a_note_session_only(sentence: str) -> None:
    assert _judged(sentence) is not None, sentence


@pytest.mark.parametrize("sentence", DURABLE)
def test_the_same_forms_in_a_rule_or_definition_stay_clean(sentence: str) -> None:
    assert _judged(sentence) is None, (sentence, _judged(sentence))


def test_now_sign_names_the_words_and_why() -> None:
    found = session_now.now_sign("Staging was restored an hour ago.")
    assert found is not None and found[0] == "an hour ago" and "back from the moment" in found[1]
    assert session_now.now_sign("Two years ago we moved to Postgres.") is None  # history, not the sitting
    assert session_now.now_sign("The build is fast.") is None


def test_no_english_word_judges_other_languages() -> None:
    # The same shapes in Korean, Chinese, Japanese and German carry no English word: session_now reads none of them.
    for line in ("배포 #12 완료", "第 3 步完成", "ビルド #44 失敗", "Letzter Lauf: grün"):
        assert session_now.now_sign(line) is None, line


def test_czech_work_in_progress_label(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {
        "prace.md": "---\ndescription: migrace\ntype: project\n---\nRozdělaná práce: import faktur, zbývají tři soubory.\n",
        "pravidlo.md": "---\ndescription: nasazení\ntype: feedback\n---\nNasazení na produkci dělá vždy jen CI.\n",
    })
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert {f["path"] for f in findings} == {"prace.md"}


def test_lint_and_add_judge_the_writers_now_alike(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {
        "eta.md": "---\ndescription: the export rewrite\ntype: project\n---\nETA for the export rewrite: two more days.\n",
        "ttl.md": "---\ndescription: token lifetime\ntype: project\n---\nTokens expire an hour after login.\n",
    })
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert [(f["path"], f["code"]) for f in findings] == [("eta.md", "S101")]
    refused = run_cli("--vault", str(vault), "add", "--description", "seed run", "--type", "project",
                      "Last command: make seed; it stopped at the orders fixture.")
    assert refused.exit_code != 0 and "session" in (refused.stdout + refused.stderr).lower()


def test_the_corpus_halves_are_balanced() -> None:
    for half in ("tune", "held"):
        cards = json.loads((CORPUS / half / "labels.json").read_text(encoding="utf-8"))["cards"]
        session = sum("session" in c for c in cards.values())
        assert session >= 20 and len(cards) - session >= 20, half


def test_the_tuning_half_scores(tmp_path: Path, run_cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(test_session5_corpus, "CORPUS", CORPUS)  # the same scoring, on this corpus
    precision, recall, wrong = test_session5_corpus._scores("tune", tmp_path, run_cli)
    assert precision >= 0.95 and recall >= 0.9, wrong


def test_a_legend_of_states_in_korean_is_no_board(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    legend = ("---\ndescription: 장비 대장\ntype: project\n---\n## 처리상태 (드롭다운)\n"
              "- **지급**: 새 노트북을 인계 완료\n- **반납**: 회수 대기\n- **초기화**: 포맷 완료\n"
              "- 노랑 행: 아직 안 가져간 사람\n")
    board = ("---\ndescription: 장비 교체\ntype: project\n---\n## 교체 작업\n"
             "- 노트북 11대: 인계 완료\n- 회수: 대기 중\n- 포맷: 미완료\n")
    tagged = ("---\ndescription: 서버 설정\ntype: project\n---\n"
              "- 키 위치: HOLIDAY_KEY, (예정)SMS_KEY, NEIS_KEY\n- 공개키: wrangler.toml\n")
    vault = make_vault(tmp_path / "v", {"legend.md": legend, "board.md": board, "tagged.md": tagged})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert {f["path"] for f in findings} == {"board.md"}
