"""Session notes without session words (issue 14, class 6): a diary's grammar and a piece of work given its state.

A note written mid-session drops its subject ("Rebased the timetable branch onto main",
"Started porting the fare rules"), or gives a piece of work its state ("the fare PR is
up for review", "root cause not found yet", "6 failing specs left", "Note to self: …").
Durable cards open with participles that name a class ("Cancelled sailings are refunded
in full"), say "when there are uncommitted changes" as a condition, or count parts of a
system ("Two of the three ferries carry cars"). Domains: a ferry operator's booking app
and a public library's catalogue.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import session_ellipsis
from tests.test_lint_rules import lint_json, make_vault

POSITIVES = {
    "rebased.md": "Rebased the timetable branch onto main; the fare tests pass again locally.",
    "porting.md": "Started porting the fare rules to the new pricing engine.",
    "handed.md": "Handed the refund bug to Priit with the two failing bookings attached.",
    "review.md": "The seat-map PR is up for review; Kadri has it.",
    "not-yet.md": "The duplicate holds are reproduced on staging; root cause not found yet.",
    "left.md": "Catalogue import: 6 failing specs left, all about ISBN-10 checksums.",
    "self.md": "Note to self: clear the barcode cache before demoing the self-checkout.",
    "didnt.md": "Didn't get to the overdue-fines report. It goes first after the holiday.",
    "two-of.md": "Moving the branch libraries to the new loan API: three of seven moved.",
}

NEGATIVES = {
    "cancelled.md": "Cancelled sailings are refunded in full to the original card within five days.",
    "signed.md": "Signed boarding passes carry a QR code that the gate scanner checks offline.",
    "replaced.md": "Replaced the paper tickets with QR passes in 2023 because the printers kept jamming; keep QR only.",
    "set-timeout.md": "Set the payment timeout to 90 seconds; the card terminal needs that long on 3G.",
    "uncommitted.md": "The release script refuses to run when there are uncommitted changes in the repo.",
    "two-ferries.md": "Two of the three ferries carry cars; the third takes foot passengers only.",
    "queue.md": "The circulation desk sees the holds that are up for review first, oldest at the top.",
    "next-colon.md": "Borrowing flow in the app — Next: the loan period screen, then the pickup branch screen.",
    "exported.md": "Exported loan histories omit the borrower's name, as the privacy policy requires.",
    "left-luggage.md": "Left luggage is kept at the Tallinn terminal for 30 days, then donated.",
    "signed-2024.md": "Signed the card-terminal contract in 2024; it covers the two northern routes only.",
    "forked.md": "Forked the barcode library to read damaged labels; upstream declined the patch, so rebase it on each release.",
    "verified.md": "Verified 2026-03-02 with the harbour master.",
}


def _card(body: str) -> str:
    return f"---\ndescription: A note on the booking app\ntype: project\n---\n{body}\n"


@pytest.fixture
def found(tmp_path: Path, run_cli: Callable[..., Result]) -> dict[str, str]:
    vault = make_vault(tmp_path / "v", {name: _card(body) for name, body in (POSITIVES | NEGATIVES).items()})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    return {f["path"]: f["message"] for f in findings}


@pytest.mark.parametrize("name", sorted(POSITIVES))
def test_a_diary_note_or_a_state_of_work_is_session_only(found: dict[str, str], name: str) -> None:
    assert name in found, f"{name} not flagged"


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_participles_conditions_and_counts_of_a_system_stay_clean(found: dict[str, str], name: str) -> None:
    assert name not in found, found[name]


def test_the_message_says_what_shape_it_read(found: dict[str, str]) -> None:
    assert found["rebased.md"] == ("session-only: 'Rebased the': a diary of one session: "
                                   "work told with its subject left out")
    assert found["review.md"] == "session-only: 'is up for review': the state of a piece of work in one session"


def test_elided_reads_only_a_past_tense_with_an_object() -> None:
    assert session_ellipsis.elided("Bumped the map tiles to v4.") == "Bumped the"
    assert session_ellipsis.elided("Picked up the ticket about late fees.") == "Picked up the"
    assert session_ellipsis.elided("Deprecated endpoints answer 410.") is None  # a participle naming a class
    assert session_ellipsis.elided("Put the cache in front of the API.") is None  # an imperative spelled alike
    assert session_ellipsis.elided("Embed the widget with the script tag.") is None
    assert session_ellipsis.elided("Recorded that the fines stop at 10 euros.") is None  # "that" opens a clause
    assert session_ellipsis.elided("Moved the cron to 02:00 because backups collided.") is None  # a decision's why


def test_a_rule_in_the_card_keeps_one_diary_sentence_as_its_anecdote(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {"lesson.md": _card(
        "Dropped the nightly vacuum once and the loans table bloated to 40 GB. Never skip the vacuum job.")})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert findings == []


def test_add_refuses_a_diary_note(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {})
    refused = run_cli("--vault", str(vault), "add", "Swapped the fake payment provider for the sandbox.",
                      "--description", "Payment provider in tests")
    assert refused.exit_code == 1 and "S103" in refused.stderr
    taken = run_cli("--vault", str(vault), "add", "Cancelled sailings are refunded in full within five days.",
                    "--description", "Refunds for cancelled sailings")
    assert taken.exit_code == 0, taken.stderr


@pytest.mark.parametrize(("text", "flagged"), [
    ("We've been rebuilding the holds queue since lunch.", True),
    ("I've been chasing the duplicate-barcode bug all morning.", True),
    ("Real card readers only in the kiosk tests; we've been burned by the simulator before.", False),
    ("I have been told by the library board never to email borrowers about fines.", False),
])
def test_been_is_progress_but_been_burned_is_a_lesson(tmp_path: Path, run_cli: Callable[..., Result], text: str,
                                                      flagged: bool) -> None:
    vault = make_vault(tmp_path / "v", {"c.md": f"---\ndescription: Kiosk tests\ntype: feedback\n---\n{text}\n"})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert bool(findings) is flagged, findings
