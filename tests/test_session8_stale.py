"""Stale from what the card dates itself and from merged pull requests, through `cards lint` (issue 14, eighth pass).

T110: a card says a pull request is still open (awaiting merge, in review) and the repo's
history holds its squash merge ("… (#141)"). T111: the body writes an expiry whose day has
passed ("token expires 2026-05-22", "만료: 2026-05-22"), in the words of six languages beside
a date. T112 (off by default): a dated snapshot ("Current state (2026-05-28)") more than 90
days old. Each positive has hard negatives: a merged PR the card already calls merged, a PR
whose merge is not in the history, a future expiry, an expiry told as history, a recurring
one, a recent snapshot. Today is pinned to 2026-11-30.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.meaning import stale_dates
from cardindex.store.card import Card, parse
from tests.test_lint_rules import lint_json, make_vault
from tests.test_stale5_history import Repo, card, stale


def test_an_open_pull_request_the_history_merged(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    repo = Repo(tmp_path / "shop")
    assert run_cli("init", str(repo.root / "memory")).exit_code == 0
    repo.cards("2026-03-01T09:00:00",
               waiting=card("the search rewrite", "The search rewrite is in PR #41, awaiting review."),
               told=card("the cart fix", "The cart fix landed: PR #42 merged on 2026-03-04."),
               elsewhere=card("the theme switch", "The theme switch waits in PR #77 (open)."),
               slices=card("the import plan", "PR1 and PR2 of the import plan are open."))
    sha = repo.commit("2026-03-05T10:00:00", "feat(search): ranked results (#41)")
    repo.commit("2026-03-06T10:00:00", "fix(cart): rounding (#42)")
    got = stale(run_cli, repo, "T110")
    assert got == {"waiting.md": [
        f"T110 says PR #41 is still open ('The search rewrite is in PR #41, awaiting review.'); commit {sha} of "
        "2026-03-05 'feat(search): ranked results (#41)' merged it"]}


def test_no_pull_request_finding_outside_git(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {"w.md": card("search", "The search rewrite is in PR #41, awaiting review.")})
    _, findings = lint_json(run_cli, vault, "--select", "T110")
    assert findings == []


def test_an_expiry_past_in_six_languages(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {
        "en.md": card("the sandbox token", "The sandbox token expires 2026-05-22; renew it in the portal."),
        "ko.md": card("토큰", "API 토큰 만료: 2026-05-22 (60일마다 갱신)."),
        "zh.md": card("证书", "测试证书有效期至 2026年5月22日。"),
        "ja.md": card("証明書", "証明書の有効期限: 2026/05/22"),
        "de.md": card("Zertifikat", "Das Zertifikat ist gültig bis 22.05.2026."),
        "cs.md": card("certifikát", "Certifikát má platnost do 22. 5. 2026."),
        # hard negatives: a day still ahead, history, a recurring expiry, a day with no expiry word
        "ahead.md": card("the prod token", "The prod token expires 2027-02-01."),
        "history.md": card("the old cert", "The old cert expired on 2026-05-22 and was renewed for a year."),
        "rule.md": card("passwords", "Passwords expire every 90 days; the reminder goes out 2026-01-01 style."),
        "plain.md": card("the launch", "The shop opened on 2026-05-22."),
        "field.md": card("a dated card", "The sandbox token is in the vault.", expires="2026-05-22"),
    })
    _, findings = lint_json(run_cli, vault, "--select", "T111")
    assert sorted(f["path"] for f in findings) == ["cs.md", "de.md", "en.md", "ja.md", "ko.md", "zh.md"]
    assert all(f["severity"] == "warning" and "2026-05-22, a day now past" in f["message"] for f in findings)


def test_an_old_snapshot_only_when_selected(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {
        "zh.md": card("迁移", "## 当前状态（2026-05-28）\n\n- 新模块已上线\n"),
        "en.md": card("rollout", "## Current state (as of 2026-04-02)\n\nTwo of five regions are on the new stack.\n"),
        "recent.md": card("rollout two", "## Status (2026-11-01)\n\nAll regions are on the new stack.\n"),
        "prose.md": card("history", "The state on 2026-04-02 was recorded in the incident report.\n"),
        "checked.md": card("topology", "## 현재 상태 (2026-04-22)\n\n서버 세 대.\n", verified="2026-11-20"),
    })
    _, default = lint_json(run_cli, vault)
    assert not [f for f in default if f["code"] == "T112"]  # off unless selected
    _, findings = lint_json(run_cli, vault, "--select", "T112")
    assert sorted(f["path"] for f in findings) == ["en.md", "zh.md"]


def test_dates_are_read_in_each_form() -> None:
    days = [stale_dates.day_of(m) for m in stale_dates.DATES.finditer(
        "2026-05-22, 2026/5/22, 2026年5月22日, 2026년 5월 22일, 22.05.2026, May 22, 2026, 22 May 2026, 2026-06")]
    assert days == [dt.date(2026, 5, 22)] * 7 + [dt.date(2026, 6, 30)]


def test_snapshot_words_are_each_languages_own() -> None:
    # An English label word in a Korean line does not make a date a snapshot, nor the reverse.
    text = card("x", "배포 status는 2026-05-01에 바뀌었다.")
    assert stale_dates.snapshots(Card("x.md", text, *parse(text))) == []
