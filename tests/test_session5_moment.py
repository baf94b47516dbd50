"""Session notes told by their grammar (issue 14, class 6, fifth pass), and the durable look-alikes.

A note of one sitting leaves its subject and verb out ("Parking it; …", "Was going to
re-encode the archive"), says what is not known yet ("Still unclear why …"), gives items
their state in one line ("timed entry done, group discounts not wired"), marks work done
on a day ("Done Mar 3") or names one numbered sprint's notes. Durable text uses the same
words inside a full clause ("Stopping the transmitter requires two people"), about a
kind of thing ("Refunds pending approval are held"), or as a name ("writes Handoff
Notes"). Domains: a community radio station, a vineyard's sensors, a small museum.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.meaning import session_dates, session_moment
from tests.test_lint_rules import lint_json, make_vault

POSITIVES = {
    # the writer's act with the subject left out
    "parking.md": "Parking it until the codec question is answered; the re-encode script stays as it is.",
    "testing-that.md": "Working theory: the dropouts come from the USB hub. Testing that on the next shift.",
    "shelving.md": "Shelving the playlist importer; the metadata from the old system is too messy.",
    "was-going.md": "Was going to re-encode the archive, but the disk filled up halfway.",
    # what the writer does not know yet
    "unclear.md": "Still unclear why the vine-row sensors all report at 3 a.m.",
    "cannot-repro.md": "Cannot reproduce the stream dropout on the studio PC.",
    # one day's meeting, a task that has not happened
    "friday-sync.md": "Points for Friday's sync with the vineyard owner: frost alarms and the new valve.",
    "cutover.md": "The DNS cutover has not happened; listeners still reach the old stream host.",
    # a one-line board, one open item, a run's state
    "board-line.md": "Museum tickets: timed entry done, group discounts not wired, refunds untouched.",
    "open-item.md": "Approval pending — ask the curator about the loan form.",
    "green.md": "Release 4.2 tagged, all tests green.",
    "tbd.md": "Colour of the new station logo: TBD — the designer decides.",
    "needs.md": "The donor page needs its Gift Aid wording updated.",
    # an item marked done on a day
    "dated-done.md": "| Exhibit | State |\n| --- | --- |\n| Map room | Done Mar 3 |\n| Audio guide | drafting |",
    # the narrowed readings still flag their session uses
    "not-yet-state.md": "The licence import is not yet finished.",
    "in-progress-state.md": "Archive digitisation in progress; the first forty tapes are scanned.",
    "this-session.md": "This session I moved the jingles to the new bucket.",
    "narrative.md": "We made the jingle loop shorter, then we fixed the fade, then I pushed it.",
    "wip.md": "WIP: the Saturday schedule, do not publish it.",
    "next-week.md": "Next week the transmitter gets its new antenna.",
    "pick-up.md": "Pick up from the last logged hour of the overnight show.",
    "where-we-are.md": "Where we are: the playout server is half migrated.",
    "handoff.md": "Handoff notes: the ad break timer is half wired.",
}

NEGATIVES = {
    "keeping-it.md": "Keeping it short helps the night presenters read the weather on air.",
    "stopping.md": "Stopping the transmitter requires two people on site and a call to the regulator.",
    "were-going.md": "We were going to use Icecast, but chose a hosted stream because the studio has no static IP.",
    "unclear-noun.md": "Unclear instructions in a ticket go back to the reporter before anyone starts work.",
    "cannot-rule.md": "It cannot be reproduced in the simulator, so field logs are the evidence for sensor faults.",
    "friday-rule.md": "Friday's sync is skipped in harvest weeks.",
    "not-acknowledged.md": "A donation that has not been acknowledged within a week triggers a reminder letter.",
    "fields.md": "Ticket fields: name required, email optional, phone hidden.",
    "colours.md": "On the exhibit board, red means blocked and green means done.",
    "pending-approval.md": "Refunds pending approval are held for 48 hours.",
    "merge-green.md": "Merge only when all checks are green.",
    "incident-green.md": "During the March outage nobody could stream, all checks green.",
    "tbd-named.md": "Fields marked TBD in the grant form are skipped by the importer.",
    "renamed-field.md": "A renamed field needs its readers updated in the same release.",
    "released.md": "| Version | Released | Notes |\n| --- | --- | --- |\n| 2.0 | Released 2024-03-01 | first public API |",
    "completed-history.md": "The archive migration completed on 2024-03-01, so recordings before that are in FLAC.",
    "not-yet-kind.md": "Listeners can request tracks not yet licensed; the request goes to the music director.",
    "not-yet-subject.md": "Presenters not yet trained may not run the desk alone.",
    "work-in-progress.md": "Volunteers treat the archive as a work in progress: anyone may add a tape.",
    "agent-table.md": "| Agent | Role |\n| --- | --- |\n| This session (the scheduler agent) | builds the rota |",
    "relative.md": "The changes we made to the studio mixer are logged in the engineering book; read it first.",
    "may-wip.md": "Draft schedules may stay WIP until Thursday noon; after that the rota locks.",
    "anything.md": "Anything learned during a shift that still matters next week goes into the handbook.",
    "governed.md": "**How to apply:** When a listener asks about a missing show, check the archive. Pick up from the last logged hour.",
    "quoted.md": ('Paste this to start the helper: "You are the station helper; read the rota file, tell me where we '
                  'are, and wait for the presenter to confirm the running order."'),
    "named-notes.md": "The scheduler agent writes Handoff Notes and the presenter agent reads them.",
}


def _card(body: str) -> str:
    return f"---\ndescription: A note on the station's tools\ntype: project\n---\n{body}\n"


_FOUND: dict[str, str] = {}


@pytest.fixture
def found(tmp_path: Path, run_cli: Callable[..., Result]) -> dict[str, str]:
    """The session findings of one vault of every example, linted once for the module."""
    if not _FOUND:
        vault = make_vault(tmp_path / "v", {n: _card(b) for n, b in (POSITIVES | NEGATIVES).items()})
        _, findings = lint_json(run_cli, vault, "--select", "session")
        _FOUND.update({f["path"]: f["message"] for f in findings})
        _FOUND["(linted)"] = ""
    return _FOUND


@pytest.mark.parametrize("name", sorted(POSITIVES))
def test_a_note_of_the_sitting_is_session_only(found: dict[str, str], name: str) -> None:
    assert name in found, f"{name} not flagged"


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_the_same_words_in_a_full_clause_or_a_rule_stay_clean(found: dict[str, str], name: str) -> None:
    assert name not in found, found[name]


def test_sprint_notes_are_a_report_and_sprint_rules_are_not(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    notes = "---\nname: Sprint 7 — review notes\ndescription: What the station app sprint covered\ntype: project\n---\nThe rota view and the ad timer.\n"
    rule = "---\nname: Sprint length\ndescription: How long a sprint lasts at the station\ntype: project\n---\nA sprint is two weeks and ends on a Friday.\n"
    section = ("---\ndescription: Physics fixes of the simulator\ntype: project\n---\n"
               "## Sprint 3 fixes — June 4 2026\n\nThe drag term is squared, not doubled.\n")
    undated = ("---\ndescription: How the simulator's API grew\ntype: project\n---\n"
               "## Sprint 3 changes\n\nEvery endpoint takes a units parameter.\n\n## Review format\n\nOne hour, demo first.\n")
    vault = make_vault(tmp_path / "v", {"notes.md": notes, "rule.md": rule, "section.md": section, "undated.md": undated})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert [(f["path"], f["code"]) for f in findings] == [("notes.md", "S101"), ("section.md", "S101")]
    assert "numbered sprint" in findings[0]["message"]


def test_add_refuses_a_pause_note(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {})
    refused = run_cli("--vault", str(vault), "add", "Shelving the playlist importer; the metadata is too messy.",
                      "--description", "Playlist importer")
    assert refused.exit_code == 1 and "S101" in refused.stderr


def test_units_read_grammar() -> None:
    assert session_moment.moment("Parking it.") == "Parking it"
    assert session_moment.moment("Caching it for a day is safe.") is None
    assert session_moment.board_line("Export: empty state done, toggle not wired.") is not None
    assert session_moment.board_line("EAPOL handshake started, didn't complete.") is None  # a symptom, no items
    assert session_moment.finite("BE build green") is False  # an acronym is not a verb
    assert session_dates.dated_state("| Phase 1 | Done May 12 |") == "Done May 12"
    assert session_dates.dated_state("| 2.0 | Shipped 2024-03-01 |") is None
    assert session_dates.period_title("Iteration 4 review") == "Iteration 4 review"
    assert session_dates.period_title("Sprint review format") is None


_ITEM = st.text(alphabet="abcdefghij ", min_size=1, max_size=20).filter(lambda s: s.strip() != "")


@settings(max_examples=60, deadline=None)
@given(st.lists(_ITEM, min_size=2, max_size=5))
def test_items_each_given_a_verb_are_never_a_board(items: list[str]) -> None:
    """A list whose every item says something with a verb ("x is done") defines, it does not report."""
    sentence = ", ".join(f"{item.strip()} is done" for item in items) + "."
    assert session_moment.board_line(sentence) is None


def test_import_refuses_notes_of_the_sitting_and_keeps_the_rule(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {})
    memory = tmp_path / "MEMORY.md"
    memory.write_text("# Memory\n\n"
                      "- The stream encoder runs at 128 kbps, because the transmitter link caps at 160.\n"
                      "- Shelving the playlist importer; the metadata from the old system is too messy.\n"
                      "- Museum tickets: timed entry done, group discounts not wired, refunds untouched.\n", encoding="utf-8")
    result = run_cli("--vault", str(vault), "import", str(memory))
    assert "1 accepted, 2 refused (session 2)" in result.stdout + result.stderr
