"""'today' dates a sentence to one day only when the sentence is about that day's work.

"Fixed the flaky login test today", "The migration finished today", "Debugging the outage
today", "Today: …" and "today the export still fails" are one day's work. "Cabins sort by
deck; that is how it works today", "what is infeasible today may be feasible in months"
and "safe-today usage" say "at present": seen as false S101 findings on a real vault.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


def _s101(vault: Path, invoke: Callable[..., Result], body: str) -> bool:
    (vault / "note.md").write_text(f"---\ndescription: How the ferry booking work goes\ntype: project\n---\n{body}\n",
                                   encoding="utf-8")
    data = json.loads(invoke("lint", "--select", "S101", "--format", "json").stdout)
    return bool(data["findings"] if isinstance(data, dict) else data)


@pytest.mark.parametrize("body", [
    "Fixed the flaky kennel booking test today.",
    "The cabin migration finished today.",
    "Debugging the deck-limit outage today.",
    "Today: moved the tide job to the new host.",
    "Today the export still fails on large manifests.",
    "We merged the refund fix today.",
])
def test_one_days_work_is_session(vault: Path, invoke: Callable[..., Result], body: str) -> None:
    assert _s101(vault, invoke, body)


@pytest.mark.parametrize("body", [
    "The ferry API returns cabins sorted by deck; that is how it works today.",
    "What is infeasible on the kiosk today may be feasible in months, so design for the upgrade.",
    "Unplugged mode is safe-today usage of only what the platform ships.",
    "The booking app already reads the tide feed today; the kennel app reads it from the cache.",
])
def test_today_as_at_present_is_not_session(vault: Path, invoke: Callable[..., Result], body: str) -> None:
    assert not _s101(vault, invoke, body)
