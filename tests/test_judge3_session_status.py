"""Status boards by the item-state shape (issue 14, session): English, Korean and Chinese, with hard negatives.

A board gives items with their state ("Rehearsal 2: Complete (Mar 5)", "결제 연동 — 진행 중",
"报表导出\uff1a进行中"); a durable card names states ("mark it done only after…") or defines them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardindex.meaning import session_status
from tests.test_lint_rules import lint_json, make_vault

POSITIVE = {
    "choir-rehearsals.md": (
        "Where the spring concert preparation stands",
        ("- Rehearsal 1: Complete (Mar 3)\n- Rehearsal 2: Complete (Mar 5)\n- Dress rehearsal: pending\n"
        "- Programme printing — blocked (printer quote)\n")),
    "irrigation-ko.md": (
        "정원 자동 급수 프로젝트",
        ("## 현재 상태 (2026-03-02)\n- 센서 배선: 완료\n- 펌프 제어 스크립트: 미테스트\n\n"
        "## 설계\n- 토양 습도가 30% 아래로 내려가면 펌프를 켠다\n")),
    "shop-ko.md": (
        "온라인 꽃집 리뉴얼",
        "- 주문 페이지 번역: 완료\n- 결제 모듈 연동 — 진행 중\n- 영수증 메일: 미구현\n- 배송 조회: 예정\n"),
    "library-zh.md": (
        "图书馆借阅系统改版",
        "- 数据迁移\uff1a已完成\n- 报表导出\uff1a进行中\n- 权限检查\uff1a未开始\n"),
}

POSITIVE["newsletter-ko.md"] = (
    "동네 소식지 발행 준비",
    "**상태**: 9월호 원고 작성 완료, **미발행**.\n- 인쇄소 견적: 대기 중\n",
)
POSITIVE["bakery-pos.md"] = (
    "Bakery till software work",
    ("## Completed (in the live till)\n- Receipt printer driver\n- Loyalty stamps\n\n"
    "## Pending / Deferred\n1. Card reader pairing\n2. Allergen labels on the screen\n"),
)

NEGATIVE = {
    "done-means-ko.md": (
        "작업 상태를 보고하는 규칙",
        ("작업을 완료라고 보고하기 전에 테스트를 직접 실행할 것.\n"
        "**Why:** 확인하지 않은 완료 보고가 두 번 회귀를 숨겼다.\n")),
    "state-names-ko.md": (
        "티켓 상태의 뜻",
        "- 완료: 리뷰어가 승인하고 머지된 상태\n- 진행 중: 담당자가 작업하는 상태\n- 대기: 아직 담당자가 없는 상태\n"),
    "verify-zh.md": (
        "任务标记的规则",
        "只有在测试通过后才能把任务标记为完成。\n自动化脚本不能代替人工确认。\n"),
    "steps-en.md": (
        "How a pottery order is taken",
        ("- Step 1: Complete the glaze form with the customer\n- Step 2: Open a ticket in the kiln queue\n"
        "- Step 3: Next, photograph the piece for the catalogue\n")),
    "states-en.md": (
        "Ticket states in the repair shop",
        "Repair tickets: done, pending or blocked.\nA ticket is done once the owner signs the receipt.\n"),
    "order-schema-ko.md": (
        "주문 테이블의 상태 필드",
        ("- 상태: 주문의 현재 단계를 나타내는 필드 (결제 대기, 배송 중, 완료 중 하나)\n"
        "- 금액: 원 단위 정수, 부가세 포함\n"),
    ),
    "invoice-states-en.md": (
        "How the bakery handles unpaid invoices",
        ("## Pending or deferred invoices\nThey are chased by email after fourteen days.\n\n"
        "## Paid invoices\nThey are archived with the month's receipts.\n"),
    ),
    "policy-en.md": (
        "When a lesson plan counts as finished",
        ("A lesson plan is complete when the exercises have answers: never before.\n"
        "Drafts stay in the shared folder until the head teacher reads them.\n")),
}


def _vault(tmp_path: Path, make_card, cards: dict[str, tuple[str, str]]) -> Path:  # type: ignore[no-untyped-def]
    return make_vault(tmp_path / "vault", {rel: make_card(d, body=b) for rel, (d, b) in cards.items()})


@pytest.mark.parametrize("rel", sorted(POSITIVE))
def test_a_board_of_items_and_states_is_session(tmp_path, run_cli, make_card, rel):  # type: ignore[no-untyped-def]
    _, findings = lint_json(run_cli, _vault(tmp_path, make_card, {rel: POSITIVE[rel]}), "--select", "session")
    assert [f["code"] for f in findings] == ["S102"], findings


@pytest.mark.parametrize("rel", sorted(NEGATIVE))
def test_states_named_or_defined_are_durable(tmp_path, run_cli, make_card, rel):  # type: ignore[no-untyped-def]
    assert lint_json(run_cli, _vault(tmp_path, make_card, {rel: NEGATIVE[rel]}), "--select", "session") == (0, [])


def test_korean_state_word_with_a_particle_is_a_mention() -> None:
    assert session_status.cjk_state("- 배포 완료라고 말하기 전에 로그를 본다") == (False, False, False)
    assert session_status.cjk_state("- 배포: 완료 (3월 2일)") == (True, False, False)
    assert session_status.cjk_state("## 후속 과제") == (False, False, True)


def test_english_item_state_needs_a_short_label_and_a_closing_state() -> None:
    assert session_status.item_state("- Rehearsal 2: Complete (Mar 5)") == (True, False)
    assert session_status.item_state("- Step 2: Complete the form") == (False, False)
    long_label = "- The three controls we wrote for the import gate all fired first: blocked"
    assert session_status.item_state(long_label) == (False, False)


LESSON = "Lesson from the glaze kiln"


def _typed(tmp_path: Path, make_card, kind: str, body: str) -> Path:  # type: ignore[no-untyped-def]
    return make_vault(tmp_path / "vault", {"kiln.md": make_card(LESSON, type=kind, body=body)})


def test_this_session_in_a_feedback_card_names_where_the_lesson_was_learned(tmp_path, run_cli, make_card):  # type: ignore[no-untyped-def]
    body = "Never open the kiln above 200 degrees; in this session it cracked a shelf of mugs.\n"
    assert lint_json(run_cli, _typed(tmp_path, make_card, "feedback", body), "--select", "session") == (0, [])


def test_this_session_in_a_project_card_is_still_session(tmp_path, run_cli, make_card):  # type: ignore[no-untyped-def]
    body = "In this session the kiln controller was rewired and the shelf sensor moved.\n"
    _, findings = lint_json(run_cli, _typed(tmp_path, make_card, "project", body), "--select", "session")
    assert [f["code"] for f in findings] == ["S101"]


def test_what_we_agreed_in_this_session_is_session_in_a_feedback_card(tmp_path, run_cli, make_card):  # type: ignore[no-untyped-def]
    body = "In this session we agreed to glaze the bowls first and leave the mugs for later.\n"
    _, findings = lint_json(run_cli, _typed(tmp_path, make_card, "feedback", body), "--select", "session")
    assert [f["code"] for f in findings] == ["S101"]


def test_other_session_words_still_count_in_a_feedback_card(tmp_path, run_cli, make_card):  # type: ignore[no-untyped-def]
    body = "For now, skip the glaze test firing until the new thermocouple arrives.\n"
    _, findings = lint_json(run_cli, _typed(tmp_path, make_card, "feedback", body), "--select", "session")
    assert [f["code"] for f in findings] == ["S101"]


@pytest.mark.parametrize(("name", "session"), [
    ("Greenhouse review agenda — 14 March 2026", True),
    ("Choir planning notes 2026-03-09", True),
    ("Kiln review checklist (updated 2026-05-02)", False),
    ("Allotment watering plan, effective 2026-04-01", False),
    ("Greenhouse review agenda template", False),
])
def test_a_dated_plan_or_review_in_the_title_is_a_session_record(tmp_path, run_cli, make_card, name, session):  # type: ignore[no-untyped-def]
    body = "- Check the vents\n- Ask about the heater\n"
    root = make_vault(tmp_path / "vault", {"x.md": make_card("What to cover", name=name, body=body)})
    _, findings = lint_json(run_cli, root, "--select", "S101")
    assert bool(findings) is session, findings
