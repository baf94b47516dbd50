"""A card that retires another card's value is a change of that fact (C103), whatever the wording.

"We no longer use Sentry for the slicer; crash reports now go to GlitchTip" against an
older "Errors from the slicer app are reported to Sentry": the descriptions share little,
so the slot model left them apart, and both stayed live. The newer card names the older
card's value as gone and is about the same subject: a contradiction, and consolidation
supersedes the older card by the newer (its change signal decides). What a card prefers
over code it names, a procedure in the present passive, and a retired thing another card
does not state are no pair.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.change import retired

Invoke = Callable[..., Result]


@pytest.mark.parametrize(("text", "gone"), [
    ("We no longer use Sentry for the kiln app.", {"sentri"}),
    ("Sentry is no longer used.", {"sentri"}),
    ("We stopped using Jenkins in March.", {"jenkin"}),
    ("Builds moved off Travis to Buildkite.", {"travi"}),
    ("We switched from Yarn to pnpm last spring.", {"yarn"}),
    ("Redis was dropped from the queue path.", {"redi"}),
    ("Deploys run on Fridays.", set()),
    ("Old tide tables are replaced weekly.", set()),  # a procedure, not a retirement
    ("Use `pathlib.Path` rather than `os.path` in new code.", set()),  # the names were code
])
def test_what_a_card_retires(text: str, gone: set[str]) -> None:
    assert retired(text) == gone


def _card(vault: Path, name: str, description: str, body: str, day: str) -> None:
    (vault / name).write_text(f"---\ndescription: {description}\ntype: project\ncreated: {day}\nverified: {day}\n---\n"
                              f"{body}\n", encoding="utf-8")


def _contradictions(invoke: Invoke) -> set[tuple[str, str]]:
    data = json.loads(invoke("lint", "--format", "json").stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    return {(f["path"], ",".join(f.get("related") or [])) for f in findings if f["code"] == "C103"}


def test_a_newer_card_retiring_the_value_supersedes_the_older(vault: Path, invoke: Invoke) -> None:
    _card(vault, "old.md", "Error tracking for the kiln app",
          "Errors from the kiln desktop app are reported to Sentry (org kiln).", "2026-03-02")
    _card(vault, "new.md", "Where kiln crash reports go",
          "We no longer use Sentry for the kiln app; crash reports now go to GlitchTip.", "2026-04-21")
    assert _contradictions(invoke) == {("old.md", "new.md"), ("new.md", "old.md")}
    plan = json.loads(invoke("consolidate", "--dry-run", "--format", "json").stdout)
    assert [(d["action"], d["card"], d["related"]) for d in plan["decisions"]] == [("supersede", "old", ["new"])]


def test_a_retired_name_the_other_card_does_not_state_is_no_pair(vault: Path, invoke: Invoke) -> None:
    _card(vault, "ci.md", "Which CI runs the kiln builds",
          "We no longer use Jenkins; kiln builds run on Buildkite.", "2026-04-21")
    _card(vault, "errors.md", "Error tracking for the kiln app",
          "Errors from the kiln desktop app are reported to Sentry.", "2026-03-02")
    _card(vault, "owner.md", "Who owns the glaze database",
          "Priya owns the glaze database; we stopped using the shared spreadsheet for it.", "2026-04-01")
    assert _contradictions(invoke) == set()
