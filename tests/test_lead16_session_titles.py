"""A card's own title and its bold labels are read as its name and its headings (lead, session 16).

Two gaps of the session shapes, both about how Markdown is written rather than which words
are used: a board whose groups are headed by a bold line ("**Shipped**" then items,
"**Still open**" then items) was not read as a board, because a label that is not a
heading passed the status filter only with a colon; and a dated record was recognised by
its file name, `name` or description only, not by the title its body opens with ("# Handover
(Thu 2026-10-08)", "Retro 2026-09-30: …"). The hard negatives carry the same forms durably.
A sailing club's memory, a domain unlike the corpora's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from tests.test_lint_rules import lint_json, make_vault


def card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{body}\n"


SESSION = {
    "bold-board.md": card("Where the regatta website stands", "**Shipped**\n- entry form\n- results page\n\n"
                          "**Still open**\n- sponsor logos\n- the photo gallery"),
    "dated-heading.md": card("Notes for the other instructor", "# Handover (Thu 2026-10-08)\n\n"
                             "- Laser 4 has a cracked tiller\n- The juniors' theory quiz is marked"),
    "dated-label.md": card("What the committee covered", "Retro 2026-09-30: the launch trolley rota worked, "
                           "the bar float was short by 20 euros, Ana chases the insurer."),
    "branch-state.md": card("The results importer branch", "The merge of feat/results-import into main still has "
                            "3 conflicts in the scoring module."),
    "counted-place.md": card("Re-keying the membership list", "Stopped the re-keying at record 640 of 1,900 because "
                             "the club laptop ran out of battery."),
    "tomorrow-once.md": card("Race start", "Tomorrow the club race starts at 11:00 instead of 10:00, for the tide."),
    "clocked.md": card("Weather API", "Ran into the weather API's rate limit at 14:20; the tide page stays blank "
                       "until it resets."),
    "half-written.md": card("Newsletter", "The autumn newsletter is half written: results done, the AGM notice empty."),
    "awaited.md": card("New sail numbers", "Holding the sail number change until the class association answers; "
                       "carry on once Marek confirms."),
}

DURABLE = {
    "bold-rules.md": card("What a finished boat repair means", "**Done** means the boat is signed off in the log "
                          "and back on its rack.\n\n**Open** repairs stay on the whiteboard by the slipway."),
    "dated-decision.md": card("Why juniors sail in pairs", "# Decision (2026-03-14)\n\nJuniors under twelve always "
                              "sail two to a boat, because the rescue boat cannot cover single-handers past the buoy."),
    "checklist-heading.md": card("How the club house is closed", "# Closing checklist (updated 2026-05-02)\n\n"
                                 "- lock the dinghy shed\n- switch off the boiler\n- set the alarm"),
    "branch-names.md": card("How branches are named", "Branches are named feat/short-name or fix/short-name, "
                            "and a fix/ branch needs one approval."),
    "counted-rule.md": card("How the results file is read", "The importer starts reading at row 3 of 3 header rows "
                            "in the federation's export."),
    "tomorrow-habit.md": card("Cut-off for boat bookings", "Boat bookings for tomorrow close at 20:00 each evening, "
                              "so the bosun can rig the boats in the morning."),
    "clocked-rule.md": card("When the tide table is fetched", "Scheduled at 05:00, the tide table fetch finishes "
                            "before the first boats go out."),
    "postmortem.md": card("What the capsize drill taught us", "# Incident summary — capsize drill, 2026-07-19\n\n"
                          "- Cause: the rescue boat's kill cord was missing.\n- Lesson: the kill cord is checked before every launch."),
    # The subject is code: read as prose without it, the sentence opens with its verb ("passed at 12:37").
    "code-subject.md": card("Why the results tests flake", "The suite assumes an empty database. `results-e2e` "
                            "passed at 12:37 and timed out at 16:00 with no code change. Every spec must find "
                            "its own fixtures."),
    "once-rule.md": card("When a race is abandoned", "The race is abandoned once the officer of the day confirms "
                         "the wind is over 25 knots."),
}


@pytest.mark.parametrize("name", sorted(SESSION))
def test_a_board_or_dated_record_written_in_markdown_is_session_only(name: str, tmp_path: Path,
                                                                    run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {name: SESSION[name]})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert [f["path"] for f in findings] == [name]


@pytest.mark.parametrize("name", sorted(DURABLE))
def test_the_same_forms_in_durable_cards_stay_clean(name: str, tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = make_vault(tmp_path / "v", {name: DURABLE[name]})
    _, findings = lint_json(run_cli, vault, "--select", "session")
    assert findings == []
