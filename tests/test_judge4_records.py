"""More records a repo keeps (issue 14, class 7): tsconfig, Prettier, Dockerfiles, `.env.example`, reworded commits, short cards.

A fake repo for an almanac publisher ("ephemeris": a Next.js site, a Python service that
computes sunrise tables). Positives restate a record in other words; the hard negatives
name the same settings, images, variables and commits while giving a reason, a rule, a
person's preference, a date, or a fact about another system.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cardindex.cli.main import cli
from cardindex.meaning import repo_configs
from cardindex.meaning.repo_facts import load_repo_facts
from cardindex.meaning.repo_match import claim_stems, commit_cover

FILES = {
    "site/tsconfig.json": '{\n  // the site is type-checked strictly\n  "compilerOptions": {\n    "strict": true,\n'
                          '    "target": "ES2021",\n    "noImplicitOverride": true,\n  },\n}\n',
    ".prettierrc": json.dumps({"printWidth": 90, "semi": False, "singleQuote": True}),
    "tables/Dockerfile": 'FROM python:3.11-alpine\nWORKDIR /srv\nCOPY . .\nEXPOSE 7400\nCMD ["python", "-m", "tables"]\n',
    ".env.example": "EPHEMERIS_DB_URL=postgres://localhost/eph\nMAPBOX_TOKEN=\nTABLES_CACHE_DIR=/tmp/eph\n",
    "tables/pyproject.toml": '[project]\nname = "tables"\n\n[tool.mypy]\nstrict = true\n',
    "docs/printing.md": ("# Printing\n\nThe yearly almanac goes to the printer as one PDF per region, built by the `print` "
                         "job from the sunrise tables; the job refuses regions without a proofreader sign-off.\n"),
    "README.md": "# Ephemeris\n\nSunrise and tide tables.\n",
}
COMMITS = ["Initial layout", "Cache computed sunrise tables per latitude band",
           "Add exponential backoff to the tile downloader"]

POSITIVES = {
    "ts": "The site's TypeScript is strict, targets ES2021 and has noImplicitOverride on.",
    "prettier": "Prettier settings: print width 90, no semicolons, single quotes.",
    "docker": "The tables service image is built from python:3.11-alpine and exposes port 7400.",
    "env": "The services read EPHEMERIS_DB_URL, MAPBOX_TOKEN and TABLES_CACHE_DIR from the environment.",
    "mypy": "mypy runs in strict mode for the tables package.",
    "printing": "The print job builds one PDF per region from the sunrise tables. It refuses a region that has no "
                "proofreader sign-off.",
    "commit": "Computed sunrise tables are now cached for each latitude band, per a recent commit.",
    "commit-reworded": "The tile downloader retries with exponential backoff now; that came in with a recent commit.",
}
NEGATIVES = {
    "ts-why": "Keep noImplicitOverride on in the site: the map widgets subclass the vendor's layers, and silent "
              "overrides broke the legend twice.",
    "prettier-pref": "Lotta prefers formatting-only changes in a PR of their own.",
    "docker-why": "Stay on the alpine image for the tables service because the print shop's scanner runs the same one.",
    "env-rule": "MAPBOX_TOKEN must be the public, URL-restricted token; never put the secret token in .env files.",
    "commit-rule": "Always cache computed tables per latitude band before adding a new region.",
    "commit-dated": "Sunrise tables were cached per latitude band on 2026-03-02, after the spring outage.",
    "external": "The national weather office's tide API caches its tables per harbour, not per latitude band.",
    "printer": "The printer in Tartu wants the PDFs by the first Monday of October.",
}


def _git(root: Path, *args: str) -> None:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root), "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ephemeris")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    for n, subject in enumerate(COMMITS):
        (root / "CHANGES").write_text(f"{n}\n", encoding="utf-8")
        _git(root, "add", "-A")
        _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", subject)
    memory = root / "memory"
    memory.mkdir()
    (memory / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, body in (POSITIVES | NEGATIVES).items():
        (memory / f"{name}.md").write_text(f"---\ndescription: About {name}\ntype: reference\n---\n{body}\n",
                                           encoding="utf-8")
    return memory


@pytest.fixture(scope="module")
def found(vault: Path) -> dict[str, tuple[str, str]]:
    result = CliRunner().invoke(cli, ["--vault", str(vault), "lint", "--select", "derivable", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return {f["path"].removesuffix(".md"): (f["code"], f["message"]) for f in json.loads(result.stdout)}


@pytest.mark.parametrize("name", sorted(POSITIVES))
def test_a_card_restating_these_records_is_derivable(found: dict[str, tuple[str, str]], name: str) -> None:
    assert name in found, f"{name} not flagged"


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_reasons_rules_dates_and_other_systems_stay_clean(found: dict[str, tuple[str, str]], name: str) -> None:
    assert name not in found, found[name]


def test_messages_name_the_record(found: dict[str, tuple[str, str]]) -> None:
    # The image and its port are two records of one Dockerfile: the block holds both, FROM alone not the port.
    assert found["docker"] == ("D105", "tables/Dockerfile line 1 (docker) already records this")
    assert found["ts"] == ("D105", "site/tsconfig.json line 4 (setting tsconfig) already records this")
    assert found["printing"] == ("D105", "docs/printing.md line 3 already says this")
    code, message = found["commit"]
    assert code == "D104" and "'Cache computed sunrise tables per latitude band'" in message
    assert found["commit-reworded"][0] == "D104"


def test_a_reworded_commit_subject_is_found_by_its_stems(vault: Path) -> None:
    facts = load_repo_facts(vault.parent, vault)
    said = "Downloading map tiles got exponential backoff."
    assert commit_cover(facts, sorted(claim_stems(said))) == (facts.subjects[0][0], COMMITS[2])
    assert commit_cover(facts, sorted(claim_stems("The layout of the tile folder follows the initial plan."))) is None


def test_the_readers() -> None:
    ts = list(repo_configs.json_settings("web/tsconfig.json", FILES["site/tsconfig.json"]))
    assert [(r.subject, r.value, r.line) for r in ts] == [
        ("tsconfig.compilerOptions.strict", "true", 4), ("tsconfig.compilerOptions.target", "ES2021", 5),
        ("tsconfig.compilerOptions.noImplicitOverride", "true", 6)]
    docker = list(repo_configs.dockerfile("Dockerfile", FILES["tables/Dockerfile"]))
    assert [(r.subject, r.value) for r in docker] == [
        ("FROM", "python:3.11-alpine"), ("WORKDIR", "/srv"), ("EXPOSE", "7400"), ("CMD", "python -m tables")]
    env = list(repo_configs.env_example(".env.example", FILES[".env.example"]))
    assert [(r.subject, r.value) for r in env] == [("EPHEMERIS_DB_URL", ""), ("MAPBOX_TOKEN", ""), ("TABLES_CACHE_DIR", "")]
    assert repo_configs.reader("a/b/.env.sample") is repo_configs.env_example
    assert repo_configs.reader("src/main.py") is None
    assert list(repo_configs.json_settings("tsconfig.json", "{ not json")) == []


def test_add_refuses_a_restated_image_and_takes_the_reason(vault: Path, run_cli: Callable[..., Result]) -> None:
    refused = run_cli("--vault", str(vault), "add", "The tables image starts from python:3.11-alpine and exposes 7400.",
                      "--description", "Tables image")
    assert refused.exit_code == 1 and "D105" in refused.stderr and "tables/Dockerfile" in refused.stderr
    taken = run_cli("--vault", str(vault), "add", NEGATIVES["docker-why"], "--description", "Why alpine")
    # The reason is no copy of the repo: the gate's only objection is that the vault already
    # holds this very card (docker-why.md), which the duplicate check rightly names.
    assert "D10" not in taken.stderr, taken.stderr
    assert taken.exit_code == 1 and "U101" in taken.stderr and "docker-why.md" in taken.stderr
