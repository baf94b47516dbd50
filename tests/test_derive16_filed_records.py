"""`record_values` looks only at the records a sentence can give, and finds what a scan of every record finds.

The records of a repo are filed once (`_filed`): a setting under a stem of its key and,
when its value is flags, of its tool; a script or target under its name; versions and
owners looked at always. These tests hold the filing to the scan it replaces: each
setting is still found by the sentence that names it, no setting of another tool or key
is found instead, the first record in the file's order still wins, and on a crowd of
records the filed lookup gives exactly what trying every record gives.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from helpers import repo_with_vault

from cardindex.lint import derivable_values
from cardindex.lint.derivable_values import record_values
from cardindex.meaning.repo_files import Record

RECORDS = [
    Record("pyproject.toml", 3, "setting", "tool.ruff.line-length", "100"),
    Record("pyproject.toml", 4, "setting", "tool.black.line-length", "88"),
    Record("pyproject.toml", 5, "setting", "tool.ruff.indent-width", "4"),
    Record("pyproject.toml", 8, "setting", "tool.mypy.strict", "true"),
    Record("pyproject.toml", 9, "setting", "tool.mypy.warn-unreachable", "false"),
    Record("pyproject.toml", 12, "setting", "tool.pytest.ini_options.addopts", "-ra --strict-markers"),
    Record("pyproject.toml", 13, "setting", "tool.pytest.ini_options.timeout", "30"),
    Record("setup.cfg", 2, "setting", "flake8.ignore", "E501 W503"),
    Record("tsconfig.json", 4, "setting", "compilerOptions.maxNodeModuleJsDepth", "2"),
    Record("package.json", 6, "script", "test", "vitest run"),
    Record("package.json", 7, "script", "lint", "eslint . --max-warnings 0"),
    Record("Makefile", 3, "target", "db", "docker compose up -d postgres"),
    Record(".nvmrc", 1, "version", "node", "20"),
    Record(".github/CODEOWNERS", 1, "owner", "/api/", "@ines"),
    Record("ci.yml", 9, "ci", "test", "pytest -q"),
]


def _found(sentence: str, records: list[Record] = RECORDS) -> list[tuple[str, bool]]:
    return [(stated.record.subject, stated.same) for stated in record_values(sentence, records)]


@pytest.mark.parametrize(("sentence", "subject", "same"), [
    ("ruff's line length is 100.", "tool.ruff.line-length", True),
    ("Black keeps lines at 88 characters of line length.", "tool.black.line-length", True),
    ("ruff's line length is 120.", "tool.ruff.line-length", False),
    ("The indent width is 4.", "tool.ruff.indent-width", True),
    ("mypy runs in strict mode.", "tool.mypy.strict", True),
    ("mypy does not warn about unreachable code.", "tool.mypy.warn-unreachable", True),
    ("pytest always runs with -ra and --strict-markers.", "tool.pytest.ini_options.addopts", True),
    ("The pytest timeout is 30 seconds.", "tool.pytest.ini_options.timeout", True),
    ("flake8 ignores E501 and W503.", "flake8.ignore", True),
    ("maxNodeModuleJsDepth is 2.", "compilerOptions.maxNodeModuleJsDepth", True),
    ("`pnpm test` runs vitest run once.", "test", True),
    ("`make db` runs docker compose up -d postgres.", "db", True),
    ("The app needs Node 20.", "node", True),
    ("@ines owns /api/.", "/api/", True),
])
def test_each_setting_is_found_by_the_sentence_that_names_it(sentence: str, subject: str, same: bool) -> None:
    assert _found(sentence) == [(subject, same)]


@pytest.mark.parametrize("sentence", [
    "The line length is 100.",  # two tools set one: the key alone names neither
    "Our house style has a width of 4 for tabs.",  # not the key's words
    "Strict mode is off.",  # another value than the file's
    "pytest runs with -ra.",  # not every flag of the value
    "ruff ignores E501 and W503.",  # another tool's codes
    "`pnpm build` runs vite build.",  # no script of that name
    "`npm run lint` runs eslint.",  # the script, but not its whole command
    "The app needs Python 3.12.",  # no such runtime record
    "The release train leaves every 100 days at 4 pm.",  # numbers the records hold, no key of theirs
])
def test_no_setting_of_another_tool_or_key_is_found(sentence: str) -> None:
    assert _found(sentence) == []


def test_the_first_record_in_the_files_order_is_the_one_given() -> None:
    both = [Record("a.toml", 1, "setting", "tool.ruff.line-length", "100"),
            Record("b.toml", 1, "setting", "tool.ruff.line-length", "100")]
    assert [s.record.path for s in record_values("ruff's line length is 100.", both)] == ["a.toml", "b.toml"]
    assert [s.record.path for s in record_values("ruff's line length is 100.", both[::-1])] == ["b.toml", "a.toml"]


def test_a_new_list_of_records_is_filed_anew() -> None:
    assert _found("ruff's line length is 100.", RECORDS[:1]) == [("tool.ruff.line-length", True)]
    assert _found("ruff's line length is 100.", RECORDS[1:2]) == []
    assert _found("ruff's line length is 100.", RECORDS[:1]) == [("tool.ruff.line-length", True)]


SENTENCES = [
    "ruff's line length is 100.", "The line length is 88.", "Black's line length is 88 and ruff's is 100.",
    "mypy is strict.", "Strict mode is on.", "warn unreachable is false.", "pytest runs -ra --strict-markers -q.",
    "The pytest timeout is 30.", "Timeout is 30.", "flake8 ignores E501, W503.", "The max node module js depth is 2.",
    "`npm test` runs vitest run.", "`yarn lint` runs eslint . --max-warnings 0.", "make db starts postgres with docker compose up -d.",
    "Node 20 is the runtime.", "@ines reviews /api/ changes.", "Plain prose with nothing - at all.", "Use -ra.",
    "Depth 2, width 4, length 100, timeout 30.", "tool ruff indent width 4", "Run `make db-reset` first.",
]


def test_on_a_crowd_of_records_the_filed_lookup_gives_what_a_scan_of_every_record_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Many tools and keys (so many stems are filed), the real records among them, in a mixed order.
    crowd = [Record("tools.toml", i, "setting", f"tool.t{i % 37}.key-{i % 53}", str(i % 7 or "-x --y")) for i in range(800)]
    crowd += [Record("tools.toml", 900 + i, "setting", f"tool.t{i}.switch-{i % 11}", "true" if i % 2 else "false")
              for i in range(200)]
    records = crowd[:400] + RECORDS + crowd[400:] + RECORDS[::-1]
    filed = {s: [(x.record, x.same, x.stated) for x in record_values(s, records)] for s in SENTENCES}
    monkeypatch.setattr(derivable_values, "_candidates", lambda sentence, said, table: range(len(records)))
    scanned = {s: [(x.record, x.same, x.stated) for x in record_values(s, records)] for s in SENTENCES}
    assert filed == scanned
    assert sum(map(len, filed.values())) >= 10  # the comparison sees findings, not only silence


def test_lint_reports_the_setting_among_many_and_only_it(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    tables = "".join(f"[tool.t{i}]\nkey-{i} = {i + 2}\n\n" for i in range(300))
    pyproject = f"[project]\nname = \"kiln\"\n\n{tables}[tool.ruff]\nline-length = 110\n"
    vault = repo_with_vault(tmp_path / "kiln", {"pyproject.toml": pyproject, "README.md": "# kiln\n\nFires pots.\n"},
                            {"ruff-width": ("Ruff line length", "Ruff's line length is 110."),
                             "ruff-stale": ("Ruff line length", "Ruff's line length is 120."),
                             "glaze": ("Glaze colours", "The celadon glaze goes on at 1260 degrees, not hotter.")},
                            "Fire the pots")
    result = run_cli("--vault", str(vault), "--no-cache", "lint", "--select", "derivable", "--format", "json")
    found = {f["path"]: f["message"] for f in json.loads(result.stdout)}
    assert found["ruff-width.md"].startswith("pyproject.toml line ")
    assert "(setting tool.ruff.line-length) already records this" in found["ruff-width.md"]
    assert found["ruff-stale.md"].startswith("says tool.ruff.line-length is 120 but pyproject.toml line ")
    assert "glaze.md" not in found
