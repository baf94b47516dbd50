"""A count as it stands ("6 stale branches still exist") and a tracker item's state
("KEN-103 fixed; KEN-104 open") are the state of work, kept by git and the tracker:
session-only. The same words in a decision with its reason, or as an adjective, are not.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


def _session(vault: Path, invoke: Callable[..., Result], body: str) -> bool:
    (vault / "note.md").write_text(f"---\ndescription: Kennel booking work\ntype: project\n---\n{body}\n",
                                   encoding="utf-8")
    data = json.loads(invoke("lint", "--select", "S", "--format", "json").stdout)
    return bool(data["findings"] if isinstance(data, dict) else data)


@pytest.mark.parametrize("body", [
    "6 stale branches still exist in the kennel repo (checked with git branch -a).",
    "3 booking specs still fail on the Safari runner.",
    "KEN-103 fixed; KEN-104 open (the deck limit is still off by one).",
])
def test_the_state_of_work_is_session(vault: Path, invoke: Callable[..., Result], body: str) -> None:
    assert _session(vault, invoke, body)


@pytest.mark.parametrize("body", [
    "KEN-12 is closed as won't fix because the port authority retired the old tide API.",
    "Timestamps in the manifest use the ISO-8601 open format with a UTC offset.",
    "Two copies of the manifest still exist by design: one per harbour, for the customs audit.",
])
def test_decisions_and_adjectives_are_not(vault: Path, invoke: Callable[..., Result], body: str) -> None:
    assert not _session(vault, invoke, body)
