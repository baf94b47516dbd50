"""Derivable, fifth pass: a dev corpus of its own (a bike-share fleet monorepo, "sprocket").

The repo has what the sealed corpora's repos have: package.json scripts, a Makefile, a CI
workflow, pyproject with ruff, CODEOWNERS, README and docs/*.md, .env.example and a git
history of several commits. Positives restate what one of those records, in other words
than the file; hard negatives (more of them than positives) name the same scripts,
targets, constants, owners and docs while saying what the repo does not record: an
outside constraint, a decision's why, a person, a preference, an incident's lesson,
another system's behaviour, a past bug.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardindex.cli.main import cli

SPROCKET = {
    "package.json": json.dumps({
        "name": "sprocket", "private": True, "packageManager": "pnpm@9.4.0",
        "scripts": {"test": "vitest run", "lint": "eslint web --max-warnings 0", "typecheck": "tsc -p web",
                    "e2e": "playwright test --project=chromium"},
    }, indent=2) + "\n",
    "Makefile": (
        ".PHONY: migrate seed api\n\n"
        "migrate:  ## apply the database migrations\n\talembic -c api/alembic.ini upgrade head\n\n"
        "seed:\n\tpython -m sprocket.seed --docks 40\n\n"
        "api:\n\tuvicorn sprocket.app:app --reload --port 8040\n"
    ),
    ".github/workflows/ci.yml": (
        "name: ci\non:\n  pull_request:\n  push:\n    branches: [main]\njobs:\n  web:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - uses: pnpm/action-setup@v4\n"
        "      - run: pnpm install --frozen-lockfile\n      - run: pnpm lint\n      - run: pnpm typecheck\n"
        "      - run: pnpm test\n  api:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - run: pip install -e 'api[dev]'\n      - run: ruff check api\n      - run: pytest api/tests -q\n"
    ),
    "api/pyproject.toml": (
        '[project]\nname = "sprocket-api"\nversion = "0.7.0"\nrequires-python = ">=3.11"\n\n'
        "[tool.ruff]\nline-length = 100\n\n[tool.ruff.lint]\nselect = [\"E\", \"F\", \"I\", \"UP\"]\nignore = [\"E501\"]\n\n"
        '[tool.pytest.ini_options]\naddopts = "-ra --strict-markers"\n\n[tool.mypy]\nstrict = true\n'
    ),
    "CODEOWNERS": "/api/ @sprocket/fleet-team\n/web/ @sprocket/frontend\n/docs/runbook.md @dana-ops\n",
    ".env.example": "SPROCKET_REGION=eu-west\nSPROCKET_DB_URL=postgresql://localhost:5432/sprocket\n",
    "README.md": (
        "# Sprocket\n\nSprocket runs a city bike-share fleet: docks, bikes, rides and fares.\n\n"
        "## Getting started\n\nInstall with `pnpm install` and `pip install -e 'api[dev]'`, then run "
        "`make migrate` and `make seed` to get forty docks in a local database.\n"
    ),
    "docs/architecture.md": (
        "# Architecture\n\n"
        "Docks report their events over MQTT. The ingest worker subscribes to the dock topics and "
        "writes every event into the `dock_events` table.\n\n"
        "The pricing service reads the day's rides from the `rides` table every night at 02:00 and "
        "computes fares; a fare is the unlock fee plus a per-minute rate, capped at the daily maximum.\n\n"
        "The web app talks only to the API; it never reads the database.\n"
    ),
    "docs/runbook.md": (
        "# Runbook\n\n## A dock stops reporting\n\n"
        "When a dock has sent no heartbeat for ten minutes, the ingest worker marks it offline and "
        "pages the on-call engineer. Restart the dock from the admin console; if it stays offline, "
        "open a field ticket so a technician visits it.\n"
    ),
    ".nvmrc": "20.15.0\n",
    ".github/workflows/deploy.yml": (
        "name: deploy\non:\n  push:\n    tags: ['v*']\njobs:\n  production:\n    runs-on: ubuntu-latest\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/deploy.sh production\n"
    ),
    ".github/workflows/api-tests.yml": (
        "name: api-tests\non: [pull_request]\njobs:\n  pytest:\n    runs-on: ubuntu-latest\n    strategy:\n"
        "      matrix:\n        python-version: ['3.11', '3.12']\n    steps:\n      - uses: actions/setup-python@v5\n"
        "        with:\n          python-version: ${{ matrix.python-version }}\n      - run: pytest api/tests\n"
    ),
    "docs/contributing.md": (
        "# Contributing\n\nNobody pushes to main directly. Every change goes through a pull request, and a pull "
        "request needs one approving review before it is merged.\n\n"
        "Keep commits small and write the subject in the imperative.\n"
    ),
    "docs/deploy.md": (
        "# Deploying\n\nEvery merge to main is deployed to staging automatically. Production is deployed "
        "when a version tag (v1.2.3) is pushed; the deploy workflow runs scripts/deploy.sh.\n"
    ),
    "api/sprocket/settings.py": (
        "import os\n\nREGION = os.getenv(\"SPROCKET_REGION\", \"eu-west\")\n"
        "DOCK_TIMEOUT = int(os.environ.get(\"DOCK_TIMEOUT_S\", 30))\n"
    ),
    "api/sprocket/__init__.py": "",
    "api/sprocket/app.py": "from fastapi import FastAPI\n\napp = FastAPI()\n",
    "api/sprocket/unlock.py": (
        '"""Unlock codes sent to riders."""\n\nUNLOCK_TTL_SECONDS = 90\nUNLOCK_CODE_DIGITS = 6\n\n\n'
        "def issue_code(rider, dock):\n"
        '    """Make a fresh unlock code for a rider at a dock, valid for UNLOCK_TTL_SECONDS."""\n'
        "    return '000000'\n"
    ),
    "api/sprocket/pricing/__init__.py": "",
    "api/sprocket/pricing/engine.py": (
        "class PricingEngine:\n"
        '    """Computes the fare of a ride: unlock fee plus per-minute rate, capped daily."""\n\n'
        "    def fare(self, ride):\n        return 0\n"
    ),
    "api/sprocket/ingest/__init__.py": "",
    "api/sprocket/ingest/worker.py": "def run_worker():\n    return None\n",
    "api/tests/test_unlock.py": "def test_code():\n    assert True\n",
    "web/src/pages/MapPage.tsx": "export function MapPage() {\n  return null;\n}\n",
    "web/src/pages/RidePage.tsx": "export function RidePage() {\n  return null;\n}\n",
    "web/src/api/client.ts": 'export const API_BASE = "/api/v1";\n',
}

LATER_COMMITS = [
    ("api/sprocket/session.py", "SESSION_KIND = 'jwt'\n", "Switch rider sessions from cookies to signed JWTs"),
    ("api/sprocket/pricing/caps.py", "DAILY_CAP_CENTS = 1500\n", "Cap daily fares at fifteen euros per rider"),
    ("api/sprocket/ingest/heartbeat.py", "RETRIES = 5\n", "Retry dock heartbeat calls with exponential backoff"),
    ("web/src/pages/Legend.tsx", "export const LEGEND_ROWS = 4;\n", "Add a legend to the dock map (#41)"),
]

# name: (description, body)
DERIVABLE = {
    "web-tests": ("How the web unit tests are run",
                  "`pnpm test` runs the web unit tests once with vitest (vitest run)."),
    "ci-steps": ("What the CI workflow checks",
                 "On every pull request CI installs with pnpm, then runs pnpm lint, pnpm typecheck and pnpm test; "
                 "the api job runs ruff check and pytest."),
    "ruff-config": ("Ruff settings of the API",
                    "Ruff uses a line length of 100 and selects the E, F, I and UP rules."),
    "migrate-target": ("What make migrate does",
                       "`make migrate` runs alembic upgrade head with the api/alembic.ini config."),
    "owners": ("Who reviews which folder",
               "@sprocket/fleet-team owns api/ and @sprocket/frontend owns web/."),
    "ingest-flow": ("How dock events reach the database",
                    "The ingest worker subscribes to the docks' MQTT topics and stores each event in the "
                    "dock_events table."),
    "pricing-night": ("When fares are computed",
                      "Every night at 02:00 the pricing service reads the rides table and computes the fares: "
                      "unlock fee plus a per-minute rate, capped at the daily maximum."),
    "unlock-ttl": ("How long an unlock code lasts",
                   "UNLOCK_TTL_SECONDS is 90: a rider's unlock code is valid for ninety seconds."),
    "api-target": ("How to start the API locally",
                   "`make api` starts uvicorn on port 8040 with reload."),
    "sessions-commit": ("How rider sessions work",
                        "Rider sessions were switched from cookies to signed JWTs."),
    "dock-offline": ("What happens when a dock goes quiet",
                     "A dock without a heartbeat for ten minutes is marked offline by the ingest worker, which "
                     "pages on-call; restart it from the admin console, and open a field ticket if it stays "
                     "offline."),
    "layout": ("Where the API code lives",
               "- api/sprocket/pricing/ — the pricing engine\n- api/sprocket/ingest/ — the ingest worker\n"
               "- web/src/pages/ — the pages of the web app"),
    "no-direct-push": ("How changes reach main",
                       "Don't push straight to main: every change goes through a pull request, which needs one "
                       "approving review before it is merged."),
    "deploy-flow": ("How deploys happen",
                    "A merge to main deploys staging automatically; production deploys when a version tag is pushed."),
    "python-matrix": ("Python versions the API is tested on",
                      "The api-tests workflow runs pytest on Python 3.11 and 3.12."),
    "node-version": ("Node version of the web app", "The web app runs on Node 20."),
    "pytest-opts": ("Default pytest options", "pytest always runs with -ra and --strict-markers."),
    "ruff-ignore": ("Rules ruff skips", "Ruff ignores E501 in the API."),
    "mypy-strict": ("How strict mypy is", "mypy runs in strict mode."),
    "heartbeat-commit": ("How heartbeat calls are retried",
                         "Dock heartbeat calls are retried with exponential backoff."),
    "layout-prose": ("Where pricing and ingest code is",
                     "The pricing code is in api/sprocket/pricing and the ingest worker in api/sprocket/ingest."),
    "readme-start": ("How to get a local database",
                     "For a local setup, run make migrate and then make seed, which gives forty docks in a local "
                     "database."),
    "arch-bullets": ("Data flow of the fleet service",
                     "- docks publish events over MQTT; the ingest worker writes each one into dock_events\n"
                     "- every night at 02:00 pricing reads the rides table and computes fares\n"
                     "- the web app only talks to the API and never reads the database"),
    "key-files": ("Key files of the API",
                  "- `api/sprocket/unlock.py`: unlock codes\n- `api/sprocket/pricing/engine.py`: the pricing engine\n"
                  "- `api/sprocket/ingest/worker.py`: the ingest worker"),
    "fare-cap-commit": ("Daily fare cap", "Fares are capped at fifteen euros per rider each day."),
    "e2e-script": ("What the e2e script runs", "`pnpm e2e` runs the playwright tests in the chromium project only."),
    "seed-target": ("What make seed loads", "`make seed` runs sprocket.seed with 40 docks."),
    "runbook-owner": ("Who reviews the runbook", "@dana-ops owns docs/runbook.md."),
    "migrate-help": ("How to apply migrations", "Apply the database migrations with make migrate."),
    "engine-describes": ("What the pricing engine computes",
                         "`PricingEngine` computes the fare of a ride: the unlock fee plus the per-minute rate, "
                         "capped daily."),
    "pr-state": ("State of the map legend work", "PR #41 still waits for a second review."),
    "file-map": ("Map of the main files",
                 "- `api/sprocket/unlock.py`: the one-time codes a rider types at a dock\n"
                 "- `api/sprocket/pricing/engine.py`: how much a ride costs\n"
                 "- `web/src/api/client.ts`: the fetch wrapper every page calls"),
    "region-default": ("Default region", "SPROCKET_REGION defaults to eu-west."),
    "timeout-stale": ("Dock timeout", "DOCK_TIMEOUT_S is 45 seconds unless it is set."),
    "dock-remains": ("When to open a field ticket",
                     "Restart a quiet dock from the admin console; if it remains offline, open a field ticket so a "
                     "technician visits it."),
}

CLEAN = {
    "unlock-firmware": ("Why the unlock code lifetime is fixed",
                        "Keep UNLOCK_TTL_SECONDS at 90: the dock firmware drops a code after 100 seconds, so a "
                        "longer lifetime would promise riders codes that no dock accepts."),
    "migrate-friday": ("When not to migrate staging",
                       "Never run `make migrate` against staging on a Friday afternoon; the finance export reads "
                       "staging then and locks the rides table."),
    "priya-pricing": ("Who signs off pricing changes",
                      "Priya from finance reviews every change to PricingEngine before @sprocket/fleet-team "
                      "merges it; the city contract makes her sign off fares."),
    "why-mqtt": ("Why the docks use MQTT",
                 "We chose MQTT over webhooks because the docks sit on cellular links that drop long HTTP "
                 "connections several times an hour."),
    "vitest-cache": ("Fix for tests failing only in CI",
                     "When `pnpm test` fails only in CI, clear the vitest cache first: the runner image kept stale "
                     "snapshots twice last spring."),
    "opendata-api": ("Shape of the city's open-data feed",
                     "The city's open-data API returns dock coordinates as strings, not numbers, and sends "
                     "them in lon/lat order."),
    "ruff-preference": ("How to treat old files and the line length",
                        "The 100-character limit is a team preference: do not reformat untouched files just to "
                        "meet it, it hides real changes in review."),
    "dst-lesson": ("Lesson from the DST double charge",
                   "The nightly pricing run once charged riders twice when the clocks changed; check any change "
                   "to its schedule against the daylight-saving dates."),
    "aws-profile": ("Which AWS profile to use for staging",
                    "Use the fleet-dev AWS profile for anything that touches the staging buckets."),
    "release-notes": ("Where release notes are posted",
                      "Post the release notes in the #fleet-releases Slack channel after every deploy."),
    "engine-bug": ("Test fares by the total",
                   "`PricingEngine` once rounded each leg of a ride separately, which over-charged long rides by a "
                   "cent; compare totals, not legs, when you test fares."),
    "codeowners-ask": ("Ask before changing CODEOWNERS",
                       "Ask Dana before editing CODEOWNERS: the reviewers' rota is agreed with the ops team each "
                       "quarter."),
    "festival-freeze": ("No merges during festival week",
                        "Do not merge to main during the city's festival week: the docks run at peak load and a bad "
                        "deploy would strand riders."),
    "python-why": ("Why the API stays on Python 3.11",
                   "We stay on Python 3.11 until the hosting provider ships 3.12 images for our region."),
    "tag-person": ("Who may tag a production release",
                   "Only Dana pushes production tags; she checks the city's maintenance calendar first."),
    "vendor-heartbeat": ("Rate limit of the dock vendor's heartbeat endpoint",
                         "The dock vendor's heartbeat endpoint allows one call per second per dock."),
    "eslint-pref": ("How Rafael wants lint fixes committed",
                    "Rafael prefers eslint warnings fixed in a separate commit from the feature itself."),
    "node-lts": ("When to move to the next Node LTS",
                 "Move to the next Node LTS only after the payments SDK supports it, since their SDK pins the "
                 "runtime."),
    "seed-demo": ("Seed docks are not real",
                  "The forty seed docks are invented; never show them to the city as real stations in a demo."),
    "e2e-runner": ("Where not to run the e2e tests",
                   "Don't run `pnpm e2e` on the shared runner: the Playwright browsers fill its disk within a week."),
    "broker-backlog": ("What a lagging ingest worker usually means",
                       "When the ingest worker falls behind, the cause is usually the broker's retained messages; "
                       "purge them from the broker's console."),
    "fare-table": ("What a pricing pull request should show",
                   "Pricing pull requests include a before/after fare table; reviewers asked for it after the "
                   "daylight-saving incident."),
    "commit-style": ("How I like commit subjects",
                     "I prefer short commit subjects without prefixes such as feat: or fix:."),
    "unlock-files": ("Files that need the firmware team",
                     "- `api/sprocket/unlock.py`: change only with the firmware team, the code length is burned "
                     "into the docks\n- `api/sprocket/ingest/worker.py`: the vendor reviews changes to its MQTT "
                     "topics"),
    "seed-slow": ("Why CI does not use make seed",
                  "`make seed` is too slow for the CI runners; CI seeds ten docks from a fixture instead."),
    "engine-fix": ("Where the leg-rounding fix went",
                   "The leg-rounding bug was fixed in `PricingEngine` (read the per-minute rate from the tariff "
                   "table)."),
    "issue-code-step": ("Re-issuing a rider's code by hand",
                        "To re-issue a code by hand, call `issue_code` from a shell (the admin console hides the "
                        "button for riders with debt)."),
    "pr-evidence": ("Who reviews map changes",
                    "Dana reviews every change to the map since the legend mix-up (PR #41)."),
    "file-cautions": ("Files to touch with care",
                      "- `api/sprocket/unlock.py`: the firmware team must approve changes\n"
                      "- `api/sprocket/pricing/engine.py`: finance signs off every change since the 2025 audit\n"
                      "- `web/src/api/client.ts`: keep the retry count, the city's gateway throttles bursts"),
    "region-pilot": ("Region of the Stockholm pilot",
                     "Set SPROCKET_REGION to eu-north for the Stockholm pilot: the city must keep its data in "
                     "Sweden by law."),
    "dock-remains-why": ("Why field tickets wait for the morning",
                         "If a dock remains offline overnight, open the field ticket in the morning: the "
                         "technicians' contract pays no night visits."),
    "ci-required": ("Why the ci workflow is a required check",
                    "The ci workflow is a required check because the city's contract counts every failed deploy "
                    "against us."),
    "ruff-rollout": ("When ruff's B rules get turned on",
                     "Turn on ruff's B rules only after Priya's refactor lands; she asked us to avoid conflicts."),
    "web-review-rota": ("How to get a web review",
                        "@sprocket/frontend rotates its reviewer weekly: ask in the team channel, not a person, for "
                        "a review of web/."),
    "migrate-snapshot": ("Snapshot before migrating staging",
                         "Take a snapshot of the staging database before `make migrate`; the last failed migration "
                         "took a day to restore."),
    "map-perf": ("Why the map page loads docks lazily",
                 "MapPage loads docks lazily because the city asked us to keep the first paint under a second on "
                 "old phones."),
}


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    subprocess.run(["git", "-C", str(repo), "-c", "commit.gpgsign=false", *args], check=True, capture_output=True,
                   env=env)


def _card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{body}\n"


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("sprocket")
    for rel, text in SPROCKET.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "Initial fleet service")
    for rel, text, subject in LATER_COMMITS:
        (root / rel).write_text(text, encoding="utf-8")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", subject)
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in {**DERIVABLE, **CLEAN}.items():
        (vault / f"{name}.md").write_text(_card(description, body), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--vault", str(vault), "lint", "--select", "derivable", "--format", "json"],
                                prog_name="cards")
    assert result.exit_code in (0, 1), result.output
    out: dict[str, list[str]] = {}
    for finding in json.loads(result.stdout):
        out.setdefault(finding["path"].removesuffix(".md"), []).append(f"{finding['code']} {finding['message']}")
    return out


@pytest.mark.parametrize("name", sorted(DERIVABLE))
def test_a_restatement_of_the_repo_is_derivable(found: dict[str, list[str]], name: str) -> None:
    assert found.get(name), f"{name}: no derivable finding"


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_a_card_naming_the_repo_for_a_reason_stays_clean(found: dict[str, list[str]], name: str) -> None:
    assert not found.get(name), found.get(name)


@pytest.mark.parametrize(("sentence", "name", "described"), [
    ("`Dialog` re-runs its focus effect and returns focus to the opener", "Dialog", True),
    ("VAT rates are hard-coded in `RATES`: Portugal 23%", "RATES", True),
    ("so far: it looks the handler up in `ROUTES` and answers 401", "ROUTES", True),
    ("Fixed in `Dialog` (read the callback through a ref)", "Dialog", False),
    ("Fixed in `Dialog` (read `onClose` through a ref)", "onClose", False),
    ("re-pin `IMAGE_TAG` in the env file (CI writes full SHAs)", "IMAGE_TAG", False),
    ("| noise on every route | `Guard` is mounted once | reads the caller |", "Guard", False),
])
def test_a_describing_verb_counts_in_the_clause_of_the_name(sentence: str, name: str, described: bool) -> None:
    from cardindex.lint.derivable import _subject_of_cue

    at = sentence.index(name)
    assert _subject_of_cue(sentence, at - (sentence[at - 1] == "`"), at + len(name) + (sentence[at + len(name)] == "`")) \
        is described


def test_pull_requests_are_read_from_subjects_and_parenthesised_cites_are_evidence() -> None:
    from cardindex.meaning.repo_pulls import merged_pulls, stated_pulls

    subjects = [("a1", "Add the legend (#41)", "", frozenset()), ("b2", "Merge pull request #7 from x/y", "", frozenset()),
                ("c3", "Fix #12 in the parser", "", frozenset())]
    assert merged_pulls(subjects) == {"41": ("a1", "Add the legend (#41)"), "7": ("b2", "Merge pull request #7 from x/y")}
    assert list(stated_pulls("PR #41 is open, not merged; pull request 77 too")) == ["41", "77"]
    assert list(stated_pulls("the legend moved below the map (PR #41): riders asked")) == []
    assert list(stated_pulls("see issue #41 and step #12")) == []


def test_a_synonym_in_the_passage_stands_for_a_missing_stem() -> None:
    from cardindex.meaning.content import content_stems
    from cardindex.meaning.repo_facts import Unit
    from cardindex.meaning.repo_match import COVERED, UnitIndex
    from cardindex.meaning.repo_synonyms import with_synonyms

    passage = "the ingest worker starts again when the dock stays offline after a restart"
    other = ["the pricing service computes fares nightly", "riders unlock bikes with a code"]
    index = UnitIndex([Unit(f"docs/{i}.md", 1, " ".join(dict.fromkeys(content_stems(t))), "")
                       for i, t in enumerate([passage, *other])])
    said = set(content_stems("the ingest worker begins again when the dock remains offline after a restart"))
    plain = index.best(sorted(said))
    assert plain is not None and plain.coverage < COVERED
    reworded = with_synonyms(index, plain, said)
    assert reworded is not None and reworded.coverage >= COVERED and reworded.missing == frozenset()
    unrelated = set(content_stems("the ingest worker crashes again when the dock goes dark after a restart"))
    kept = with_synonyms(index, index.best(sorted(unrelated)), unrelated)
    assert kept is None or kept.coverage < COVERED
