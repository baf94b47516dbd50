"""Derivable from what the repo records (issue 14): config files, constants, docs paraphrase, layout, owners.

Two fake repos, written here: a TypeScript + Python monorepo for booking marina berths
("tidewater"), and a Go service with a Rust helper crate ("kelp"). Each card is run
through the real CLI (`cards lint --select derivable --format json`). Positives restate
what a repo file records, in other words than the file; the hard negatives name the same
scripts, constants and classes while stating an outside reason, a decision's why, a
person, a preference, another system's API, or a different value with its reason.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import given
from hypothesis import strategies as st

from cardindex.lint.derivable_values import constant_values
from cardindex.meaning.content import content_stems, numbers
from cardindex.meaning.repo_files import (
    Record,
    codeowners,
    constants,
    github_workflow,
    gitlab_ci,
    literal,
    makefile,
    package_json,
    settings,
    version_file,
)

TIDEWATER = {
    "package.json": json.dumps({
        "name": "tidewater", "private": True, "packageManager": "pnpm@9.1.0",
        "engines": {"node": ">=20.11"},
        "scripts": {"lint": "eslint . --max-warnings 0", "typecheck": "tsc -b", "dev": "turbo run dev --parallel",
                    "storybook": "storybook dev -p 6006"},
    }, indent=2) + "\n",
    ".nvmrc": "20.11.1\n",
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\nLOCK_ONLY_LIMIT = 99\n",
    "web/src/config.ts": (
        "// Limits the booking form enforces.\n"
        "export const BERTH_HOLD_MINUTES = 15;\n"
        'export const API_BASE_PATH = "/api/v2";\n'
        "export const MAX_PARTY_SIZE = 12;\n"
    ),
    "web/src/pages/BookingPage.tsx": "export function BookingPage() {\n  return null;\n}\n",
    "web/src/components/BerthMap.tsx": "export function BerthMap() {\n  return null;\n}\n",
    "api/pyproject.toml": (
        '[project]\nname = "tidewater-api"\nversion = "1.4.2"\nrequires-python = ">=3.12"\n\n'
        "[tool.ruff]\nline-length = 110\n\n[tool.ruff.lint]\nselect = [\"E\", \"F\", \"I\", \"B\"]\n\n"
        '[tool.pytest.ini_options]\naddopts = "-ra --strict-markers"\n\n[tool.mypy]\nstrict = true\n'
    ),
    "api/tidewater/__init__.py": "",
    "api/tidewater/limits.py": (
        '"""Booking limits."""\n\nMAX_BOOKING_NIGHTS = 28\nCANCEL_WINDOW_HOURS = 48\n'
        'SIGNATURE_HEADER = "X-Tidewater-Signature"\nSESSION_TTL_S = 30 * 60\n'
    ),
    "api/tidewater/booking.py": (
        '"""Stays and their prices."""\n\n\nclass Reservation:\n'
        '    """A berth held for a boat between two dates, with the guest who booked it."""\n\n'
        "    def __init__(self, berth, guest, arrival, departure):\n"
        "        self.berth, self.guest = berth, guest\n        self.arrival, self.departure = arrival, departure\n\n\n"
        "def quote_stay(berth, nights):\n"
        '    """Price a stay: the berth\'s nightly rate times the nights, plus the harbour levy per night."""\n'
        "    return (berth.nightly_rate + berth.levy) * nights\n"
    ),
    "api/tidewater/payments/__init__.py": "",
    "api/tidewater/payments/stripe_client.py": "def charge(amount):\n    return amount\n",
    "api/tests/test_booking.py": "HOLD = 3\n\ndef test_quote():\n    assert True\n",
    "Makefile": (
        ".PHONY: test migrate seed\n\ntest:\n\tpytest -q api/tests\n\nmigrate:\n\talembic upgrade head\n\n"
        "seed:\n\tpython -m tidewater.seed --fixtures demo\n"
    ),
    ".github/workflows/ci.yml": (
        "name: CI\non: [push, pull_request]\njobs:\n"
        "  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - run: pnpm install --frozen-lockfile\n      - run: pnpm lint\n"
        "  api-tests:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Run API tests\n        run: make test\n"
        "  e2e:\n    name: Playwright e2e\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - name: Browser tests\n        run: pnpm exec playwright test --project=chromium\n"
    ),
    ".github/CODEOWNERS": "/api/ @tidewater/backend\n/web/ @marta-k\n/infra/ @tidewater/platform @joao\n",
    "README.md": "# Tidewater\n\nTidewater books marina berths for visiting boats and bills the harbour levy per night.\n",
    "docs/contributing.md": (
        "# Contributing\n\nPull requests need one approval from a code owner before they can be merged.\n\n"
        "Squash merge is the only merge method enabled on the repository.\n\n"
        "Database migrations live in api/migrations and are generated with alembic revision --autogenerate.\n"
    ),
    # Another agent's memory in the same repo: a copy, not what the repo records.
    ".claude/agent-memory/reviewer/MEMORY.md": "- [Holds](holds.md) — hold length\n",
    ".claude/agent-memory/reviewer/holds.md": "Harbour masters agreed that berth holds last 90 minutes for regattas.\n",
}

