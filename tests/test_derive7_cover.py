"""D105 reads a name with a version run on as prose writes it, and a record's block holds what the record alone does not.

The repo is a small kiln controller: a Dockerfile whose base image is `…/static-debian12`
and that exposes two ports, a README and a Makefile. A card that says "Debian 12" and
both ports says what the Dockerfile records; one that says why the image was chosen, or
gives a port the Dockerfile does not expose, says something of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

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


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def kiln(tmp_path: Path) -> Path:
    root = tmp_path / "kilnd"
    for rel, text in KILN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Drive the kilns")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in CARDS.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n",
                                          encoding="utf-8")
    return vault


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
