"""Session-only from the shape of the text (issue 14, class 6): periods named from the writer's moment, lists headed by their state.

"Plan for this week: …", "Going to finish the import this afternoon" name a period from
the moment of writing: a plan or a report of that period. A label such as "Remaining
work:" or "Pending improvements (owner to decide):" heads a list of pieces of work by
their state, and every item under it is one. The hard negatives use the same words in
durable sentences: a rule with "never", a general condition, a class of items
("Pending orders:"), criteria ("Done criteria:"), a list that shows steps of a product.
Domains: a pottery studio's kiln logs, an observatory's scheduler, a bakery's orders.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import session_shape
from tests.test_lint_rules import lint_json, make_vault


def _card(description: str, body: str, type_: str = "project") -> str:
    return f"---\ndescription: {description}\ntype: {type_}\n---\n{body}\n"


POSITIVES = {
    "kiln-plan.md": ("Kiln log storage", "Plan for this week: move the kiln logs to Parquet, then drop the CSV export."),
    "glaze-import.md": ("Glaze inventory import", "Going to finish the glaze inventory import this afternoon."),
    "tide-remaining.md": ("Tide gauge alerts",
                          ("The gauge feed is wired.\n\n**Deferred work:**\n- wire the tide gauge alerts\n"
                          "- backfill the March readings")),
    "scope-pending.md": ("Telescope queue ideas",
                         ("Pending improvements (owner to decide):\n1. split the telescope queue by aperture\n"
                         "2. add a dark-sky filter")),
    "dome-next-sprint.md": ("Dome controller", "The dome controller rewrite lands next sprint, after the encoder swap."),
}

NEGATIVES = {
    "friday-orders.md": ("When Friday orders ship", "Orders placed on a Friday ship next week, never on the same day."),
    "calendar-week.md": ("Calendar week view", "When a planner picks next week in the calendar, the grid starts on Monday."),
    "pending-orders.md": ("What happens to pending orders",
                          "Pending orders:\n- are retried every hour\n- expire after three days"),
    "done-criteria.md": ("When a glaze recipe counts as done",
                         "Done criteria:\n- three test tiles fired\n- the recipe card names the cone"),
    "remaining-budget.md": ("How the studio budget splits", "Remaining budget:\n- kilns 40%\n- staff 60%"),
    "onboarding-steps.md": ("Bakery app onboarding",
                            ("Next steps in the onboarding flow are shown as numbered cards:\n1. verify the email\n"
                            "2. pick a home bakery")),
    "sprint-review.md": ("Sprint review timing",
                         ("The sprint review is held on the last afternoon of each sprint, and the next sprint's "
                         "goals are set then.")),
}


@pytest.fixture
def found(tmp_path: Path, run_cli: Callable[..., Result]) -> dict[str, list[str]]:
    vault = make_vault(tmp_path / "v", {name: _card(*spec) for name, spec in (POSITIVES | NEGATIVES).items()})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    out: dict[str, list[str]] = {}
    for f in findings:
        out.setdefault(f["path"], []).append(f["code"])
    return out


@pytest.mark.parametrize("name", sorted(POSITIVES))
def test_a_plan_or_a_list_of_what_remains_is_session_only(found: dict[str, list[str]], name: str) -> None:
    assert found.get(name), f"{name} not flagged"


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_the_same_words_in_durable_cards_stay_clean(found: dict[str, list[str]], name: str) -> None:
    assert name not in found, found[name]


def test_items_under_a_state_label_are_what_it_reports() -> None:
    assert session_shape._head("**Deferred work:**") == (False, True)
    assert session_shape._head("Pending improvements (owner to decide):") == (False, True)
    assert session_shape._head("## Done") == (True, False)
    assert session_shape._head("Pending orders:") == (False, False)  # a class of items, not pieces of work
    assert session_shape._head("Done criteria:") == (False, False)


def test_add_refuses_a_plan_for_this_week_and_takes_the_friday_rule(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {})
    refused = run_cli("--vault", str(vault), "add", "Plan for this week: port the scheduler to the new mount API.",
                      "--description", "Scheduler port plan")
    assert refused.exit_code == 1 and "S101" in refused.stderr and "this week" in refused.stderr
    taken = run_cli("--vault", str(vault), "add", "Orders placed on a Friday ship next week, never on the same day.",
                    "--description", "When Friday orders ship")
    assert taken.exit_code == 0, taken.stderr


def test_import_of_a_hand_kept_memory_md_refuses_its_plans(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "# Memory\n\n- Kiln 2 is fired only with the studio manager present.\n"
        "- Going to re-test the cone 6 glazes this afternoon.\n"
        "- This sprint: finish the booking calendar and the waitlist.\n", encoding="utf-8")
    result = run_cli("--vault", str(root), "import", str(root / "MEMORY.md"), "--apply")
    assert result.exit_code == 1, result.stderr  # refusals
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "Kiln 2 is fired only" in index
    assert "cone 6" not in index and "booking calendar" not in index


CJK_POSITIVES = {
    # "Next session's work:" then two items (a ferry timetable app).
    "ko-next-session.md": "시간표 동기화는 끝났다.\n\n**다음 세션 작업:**\n1. 요금 규칙 이전\n2. 좌석 지도 점검",
    # "Next step" heading over the remaining items (a library catalogue).
    "zh-next-step.md": "目录导入已经可用。\n\n## 下一步\n- 补齐 ISBN 校验\n- 迁移借阅记录",
}
CJK_NEGATIVES = {
    # "In the next session, read the hand-off file first": a standing rule, no heading.
    "ko-rule.md": "다음 세션에서는 항상 인계 파일을 먼저 읽는다.",
    # A glossary of states: "pending: nobody has reviewed it yet".
    "ko-states.md": "상태 정의:\n- 대기: 아직 아무도 검토하지 않음\n- 완료: 검토와 병합이 끝남",
    # "Steps of the borrowing flow:" then steps of a product, not of work.
    "zh-flow.md": "借书流程的步骤\uff1a\n1. 扫描读者证\n2. 扫描图书",
}


@pytest.mark.parametrize(("name", "flagged"), [(n, True) for n in sorted(CJK_POSITIVES)] + [(n, False) for n in sorted(CJK_NEGATIVES)])
def test_items_under_a_cjk_next_steps_heading_are_what_is_left(tmp_path: Path, run_cli: Callable[..., Result], name: str,
                                                                flagged: bool) -> None:
    body = (CJK_POSITIVES | CJK_NEGATIVES)[name]
    vault = make_vault(tmp_path / "v", {name: _card("작업 메모", body)})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert bool(findings) is flagged, findings