# (file, description, body): each restates one thing the repo records.
TIDEWATER_DERIVABLE = {
    "script-lint": ("The lint script", "`pnpm lint` runs eslint over the repo with --max-warnings 0.", "D105"),
    "make-test": ("How to run the API tests", "Run the API tests with `make test`; it calls pytest -q on api/tests.", "D105"),
    "ci-e2e": ("The browser tests in CI", "CI runs the Playwright e2e job with `pnpm exec playwright test --project=chromium`.", "D105"),
    "ruff-length": ("Line length of the API code", "Ruff's line length for the API is 110 characters.", "D105"),
    "python-min": ("Python version of the API", "The API needs Python 3.12 or newer.", "D105"),
    "node-version": ("Node version", "Local development uses Node 20.11 (see .nvmrc).", "D105"),
    "owners-api": ("Who owns the API code", "Changes under api/ are owned by @tidewater/backend.", "D105"),
    "hold-minutes": ("How long a berth hold lasts", "A berth hold lasts 15 minutes (`BERTH_HOLD_MINUTES`).", "D102"),
    "max-nights": ("Longest stay", "`MAX_BOOKING_NIGHTS` is 28.", "D102"),
    "max-party": ("Party size", "A booking takes at most twelve people (`MAX_PARTY_SIZE`).", "D102"),
    "session-ttl": ("Session lifetime", "`SESSION_TTL_S` is half an hour: 30 minutes.", "D102"),
    "cancel-stale": ("Cancellation window", "`CANCEL_WINDOW_HOURS` is 24.", "D102"),
    "ci-jobs": ("What CI runs", "On every push and pull request CI runs the lint, api-tests and Playwright e2e jobs.", "D105"),
    "layout-list": ("Repo layout", "- `api/` — the Python API: tidewater package and tests\n"
                    "- `web/` — TypeScript front end (src, pages, components)\n- `.github/` — CI workflows", "D103"),
    "squash-only": ("Merge method", "Only squash merges are enabled on the repository.", "D105"),
    "migrations": ("Where migrations are", "Migrations are generated with `alembic revision --autogenerate` and live in api/migrations.", "D105"),
    "quote": ("How a stay is priced", "`quote_stay` multiplies the nightly rate plus the harbour levy by the number of nights.", "D102"),
    "layout": ("Where the payment code is", "The Stripe client lives in api/tidewater/payments/stripe_client.py.", "D103"),
}

