"""Session-only from the shape of the text as well as its words (issue 14, failure class 6).

Pauses and hand-offs, dated session records, status boards, progress figures, changelogs
of work done and first-person stories are flagged; durable cards that use the same
words (an invariant "at the moment …", a file named TODO.md, a rule about WIP pull
requests, a brief lesson, a rule with a dated example, a date alone) stay clean, and so
do cards in other languages, whatever English words they quote. Every case is written
here, in domains of its own (a harbour, a greenhouse, a kiln, a library, an observatory).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.lint import session
from cardindex.meaning.session_shape import english, shapes
from cardindex.store.card import Card
from tests.test_lint_rules import lint_json, make_vault

# rel -> (description, body, extra fields, the session codes expected)
POSITIVE: dict[str, tuple[str, str, dict[str, str], set[str]]] = {
    "pause-left-on.md": ("Tide table screen", "Left on the tide-table screen: the empty state and the offline toggle.", {}, {"S101"}),
    "pause-stopping.md": ("Sensor calibration cleanup", "Stopping the sensor calibration cleanup here.", {}, {"S101"}),
    "pause-about-to.md": ("Firmware toolchain", "Was about to bump the firmware toolchain to version 14.", {}, {"S101"}),
    "next-sitting.md": ("Humidity alarm", "Next session: wire the humidity alarm to the pager.", {}, {"S101"}),
    "as-of.md": ("Catalogue importer tickets", "As of 2026-04-02 there are 14 open tickets against the catalogue importer.", {}, {"S101"}),
    "dated-record.md": (
        "What the greenhouse work covered", "The valve driver and two controllers were reflashed.",
        {"name": "Greenhouse session 2026-04-09"}, {"S101"}),
    "board.md": (
        "Greenhouse controller rollout",
        "Rollout of the new controllers:\n\n- Valve driver: DONE\n- Humidity alarm: IN PROGRESS\n- Frost guard: PENDING",
        {}, {"S101", "S102"}),  # "in progress" is a dating word too
    "percent.md": ("Catalogue importer port", "The port of the catalogue importer to the new parser is 80% complete.", {}, {"S102"}),
    "test-count.md": (
        "Ferry timetable service checks",
        "Timetable service:\n\n- DST fixture: BLOCKED\n- Suite: 412 passing, 3 failing", {}, {"S102"}),
    "changelog.md": (
        "Ferry schedule work",
        ("- Added the tide offset table\n- Fixed the jump at the DST change in the ferry schedule\n"
         "- Rewrote the legend of the harbour map\n- Moved the berth list to the sidebar"), {}, {"S103"}),
    "commits.md": ("Ferry branch", "The ferry branch carries `a1b2c3d`, `9f8e7d6` and `0c1d2e3` on top of main.", {}, {"S103"}),
    "story.md": (
        "Oven timers", "I moved the oven timers to the new board, then we tried the old firmware again.", {}, {"S103"}),
    "ticked-checklist.md": (
        "Kiln release", "## Release checklist\n\n- [x] fire the staging kiln\n- [ ] tag the firmware", {}, {"S102"}),
    "status-heads.md": (
        "Harbour map work", "Shipped:\n\n- the tide table\n- the berth legend\n\nRemaining:\n\n- the frost guard", {}, {"S102"}),
    "snapshot-title.md": (
        "Where the importer move stands", "The importer reads the new feed; the old parser still serves the archive.",
        {"name": "Catalogue importer migration status"}, {"S102"}),
    "dated-audit.md": (
        "What the scheduler review found", "The queue starves jobs longer than a night.",
        {"name": "Observatory scheduler audit 2026-05-07"}, {"S101"}),
    "mark-report.md": (
        "Harbour map release", "✅ Added the tide table\n✅ Fixed the berth legend\n⏳ Frost guard", {}, {"S102"}),
    "status-note.md": ("Tide app production", "Production deploy of the tide app: DEPLOYED and RECONCILED.", {}, {"S102"}),
    "korean-board.md": ("온실 제어기 작업", "- 밸브 드라이버 ⏳\n- 습도 경보 ⏳\n- 서리 방지 🔄", {}, {"S102"}),
    "korean-todo.md": ("습도 경보", "TODO: 습도 경보를 호출기에 연결", {}, {"S101"}),
}

NEGATIVE: dict[str, tuple[str, str, dict[str, str]]] = {
    "invariant.md": (
        "When the scheduler hands out a slot",
        "At the moment the pool's firing condition holds, the scheduler hands the slot to the oldest waiting job.", {}),
    "key-files.md": ("Where the plans live", "Key files: PLAN.md (roadmap), TODO.md (tasks), HARBOUR.md (berth map).", {}),
    "wip-rule.md": ("Draft pull requests", "When the user labels a PR WIP, open it as a draft.", {}),
    "supported.md": (
        "Supported browsers", "The currently supported browsers are Firefox ESR and Safari 17; older ones get the plain catalogue.", {}),
    "lesson.md": (
        "Kiln firmware on Fridays",
        "We once flashed the kiln firmware on a Friday and lost the weekend to a bricked controller; never flash kilns on Fridays.", {}),
    "dated-example.md": (
        "Tide offsets by hand",
        "Never change the tide offsets by hand.\n\nExample: on 2026-02-11 a hand edit shifted every ferry by an hour.", {}),
    "decided-on.md": (
        "Observatory queue order", "Decided on 2026-05-02: the observatory queue is first come, first served.",
        {"verified": "2026-05-02"}),
    "since.md": ("Cash rounding at the bakery", "Since 2026-03 the bakery till rounds cash totals to 5 cents.", {}),
    "states.md": (
        "Ticket states of the help desk",
        "- OPEN: a ticket nobody has triaged\n- IN PROGRESS: someone owns it\n- DONE: the fix is deployed", {}),
    "do-dont.md": (
        "Test firings",
        "✅ Use the staging kiln for test firings\n❌ Use the production kiln for test firings\n✅ Log every firing", {}),
    "participles.md": (
        "Manifest fields",
        "Manifest fields:\n\n- Required: a berth id\n- Deprecated: the old pier code\n- Signed manifests only", {}),
    "failing-rule.md": ("Kiln firmware release", "The nightly run must show 0 failing tests before the kiln firmware ships.", {}),
    "dated-title.md": (
        "Why pier 4 takes no ferries", "Pier 4 takes no ferries: the pilings failed the 2026-03-14 survey.",
        {"name": "Pier 4 closed 2026-03-14"}),
    "session-noun.md": (
        "How long a library login session lasts", "A catalogue login session expires after 30 minutes without a request.",
        {"name": "Session timeout"}),
    "korean-today.md": ("배포 요일", "배포는 목요일에만 한다. today 변수는 하드코딩하지 않는다.", {}),
    "czech-wip.md": ("Větve k nasazení", "Větev označená WIP se nikdy nenasazuje na produkci.", {}),
    "chinese-next-step.md": ("发布流程", "发布前 next step 是让值班工程师确认监控。", {}),
    "checklist.md": (
        "Kiln firmware release", "## Release checklist\n\n- [ ] fire the staging kiln\n- [ ] tag the firmware", {}),
    "why-anecdote.md": (
        "Re-read before editing",
        "Re-read a file right before editing it.\n\n**Why:** In this session the scheduler file changed under me twice.", {}),
    "link-title.md": (
        "Offline maps of the tide app", "Offline maps: see [Vendor Just Added Offline Maps](https://example.com/blog).", {}),
    "they-left-off.md": ("Resuming sub-agents", "Sub-agents can be resumed to continue where they left off.", {}),
    "value-list.md": ("Coverage map", "The coverage map tracks a status (Done/In Progress/Pending) per feature.", {}),
    "one-goal.md": (
        "One goal a session",
        "- **One session, one goal.** When the user switches to an unrelated task, suggest closing this session.", {}),
    "status-feedback.md": (
        "Closing help-desk tickets", "Never set a help-desk ticket to Done before the reporter confirms the fix.",
        {"name": "Ticket status", "type": "feedback"}),
    "status-codes.md": (
        "Errors of the ferry API", "The ferry API answers 409 when a berth is already taken.",
        {"name": "Status codes of the ferry API", "type": "reference"}),
    "definition-of-done.md": (
        "When kiln work counts as finished", "Definition of done:\n\n- reviewed by a second potter\n- fired once in the staging kiln", {}),
    "remaining-seats.md": ("Observatory seats", "Remaining seats are released to the public at noon.", {}),
    "closed-class.md": ("Reopening help-desk tickets", "CLOSED tickets are never reopened; file a new one.", {}),
    "set-to-done.md": ("Closing help-desk tickets", "Set a ticket to DONE only after the reporter confirms the fix.", {}),
    "state-flow.md": ("Help-desk ticket flow", "Tickets go OPEN, then IN PROGRESS, then DONE.", {}),
    "reference-boxes.md": (
        "Berthing a ferry", "- [ ] read the tide offset for the pier\n- [ ] confirm the berth with the harbour master",
        {"type": "reference"}),
    "pros-cons.md": (
        "Why the ferry app is split into services",
        ("### Gains\n\n✓ Isolated failure domains\n✓ Deferred event dispatch\n✓ Simplified berth queries\n\n"
         "### Costs\n\n✗ Distributed tracing\n✗ Increased hosting bills"), {}),
    "handing-off.md": ("Before the night shift", "Run the harbour map tests before handing off work to the night shift.", {}),
    "history.md": (
        "History of pier 4",
        "- Built in 1920 for the mail boats\n- Rebuilt after the storm of 1962\n- Closed to ferries since the 2026 survey", {}),
    "decision.md": (
        "Why the catalogue uses one queue",
        "We decided to keep one import queue because two queues raced on the same ISBN.", {}),
}


def _vault(tmp_path: Path, make_card, cards: dict[str, tuple[str, str, dict[str, str]]]) -> Path:
    return make_vault(tmp_path / "vault", {rel: make_card(d, body=b, **extra) for rel, (d, b, extra) in cards.items()})


def _codes(findings: list[dict[str, object]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for f in findings:
        out.setdefault(str(f["path"]), set()).add(str(f["code"]))
    return out


def test_each_shape_is_flagged_and_each_durable_use_is_clean(tmp_path, run_cli, make_card):
    cards = {rel: (d, b, x) for rel, (d, b, x, _) in POSITIVE.items()} | NEGATIVE
    _, findings = lint_json(run_cli, _vault(tmp_path, make_card, cards), "--select", "session")
    assert _codes(findings) == {rel: codes for rel, (*_, codes) in POSITIVE.items()}
    assert {f["fix"] for f in findings} == {"archive"}


@pytest.mark.parametrize("rel", sorted(NEGATIVE))
def test_hard_negative_alone_is_clean(tmp_path, run_cli, make_card, rel):
    assert lint_json(run_cli, _vault(tmp_path, make_card, {rel: NEGATIVE[rel]}), "--select", "session") == (0, [])


def test_a_dated_record_is_reported_on_its_name_line(tmp_path, run_cli, make_card):
    _, findings = lint_json(run_cli, _vault(tmp_path, make_card, {"x.md": POSITIVE["dated-record.md"][:3]}), "--select", "S101")
    assert [(f["line"], "dated session record" in f["message"]) for f in findings] == [(4, True)]


def test_a_file_name_with_a_session_date_is_a_record(tmp_path, run_cli, make_card):
    card = ("What the kiln work covered", "The kiln controller was reflashed twice.", {})
    _, findings = lint_json(run_cli, _vault(tmp_path, make_card, {"kiln_session_20260409.md": card}), "--select", "session")
    assert _codes(findings) == {"kiln_session_20260409.md": {"S101"}}


def test_a_session_noun_in_the_description_needs_a_report_in_the_body(tmp_path, run_cli, make_card):
    named = ("Deferred from the 2026-05-21 session: one-shot query mode", "The query box answers in one shot; no review step.", {})
    reported = ("Work of the 2026-05-21 session", "- Valve driver: DONE\n- Frost guard: PENDING", {})
    _, findings = lint_json(run_cli, _vault(tmp_path, make_card, {"named.md": named, "reported.md": reported}), "--select", "S101")
    assert _codes(findings) == {"reported.md": {"S101"}}


def test_add_refuses_a_pause_and_accepts_the_invariant(invoke):
    refused = invoke("add", "Left on the tide-table screen: the empty state and the offline toggle.")
    assert refused.exit_code == 1
    assert "S101" in refused.stderr
    accepted = invoke("add", NEGATIVE["invariant.md"][1], "--description", "When the scheduler hands out a slot")
    assert accepted.exit_code == 0, accepted.stderr


def test_add_refuses_a_status_board(invoke):
    result = invoke("add", "-", "--description", "Greenhouse rollout", input=POSITIVE["board.md"][1] + "\n")
    assert result.exit_code == 1
    assert "S102" in result.stderr


def test_import_from_log_keeps_the_durable_statement_and_refuses_the_pause(invoke, tmp_path):
    log = tmp_path / "2026-04-09.md"
    log.write_text(
        "# 2026-04-09\n\n"
        "- 09:10 user: actually, the tide offsets come from the harbour master's feed, never from the old CSV.\n"
        "- 09:40 user: decision: left on the berth screen: the empty state and the legend colours.\n"
        "- 09:50 agent: I moved the berth list and then we tried the new legend.\n",
        encoding="utf-8",
    )
    data = json.loads(invoke("import", "--from-log", str(log), "--format", "json").stdout)
    verdicts = {c["line"]: c["verdict"] for c in data["candidates"]}
    assert verdicts == {3: "accept", 4: "refuse"}


def test_import_of_a_hand_kept_memory_refuses_the_dated_session_bullets(invoke, tmp_path):
    memory = tmp_path / "MEMORY.md"
    memory.write_text(
        "# Harbour\n\n"
        "- Ferries never berth at pier 4: its pilings failed the spring survey.\n"
        "- 2026-04-09 session: shipped the berth legend and the tide table, 212 passing.\n"
        "- Status: frost guard BLOCKED, humidity alarm DONE, valve driver PENDING\n"
        "- **Still open, needing a scanner:** the DAST run and the TLS scan of the berth API.\n"
        "- **Berth API DEPLOYED** to both harbours.\n"
        "- **CLOSED berth requests are never reopened**: file a new one.\n",
        encoding="utf-8",
    )
    data = json.loads(invoke("import", str(memory), "--format", "json").stdout)
    verdicts = {c["line"]: c["verdict"] for c in data["candidates"]}
    assert verdicts == {3: "accept", 4: "refuse", 5: "refuse", 6: "refuse", 7: "refuse", 8: "accept"}


# --------------------------------------------------------------------------- units


@pytest.mark.parametrize(("text", "expected"), [
    ("Left on the export screen: the empty state", True),
    ("WIP: billing worker queue move", True),
    ("배포는 목요일에만 한다 today", False),
    ("发布前 next step 是确认监控", False),
    ("Větev označená WIP se nikdy nenasazuje", False),
    ("The café on the pier opens at nine", True),
    ("12:30", False),
])
def test_english(text, expected):
    assert english(text) is expected


def _card(body: str, **fields: str) -> Card:
    front = "".join(f"{k}: {v}\n" for k, v in {"description": "A card", "type": "project", **fields}.items())
    return Card.from_text("c.md", f"---\n{front}---\n{body}\n")


_TRIGGERS = ("currently fixing", "right now", "WIP", "next step is", "today I", "left off", "for now",
             "I've been", "we fixed", "Stopping here", "was about to", "Next session:", "tomorrow")
_HANGUL = st.text(alphabet=st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=2, max_size=6)


@settings(max_examples=60, deadline=None)
@given(words=st.lists(_HANGUL, min_size=3, max_size=8), trigger=st.sampled_from(_TRIGGERS), at=st.integers(0, 8))
def test_english_triggers_inside_korean_sentences_are_not_read(words, trigger, at):
    words = list(words)
    words.insert(min(at, len(words)), trigger)
    card = _card(" ".join(words) + ".")
    assert list(session.temporal(card, None)) == []  # type: ignore[arg-type]
    assert list(session.narrative(card, None)) == []  # type: ignore[arg-type]


_RULES = (
    "Never change the tide offsets by hand.",
    "Ferries never berth at pier 4.",
    "Always fire the staging kiln before the production kiln.",
    "The observatory queue is first come, first served.",
)


@settings(max_examples=60, deadline=None)
@given(rule=st.sampled_from(_RULES), year=st.integers(2019, 2029), month=st.integers(1, 12), day=st.integers(1, 28),
       form=st.sampled_from(("Example: on {d} a hand edit broke it.", "Verified {d}.", "(decided {d})", "Since {d}.")))
def test_a_date_alone_never_makes_a_session(rule, year, month, day, form):
    card = _card(rule + " " + form.format(d=f"{year}-{month:02d}-{day:02d}"), verified=f"{year}-{month:02d}-{day:02d}")
    assert shapes(card) == []
    for check in (session.temporal, session.todo_list, session.narrative):
        assert list(check(card, None)) == []  # type: ignore[arg-type]
