"""Derivable from several records at once (issue 14, class 7): a CI job, a tool's settings, CODEOWNERS, lists, tables.

A fake repo for hive monitoring ("combwatch": scale firmware, a Python ingest service, a
Svelte console). A card that restates one job's steps, one tool's settings, the lines of
CODEOWNERS, a Makefile target through the package script it runs, a README list with its
lead-in or a docs table row with its header is derivable, though no single record or
passage holds all it says. The hard negatives name the same jobs, settings, owners and
rows while adding a reason, a person's availability, a preference or another tool.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import doc_blocks
from cardindex.meaning.repo_facts import passages
from cardindex.meaning.repo_files import Record, github_workflow
from cardindex.meaning.repo_groups import block_of, blocks, commands, runs

COMBWATCH = {
    "README.md": (
        "# Combwatch\n\nCombwatch weighs beehives and logs brood temperature. The repo holds:\n\n"
        "- `firmware` — the hive scale firmware (C, PlatformIO)\n"
        "- `console` — the dashboard for beekeepers (Svelte)\n"
        "- `ingest` — the service that stores readings (Python, FastAPI)\n\n"
        "## Contributing\n\nOpen an issue first for anything larger than a typo.\n"
    ),
    "docs/alerts.md": (
        "# Alerts\n\n| alert | threshold | channel |\n| --- | --- | --- |\n"
        "| swarm | weight drop 2 kg in 10 min | SMS |\n| chill | brood under 30 C for 1 h | email |\n\n"
        "Alerts are deduplicated per hive for an hour.\n"
    ),
    "console/package.json": json.dumps({
        "name": "console", "private": True,
        "scripts": {"build": "vite build", "dev": "vite --port 4100", "check": "svelte-check --fail-on-warnings"},
    }, indent=2) + "\n",
    "Makefile": (
        ".PHONY: ui check flash\n\nui:\n\tnpm run build --workspace console\n\n"
        "check:\n\tcd ingest && mypy src && pytest -q\n\nflash:\n\tcd firmware && pio run -t upload\n"
    ),
    ".github/workflows/ci.yml": (
        "name: ci\non: [pull_request]\njobs:\n"
        "  sensors:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.11'\n"
        "      - run: pip install -e ingest[dev]\n      - run: mypy ingest/src\n      - run: pytest -q ingest\n"
        "  dashboard:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - run: npm ci\n      - run: npm run check --workspace console\n"
    ),
    "ingest/pyproject.toml": (
        '[project]\nname = "combwatch-ingest"\nrequires-python = ">=3.11"\n\n'
        "[tool.ruff]\nline-length = 88\ntarget-version = \"py311\"\n\n"
        "[tool.ruff.lint]\nselect = [\"E\", \"F\", \"SIM\"]\nignore = [\"E731\"]\n"
    ),
    "ingest/src/ingest/__init__.py": "",
    "CODEOWNERS": "/firmware/ @combwatch/embedded\n/console/ @ilse-v\n/ingest/ @combwatch/backend\n",
}

POSITIVES = {
    "ci-sensors": ("What the sensors job checks",
                   "The sensors CI job runs on ubuntu-22.04 with Python 3.11 and runs mypy, then pytest."),
    "ruff-config": ("Ingest lint settings", "ruff: line-length 88, target py311, E731 ignored."),
    "owners": ("Who reviews which folder",
               "Reviews: firmware goes to @combwatch/embedded, console to @ilse-v, ingest to @combwatch/backend."),
    "make-ui": ("What make ui does", "- `make ui` → vite build of the console"),
    "repo-parts": ("The parts of the repo",
                   ("The repo holds `firmware` (hive scale firmware, C on PlatformIO), `console` (the beekeepers' "
                   "dashboard, Svelte) and `ingest` (stores readings; Python, FastAPI).")),
    "swarm-row": ("Swarm alert", "The swarm alert threshold is a weight drop of 2 kg in 10 min; its channel is SMS."),
}

NEGATIVES = {
    "ci-pin-reason": ("Why the sensors job stays on 22.04",
                      "The sensors job pins ubuntu-22.04 because the vendor's BLE toolchain has no 24.04 build."),
    "check-before-pr": ("Local checks before a PR",
                        "Run `make check` on your laptop before opening a PR so reviewers see it green on the first push."),
    "owner-away": ("Console reviews this winter",
                   "@ilse-v owns /console/ but is on leave until March; route console reviews to @tomas-r meanwhile."),
    "clang-format": ("Firmware formatting", "The firmware's clang-format column limit is 88 too, matching ruff."),
    "stack-choice": ("Why C and Svelte",
                     ("firmware is C on PlatformIO and console is Svelte: the volunteers already knew both, Rust and "
                     "React were turned down.")),
    "swarm-channel": ("Swarm alert channel", "Swarm alerts go by SMS, not push, since most apiaries have no data signal."),
    "ruff-wish": ("A lint rule we want", "Ask the backend team before turning on ruff's D rules in ingest; they object."),
}


def _git(root: Path, *args: str) -> None:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root), "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: reference\n---\n{body}\n"


@pytest.fixture(scope="module")
def combwatch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("combwatch")
    for rel, text in COMBWATCH.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Initial layout")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in (POSITIVES | NEGATIVES).items():
        (vault / f"{name}.md").write_text(_card(description, body), encoding="utf-8")
    return vault


@pytest.fixture(scope="module")
def found(combwatch: Path) -> dict[str, list[tuple[str, str]]]:
    from click.testing import CliRunner

    from cardindex.cli.main import cli

    result = CliRunner().invoke(cli, ["--vault", str(combwatch), "lint", "--select", "derivable", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    out: dict[str, list[tuple[str, str]]] = {}
    for finding in json.loads(result.stdout):
        out.setdefault(finding["path"].removesuffix(".md"), []).append((finding["code"], finding["message"]))
    return out


@pytest.mark.parametrize("name", sorted(POSITIVES))
def test_a_card_restating_a_block_of_records_is_derivable(found: dict[str, list[tuple[str, str]]], name: str) -> None:
    assert [code for code, _ in found.get(name, [])] == ["D105"], found.get(name)


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_what_the_block_does_not_hold_stays_clean(found: dict[str, list[tuple[str, str]]], name: str) -> None:
    assert name not in found, found[name]


def test_the_message_names_the_block(found: dict[str, list[tuple[str, str]]]) -> None:
    assert found["ci-sensors"] == [("D105", ".github/workflows/ci.yml line 4 (ci sensors) already records this")]
    assert found["ruff-config"] == [("D105", "ingest/pyproject.toml line 6 (setting tool.ruff) already records this")]
    assert found["owners"] == [("D105", "CODEOWNERS line 1 (owner) already records this")]
    assert found["swarm-row"][0][1] == "docs/alerts.md line 5 already says this"


def test_add_refuses_a_restated_ci_job_and_takes_it_with_a_reason(combwatch: Path, run_cli: Callable[..., Result]) -> None:
    refused = run_cli("--vault", str(combwatch), "add", "The dashboard CI job installs with npm ci, then fails on any svelte-check warning.",
                      "--description", "Dashboard checks in CI")
    assert refused.exit_code == 1
    assert "D105" in refused.stderr and "(ci dashboard)" in refused.stderr
    taken = run_cli("--vault", str(combwatch), "add",
                    "Keep svelte-check in the dashboard CI job: the grant reviewers audit it, so it must not be dropped.",
                    "--description", "svelte-check stays in CI")
    assert taken.exit_code == 0, taken.stderr


# ------------------------------------------------------------------ units


def test_a_step_reads_through_to_the_script_and_target_it_runs() -> None:
    records = [Record("p/package.json", 3, "script", "build", "vite build"),
               Record("Makefile", 3, "target", "ui", "npm run build --workspace console"),
               Record("ci.yml", 9, "ci", "web", "make ui"),
               Record("ci.yml", 10, "ci", "web", "pnpm --filter console build")]
    known = commands(records)
    assert runs(records[1], known) == "vite build"
    assert runs(records[2], known) == "npm run build --workspace console"  # one level deep
    assert runs(records[3], known) == "vite build"
    assert runs(Record("ci.yml", 11, "ci", "web", "npm ci"), known) == ""  # `npm ci` installs, it runs no script


def test_records_fall_into_blocks_by_job_tool_and_file() -> None:
    assert block_of(Record("ci.yml", 9, "ci", "web: Lint", "npm run lint")) == "ci web"
    assert block_of(Record("pyproject.toml", 9, "setting", "tool.ruff.lint.select", "E")) == "setting tool.ruff"
    assert block_of(Record("setup.cfg", 9, "setting", "flake8.max-line-length", "99")) == "setting flake8"
    assert block_of(Record("CODEOWNERS", 1, "owner", "/a/", "@x")) == "owner"
    made = blocks([Record("CODEOWNERS", 1, "owner", "/a/", "@x"), Record("CODEOWNERS", 2, "owner", "/b/", "@y"),
                   Record("k.py", 1, "constant", "LIMIT", "3")], {}, {"owner": "owner owns"})
    assert [(b.path, b.line, b.name, len(b.members)) for b in made] == [("CODEOWNERS", 1, "owner", 2)]


def test_a_workflow_step_keeps_what_its_action_is_given() -> None:
    text = "jobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n"
    steps = [r for r in github_workflow("ci.yml", text) if "setup-node" in r.value]
    assert steps and steps[0].value == "actions/setup-node@v4 node-version 22"


def test_table_rows_are_read_with_their_header_and_lists_with_their_lead_in() -> None:
    text = ("Our queues:\n\n- `mail` — outgoing mail\n- `thumbs` — image thumbnails\n\nAfter.\n\n"
            "| name | limit |\n| --- | --- |\n| mail | 50 |\n")
    read = list(doc_blocks.read(passages(text)))
    wholes = [r for r in read if r.whole]
    assert [w.line for w in wholes] == [1]
    assert "Our queues:" in wholes[0].text and "thumbnails" in wholes[0].text
    assert any(r.text == "| name | limit |\n| mail | 50 |" for r in read)
    assert not any("---" in r.text for r in read)


def test_a_long_list_is_a_catalogue_not_one_passage() -> None:
    items = "\n".join(f"- item {i} of the catalogue" for i in range(doc_blocks.MAX_ITEMS + 1))
    assert not [r for r in doc_blocks.read(passages(f"Everything:\n{items}\n")) if r.whole]