# Hard negatives: the same names, with what no repo file says.
TIDEWATER_CLEAN = {
    "keep-header": ("Signature header name",
                    "Keep `SIGNATURE_HEADER` as X-Tidewater-Signature: the harbour authority's gateway matches on that exact name."),
    "stripe-reservation": ("Stripe's reservation object",
                           "Stripe's `Reservation` object returns its status as requires_capture until the card hold is captured."),
    "why-pnpm": ("Why pnpm", "We chose pnpm over npm because workspace installs were three times faster."),
    "party-size-reason": ("Party size cap", "`MAX_PARTY_SIZE` must stay at 12 or lower; the insurer's policy caps it."),
    "marta": ("Accessibility reviews", "Marta reviews every web accessibility change herself, whatever the owners file says."),
    "prefers-make": ("How the user runs tests", "The user prefers `make test` over calling pytest directly."),
    "e2e-budget": ("E2E time budget", "The e2e job must finish within 10 minutes or the shared runner pool cancels it."),
    "hold-why": ("Why holds last 15 minutes",
                 "`BERTH_HOLD_MINUTES` is 15 so that a card payment's 3-D Secure step can finish before the hold lapses."),
    "upstream-seed": ("The census data", "The upstream harbour-data project's `make seed` target loads the full 2019 census."),
    "other-vault": ("Regatta holds", "Harbour masters agreed that berth holds last 90 minutes for regattas."),
    "lockfile": ("A limit only a lockfile names", "`LOCK_ONLY_LIMIT` is 99."),
    "levy-rule": ("Levy for residents", "Resident boats pay no harbour levy; the council waived it in 2025-04."),
    "node-eol": ("Node 18", "Node 18 left maintenance, so the marina kiosk's old browser bundle is frozen."),
    "kiosk-python": ("Kiosk tooling", "The kiosk firmware team writes its tools in Python 3.10."),
    "notebook-python": ("Reporting notebooks", "The reporting notebook runs on Python 3.12 in the data team's JupyterHub."),
    "ci-flaky": ("Flaky e2e", "The Playwright e2e job on pull requests is flaky on Mondays when the runners are cold."),
    "team-list": ("Who works where", "- `api/` — Ana's team, deploys on Tuesdays\n- `web/` — Marta's team, frozen during regattas"),
    "path-todo": ("Gaps by folder", "- `api/` needs a retry wrapper around card captures\n- `web/` lacks keyboard navigation on the berth map"),
    "quote-zero": ("Zero-night quotes", "`quote_stay` must never be called with zero nights; the card processor rejects empty charges."),
    "city-endpoint": ("City occupancy feed", "The city's open-data `Reservation` endpoint returns berth occupancy as a percentage."),
    "ruff-agreed": ("Line length origin", "Ruff line length 110 was agreed with the data team so notebooks diff cleanly."),
    "owner-leave": ("Web reviews in March", "@marta-k is on parental leave in March; send web reviews to @joao meanwhile."),
    "no-payments-import": ("Keep payments out of the bundle",
                           "Never import from api/tidewater/payments in web code; the bundle has to stay free of server secrets."),
}

KELP = {
    "go.mod": "module example.org/kelp\n\ngo 1.22\n",
    "cmd/kelpd/main.go": "package main\n\nfunc main() {}\n",
    "internal/wire/frame.go": (
        "package wire\n\n// MaxFrameBytes caps one frame on the wire.\nconst MaxFrameBytes = 1 << 20\n\n"
        "const (\n\tDefaultPort = 7421\n)\n"
    ),
    "crates/kelp-hash/Cargo.toml": '[package]\nname = "kelp-hash"\nedition = "2021"\nrust-version = "1.78"\n',
    "crates/kelp-hash/src/lib.rs": "pub const MAX_PEERS: usize = 64;\n\npub fn digest(data: &[u8]) -> u64 {\n    0\n}\n",
    "Makefile": "build:\n\tgo build ./cmd/kelpd\n\nbench:\n\tgo test -bench=. ./internal/...\n",
    ".gitlab-ci.yml": (
        "stages: [test]\nunit:\n  stage: test\n  script:\n    - go test -race ./...\n"
        "lint:\n  stage: test\n  script:\n    - golangci-lint run --timeout 5m\n"
    ),
    "CODEOWNERS": "/internal/wire/ @ines\n",
    "docs/protocol.md": (
        "# Protocol\n\nEvery frame starts with a four-byte big-endian length, followed by the payload.\n\n"
        "Peers that send a frame over the limit are disconnected without a reply.\n"
    ),
}

KELP_DERIVABLE = {
    "frame-cap": ("Frame size cap", "`MaxFrameBytes` is 1 MiB.", "D102"),
    "peers": ("Peer limit", "MAX_PEERS = 64 in the hash crate.", "D102"),
    "race": ("Unit tests in CI", "The GitLab unit job runs `go test -race ./...`.", "D105"),
    "go-version": ("Go version", "The module is built with Go 1.22.", "D105"),
    "framing": ("Frame layout", "Each frame begins with a big-endian four-byte length and then the payload.", "D105"),
    "gitlab-jobs": ("GitLab jobs", "GitLab CI has two jobs, unit and lint.", "D105"),
    "wire-owner": ("Wire package owner", "@ines owns internal/wire.", "D105"),
}

