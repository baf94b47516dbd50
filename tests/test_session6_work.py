"""Session-only work told where it stands, with no trigger word (issue 14, class 6; meaning/session_work.py).

A note is true only inside one sitting when what it states changes with the next commit:
a numbered PR or a named branch given a workflow state, the writer's act told in the past
with the subject left out ("Looked into the flicker"), an act not done ("Haven't deleted
the temporary tables"), a tally of work ("37 of 120 stores migrated"), a placeholder
("still hard-coded"), the place in a sequence ("Up to chapter 6"), a label to the next
sitting ("Left to check:"), a reply awaited ("Waiting to hear back from the venue"). The
hard negatives, more of them than positives, use the same words in durable grammar: a
generic subject, a condition, a participle before a main clause, a limit, a reason, a
dated record. Domains: a delivery fleet, a charity's volunteer app, a venue's kiosks, a
style guide, a county permit office. Korean, Chinese and Japanese status labels are read
by their own marks (meaning/session_status.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import session_status, session_words, session_work
from tests.test_lint_rules import lint_json, make_vault

DURABLE = [
 "A PR that changes the tariff tables needs sign-off from billing.",
 "When CI is red on main, nobody merges until it is green again.",
 "PR descriptions link the ticket (OPS-12) so the tracker can close it.",
 "The release branch is cut every second Tuesday.",
 "Our fork of the PDF library carries one patch for right-to-left text; upstream rejected it.",
 "Stored at the root of the bucket, the manifest lists every tile.",
 "Built on the actor model, the dispatcher gives each van its own mailbox.",
 "Located at the end of the corridor, the server room is badge-only.",
 "Focused on the first screen, the onboarding copy stays under 40 words.",
 "I have never used Emacs, so give editor steps for VS Code.",
 "I haven't written Rust before; explain ownership when it comes up.",
 "Up to 5 volunteers can share one shift login.",
 "At step 3 the wizard asks for the charity number.",
 "Two of the three replicas run in Dublin and one in Frankfurt.",
 "3 of 5 judges must agree before a score is final.",
 "The Android app still uses the old camera API because the warehouse scanners run Android 7.",
 "Exports made before 2024 still use the old column order.",
 "Retries: 3 allowed, 2 reserved for the nightly job.",
 "The nightly import reads up to 2,000 rows per batch.",
 "Nothing is cached between requests; every call reads the database.",
 "Nothing is deployed on Fridays.",
 "Orders stay on hold until the customer confirms the address.",
 "The payment page in staging uses a fake card processor; real cards are refused there.",
 "The first screen of the app is the map.",
 "Logged-in users see their saved routes on the left.",
 "Reviewed by two people, a migration may run in production.",
 "The build is reproducible: the same commit gives the same image digest.",
 "A draft stays private until its author publishes it.",
 "Our stash of spare tablets lives in the depot office.",
 "The suite has about 1,200 tests and runs in four minutes on CI.",
 "Coverage must not drop below 80% on the billing package.",
 "The service went from Heroku to Fly in 2024 after the price change.",
 "We ended up on Postgres because SQLite locked under concurrent writers.",
 "Gave the on-call rotation to the platform team in 2025; product teams are off it.",
 "Backed up at 02:00, the database dump goes to cold storage.",
 "Handled at the edge, redirects never reach the app servers.",
 "Left-aligned labels read faster on forms; keep them left-aligned.",
 "The 'feature-complete' label on an epic means QA may start.",
 "Each checklist item is done by the shift lead.",
 "Queue names are lowercase with dashes.",
 "Tickets in the Later column are reviewed at each planning.",
 "While we use the free tier, builds are limited to 500 minutes a month.",
 "Open questions go to the weekly design review, not to direct messages.",
 "Ruled by the county, the permit fees change every April.",
 "Tested on Safari 16 and later; older Safari lacks the dialog element.",
 "Counted at the gate, visitors get a wristband.",
 "The bridge is two lanes behind the toll plaza.",
 "I prefer answers that start with the command, then the explanation.",
 "The old endpoint still answers with 410 so clients learn it is gone.",

 "Phase 2 of onboarding covers the tax forms.",
 "Built artifacts are stored for 90 days.",
 "Status: active means the volunteer can take shifts.",
 "Deployed services log to the central collector.",
 "Open PRs older than a month are closed by the stale bot.",
 "The working tree must be clean before a release tag.",
 "Starting a shift requires the van checklist.",
 "Continuing education credits are tracked per volunteer.",
 "Most of the parser's errors come from malformed dates.",
 "Ready-made templates live in the templates folder.",
 "The last run of each night is kept for audit.",
 "Half the stores close on Sundays.",
 "The importer accepts CSV and XLSX, never ODS.",
 "Moved items keep their original id.",
 "Handed-over shifts need both leads' initials.",

 "Email required, phone optional.",
 "Uploads scanned, thumbnails generated.",
 "Logs rotated, backups encrypted.",
 "Data encrypted at rest.",
 "Prices include VAT; shipping calculated at checkout.",
 "Continuing with a card that failed once is safe.",
 "Working with the county API requires a signed agreement.",
 "Most of the drivers are part-time volunteers.",
 "Half the vans are electric.",
 "Some of the stores are on the new price feed because they joined after 2025.",
 "Ready-to-ship orders print a label automatically.",
 "Orders awaiting payment are cancelled after 30 minutes.",
 "Requests awaiting approval are listed on the manager's page.",
 "Refunds are not merged into the daily total.",
 "Then the driver confirms the drop-off with a photo.",
 "Uncommitted changes are lost when the kiosk reboots.",
 "Open PRs older than a month get a reminder.",
 "The release notes are written in the changelog folder.",
 "Each phase has a named owner.",
 "Thumbnails are generated on upload; originals kept for a year.",
 "Tests written in Jest run on every push.",
 "Fixtures loaded from the seeds folder are read-only.",
 "Moving to a new depot means new van keys.",
 "Still waters: the lake sensor reads zero flow as healthy.",
 "Translations reviewed by a native speaker get a check mark.",
 "Version 2 done right means the old links keep working.",
 "Looked at from the street, the depot sign must face east.",

 "Progress is tracked on the board, never in memory.",
 "Midway through a shift, drivers take a 20-minute break.",
 "The festival is under way from 1 to 3 June.",
 "Jobs that are almost done cannot be cancelled.",
 "Lena is reviewing all contracts for the Dutch office from now on.",
 "We store drafts locally only, and sync them on publish.",
 "Part of the fee goes to the county.",
 "The legacy site is down since the host retired it in 2024.",
 "Most of the volunteers prefer evening shifts.",
 "The app mostly works offline; only payments need a connection.",
 "Maria is leading the Thursday rota as the shift coordinator role.",

 "Going to production requires two approvals.",
 "Pausing a subscription keeps the customer's data for 90 days.",
 "About the export: it always includes archived rows.",
 "Found items go to the lost-and-found shelf at reception.",
 "Tests must pass on Linux and macOS before a release.",
 "Need-to-know access applies to the payroll folder.",
 "A reindex takes about an hour on production.",
]
SESSION = [
 "Got as far as the export dialog; the date picker is not wired.",
 "MR 88 has two approvals but the pipeline is red on the e2e job.",
 "The invoices-v2 branch is three commits behind main and has conflicts in the router.",
 "Looked into the flicker on the map tiles; it's the CSS transition, not the tile server.",
 "Gave up on the canvas renderer around five, back to SVG for now.",
 "I have not wired the retry button to anything.",
 "Haven't deleted the temporary tables.",
 "37 of 120 stores migrated, the rest still read the old price feed.",
 "Suite at 902 passing, 4 skipped.",
 "Ended on the billing tab: totals right, VAT line missing.",
 "For whoever picks this up: the seeds are loaded, the admin password is in the team vault.",
 "Left to check: the Polish translations and the print stylesheet.",
 "Waiting to hear back from the venue about the wifi.",
 "The search page is still hard-coded to the Leeds depot.",
 "Payments are done except the refund screen.",
 "Pushed the hotfix to the kiosks at noon.",
 "The driver rota export still goes through the old CSV writer.",
 "Back on the rota importer after the login detour.",
 "Nothing merged yet; both PRs wait for Lena.",
 "Up to chapter 6 of the style guide rewrite.",
 "Phase 2 complete. Phase 3 (billing) begins next.",
 "Built: the CSV importer and the dedupe job. Not built: the UI.",
 "Resolved 4 of the 6 review comments on #88.",
 "The migration script is written but has not been run against prod.",
 "Where we are: auth done, billing half done.",
 "Uncommitted: the schema tweak in models.py.",
 "Open PRs: #12 (parser), #15 (docs).",
 "Working tree is dirty: two files in src/sync.",
 "Branch feature/geo pushed, PR not opened.",
 "Commit 4f3a2c1 adds the retry; not merged.",
 "Status: green on CI, awaiting QA sign-off.",
 "Moved on to the search page after the filters.",
 "Continuing with the refunds module.",
 "Starting on the export next.",
 "Most of the parser is in; the error messages are rough.",
 "First pass of the glossary done; second pass after review.",
 "v0.3 tagged locally, release notes drafted.",
 "Handed the invoicing branch to Theo.",
 "Ready for review once the screenshots are updated.",
 "Spent most of the morning chasing a timezone bug in the rota export.",
 "We got the label printer talking to the app.",
 "I wired the map to the new tile server and cleaned up the legend.",
 "Then: seed the demo vans, record the walkthrough video.",
 "Half the stores are on the new feed.",
 "Still seeing the duplicate rows on the Leeds import.",
 "Paused the invoice redesign at the totals row.",
 "Halting the Kafka upgrade for today.",
 "About to bump React to 19.",
 "Was in the middle of rewriting the seed script.",
 "Going to split the auth module out next.",
 "Day 2 of the migration: users table done, orders in progress.",
 "As of this morning the queue has 3,200 jobs.",
 "Changelog 2026-11-02: added the export button; fixed the date parser; removed the old banner.",
 "PR #41 is open, waiting on review.",
 "Tests: 88 passing.",
 "Haven't pushed the rebase.",
 "Paused mid-migration: 3 of 7 tables copied.",
 "Need to rerun the seeds before demoing.",
 "Found the leak: the websocket handlers were never removed. Fix not written.",
 "Tried bumping the pool size to 40, no change.",
 "Done so far: login, signup. Not yet: password reset.",
 "Next session should start by regenerating the fixtures.",
]


def _judged(text: str) -> session_words.WordHit | None:
    lines = list(enumerate(text.split("\n"), start=1))
    return session_words.temporal(lines) or session_words.narrative(lines)


def test_there_are_more_hard_negatives_than_positives() -> None:
    assert len(DURABLE) > len(SESSION)


@pytest.mark.parametrize("sentence", SESSION)
def test_work_told_where_it_stands_is_session_only(sentence: str) -> None:
    assert _judged(sentence) is not None


@pytest.mark.parametrize("sentence", DURABLE)
def test_the_same_words_in_durable_grammar_stay_clean(sentence: str) -> None:
    assert _judged(sentence) is None


def test_the_kinds_of_work_note() -> None:
    assert session_work.work_note("MR 88 has two approvals but the pipeline is red.") == "MR 88 has two approvals"
    assert session_work.work_note("A PR that is red cannot be merged.") is None  # a kind of PR
    assert session_work.work_note("PR 88 was approved on 2026-03-02 by the board.") is None  # a dated record
    assert session_work.work_note("Looked into the flicker; it's the CSS transition.") == "Looked into the"
    assert session_work.work_note("Stored at the root, the manifest lists every tile.") is None  # where a thing is
    assert session_work.work_note("Haven't deleted the temporary tables.") is not None
    assert session_work.work_note("I haven't used Windows since 2015.") is None
    assert session_work.tally("37 of 120 stores migrated.") is not None
    assert session_work.tally("Two of the three replicas run in Dublin.") is None
    assert session_work.tally("| 7,550 extracted, 3,921 merged |") is None  # a table row: the board's to judge


def test_a_tally_counts_only_in_a_card_that_states_no_rule() -> None:
    run = "1,204 passed, 3 failed on the release candidate."
    assert _judged(run) is not None
    assert _judged(run + " Every failure was a fixture that assumed an empty database, so fixtures must reset it.") is None


CARDS = {
    "mr-88.md": ("Route export merge request", "MR 88 has two approvals; the e2e job is red on the map test.", True),
    "kiosk-hotfix.md": ("Kiosk hotfix", "Pushed the hotfix to the kiosks at noon; two kiosks are offline.", True),
    "rota-left.md": ("Rota importer checks", "Left to check: the night shifts and the bank-holiday rows.", True),
    "fleet-tally.md": ("Depot price feeds", "37 of 120 stores migrated, the rest on the old feed.", True),
    "pr-review-rule.md": ("Who reviews tariff changes", "A PR that changes the tariff tables needs sign-off from billing.", False),
    "participle.md": ("Where the tile manifest lives", "Stored at the root of the bucket, the manifest lists every tile.", False),
    "old-api.md": ("Why the camera API is old", "The Android app still uses the old camera API because the scanners run Android 7.", False),
    "limit.md": ("Shared shift logins", "Up to 5 volunteers can share one shift login.", False),
}


def test_lint_flags_the_work_notes_and_nothing_else(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    cards = {name: f"---\ndescription: {d}\ntype: project\n---\n{body}\n" for name, (d, body, _) in CARDS.items()}
    vault = make_vault(tmp_path / "v", cards)
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert {f["path"] for f in findings} == {name for name, (_, _, s) in CARDS.items() if s}
    assert all(f["code"] in ("S101", "S102", "S103") and f["category"] == "session" for f in findings)


def test_add_refuses_a_branch_state_and_takes_the_branch_rule(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {})
    refused = run_cli("--vault", str(vault), "add", "The invoices-v2 branch is three commits behind main.",
                      "--description", "Invoices branch")
    assert refused.exit_code == 1 and "S101" in refused.stderr
    taken = run_cli("--vault", str(vault), "add", "The release branch is cut every second Tuesday.",
                    "--description", "When the release branch is cut")
    assert taken.exit_code == 0, taken.stderr


def test_unticked_boxes_under_a_recurring_heading_are_a_checklist(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    recurring = "## Before each market day\n\n- [ ] charge the card readers\n- [ ] print the price list"
    once = "## Market prep\n\n- [ ] charge the card readers\n- [ ] print the price list"
    vault = make_vault(tmp_path / "v", {
        "recurring.md": f"---\ndescription: Market day preparation\ntype: project\n---\n{recurring}\n",
        "once.md": f"---\ndescription: Market prep list\ntype: project\n---\n{once}\n",
    })
    _, findings = lint_json(run_cli, vault, "--select", "S102")
    assert {f["path"] for f in findings} == {"once.md"}


CJK = {
    # "Current state: only test sends so far" (a newsletter tool).
    "ko-now.md": ("project", "- **현재 상태**: 테스트 발송만 했고 실제 발송은 아직 없음", True),
    # "Done (2026-05-29):" heading what was finished that day.
    "ko-done-on.md": ("project", "**완료(2026-05-29):**\n- 구독 폼 동의 체크박스\n- 개인정보 처리방침 페이지", True),
    # "The next session starts with the fare rules" (a ferry app).
    "ko-next.md": ("project", "시간표 동기화는 끝났다. 다음 세션에서 요금 규칙 이전부터 한다.", True),
    # "Installed on 2026-06-11": history inside a sentence, not a board label.
    "ko-history.md": ("project", "렌더러는 전역 설치 완료(2026-06-11) 상태로 모든 프로젝트가 공유한다.", False),
    # A feedback rule that names the next session as where it applies.
    "ko-feedback.md": ("feedback", "핸드오프 파일 경로를 출력해서 사용자가 다음 세션에서 바로 읽게 한다.", False),
    # "In the next session always read the handoff first": a rule.
    "zh-rule.md": ("project", "下次会话开始时总是先读交接文件。", False),
    # "Status definitions": what each state means.
    "ja-states.md": ("reference", "状態の定義：\n- 未着手: 誰も手を付けていない\n- 完了: レビュー済み", False),
}


def test_cjk_status_labels_and_the_next_session(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    cards = {name: f"---\ndescription: 작업 메모\ntype: {t}\n---\n{body}\n" for name, (t, body, _) in CJK.items()}
    vault = make_vault(tmp_path / "v", cards)
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert {f["path"] for f in findings} == {name for name, (_, _, s) in CJK.items() if s}


def test_cjk_units() -> None:
    assert session_status.cjk_snapshot("- **현재 상태**: 초안만 있음") is not None
    assert session_status.cjk_snapshot("상태 정의: 대기, 완료") is None
    assert session_status.cjk_next("다음 단계는 사용자 검토") == "다음 단계는"
    assert session_status.cjk_next("다음 세션에서는 항상 인계 파일을 먼저 읽는다.") is None


NOTES = {
    # Work notes as an agent leaves them in a memory file: a progress section, a diary, a run, a hand-off.
    "progress.md": "## Progress\n\nThe parser rewrite is mostly there. Tokenizer and AST are done; the printer is about half converted.",
    "diary.md": "Removed the legacy cookie path. Kept the JWT middleware as is. The refresh endpoint still returns 500 on expired tokens.",
    "run.md": "Test suite: 1,832 passing, 2 failing (both in test_geo).",
    "reviewing.md": "Priya is reviewing the schema PR; she wants the index names changed.",
    "underway.md": "Big refactor of the notification service underway: the email channel is ported, SMS and push are not.",
    "broken.md": "The docs site build is broken since the theme bump; I pinned the old theme locally only.",
    "midway.md": "Midway through the Terraform split: network and DNS modules extracted, compute still in the root module.",
}
RULES = {
    "adr.md": "## Status\n\nAccepted.\n\n## Decision\n\nEvents are stored as JSON lines, one file per day.",
    "progress-rule.md": "Progress is tracked on the board, never in memory.",
    "shift.md": "Midway through a shift, drivers take a 20-minute break.",
    "class.md": "Jobs that are almost done cannot be cancelled.",
    "duty.md": "Lena is reviewing all contracts for the Dutch office from now on.",
    "drafts.md": "We store drafts locally only, and sync them on publish.",
    "offline.md": "The app mostly works offline; only payments need a connection.",
}


def test_work_notes_of_an_agent_and_the_rules_beside_them(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    cards = {name: f"---\ndescription: Note {name}\ntype: project\n---\n{body}\n" for name, body in (NOTES | RULES).items()}
    vault = make_vault(tmp_path / "v", cards)
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert {f["path"] for f in findings} == set(NOTES)


def test_import_of_a_hand_kept_memory_md_refuses_its_work_notes(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "# Memory\n\n- The release branch is cut every second Tuesday.\n"
        "- PR 212 has one approval; the colour change is still to make.\n"
        "- Up to step 4 of the scale calibration.\n", encoding="utf-8")
    result = run_cli("--vault", str(root), "import", str(root / "MEMORY.md"), "--apply")
    assert result.exit_code == 1, result.stderr  # refusals
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "second Tuesday" in index
    assert "PR 212" not in index and "step 4" not in index
