"""D105 reads a name with a version run on as prose writes it, and a record's block holds what the record alone does not.

The repo is a small kiln controller: a Dockerfile whose base image is `…/static-debian12`
and that exposes two ports, a README and a Makefile. A card that says "Debian 12" and
both ports says what the Dockerfile records; one that says why the image was chosen, or
gives a port the Dockerfile does not expose, says something of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import repo_with_vault

from cardindex.meaning.content import content_stems

KILN = {
    "Dockerfile": ("FROM golang:1.23 AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /kilnd ./cmd/kilnd\n\n"
                   "FROM gcr.io/distroless/static-debian12\nCOPY --from=build /kilnd /kilnd\nEXPOSE 7070 7071\n"
                   "ENTRYPOINT [\"/kilnd\"]\n"),
    "README.md": ("# kilnd\n\nkilnd drives the pottery kilns' heating schedules and reports each firing's "
                  "temperature curve.\n\n`make image` builds the container image.\n"),
    "Makefile": "image: ## build the container image\n\tdocker build -t kilnd .\n",
    "cmd/kilnd/main.go": "package main\n\nfunc main() {}\n",
}

CARDS = {
    # What the Dockerfile records, in prose: the base image's release written apart, and both ports.
    "image": ("The kilnd image", "The kilnd image runs on distroless static Debian 12 and exposes ports 7070 and 7071."),
    # The same image, for a reason of the team's own.
    "image-why": ("Why distroless", ("We moved the kilnd image to distroless static Debian 12 after the June scan "
                                     "flagged busybox in the old base.")),
    # A port the Dockerfile does not expose.
    "image-port": ("The kilnd image's port", "The kilnd image runs on distroless static Debian 12 and exposes port 8443."),
}


@pytest.fixture
def kiln(tmp_path: Path) -> Path:
    return repo_with_vault(tmp_path / "kilnd", KILN, CARDS, "Drive the kilns")


def test_a_name_with_a_number_run_on_meets_the_two_words() -> None:
    assert content_stems("static-debian12") == content_stems("static Debian 12")
    assert content_stems("node22 and python3") == content_stems("Node 22 and Python 3")
    # Short letter runs and numbers inside a word stay one word: k8s, e2e, md5.
    assert content_stems("k8s e2e md5") == ("k8s", "e2e", "md5")


def test_lint_reports_the_card_the_dockerfile_records_and_no_other(kiln: Path, run_cli: Callable[..., Result]) -> None:
    result = run_cli("--vault", str(kiln), "lint", "--select", "derivable", "--format", "json")
    assert result.exit_code == 1, result.stderr
    found = {f["path"]: (f["code"], f["message"]) for f in json.loads(result.stdout)}
    # FROM holds the image, EXPOSE the ports: the Dockerfile's block of records holds the card.
    assert found == {"image.md": ("D105", "Dockerfile line 1 (docker) already records this")}


def test_add_refuses_the_copy_and_takes_the_reason(kiln: Path, run_cli: Callable[..., Result]) -> None:
    refused = run_cli("--vault", str(kiln), "add", "kilnd's image is distroless static Debian 12, exposing 7070 and 7071.",
                      "--description", "The container image")
    assert refused.exit_code == 1 and "D105" in refused.stderr and "Dockerfile" in refused.stderr
    taken = run_cli("--vault", str(kiln), "add", "The kilns' controller boards need a reboot after a power cut longer "
                    "than a minute; kilnd cannot see it.", "--description", "Power cuts")
    assert taken.exit_code == 0, taken.stderr


# A small tram-signalling service whose classes say in their docstrings what they do.
TRAM = {
    "tramsig/track.py": (
        '"""Track sections and their occupancy."""\n\n\n'
        "class SectionMap:\n"
        '    """Holds every track section with its neighbours, loaded once from the depot survey file."""\n\n'
        "    def neighbours(self, section: str) -> list[str]:\n        return []\n\n\n"
        "class OccupancyTracker:\n"
        '    """Marks a section occupied when an axle counter reports a tram entering it, free when it leaves."""\n\n'
        "    def update(self, counter: str) -> None:\n        pass\n"),
    "tramsig/signals.py": (
        '"""Signal aspects."""\n\n\n'
        "class AspectPlanner:\n"
        '    """Chooses each signal aspect: red ahead of an occupied section, yellow one section before, else green."""\n\n'
        "    def plan(self) -> dict[str, str]:\n        return {}\n\n\n"
        "class InterlockGuard:\n"
        '    """Refuses any route whose points would move under a tram standing on them."""\n\n'
        "    def allowed(self, route: str) -> bool:\n        return True\n\n\n"
        "def publish_aspects(aspects: dict[str, str]) -> None:\n"
        '    """Sends the planned aspects to the trackside controllers over the signalling bus."""\n'),
}

# A walk through the code: each line glosses a class as its docstring does.
WALK = """## How signalling works

- `SectionMap` holds each track section and its neighbours, loaded from the depot survey file.
- `OccupancyTracker` marks a section occupied when an axle counter sees a tram enter, and free once it leaves.
- `AspectPlanner` chooses the aspects: red ahead of an occupied section, yellow one section before it, and green everywhere else.
- `InterlockGuard` refuses a route when its points would move under a standing tram.
- `publish_aspects()` sends the planned aspects to the trackside controllers on the signalling bus.
- A tram in the depot yard is tracked by the same counters.
"""

# The same names, each for a lesson or a reason of the team's own.
LESSONS = """## Signalling lessons

- `SectionMap` went stale after the 2025 depot rebuild because nobody re-ran the survey; Pia now owns it.
- `OccupancyTracker` once missed a tram when a counter lost power, so the night crew checks counters weekly.
- `AspectPlanner` must never show green into the yard: the union agreed this after the March near miss.
- `InterlockGuard` is what the safety auditor reads first, so keep its messages plain.
- `publish_aspects()` is slow on the old bus in line 4's tunnel; the vendor promised a fix for spring.
- Ask Pia before changing any of them.
"""


@pytest.fixture
def tram(tmp_path: Path) -> Path:
    cards = {"walk": ("How the signalling code fits together", WALK.rstrip("\n")),
             "lessons": ("What we learned about the signalling code", LESSONS.rstrip("\n"))}
    return repo_with_vault(tmp_path / "tramsig", TRAM, cards, "Plan signal aspects")


def test_a_card_walking_through_the_code_is_reported_and_one_of_lessons_is_not(
        tram: Path, run_cli: Callable[..., Result]) -> None:
    result = run_cli("--vault", str(tram), "lint", "--select", "D106", "--format", "json")
    assert result.exit_code == 1, result.stderr
    found = {f["path"]: f["message"] for f in json.loads(result.stdout)}
    # The card as a whole is the finding (D106), not one of its lines; the card of lessons names the same code.
    assert list(found) == ["walk.md"]
    assert "tramsig/track.py" in found["walk.md"]


def test_the_walk_counts_lines_the_definitions_bear_out(tram: Path) -> None:
    from cardindex.lint.derivable import code_described
    from cardindex.meaning.repo_facts import load_repo_facts
    from cardindex.store.card import Card

    facts = load_repo_facts(tram.parent, tram)
    walk = Card.from_text("walk.md", (tram / "walk.md").read_text(encoding="utf-8"))
    lessons = Card.from_text("lessons.md", (tram / "lessons.md").read_text(encoding="utf-8"))
    assert code_described(facts, walk) == (7, 5, "SectionMap")
    assert code_described(facts, lessons) is None