KELP_CLEAN = {
    "port-why": ("Default port", "`DefaultPort` stays 7421 because the customer's firewall only opens that port."),
    "go-farm": ("Go on the build farm", "Go 1.21 is all the partner's build farm has, so avoid range-over-func there."),
    "frame-history": ("Frame size decision",
                      "Ines decided on 1 MiB frames after the 2026-02 memory spike on the relay nodes."),
    "bench-pref": ("Benchmarks", "The user wants benchmarks run on the quiet machine, never on a laptop."),
    "other-protocol": ("Their protocol", "The vendor's relay protocol starts every frame with a two-byte magic number."),
    "gitlab-other": ("The data team's pipeline", "The data team's GitLab pipeline has a lint job that only checks SQL files."),
    "peers-ops": ("Peer budget in production", "Operations keeps production nodes to about 40 peers to save memory."),
}


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def _card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: reference\n---\n{body}\n"


def _repo_with_vault(root: Path, files: dict[str, str], cards: dict[str, tuple[str, str]]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Initial layout")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in cards.items():
        (vault / f"{name}.md").write_text(_card(description, body), encoding="utf-8")
    return vault


def _derivable(run_cli: Callable[..., Result], vault: Path) -> dict[str, list[tuple[str, str]]]:
    result = run_cli("--vault", str(vault), "lint", "--select", "derivable", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    out: dict[str, list[tuple[str, str]]] = {}
    for finding in json.loads(result.stdout):
        out.setdefault(finding["path"].removesuffix(".md"), []).append((finding["code"], finding["message"]))
    return out


@pytest.fixture(scope="module")
def tidewater(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cards = {k: v[:2] for k, v in TIDEWATER_DERIVABLE.items()} | TIDEWATER_CLEAN
    return _repo_with_vault(tmp_path_factory.mktemp("tidewater"), TIDEWATER, cards)


@pytest.fixture(scope="module")
def kelp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cards = {k: v[:2] for k, v in KELP_DERIVABLE.items()} | KELP_CLEAN
    return _repo_with_vault(tmp_path_factory.mktemp("kelp"), KELP, cards)


@pytest.fixture(scope="module")
def tidewater_found(tidewater: Path) -> dict[str, list[tuple[str, str]]]:
    from click.testing import CliRunner

    from cardindex.cli.main import cli

    def run(*args: str) -> Result:
        return CliRunner().invoke(cli, list(args), prog_name="cards")

    return _derivable(run, tidewater)


@pytest.fixture(scope="module")
def kelp_found(kelp: Path) -> dict[str, list[tuple[str, str]]]:
    from click.testing import CliRunner

    from cardindex.cli.main import cli

    def run(*args: str) -> Result:
        return CliRunner().invoke(cli, list(args), prog_name="cards")

    return _derivable(run, kelp)


@pytest.fixture(scope="module")
def with_reasons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, str]]]:
    """Every positive of both repos with a reason added: the harbour office's or an outside party's."""
    from click.testing import CliRunner

    from cardindex.cli.main import cli

    found: dict[str, list[tuple[str, str]]] = {}
    for files, positives in ((TIDEWATER, TIDEWATER_DERIVABLE), (KELP, KELP_DERIVABLE)):
        cards = {name: (description, f"{body}\n\n**Why:** the harbour office asked for it after the spring audit.")
                 for name, (description, body, _) in positives.items()}
        vault = _repo_with_vault(tmp_path_factory.mktemp("reasons"), files, cards)
        found |= _derivable(lambda *args: CliRunner().invoke(cli, list(args), prog_name="cards"), vault)
    return found


@pytest.mark.parametrize("name", sorted([*TIDEWATER_DERIVABLE, *KELP_DERIVABLE]))
def test_a_reason_the_repo_lacks_makes_a_positive_clean(with_reasons, name):
    assert name not in with_reasons, with_reasons[name]


