"""D105 reads a doc the repo keeps twice, and the docs' cap leaves the config records alone.

A repo of plugins or skills keeps old versions of its docs next to the new ones (an
`archive/v1/` copy, a `skills-old/` folder). The two versions differ by a word here and
there, so each holds some of a copied card's sentences a little better than the other:
counted by the passage that holds each sentence best, the copy is split between them and
neither reaches the five sentences D105 asks for. Each version that holds a sentence (at
`COPIED_COVERAGE`) counts it. The repo here is a made-up harbour crane scheduler.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import repo_facts
from cardindex.meaning.repo_match import UnitIndex

# The current guide and its archived first version: each rewords three of the six rules a little.
CURRENT = """# Crane scheduling

The scheduler assigns each quay crane to exactly one berth window before the vessel arrives.

Twin-lift moves are planned only for cranes whose spreader reports the twin-lift kit as fitted.

A crane that reports a wind reading above its limit is parked and its moves go back to the pool.

Reefer containers are always discharged in the first hour of the window, before dry boxes, on every shift.

The planner recomputes the whole quay plan when a berth window slips by more than twenty minutes, never piecemeal.

Hatch covers are lifted by the crane that works the bay, never by a neighbouring crane of the quay.
"""

ARCHIVED = """# Crane scheduling (v1)

The scheduler assigns each quay crane to exactly one berth window before the vessel arrives, on every call.

Twin-lift moves are planned only for cranes whose spreader reports the twin-lift kit as fitted, as a rule.

A crane that reports a wind reading above its limit is parked and its moves go back to the pool at once.

Reefer containers are always discharged in the first hour of the window, before dry boxes.

The planner recomputes the whole quay plan when a berth window slips by more than twenty minutes.

Hatch covers are lifted by the crane that works the bay, never by a neighbouring crane.
"""

# The card copies the six rules (three as each version words them) and adds notes of its own.
COPY = """The scheduler assigns each quay crane to exactly one berth window before the vessel arrives, on every call.

Twin-lift moves are planned only for cranes whose spreader reports the twin-lift kit as fitted, as a rule.

A crane that reports a wind reading above its limit is parked and its moves go back to the pool at once.

Reefer containers are always discharged in the first hour of the window, before dry boxes, on every shift.

The planner recomputes the whole quay plan when a berth window slips by more than twenty minutes, never piecemeal.

Hatch covers are lifted by the crane that works the bay, never by a neighbouring crane of the quay.

The gantry painters repaint the rails each spring with yellow marine enamel.

Seagulls nest on the lighting masts near the northern gate every summer.

The canteen opens at six and serves fish soup on Fridays.

Tugboat crews change over at the old pilot station by the lighthouse.
"""

# The same six rules, each given with the team's own reason: not what the repo records.
LESSONS = """Reefer boxes go first because the harbour's power grid cannot hold many plugged in past noon.

We park cranes in high wind since the insurer refused to cover the 2024 boom damage.

Hatch covers stay with their own crane: the dockers' union agreed to it after an accident.

Twin lifts need the kit because the older spreaders bent under the load last winter.

Berth windows were fixed per crane after Ingrid found two cranes on one bay.

The whole plan is recomputed since partial replans left gaps the night shift could not fill.
"""


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _harbour(tmp_path: Path, docs: dict[str, str]) -> Path:
    root = tmp_path / "harbour"
    files = {**docs, "cranes/plan.py": "def plan() -> None:\n    pass\n",
             "package.json": json.dumps({"scripts": {"plan": "python -m cranes.plan --quay north"}})}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Plan the quay")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, body in {"crane-rules": COPY, "crane-lessons": LESSONS}.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: How the quay cranes are scheduled\ntype: project\n---\n"
                                          f"{body}", encoding="utf-8")
    return vault


@pytest.fixture
def two_versions(tmp_path: Path) -> Path:
    return _harbour(tmp_path, {"docs/cranes.md": CURRENT, "docs/archive/v1/cranes.md": ARCHIVED})


def _derivable(run_cli: Callable[..., Result], vault: Path) -> dict[str, str]:
    result = run_cli("--vault", str(vault), "lint", "--select", "derivable", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return {f["path"]: f["message"] for f in json.loads(result.stdout)}


def test_a_card_copied_from_two_versions_of_a_doc_is_reported(two_versions: Path,
                                                               run_cli: Callable[..., Result]) -> None:
    found = _derivable(run_cli, two_versions)
    assert set(found) == {"crane-rules.md"}, found
    assert "cranes.md" in found["crane-rules.md"] and "5 more of the card's sentences" in found["crane-rules.md"]


def test_the_same_card_against_one_version_is_reported_as_before(tmp_path: Path,
                                                                 run_cli: Callable[..., Result]) -> None:
    vault = _harbour(tmp_path, {"docs/cranes.md": CURRENT})
    assert set(_derivable(run_cli, vault)) == {"crane-rules.md"}


def test_docs_holding_gives_each_version_that_holds_a_sentence(tmp_path: Path) -> None:
    root = _harbour(tmp_path, {"docs/cranes.md": CURRENT, "docs/archive/v1/cranes.md": ARCHIVED}).parent
    facts = repo_facts.load_repo_facts(root, root / "memory")
    index = UnitIndex(facts.units)
    from cardindex.meaning.repo_match import claim_stems

    stems = sorted(claim_stems("Hatch covers are lifted by the crane that works the bay, never by a neighbouring crane."))
    held = index.docs_holding(stems, 0.7)
    assert set(held) == {"docs/cranes.md", "docs/archive/v1/cranes.md"}
    assert index.docs_holding(sorted(claim_stems("Seagulls nest on the lighting masts near the northern gate.")), 0.7) == {}


def test_the_docs_cap_keeps_the_config_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _harbour(tmp_path, {"docs/cranes.md": CURRENT, "docs/archive/v1/cranes.md": ARCHIVED}).parent
    monkeypatch.setattr(repo_facts, "MAX_DOC_UNITS", 3)
    facts = repo_facts.load_repo_facts(root, root / "memory")
    docs = [u for u in facts.units if not u.label]
    assert len(docs) == 3
    # The package.json script is still a passage, though the docs filled the cap before it was read.
    assert any(u.label == "script plan" for u in facts.units)
