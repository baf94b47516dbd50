"""`cards lint`, `cards rule` and the write gate of `cards add`, through the real entry point.

Exact output and exit codes: 0 clean, 1 findings, 2 bad usage. Most runs go through
click's CliRunner; a few run `python -m cardindex` as a real process.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex.store.journal import Journal
from cardindex.lint import registry
from cardindex.lint.registry import RULES

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "fixtures" / "cards" / "bad"
BAD_EXPECTED: dict[str, dict[str, Any]] = json.loads((BAD / "EXPECTED.json").read_text(encoding="utf-8"))
SPEC_CATEGORIES = ("structure", "derivable", "session", "duplicate", "contradiction", "stale", "secret", "index")
JSON_KEYS = ["path", "line", "code", "category", "severity", "message", "related", "fix"]
NO_REPO = "repo: false\n"

WIP = "Currently halfway through migrating the billing worker; next step is rerunning CI."
# an AWS access key id made up at import time (no real-looking key in the source)
AWS_KEY = "AKIA" + "".join(random.Random(11).choice(string.ascii_uppercase + string.digits) for _ in range(16))
THURSDAY = ("Deploys happen on Thursdays", "Deploys happen on Thursdays.")
TUESDAY = ("Deploys happen on Tuesdays", "Deploys happen on Tuesdays.")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def make_vault(root: Path, cards: dict[str, str], config: str = NO_REPO) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text(config, encoding="utf-8")
    for rel, text in cards.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def lint(run_cli: Callable[..., Result], root: Path, *args: str) -> Result:
    return run_cli("--vault", str(root), "lint", *args)


def lint_json(run_cli: Callable[..., Result], root: Path, *args: str) -> list[dict[str, Any]]:
    result = lint(run_cli, root, "--format", "json", *args)
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)


def codes(findings: list[dict[str, Any]]) -> list[str]:
    return sorted({f["code"] for f in findings})


def jobs(root: Path) -> list[dict[str, Any]]:
    folder = root / ".cardindex" / "journal"
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


def blob(root: Path, digest: str) -> bytes:
    return Journal(root / ".cardindex").blob(digest)  # a loose object or in a pack


@pytest.fixture
def mixed(tmp_path, make_card, run_cli) -> Path:
    """A vault with one finding of several kinds and a current INDEX.md."""
    root = make_vault(tmp_path / "vault", {
        "wip.md": make_card("Billing worker migration", body=WIP),
        "thursday.md": make_card(*THURSDAY[:1], body=THURSDAY[1]),
        "ops/tuesday.md": make_card(*TUESDAY[:1], body=TUESDAY[1]),
        "freeze.md": make_card("Holiday feature freeze", body="No feature merges during the freeze.", expires="2026-01-15"),
        "good.md": make_card("Timezone of all schedules", body="All cron schedules use Europe/Berlin."),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    return root


MIXED = [
    ("freeze.md", 4, "T101", "stale", "error", [], "archive"),  # stale is a content rule: an error (issue 14)
    ("ops/tuesday.md", 2, "C103", "contradiction", "error", ["thursday.md"], None),
    ("thursday.md", 2, "C103", "contradiction", "error", ["ops/tuesday.md"], None),
    ("wip.md", 5, "S101", "session", "error", [], "archive"),
]


# --------------------------------------------------------------------------- exit codes


def test_clean_vault_exits_0_and_prints_only_the_summary(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {"good.md": make_card("Timezone of all schedules", body="Cron uses Europe/Berlin.")})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    result = lint(run_cli, root)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "All checks passed! 1 card checked.\n")
    for fmt in ("json-lines", "github"):
        result = lint(run_cli, root, "--format", fmt)
        assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    result = lint(run_cli, root, "--format", "json")
    assert (result.exit_code, json.loads(result.stdout), result.stderr) == (0, [], "")
    sarif = json.loads(lint(run_cli, root, "--format", "sarif").stdout)
    assert sarif["runs"][0]["results"] == []


def test_findings_exit_1_and_exit_zero(mixed, run_cli):
    assert lint(run_cli, mixed).exit_code == 1
    result = lint(run_cli, mixed, "--exit-zero", "--format", "json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)) == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--select", "NOPE"), "error: unknown rule, prefix or category 'NOPE'; see `cards rule --all`\n"),
        (("--ignore", "S101,Q"), "error: unknown rule, prefix or category 'Q'; see `cards rule --all`\n"),
        (("--extend-select", "bogus"), "error: unknown rule, prefix or category 'bogus'; see `cards rule --all`\n"),
    ],
)
def test_unknown_selector_exits_2(mixed, run_cli, args, message):
    result = lint(run_cli, mixed, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message)


def test_unknown_format_exits_2(mixed, run_cli):
    result = lint(run_cli, mixed, "--format", "xml")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Invalid value for '--format': 'xml' is not one of" in result.stderr


def test_missing_file_exits_2(mixed, run_cli, tmp_path):
    result = lint(run_cli, mixed, str(mixed / "nope.md"))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: no such file: {mixed / 'nope.md'}\n"


@pytest.mark.parametrize(
    "config",
    [
        "lint:\n  select: [NOPE]\n",
        "lint:\n  ignore: [S999]\n",
        "lint:\n  selekt: [S101]\n",
        "lint:\n  select: 5\n",
        "lint: [S101]\n",
    ],
)
def test_bad_lint_config_exits_2_with_one_line(tmp_path, make_card, run_cli, config):
    root = make_vault(tmp_path / "vault", {"wip.md": make_card("Billing worker migration", body=WIP)}, NO_REPO + config)
    result = lint(run_cli, root)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


# --------------------------------------------------------------------------- output formats


def test_json_is_exactly_spec_findings(mixed, run_cli):
    findings = lint_json(run_cli, mixed)
    assert [list(f) for f in findings] == [[*JSON_KEYS, "vault"]] * 4  # SPEC's keys, then which vault (README)
    assert {f["vault"] for f in findings} == {str(mixed.resolve())}
    assert [(f["path"], f["line"], f["code"], f["category"], f["severity"], f["related"], f["fix"]) for f in findings] == MIXED
    assert all(isinstance(f["message"], str) and f["message"] for f in findings)


def _text_line(f: dict[str, Any], prefix: str) -> re.Pattern[str]:
    """`path:line: CODE message`, optionally naming the related card (relative to cwd)."""
    head = re.escape(f"{prefix}{f['path']}:{f['line']}: {f['code']} {f['message']}")
    see = "".join(rf"(?: \(see {re.escape(prefix + r)}\))?" for r in f["related"][:1])
    return re.compile(head + see)


@pytest.mark.parametrize(("cwd", "prefix"), [("", "vault/"), ("vault", ""), ("elsewhere", "../vault/")])
def test_text_paths_are_relative_to_cwd(mixed, run_cli, monkeypatch, tmp_path, cwd, prefix):
    findings = lint_json(run_cli, mixed)
    (tmp_path / cwd).mkdir(exist_ok=True)
    monkeypatch.chdir(tmp_path / cwd)
    result = lint(run_cli, mixed)
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert len(out) == len(findings) == 4
    for line, f in zip(out, findings, strict=True):
        assert _text_line(f, prefix).fullmatch(line), line
    assert result.stderr == "Found 4 errors.\n"


def test_text_summary_counts_fixable(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {"wip.md": make_card("Billing worker migration", body=WIP)})
    result = lint(run_cli, root)
    assert result.stderr == "Found 2 errors (1 fixable with --fix).\n"  # I101 is safe, archiving S101 is not
    result = lint(run_cli, root, "--select", "S101")
    assert result.stderr == "Found 1 error.\n"


def test_json_lines(mixed, run_cli):
    findings = lint_json(run_cli, mixed)
    result = lint(run_cli, mixed, "--format", "json-lines")
    assert result.exit_code == 1
    assert [json.loads(line) for line in result.stdout.splitlines()] == findings
    assert result.stdout.endswith("}\n")


def test_github_annotations(mixed, run_cli, monkeypatch, tmp_path):
    findings = lint_json(run_cli, mixed)
    monkeypatch.chdir(tmp_path)
    result = lint(run_cli, mixed, "--format", "github")
    assert result.exit_code == 1
    expected = [
        f"::{'error' if f['severity'] == 'error' else 'warning'} file=vault/{f['path']},line={f['line']},"
        f"title={f['code']}::{f['code']} {f['message']}"
        for f in findings
    ]
    assert result.stdout.splitlines() == expected
    assert result.stdout.startswith("::error file=vault/freeze.md,line=4,title=T101::T101 ")


def test_github_escapes_percent(tmp_path, make_card, run_cli, monkeypatch):
    # `%` starts an escape in a workflow command: a message quoting '100%' must say '100%25'
    root = make_vault(tmp_path / "vault", {"odd.md": make_card("Rollout share", body="Roll out slowly.", status="100%")})
    monkeypatch.chdir(tmp_path)
    [finding] = lint_json(run_cli, root, "--select", "structure")
    assert (finding["code"], finding["line"]) == ("F005", 4)
    assert "'100%'" in finding["message"]
    result = lint(run_cli, root, "--format", "github", "--select", "structure")
    assert result.exit_code == 1
    escaped = finding["message"].replace("%", "%25")
    assert result.stdout == f"::error file=vault/odd.md,line=4,title=F005::F005 {escaped}\n"


def test_sarif(mixed, run_cli):
    findings = lint_json(run_cli, mixed)
    result = lint(run_cli, mixed, "--format", "sarif")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["version"] == "2.1.0"
    [run] = doc["runs"]
    assert run["tool"]["driver"]["name"] == "cards"
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["C103", "S101", "T101"]
    got = [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
         r["locations"][0]["physicalLocation"]["region"]["startLine"], r["message"]["text"], r["level"])
        for r in run["results"]
    ]
    assert got == [(f["code"], f["path"], f["line"], f["message"], f["severity"]) for f in findings]


def test_statistics(mixed, run_cli):
    result = lint(run_cli, mixed, "--statistics")
    assert result.exit_code == 1
    assert result.stdout == (
        f"     2  C103  [contradiction] {RULES['C103'].summary}\n"
        f"     1  S101  [session] {RULES['S101'].summary}\n"
        f"     1  T101  [stale] {RULES['T101'].summary}\n"
    )
    assert lint(run_cli, mixed, "--statistics", "--exit-zero").exit_code == 0


# --------------------------------------------------------------------------- selection


@pytest.fixture
def many(tmp_path, make_card, run_cli) -> Path:
    """One finding from each of S101, S102, T101, K101 and a C103 pair; a current index."""
    rng = random.Random(7)
    aws = "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
    root = make_vault(tmp_path / "vault", {
        "wip.md": make_card("Billing worker migration", body=WIP),
        "todo.md": make_card("Release of the billing worker", body="Release steps:\n- [ ] rerun CI"),
        "freeze.md": make_card("Holiday feature freeze", body="No feature merges during the freeze.", expires="2026-01-15"),
        "key.md": make_card("CI account key id", type="reference", body=f"The CI deploy user key id is {aws} here."),
        "thursday.md": make_card(*THURSDAY[:1], body=THURSDAY[1]),
        "tuesday.md": make_card(*TUESDAY[:1], body=TUESDAY[1]),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    return root


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), ["C103", "K101", "S101", "S102", "T101"]),
        (("--select", "S101"), ["S101"]),
        (("--select", "S"), ["S101", "S102"]),
        (("--select", "S1"), ["S101", "S102"]),
        (("--select", "s101"), ["S101"]),
        (("--select", "session"), ["S101", "S102"]),
        (("--select", "SESSION"), ["S101", "S102"]),
        (("--select", "S101,secret"), ["K101", "S101"]),
        (("--select", "S101, T, contradiction"), ["C103", "S101", "T101"]),
        (("--select", "S101", "--select", "K"), ["K101", "S101"]),
        (("--select", "ALL"), ["C103", "K101", "S101", "S102", "T101"]),
        (("--ignore", "S102"), ["C103", "K101", "S101", "T101"]),
        (("--ignore", "session,stale"), ["C103", "K101"]),
        (("--select", "session", "--ignore", "S101"), ["S102"]),
        (("--select", "S101", "--extend-select", "T101"), ["S101", "T101"]),
        (("--select", "S", "--extend-select", "C", "--ignore", "S102"), ["C103", "S101"]),
    ],
)
def test_select_ignore_extend_select(many, run_cli, args, expected):
    assert codes(lint_json(run_cli, many, *args)) == expected


@pytest.mark.parametrize(
    ("config", "args", "expected"),
    [
        ("lint:\n  select: [session]\n", (), ["S101", "S102"]),
        ("lint:\n  select: session\n", (), ["S101", "S102"]),
        ("lint:\n  ignore: [S101, contradiction]\n", (), ["K101", "S102", "T101"]),
        ("lint:\n  select: [S]\n  ignore: [S102]\n", (), ["S101"]),
        ("lint:\n  select: [S101]\n  extend_select: [K]\n", (), ["K101", "S101"]),
        ("lint:\n  extend_select: [K]\n  select: [T]\n", ("--extend-select", "S102"), ["K101", "S102", "T101"]),
        # the command line beats the config file
        ("lint:\n  select: [session]\n", ("--select", "secret"), ["K101"]),
        ("lint:\n  select: [session]\n", ("--ignore", "S102"), ["S101"]),
        ("lint:\n  select: [session]\n", ("--extend-select", "stale"), ["S101", "S102", "T101"]),
    ],
)
def test_selection_from_config(many, run_cli, config, args, expected):
    (many / ".cardindex.yaml").write_text(NO_REPO + config, encoding="utf-8")
    assert codes(lint_json(run_cli, many, *args)) == expected


@pytest.mark.parametrize(
    ("ignore", "expected"),
    [("[S101]", []), ("[session]", []), ("[S]", []), ("[S102]", [("wip.md", 6, "S101")]), ("[]", [("wip.md", 6, "S101")])],
)
def test_lint_ignore_in_frontmatter(tmp_path, make_card, run_cli, ignore, expected):
    root = make_vault(tmp_path / "vault", {"wip.md": make_card("Billing worker migration", body=WIP, **{"lint-ignore": ignore})})
    findings = lint_json(run_cli, root, "--select", "session,structure")
    assert [(f["path"], f["line"], f["code"]) for f in findings] == expected


def test_lint_ignore_is_per_card(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {
        "quiet.md": make_card("Billing worker migration", body=WIP, **{"lint-ignore": "[S101]"}),
        "loud.md": make_card("Invoice worker migration", body="Currently halfway through migrating the invoice worker."),
    })
    findings = lint_json(run_cli, root, "--select", "session")
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [("loud.md", 5, "S101")]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (f"{WIP} <!-- cards: ignore S101 -->", []),
        (f"{WIP} <!-- cards: ignore session -->", []),
        (f"<!-- cards: ignore S101 -->\n{WIP}", []),
        (f"<!-- cards: ignore S102, S101 -->\n{WIP}", []),
        (f"{WIP} <!-- cards: ignore S102 -->", [("x.md", 5, "S101")]),
        (f"<!-- cards: ignore S101 -->\nDurable line.\n{WIP}", [("x.md", 7, "S101")]),
        (f"Durable line. <!-- cards: ignore S101 -->\n{WIP}", [("x.md", 6, "S101")]),
    ],
)
def test_ignore_comment(tmp_path, make_card, run_cli, body, expected):
    root = make_vault(tmp_path / "vault", {"x.md": make_card("Billing worker migration", body=body)})
    findings = lint_json(run_cli, root, "--select", "session")
    assert [(f["path"], f["line"], f["code"]) for f in findings] == expected


# --------------------------------------------------------------------------- cards rule


def test_rule_explains_one_code(run_cli):
    result = run_cli("rule", "S101")
    rule = RULES["S101"]
    assert result.exit_code == 0
    # the default level and the languages it judges are part of the explanation (issue 14)
    assert result.stdout == (f"S101 (session, on by default, an error: fails `cards lint` and pre-commit): {rule.summary}"
                             f"\n\n{inspect.getdoc(rule.check)}\n\nLanguages: shapes (dated reports, status boards, "
                             "a TODO: marker) in any language; its word patterns only in sentences written in English "
                             "(meaning.language).\n")
    assert "Durable sentences that merely contain such words" in result.stdout


def test_rule_lists_a_category(run_cli):
    result = run_cli("rule", "session")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"{code}  session       error    {RULES[code].summary}" for code in ("S101", "S102", "S103")
    ]


def test_rule_all(run_cli):
    result = run_cli("rule", "--all")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert listed == sorted(RULES)
    as_json = json.loads(run_cli("rule", "--all", "--format", "json").stdout)
    assert [r["code"] for r in as_json] == sorted(RULES)
    assert {r["category"] for r in as_json} == set(SPEC_CATEGORIES)


def test_rule_unknown_exits_2(run_cli):
    result = run_cli("rule", "NOPE")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "error: unknown rule, prefix or category 'NOPE'; see `cards rule --all`\n"


def test_every_rule_registered_once_and_documented(run_cli):
    source = Path(registry.__file__).read_text(encoding="utf-8")
    listed = re.findall(r"\bRule\(\s*\"([A-Z]\d{3})\"", source)
    assert len(listed) == len(set(listed)), f"codes registered twice: {sorted({c for c in listed if listed.count(c) > 1})}"
    assert sorted(listed) == sorted(RULES)
    checks = [rule.check or rule.check_vault for rule in RULES.values()]
    assert len(set(checks)) == len(checks), "two codes share one check function"
    for category in SPEC_CATEGORIES:
        assert any(r.category == category for r in RULES.values()), f"no rule in {category}"
    for code, rule in RULES.items():
        assert re.fullmatch(r"[A-Z]\d{3}", code)
        assert rule.code == code
        assert rule.category in SPEC_CATEGORIES
        assert rule.severity in ("error", "warning")
        assert (rule.check is None) != (rule.check_vault is None)
        doc = inspect.getdoc(rule.check or rule.check_vault)
        assert doc and len(doc) > 20, f"{code} has no docstring"
        assert rule.summary and "\n" not in rule.summary
        result = run_cli("rule", code)
        assert result.exit_code == 0, code
        head, _, rest = result.stdout.partition(f"): {rule.summary}\n\n{doc}\n\nLanguages: ")
        assert head.startswith(f"{code} ({rule.category}, {rule.level if rule.level == 'off' else 'on'} by default"), code
        assert rest.endswith("\n") and rest.count("\n") == 1, code


# --------------------------------------------------------------------------- fixes


def test_fix_regenerates_a_stale_index(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {"deploy.md": make_card("Deploy weekday", body="Deploy on Thursdays only.")})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    before = (root / "INDEX.md").read_text(encoding="utf-8")
    (root / "tz.md").write_text(make_card("Timezone of all schedules", body="Cron uses Europe/Berlin."), encoding="utf-8")
    assert codes(lint_json(run_cli, root)) == ["I101"]
    result = lint(run_cli, root, "--fix")
    assert (result.exit_code, result.stdout) == (0, "")
    after = (root / "INDEX.md").read_text(encoding="utf-8")
    assert after != before
    assert "- [Timezone of all schedules](tz.md)\n" in after
    assert run_cli("--vault", str(root), "index", "--check").exit_code == 0
    second = lint(run_cli, root)
    assert (second.exit_code, second.stdout, second.stderr) == (0, "", "All checks passed! 2 cards checked.\n")


def test_fix_quotes_an_unquoted_colon_and_journals_it(tmp_path, run_cli):
    original = (
        b"---\n"
        b"name: Deploy rule\n"
        b"description: Deploys: only on Thursdays\n"
        b"type: project   # trailing comment\n"
        b"# a comment line\n"
        b"custom_field: {kept: as-is}\n"
        b"---\n"
        b"Deploy to production on Thursdays only.\n"
        b"\n"
        b"**Why:** the billing batch runs on Tuesdays.  \n"
    )
    root = make_vault(tmp_path / "vault", {})
    (root / "deploy.md").write_bytes(original)
    assert run_cli("--vault", str(root), "index").exit_code == 0
    findings = lint_json(run_cli, root)
    assert [(f["path"], f["line"], f["code"], f["fix"]) for f in findings] == [("deploy.md", 3, "F006", "quote-value")]
    result = lint(run_cli, root, "--fix")
    assert (result.exit_code, result.stdout) == (0, "")
    fixed = (root / "deploy.md").read_bytes()
    assert fixed == original.replace(b"description: Deploys: only on Thursdays\n",
                                     b'description: "Deploys: only on Thursdays"\n')
    [job] = jobs(root)
    assert job["command"] == "lint --fix"
    [action] = job["actions"]
    assert action["card"] == "deploy"
    assert action["files"] == [{"path": "deploy.md", "before": sha(original), "after": sha(fixed)}]
    assert blob(root, sha(original)) == original
    listed = json.loads(run_cli("--vault", str(root), "journal", "--format", "json").stdout)
    assert [j["id"] for j in listed] == [job["id"]]
    assert lint(run_cli, root).exit_code == 0


def test_fix_alone_never_archives(tmp_path, make_card, run_cli, snapshot):
    root = make_vault(tmp_path / "vault", {"wip.md": make_card("Billing worker migration", body=WIP)})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    before = snapshot(root, state=False)
    result = lint(run_cli, root, "--fix")
    assert result.exit_code == 1
    assert result.stdout.endswith("wip.md:5: S101 " + lint_json(run_cli, root)[0]["message"] + "\n")
    assert snapshot(root, state=False) == before
    assert jobs(root) == []


def test_unsafe_fixes_archive_a_session_card(tmp_path, make_card, run_cli):
    keep = make_card("Timezone of all schedules", body="Cron uses Europe/Berlin.")
    wip = make_card("Billing worker migration", body=WIP, tags="[billing]")
    root = make_vault(tmp_path / "vault", {"wip.md": wip, "tz.md": keep})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    assert "wip.md" in (root / "INDEX.md").read_text(encoding="utf-8")
    result = lint(run_cli, root, "--fix", "--unsafe-fixes")
    assert (result.exit_code, result.stdout) == (0, "")
    assert not (root / "wip.md").exists()
    archived = (root / "archive" / "wip.md").read_text(encoding="utf-8")
    assert archived == wip.replace("tags: [billing]\n", "tags: [billing]\nstatus: archived\n")
    assert (root / "tz.md").read_text(encoding="utf-8") == keep
    assert "wip.md" not in (root / "INDEX.md").read_text(encoding="utf-8")
    [job] = jobs(root)
    [action] = job["actions"]
    assert action["action"] == "archive"
    assert action["card"] == "wip"
    assert "S101" in action["reason"]
    assert action["files"] == [
        {"path": "wip.md", "before": sha(wip.encode()), "after": None},
        {"path": "archive/wip.md", "before": None, "after": sha(archived.encode())},
    ]
    assert blob(root, sha(wip.encode())) == wip.encode()
    again = lint(run_cli, root)
    assert (again.exit_code, again.stdout) == (0, "")


# --------------------------------------------------------------------------- secrets


@pytest.fixture
def secrets_vault(tmp_path, make_card, run_cli) -> tuple[Path, list[str]]:
    rng = random.Random(20261130)
    aws = "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
    github = "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
    pem_body = "MIIEowIBAAKCAQEAu" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(48))
    password = "S3cretPassw0rd"
    root = make_vault(tmp_path / "vault", {
        "aws.md": make_card("CI account key id", type="reference", body=f"The CI deploy user key id is {aws} there."),
        "github.md": make_card("Release bot token", type="reference", body=f"The release bot pushes with {github} always."),
        "pem.md": make_card("Signing key", type="reference",
                            body=f"-----BEGIN RSA PRIVATE KEY-----\n{pem_body}\n-----END RSA PRIVATE KEY-----"),
        "db.md": make_card("Reports database", type="reference", body=f"Reports read postgres://u:{password}@db/x nightly."),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    return root, [aws, github, pem_body, password]


def test_secret_findings_are_reported(secrets_vault, run_cli):
    root, _ = secrets_vault
    findings = lint_json(run_cli, root)
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [
        ("aws.md", 5, "K101"), ("db.md", 5, "K101"), ("github.md", 5, "K101"), ("pem.md", 5, "K102"),
    ]


@pytest.mark.parametrize(
    "args",
    [(), ("--format", "json"), ("--format", "json-lines"), ("--format", "github"), ("--format", "sarif"), ("--statistics",)],
)
def test_secrets_never_appear_in_output(secrets_vault, run_cli, args):
    root, secrets = secrets_vault
    result = lint(run_cli, root, *args)
    assert result.exit_code == 1
    shown = (result.stdout + result.stderr).lower()
    for secret in secrets:
        assert secret.lower() not in shown, f"{secret[:4]}… leaked in {args}"
        assert secret[4:].lower() not in shown
    assert "K101" in result.stdout
    assert "K102" in result.stdout


# --------------------------------------------------------------------------- hostile cards


def test_hostile_cards_are_structure_findings(tmp_path, run_cli):
    root = tmp_path / "vault"
    root.mkdir()
    for path in BAD.glob("*.md"):
        shutil.copyfile(path, root / path.name)
    result = lint(run_cli, root, "--format", "json")
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr
    findings = json.loads(result.stdout)
    structure = {(f["path"], f["line"], f["code"]) for f in findings if f["category"] == "structure"}
    for name, expected in sorted(BAD_EXPECTED.items()):
        mine = [(line, code) for path, line, code in structure if path == name]
        assert mine, f"{name}: no structure finding"
        assert all(code in ("F001", "F002", "F003", "F004", "F005") for _, code in mine), (name, mine)
        assert (expected["line"] or 1) in [line for line, _ in mine], (name, mine)
    assert {f["path"] for f in findings} - set(BAD_EXPECTED) <= {"INDEX.md"}


# --------------------------------------------------------------------------- subprocess


def cards(*args: object, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH", "PRE_COMMIT")}
    env.update(HOME=str(home), CARDS_TODAY="2026-11-30")
    return subprocess.run([sys.executable, "-m", "cardindex", *map(str, args)], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, encoding="utf-8", errors="replace", timeout=120)


def test_process_exit_codes_and_text(mixed, run_cli, tmp_path, fake_home):
    findings = lint_json(run_cli, mixed)
    done = cards("--vault", "vault", "lint", cwd=tmp_path, home=fake_home)
    assert done.returncode == 1
    assert [_text_line(f, "vault/").fullmatch(line) is not None for line, f in
            zip(done.stdout.splitlines(), findings, strict=True)] == [True] * 4
    assert done.stderr == "Found 4 errors.\n"
    done = cards("lint", "--select", "NOPE", cwd=mixed, home=fake_home)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: unknown rule, prefix or category 'NOPE'; see `cards rule --all`\n"
    done = cards("lint", "--exit-zero", cwd=mixed, home=fake_home)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 4


def test_process_hostile_cards(tmp_path, fake_home):
    root = tmp_path / "vault"
    root.mkdir()
    (root / ".cardindex.yaml").write_text("", encoding="utf-8")  # what makes the folder a vault, found from cwd
    for path in BAD.glob("*.md"):
        shutil.copyfile(path, root / path.name)
    for fmt in ("text", "sarif"):
        done = cards("lint", "--format", fmt, cwd=root, home=fake_home)
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        for name in BAD_EXPECTED:
            assert name in done.stdout


# --------------------------------------------------------------------------- the write gate of `cards add`


def add(run_cli: Callable[..., Result], root: Path, *args: str) -> Result:
    return run_cli("--vault", str(root), "add", *args)


@pytest.fixture
def gate_vault(tmp_path, make_card, run_cli) -> Path:
    root = make_vault(tmp_path / "vault", {
        "python.md": make_card("Python version of the billing service",
                               body="The billing service runs on Python 3.11 in production."),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    return root


def _refused(result: Result, category_codes: set[str]) -> list[str]:
    assert result.exit_code == 1
    assert result.stdout == ""
    *finding_lines, last = [line for line in result.stderr.splitlines() if not line.startswith("hint: ")]
    assert last.startswith("error: card refused by the write gate (")
    assert last.endswith("nothing written. Use --force to add it anyway")
    found = [re.match(r"^[\w.-]+\.md:\d+: ([A-Z]\d{3}) ", line) for line in finding_lines]
    assert all(found), finding_lines
    got = {m.group(1) for m in found if m}
    assert got & category_codes, (got, category_codes)
    return finding_lines


def test_gate_refuses_a_session_note(gate_vault, run_cli, snapshot):
    before = snapshot(gate_vault, state=False)
    result = add(run_cli, gate_vault, WIP)
    lines = _refused(result, {"S101"})
    assert any(": S101 " in line for line in lines)
    assert "(session)" in result.stderr.splitlines()[-1]
    assert snapshot(gate_vault, state=False) == before
    assert jobs(gate_vault) == []


def test_gate_refuses_a_secret(gate_vault, run_cli, snapshot):
    before = snapshot(gate_vault, state=False)
    result = add(run_cli, gate_vault, f"The CI deploy key id is {AWS_KEY} for the bot.", "-n", "CI key")
    _refused(result, {"K101", "K103"})
    assert snapshot(gate_vault, state=False) == before


def test_gate_never_prints_the_secret_it_refuses(gate_vault, run_cli):
    key = AWS_KEY
    result = add(run_cli, gate_vault, f"The CI deploy key id is {key} for the bot.")
    assert result.exit_code == 1
    assert key.lower() not in (result.stdout + result.stderr).lower()


def test_gate_refuses_a_reworded_duplicate(gate_vault, run_cli, snapshot):
    before = snapshot(gate_vault, state=False)
    result = add(run_cli, gate_vault, "In production, the billing service runs Python 3.11.",
                 "-d", "Which Python the billing service runs in production")
    lines = _refused(result, {"U101"})
    assert any(": U101 " in line and "python.md" in line for line in lines)
    assert snapshot(gate_vault, state=False) == before


def test_gate_lets_a_contradiction_in(gate_vault, run_cli):
    # a new value is not a duplicate; it is for consolidation (or --key) to settle
    result = add(run_cli, gate_vault, "The billing service runs on Python 3.12 in production.",
                 "-d", "Python version of the billing service")
    assert result.exit_code == 0, result.stderr


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo_vault(tmp_path, run_cli) -> Path:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text(
        '"""Invoices."""\n\ndef compute_total(items):\n    return sum(item.amount for item in items)\n', encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Add the invoice total")
    assert run_cli("init", str(repo / "memory")).exit_code == 0
    return repo / "memory"


def test_gate_refuses_what_the_code_records(repo_vault, run_cli, snapshot):
    before = snapshot(repo_vault, state=False)
    result = add(run_cli, repo_vault, "`compute_total` in src/app.py:3 returns the invoice sum")
    lines = _refused(result, {"D101", "D102"})
    assert {line.split(": ")[1].split()[0] for line in lines} <= {"D101", "D102", "D103", "D104", "D105"}
    assert "(derivable)" in result.stderr.splitlines()[-1]
    assert snapshot(repo_vault, state=False) == before


def test_gate_lets_an_outside_constraint_on_code_in(repo_vault, run_cli):
    result = add(run_cli, repo_vault, "`compute_total` must stay under 50 ms because the till terminal times out.")
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("fixture", "text"),
    [
        ("gate_vault", WIP),
        ("gate_vault", f"The CI deploy key id is {AWS_KEY} for the bot."),
        ("gate_vault", "In production, the billing service runs Python 3.11."),
        ("repo_vault", "`compute_total` in src/app.py:3 returns the invoice sum"),
    ],
)
def test_force_writes_what_the_gate_refuses(request, run_cli, fixture, text):
    root = request.getfixturevalue(fixture)
    result = add(run_cli, root, text, "--force", "-n", "Forced card")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{root / 'forced-card.md'}\n"
    written = (root / "forced-card.md").read_text(encoding="utf-8")
    assert written.endswith(f"---\n{text}\n")
    index = (root / "INDEX.md").read_text(encoding="utf-8")
    if AWS_KEY in text:  # a card holding a secret is written, but withheld from the index (SPEC §9)
        assert "forced-card.md" not in index and "<!-- 1 card withheld: it holds a secret" in index
    else:
        assert "- [Forced card](forced-card.md)" in index


def test_same_key_supersedes_instead_of_being_refused_as_duplicate(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", {})
    first = add(run_cli, root, "Deploy to production on Thursdays only.", "-d", "Which weekday production deploys happen",
                "-k", "deploy-day", "-n", "Deploy day")
    assert first.exit_code == 0, first.stderr
    reworded = ("Production deploys happen only on Thursdays.", "-d", "Which weekday production deploys go out")
    # without the key it is the same fact again: refused
    _refused(add(run_cli, root, *reworded), {"U101"})
    second = add(run_cli, root, *reworded, "-k", "deploy-day", "-n", "Deploy weekday")
    assert second.exit_code == 0, second.stderr
    assert second.stdout == f"{root / 'deploy-weekday.md'}\n"
    assert not (root / "deploy-day.md").exists()
    archived = (root / "archive" / "deploy-day.md").read_text(encoding="utf-8")
    assert "status: superseded\n" in archived
    assert "superseded_by: deploy-weekday\n" in archived
    index = (root / "INDEX.md").read_text(encoding="utf-8")
    assert "deploy-weekday.md" in index
    assert "deploy-day.md" not in index