@pytest.mark.parametrize("name", sorted(TIDEWATER_DERIVABLE))
def test_monorepo_positives_are_derivable(tidewater_found, name):
    code = TIDEWATER_DERIVABLE[name][2]
    assert code in {c for c, _ in tidewater_found.get(name, [])}, tidewater_found.get(name)


@pytest.mark.parametrize("name", sorted(TIDEWATER_CLEAN))
def test_monorepo_hard_negatives_stay_clean(tidewater_found, name):
    assert name not in tidewater_found, tidewater_found[name]


@pytest.mark.parametrize("name", sorted(KELP_DERIVABLE))
def test_go_and_rust_positives_are_derivable(kelp_found, name):
    code = KELP_DERIVABLE[name][2]
    assert code in {c for c, _ in kelp_found.get(name, [])}, kelp_found.get(name)


@pytest.mark.parametrize("name", sorted(KELP_CLEAN))
def test_go_and_rust_hard_negatives_stay_clean(kelp_found, name):
    assert name not in kelp_found, kelp_found[name]


def test_messages_say_where_and_which_value(tidewater_found):
    assert tidewater_found["cancel-stale"] == [
        ("D102", "says CANCEL_WINDOW_HOURS is 24 but api/tidewater/limits.py:4 sets 48: a stale copy of what the code records")]
    assert tidewater_found["hold-minutes"] == [
        ("D102", "gives BERTH_HOLD_MINUTES = 15 (web/src/config.ts:2): the code already records it")]
    assert tidewater_found["owners-api"] == [
        ("D105", ".github/CODEOWNERS line 1 (owner /api/) already records this")]
    assert tidewater_found["python-min"] == [
        ("D105", "api/pyproject.toml line 4 (version python) already records this")]


def test_a_different_setting_is_a_stale_copy(tidewater, run_cli):
    (tidewater / "ruff-wide.md").write_text(_card("Line length", "Ruff's line length is 120."), encoding="utf-8")
    try:
        found = _derivable(run_cli, tidewater)
    finally:
        (tidewater / "ruff-wide.md").unlink()
    assert found["ruff-wide"] == [("D105", "says tool.ruff.line-length is 120 but api/pyproject.toml line 7 gives 110: "
                                           "a stale copy of what the config records")]


def test_add_refuses_a_card_the_makefile_records_and_takes_one_with_a_reason(tidewater, run_cli):
    refused = run_cli("--vault", str(tidewater), "add", "Run the API tests with `make test`, which runs pytest -q api/tests.",
                      "--description", "Running API tests")
    assert refused.exit_code == 1
    assert "D105" in refused.stderr and "Makefile line 3 (target test)" in refused.stderr
    taken = run_cli("--vault", str(tidewater), "add",
                    "Run `make test` before asking for review, because CI queues are long on Fridays.",
                    "--description", "Tests before review")
    assert taken.exit_code == 0, taken.stderr
    Path(taken.stdout.strip()).unlink()


def test_a_change_to_a_config_file_reaches_the_rule(tmp_path, run_cli):
    vault = _repo_with_vault(tmp_path / "r", {"package.json": '{"scripts": {"build": "vite build"}}\n'},
                             {"build": ("Build command", "`npm run build` runs vite build.")})
    assert "build" in _derivable(run_cli, vault)
    (tmp_path / "r" / "package.json").write_text('{"scripts": {"bundle": "rollup -c"}}\n', encoding="utf-8")
    assert "build" not in _derivable(run_cli, vault)


# ------------------------------------------------------------------ the readers, one by one


