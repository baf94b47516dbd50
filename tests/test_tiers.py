"""The tiers meet: consolidation reads new log entries, status shows each tier's backlog, add sends session notes to the log."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

NOW = {"CARDS_NOW": "2026-11-30T09:00:00Z", "CARDS_TODAY": "2026-11-30"}
DURABLE = "Decided: invoice exports stream rows to the file, they never build the whole export in memory."
PROGRESS = "Working on the export screen, the CSV toggle is half done"


def _log(invoke: Callable[..., Result], text: str) -> None:
    assert invoke("log", text, env=NOW).exit_code == 0


def _paths(invoke: Callable[..., Result]) -> list[str]:
    return sorted(str(c["path"]) for c in json.loads(invoke("list", "--format", "json").stdout))


def test_durable_statements_in_new_log_entries_become_cards_once(invoke: Callable[..., Result], vault: Path) -> None:
    _log(invoke, PROGRESS)
    _log(invoke, DURABLE)
    before = (vault / "log" / "2026-11-30.md").read_bytes()
    dry = invoke("consolidate", "--dry-run", env=NOW)
    assert dry.exit_code == 0 and "1 durable statement(s) would become cards" in dry.stdout
    assert _paths(invoke) == []
    done = invoke("consolidate", "--format", "json", env=NOW)
    report = json.loads(done.stdout)["from_logs"]
    assert report["job"] and [c["accepted"] for c in report["candidates"]] == [True]
    assert report["candidates"][0]["source"] == "log/2026-11-30.md:4"
    cards = _paths(invoke)
    assert len(cards) == 1
    card = (vault / cards[0]).read_text(encoding="utf-8")
    assert "never build the whole export in memory" in card and "source: log/2026-11-30.md:4" in card
    assert (vault / "log" / "2026-11-30.md").read_bytes() == before  # logs are never rewritten
    again = json.loads(invoke("consolidate", "--format", "json", env=NOW).stdout)["from_logs"]
    assert again == {"job": None, "read": [], "candidates": []}  # read once
    # A hand edit of the part already read: read again whole, and the gate refuses the copy
    path = vault / "log" / "2026-11-30.md"
    path.write_text(path.read_text(encoding="utf-8").replace("half done", "half way"), encoding="utf-8")
    reread = json.loads(invoke("consolidate", "--format", "json", env=NOW).stdout)["from_logs"]
    assert reread["read"] == ["log/2026-11-30.md"] and not any(c["accepted"] for c in reread["candidates"])
    assert len(_paths(invoke)) == 1


def test_no_logs_leaves_the_log_unread(invoke: Callable[..., Result], vault: Path) -> None:
    _log(invoke, DURABLE)
    assert invoke("consolidate", "--no-logs", env=NOW).exit_code == 0
    assert _paths(invoke) == []
    status = json.loads(invoke("status", "--format", "json", env=NOW).stdout)["tiers"]
    assert status["log"] == {"folder": "log", "days": 1, "unread_days": 1, "unread_entries": 1}
    assert status["state"]["written"] is None
    text = invoke("status", env=NOW).stdout
    assert "raw log: 1 entr(ies) in 1 day(s) not yet consolidated" in text
    invoke("consolidate", env=NOW)
    invoke("state", env=NOW)
    status = json.loads(invoke("status", "--format", "json", env={**NOW, "CARDS_NOW": "2026-11-30T12:00:00Z"}).stdout)
    assert status["tiers"]["log"]["unread_entries"] == 0
    assert status["tiers"]["state"] == {"file": "CURRENT_STATE.md", "written": "2026-11-30T09:00:00+00:00",
                                        "age_hours": 3.0}


def test_add_points_session_notes_to_the_log_and_to_log_sends_them(invoke: Callable[..., Result], vault: Path) -> None:
    refused = invoke("add", "Currently halfway through the export screen; next step is the CSV toggle")
    assert refused.exit_code == 1 and "cards log" in refused.stderr and "--to-log" in refused.stderr
    sent = invoke("add", "--to-log", "Currently halfway through the export screen; next step is the CSV toggle",
                  env=NOW)
    assert sent.exit_code == 0 and sent.stdout.startswith("logged to log/2026-11-30.md:3")
    assert _paths(invoke) == []
    durable = invoke("add", "--to-log", "-d", "Which weekday deploys go out", "Deploys go out on Tuesdays.")
    assert durable.exit_code == 0 and durable.stdout.strip().endswith(".md")  # a durable card is still a card
    assert len(_paths(invoke)) == 1
