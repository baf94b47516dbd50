"""A link's target is a name, not prose: session words inside it say nothing.

`[[ship-blocked-by-ci]]` names a card, so prose() drops it; a Markdown link
(`[why](upgrades-blocked-on-weekends.md)`) is taken out whole by the session rules'
statement lines. The same words written as prose still count.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.text import strip_non_prose
from tests.conftest import card_text


def test_wikilink_names_leave_the_prose() -> None:
    assert "blocked" not in strip_non_prose("Related: [[ship-blocked-by-ci]], [[halfway-done-notes]].")
    assert strip_non_prose("see [the refund rule](refund-rule.md) first") == "see [the refund rule](refund-rule.md) first"


def _session_codes(invoke: Callable[..., Result]) -> list[str]:
    data = json.loads(invoke("lint", "--format", "json").stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    return [f["code"] for f in findings if str(f["code"]).startswith("S")]


@pytest.mark.parametrize("body", [
    "Run the harbour sync from a lane clone, never the shared checkout. Related: [[sync-blocked-by-lock]].",
    "Cabin upgrades are sold only at the desk; see [why](upgrades-blocked-on-weekends.md).",
])
def test_a_durable_card_linking_a_session_sounding_name_is_clean(body: str, vault: Path,
                                                                 invoke: Callable[..., Result]) -> None:
    (vault / "rule.md").write_text(card_text("Where cabin and sync rules live", body=body), encoding="utf-8")
    assert _session_codes(invoke) == []


def test_the_same_words_as_prose_are_still_session(vault: Path, invoke: Callable[..., Result]) -> None:
    (vault / "now.md").write_text(card_text("Harbour sync state", body="Sync blocked on the lock until Sam is back."),
                                  encoding="utf-8")
    assert _session_codes(invoke) == ["S101"]