def test_readers_read_each_file_kind():
    assert list(package_json("p.json", TIDEWATER["package.json"]))[:2] == [
        Record("p.json", 9, "script", "lint", "eslint . --max-warnings 0"),
        Record("p.json", 10, "script", "typecheck", "tsc -b")]
    assert Record("M", 3, "target", "test", "pytest -q api/tests") in list(makefile("M", TIDEWATER["Makefile"]))
    ci = list(github_workflow("ci.yml", TIDEWATER[".github/workflows/ci.yml"]))
    assert Record("ci.yml", 1, "ci", "CI", "on push pull_request; jobs lint api-tests Playwright e2e") in ci
    assert ("Playwright e2e: Browser tests", "pnpm exec playwright test --project=chromium") in {(r.subject, r.value) for r in ci}
    assert ("unit", "go test -race ./...") in {(r.subject, r.value) for r in gitlab_ci("g", KELP[".gitlab-ci.yml"])}
    found = {(r.kind, r.subject, r.value) for r in settings("pyproject.toml", TIDEWATER["api/pyproject.toml"])}
    assert {("version", "python", ">=3.12"), ("setting", "tool.ruff.line-length", "110"),
            ("setting", "tool.mypy.strict", "true"), ("version", "package", "1.4.2")} <= found
    assert list(version_file(".nvmrc", "v20.11.1\n")) == [Record(".nvmrc", 1, "version", "node", "20.11.1")]
    assert list(version_file("go.mod", KELP["go.mod"])) == [Record("go.mod", 3, "version", "go", "1.22")]
    assert list(codeowners("CODEOWNERS", "# owners\n*.sql @dba  # schema\n")) == [
        Record("CODEOWNERS", 2, "owner", "*.sql", "@dba")]


def test_constants_in_many_languages():
    source = (
        "MAX_RETRIES = 3\nTIMEOUT_S: int = 30 * 60  # half an hour\n"
        'export const API_BASE = "https://x.example/v1";\nconst router = express();\n'
        "    pub const P2P_MAX_MSG_BYTES: u32 = 4 * 1024 * 1024;\n#define BUF_LEN 4096\n"
        "    local = 3\n    LIMIT = compute()\nprivate static final int RETRY_LIMIT = 7;\n"
        'const headerName = "X-Sig" // the header\n'
    )
    assert [(r.subject, r.value) for r in constants("a", source)] == [
        ("MAX_RETRIES", "3"), ("TIMEOUT_S", "1800"), ("API_BASE", "https://x.example/v1"),
        ("P2P_MAX_MSG_BYTES", "4194304"), ("BUF_LEN", "4096"), ("RETRY_LIMIT", "7"), ("headerName", "X-Sig")]


@pytest.mark.parametrize(("raw", "value"), [("1_000", "1000"), ("0x10", "16"), ("2 ** 10", "1024"), ("'a b'", "a b"),
                                            ("True", "true"), ("f'{x}'", None), ("compute()", None), ("10.5", "10.5")])
def test_literal_values(raw, value):
    assert literal(raw) == value


@pytest.mark.parametrize(("sentence", "same"), [
    ("`SESSION_TTL_S` is 1800.", True), ("SESSION_TTL_S is 30 minutes", True), ("SESSION_TTL_S: half an hour", None),
    ("SESSION_TTL_S is 0.5 hours", True), ("SESSION_TTL_S is 600", False), ("SESSION_TTL_S = 15 minutes", False),
    ("SESSION_TTL_S is thirty minutes", None), ("SESSION_TTL_S lasts one hour", None), ("SESSION_TTL_S is one hour", False),
])
def test_constant_values_with_units(sentence, same):
    record = Record("a.py", 1, "constant", "SESSION_TTL_S", "1800")
    found = list(constant_values(sentence, {"SESSION_TTL_S": [record]}))
    assert (found[0].same if found else None) == same


@given(st.from_regex(r"[A-Z][A-Z0-9_]{2,20}", fullmatch=True), st.integers(0, 10**9), st.integers(1, 1000))
def test_a_constant_is_read_back_and_compared_by_value(name, value, factor):
    (record,) = constants("x.py", f"{name} = {value} * {factor}\n")
    assert record.value == str(value * factor)
    same = list(constant_values(f"{name} is {value * factor}.", {name: [record]}))
    other = list(constant_values(f"{name} is {value * factor + 1}.", {name: [record]}))
    assert [s.same for s in same] == [True] and [s.same for s in other] == [False]


def test_content_stems_meet_across_spellings():
    assert set(content_stems("line-length")) == set(content_stems("line length")) == set(content_stems("line_length"))
    assert content_stems("Deploys deploying") == ("deploy", "deploy")
    assert numbers("1,000 and 1_000 and 3.5") == {"1000", "3.5"}
    assert set(content_stems("문자열은")) & set(content_stems("문자열"))  # Korean particles: character pairs meet
