"""The language judgement (meaning/language.py) and the gate that keeps English word lists off other languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardindex.lint.registry import RULES
from cardindex.meaning.language import card_language, is_english, verdict

NOT_ENGLISH = {
    "korean": "배포는 목요일에만 한다. 화요일에는 정산 작업과 겹친다.",
    "chinese": "生产环境只在周四部署，周二与结算任务冲突。",
    "japanese": "本番環境へのデプロイは木曜日のみ行います。",
    "czech": "Nasazení do produkce probíhá jen ve čtvrtek, protože v úterý běží fakturace.",
    "german": "Die Produktion wird nur am Donnerstag ausgerollt, weil am Dienstag die Abrechnung läuft.",
    "portuguese": "O deploy em produção é feito só às quintas, porque na terça roda o faturamento.",
    "spanish": "El despliegue a producción se hace solo los jueves, porque el martes corre la facturación.",
    "russian": "Выкладка в продакшен только по четвергам, во вторник идёт биллинг.",
    "korean with code names": "- **유지**: `bypassPermissions`, force-push 차단, main 직커밋, alwaysThinkingEnabled.",
    "chinese with identifiers": "submit 吸收 resubmit,合并为一个命令,`submit_one` 返回三态 pass/skip/fail。",
}
ENGLISH = {
    "prose": "Deploy to production on Thursdays only, because the billing batch runs on Tuesdays.",
    "code heavy": "Call `retry_with_backoff()` from src/net/client.py; set MAX_RETRIES=5 and see https://example.org/x.",
    "terse": "Testcontainers suite: INCLUDED (full)",
    "with a loan word": "The café on the ground floor closes at four on Fridays.",
    "bold labels": "**Why:** the staging box is shared with the data team.",
}


@pytest.mark.parametrize("name", sorted(NOT_ENGLISH))
def test_other_languages_are_not_english(name):
    assert is_english(NOT_ENGLISH[name]) is False, name


@pytest.mark.parametrize("name", sorted(ENGLISH))
def test_english_is_english(name):
    assert is_english(ENGLISH[name]) is True, name


def test_scripts_are_named():
    assert verdict(NOT_ENGLISH["korean"]).script == "hangul"
    assert verdict(NOT_ENGLISH["chinese"]).script == "han"
    assert verdict(NOT_ENGLISH["japanese"]).script in ("han", "kana")
    assert verdict(NOT_ENGLISH["russian"]).script == "cyrillic"
    assert verdict(NOT_ENGLISH["czech"]).script == "latin"
    assert verdict("| --- | --- |") == ("", None)  # nothing to judge
    assert is_english("```\nrm -rf build\n```") is None


def test_a_mixed_card_names_its_foreign_lines():
    lines = [(3, "배포 요일 규칙"), (7, "Deploy on Thursdays only."), (9, "화요일에는 정산 작업과 겹친다."), (10, "| - |")]
    assert card_language(lines) == ("mixed", frozenset({3, 9}))
    assert card_language(lines[1:2]).kind == "english"
    assert card_language([lines[0], lines[2]]).kind == "other"


@given(st.text(alphabet=st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=3, max_size=40),
       st.sampled_from(["", " `deploy_now()`", " see https://example.org", " (v2.1)"]))
def test_hangul_text_is_never_english_whatever_code_it_holds(hangul, code):
    assert is_english(hangul + code) is False


@given(st.sampled_from(sorted(ENGLISH.values())), st.sampled_from(["", " `x_y()`", " a/b/c.py", " <https://a.b/c>"]))
def test_code_and_links_do_not_change_an_english_verdict(sentence, code):
    assert is_english(sentence + code) is True


def test_rules_that_match_english_words_are_marked_and_neutral_ones_are_not():
    english = {code for code, rule in RULES.items() if rule.english}
    # S101 also reads language-neutral shapes (dated reports, boards, a TODO: marker) and
    # applies its English patterns only to English sentences itself (meaning.session_shape).
    assert english == {"S103", "D102", "D103", "U101", "C102", "C103", "T106", "T107", "T108", "T109"}
    for code in ("F001", "F005", "K101", "K103", "T101", "C101", "D101", "D104", "S102"):
        assert not RULES[code].english, code


# --------------------------------------------------------------------------- through the CLI


def make_vault(root: Path, cards: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    (root / ".cardindex.yaml").write_text("repo: false\n", encoding="utf-8")
    for rel, text in cards.items():
        (root / rel).write_text(text, encoding="utf-8")
    return root


def findings(run_cli, root: Path, *args: str) -> list[tuple[str, int, str]]:
    result = run_cli("--vault", str(root), "lint", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.stderr
    return [(f["path"], f["line"], f["code"]) for f in json.loads(result.stdout)]


def test_cards_in_other_languages_get_no_word_list_findings(tmp_path, make_card, run_cli):
    # each holds an English trigger word (WIP, TODO, "currently", "today", "I am") inside
    # a sentence of another language: durable rules, not session notes
    cards = {
        "pr-draft.md": make_card("PR 초안 규칙", body="사용자가 PR에 WIP 라벨을 붙이면 항상 draft로 연다."),
        "todo-markers.md": make_card("Marcadores no código", body="Nunca deixar TODO no código de produção; abrir uma issue."),
        "currently.md": make_card("Pravidlo pro nasazení",
                                  body="Currently je slovo, které v kartě nepoužíváme; nasazení je jen ve čtvrtek."),
        "today.md": make_card("日付の扱い", body="today の日付をコードに直書きしない。テストでは固定する。"),
        "narrative.md": make_card("Regel für Reviews", body="I am nicht der Reviewer: jede Änderung braucht zwei Freigaben."),
    }
    root = make_vault(tmp_path / "vault", cards)
    assert run_cli("--vault", str(root), "index").exit_code == 0
    assert findings(run_cli, root) == []


def test_a_mixed_card_is_judged_on_its_english_lines(tmp_path, make_card, run_cli):
    body = ("사용자가 PR에 WIP 라벨을 붙이면 항상 draft로 연다.\n\n"
            "Currently halfway through moving the labels; next step is the bot.\n")
    root = make_vault(tmp_path / "vault", {"labels.md": make_card("PR 라벨 규칙", body=body)})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    assert findings(run_cli, root) == [("labels.md", 7, "S101")]  # the English line, not the Korean one


def test_language_neutral_rules_still_run_on_other_languages(tmp_path, make_card, run_cli):
    cards = {
        "a.md": make_card("배포 요일", body="배포는 목요일에만 한다.", key="deploy-day"),
        "b.md": make_card("배포 요일", body="배포는 화요일에만 한다.", key="deploy-day"),
        "c.md": make_card("Expirado", body="Congelamento de código até o fim do mês.", expires="2026-01-01"),
    }
    root = make_vault(tmp_path / "vault", cards)
    assert run_cli("--vault", str(root), "index").exit_code == 0
    codes = {(path, code) for path, _, code in findings(run_cli, root)}
    assert {("a.md", "C101"), ("b.md", "C101"), ("c.md", "T101")} <= codes
