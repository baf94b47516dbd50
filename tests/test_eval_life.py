"""bench/eval_life.py: what it measures on a tiny scenario, run as a real process.

One scenario: a fact, a session note the gate must refuse, a change of the fact, a hand
edit, and questions before and after. The numbers must follow from what the CLI did; a
second run with an expectation the vault cannot meet must score it wrong (the scorer can
fail).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "eval_life.py"

STEPS: list[dict[str, Any]] = [
    {"day": "2026-03-02", "do": "add", "text": "The ferry timetable job reads tides at 05:00 from the port feed.",
     "description": "When the timetable job reads the tides"},
    {"day": "2026-03-02", "do": "add", "text": "Halfway through the kennel booking screen, stopping here for today.",
     "description": "kennel screen progress", "expect_refused": True},
    {"day": "2026-03-03", "do": "sleep"},
    {"day": "2026-03-04", "do": "ask", "query": "what time are tides fetched?", "expect": ["05:00"], "reject": ["06:30"]},
    {"day": "2026-04-02", "do": "edit", "of": 0, "text": "The ferry timetable job now reads tides at 06:30 from the port feed."},
    {"day": "2026-04-03", "do": "ask", "query": "what time are tides fetched?", "expect": ["06:30"], "reject": ["05:00"]},
    {"day": "2026-04-03", "do": "ask", "query": "which kafka topic holds cabin upgrades?", "expect_none": True},
]


def _score(tmp_path: Path, steps: list[dict[str, Any]]) -> dict[str, Any]:
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    (folder / "scenarios.json").write_text(json.dumps([{"name": "tides", "steps": steps}]), encoding="utf-8")
    out = tmp_path / "out.json"
    done = subprocess.run([sys.executable, str(SCRIPT), str(folder), "--json", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "answers right" in done.stdout
    return json.loads(out.read_text(encoding="utf-8"))


def test_a_scenario_the_tool_handles_scores_full(tmp_path: Path) -> None:
    summary = _score(tmp_path, STEPS)["summary"]
    assert summary["answers right"] == [3, 3]
    assert summary["  of unknown (no answer)"] == [1, 1]
    assert summary["expected refusals made (recall)"] == [1, 1]
    assert summary["gate refusals expected (precision)"] == [1, 1]
    assert summary["saved texts kept"] == [1, 1]
    assert summary["live cards / accepted adds"] == [1, 1]


def test_an_expectation_the_vault_cannot_meet_is_scored_wrong(tmp_path: Path) -> None:
    steps = [dict(s) for s in STEPS]
    steps[5] = {**steps[5], "expect": ["07:15"]}  # a time no card holds
    steps[1] = {**steps[1], "expect_refused": False}  # and a refusal nobody expected
    report = _score(tmp_path, steps)
    assert report["summary"]["answers right"] == [2, 3]
    assert report["summary"]["gate refusals expected (precision)"] == [0, 1]
    assert [a["right"] for a in report["scenarios"][0]["asks"]] == [True, False, True]


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "missing")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "scenarios.json" in done.stderr
