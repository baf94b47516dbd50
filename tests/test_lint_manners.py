"""A linter's manners (issue 17): `[*]`, `--show-fixes`, `--diff`, `--output-file`, `--statistics`
in every format, one path convention, each finding once, `cards lint DIR`, and F009's
links (code is no link; an embed of a file in the vault stands).

Cards here are written for these tests, in domains of their own (a bakery, a ferry line,
a choir, a lab freezer), through the real CLI unless a unit says otherwise.
"""

from __future__ import annotations

import difflib
import json
import os
import random
import re
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import snapshot_tree
from cardindex.lint.secret import reported
from cardindex.secrets import find_secrets

NO_REPO = "repo: false\n"
RNG = random.Random(17)
# made up at import time, so no real-looking credential sits in the source
GH = "ghp_" + "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(36))
GH2 = "ghp_" + "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(36))
AWS = "AKIA" + "".join(RNG.choice(string.ascii_uppercase + string.digits) for _ in range(16))
RANDOM = "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(40))
SUMMARY = re.compile(r"Found (\d+) errors?(?: \((?:(\d+) warnings?)?(?:, )?(?:(\d+) fixable with --fix)?\))?\.")

Run = Callable[..., Result]


def card(description: str, body: str, type: str = "reference", **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\ndescription: {description}\ntype: {type}\n{extra}---\n{body}\n"


def make_vault(root: Path, cards: dict[str, str | bytes]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text(NO_REPO, encoding="utf-8")
    for rel, text in cards.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return root


def lint(run_cli: Run, root: Path, *args: str) -> Result:
    return run_cli("--vault", str(root), "lint", *args)


def findings(run_cli: Run, root: Path, *args: str) -> list[dict[str, Any]]:
    result = lint(run_cli, root, "--format", "json", *args)
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- each secret once


def test_a_token_in_the_description_and_the_body_is_one_finding(tmp_path: Path, run_cli: Run) -> None:
    """`cards add` takes the description from the first line, so a pasted token sits there twice: one secret."""
    root = make_vault(tmp_path / "v", {"bot.md": card(f"'The bakery bot pushes with {GH}'", f"The bakery bot pushes with {GH}.")})
    got = [(f["line"], f["code"]) for f in findings(run_cli, root, "--select", "secret")]
    assert got == [(2, "K101")]


def test_two_secrets_on_one_line_are_two_findings(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {"ferry.md": card("Ferry ticketing credentials", f"Old {GH} and new {GH2} tokens.")})
    got = findings(run_cli, root, "--select", "secret")
    assert [f["code"] for f in got] == ["K101", "K101"]
    assert [f["message"].rsplit(" ", 2)[1:] for f in got] == [["column", "5"], ["column", "54"]]


def test_one_secret_in_two_cards_is_reported_in_each(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "a.md": card("Choir mailing list access", f"The list key is {AWS}."),
        "b.md": card("Choir rehearsal room booking", f"Room booking uses {AWS} too."),
    })
    assert [(f["path"], f["code"]) for f in findings(run_cli, root, "--select", "secret")] == [("a.md", "K101"), ("b.md", "K101")]


def test_a_value_assigned_and_pasted_bare_is_reported_once_under_the_keyword_rule() -> None:
    text = f"freezer_api_key = {RANDOM}\n\nIf the alarm fires, paste {RANDOM} into the panel.\n"
    assert [s.kind for s in find_secrets(text)] == ["secret value", "random token"]  # the detector finds both spans
    assert [(code, s.line) for code, s in reported(text)] == [("K103", 1)]


@settings(max_examples=60, deadline=None)
@given(times=st.integers(1, 4), filler=st.sampled_from(["The oven timer", "Ferry gate 3", "Lab freezer B"]))
def test_a_value_repeated_n_times_is_one_finding(times: int, filler: str) -> None:
    text = "\n".join(f"{filler} uses {GH} (copy {i})." for i in range(times))
    assert len(reported(text)) == 1
    assert len(reported(text + f"\nAlso {GH2}.")) == 2


def test_the_write_gate_names_a_repeated_secret_once(vault: Path, invoke: Run) -> None:
    result = invoke("add", f"The bakery bot pushes with {GH}", "--type", "reference")
    assert result.exit_code == 1
    assert result.stderr.count("K101") == 1, result.stderr


# --------------------------------------------------------------------------- F009: links, code, embeds


def _links(run_cli: Run, root: Path) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["message"]) for f in findings(run_cli, root, "--select", "F009")]


def test_brackets_in_code_are_no_links(tmp_path: Path, run_cli: Run) -> None:
    body = ("Templates write `[[ name ]]` for a slot, or ``[[two `ticks`]]``.\n\n"
            "```\nif [[ -f /etc/ferry.conf ]]; then echo ok; fi\n```\n\n~~~yaml\nslot: \"[[menu]]\"\n~~~\n")
    root = make_vault(tmp_path / "v", {"tpl.md": card("How the bakery menu templates mark a slot", body)})
    assert _links(run_cli, root) == []


def test_a_link_outside_code_is_still_checked(tmp_path: Path, run_cli: Run) -> None:
    body = "A lone ` backtick, then [[sourdough-starter]].\n\n```\n[[inside]]\n```\n\nAfter the block: [[rye-ratio]]."
    root = make_vault(tmp_path / "v", {"bread.md": card("Bread notes", body)})
    assert _links(run_cli, root) == [("bread.md", 5, "[[sourdough-starter]] links to no card"),
                                     ("bread.md", 11, "[[rye-ratio]] links to no card")]


def test_an_embed_of_a_file_in_the_vault_stands(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "ferry/route.md": card("Ferry route map", "![[route.png]] and ![[assets/timetable.pdf|300]] and [[harbour.svg]]."),
        "ferry/route.png": b"\x89PNG",
        "assets/timetable.pdf": b"%PDF",
        "img/harbour.svg": b"<svg/>",  # found by its name anywhere in the vault, as Obsidian finds it
        "ferry/crew.md": card("Ferry crew roster", "See ![[route]] for the map card."),
    })
    assert _links(run_cli, root) == []


def test_an_embed_of_a_missing_file_is_flagged(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "choir.md": card("Choir seating chart", "![[seating.png]]\n\n![[../outside.png]]"),
        "../outside.png": b"x",  # outside the vault: not the vault's file
    })
    assert _links(run_cli, root) == [("choir.md", 5, "![[seating.png]] embeds no file"),
                                     ("choir.md", 7, "![[../outside.png]] embeds no file")]


def test_links_to_cards_stand_and_each_dangling_link_is_named_once_on_its_line(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "lab/freezer.md": "---\nname: Freezer B rules\ndescription: What may go in lab freezer B\ntype: project\n---\n"
                          "Samples only. See [[Freezer B rules]], [[lab/alarm]] and [[alarm]].\n"
                          "Not [[thawing]] or [[thawing]].\nNor [[thawing]].\n",
        "lab/alarm.md": card("What the freezer alarm means", "It means the door is open."),
    })
    assert _links(run_cli, root) == [("lab/freezer.md", 7, "[[thawing]] links to no card"),
                                     ("lab/freezer.md", 8, "[[thawing]] links to no card")]


# --------------------------------------------------------------------------- one path convention


@pytest.fixture
def ferry(tmp_path: Path, run_cli: Run) -> Path:
    """A vault at tmp_path/mem with one error (a session note, fix: archive) and one fixable warning (F006)."""
    root = make_vault(tmp_path / "mem", {
        "ops/sailing.md": card("Ferry sailing status", "Currently halfway through repainting the hull; next step is the deck."),
        "ops/gate.md": "---\ndescription: Boarding: gate 3 for cars\ntype: project\n---\nCars board at gate 3.\n",
        "ops/tide.md": card("Which tide table the ferry uses", "The ferry plans sailings on the harbour master's tide table."),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    return root


def test_text_and_github_name_files_from_the_current_folder(ferry: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ferry.parent)
    text = run_cli("--vault", "mem", "lint").stdout
    assert "mem/ops/gate.md:2: F006 [*] " in text and "mem/ops/sailing.md:" in text
    github = run_cli("--vault", "mem", "lint", "--format", "github").stdout
    assert "file=mem/ops/gate.md,line=2" in github
    monkeypatch.chdir(ferry / "ops")
    assert run_cli("--vault", "..", "lint").stdout.startswith("gate.md:2: F006")


def test_machine_formats_are_vault_relative_and_name_the_vault(ferry: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ferry / "ops")  # the current folder changes nothing in them
    as_json = json.loads(run_cli("--vault", "..", "lint", "--format", "json").stdout)
    assert [(f["path"], f["vault"]) for f in as_json] == [("ops/gate.md", str(ferry.resolve())), ("ops/sailing.md", str(ferry.resolve()))]
    lines = [json.loads(line) for line in run_cli("--vault", "..", "lint", "--format", "json-lines").stdout.splitlines()]
    assert lines == as_json
    sarif = json.loads(run_cli("--vault", "..", "lint", "--format", "sarif").stdout)["runs"][0]
    where = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in sarif["results"]]
    assert where == [{"uri": "ops/gate.md", "uriBaseId": "VAULT"}, {"uri": "ops/sailing.md", "uriBaseId": "VAULT"}]
    assert sarif["originalUriBaseIds"]["VAULT"]["uri"] == ferry.resolve().as_uri() + "/"


def test_cards_of_two_vaults_make_one_json_document(tmp_path: Path, run_cli: Run) -> None:
    a = make_vault(tmp_path / "a", {"x.md": card("Oven rota", "Currently halfway through the rota; next step is Friday.")})
    b = make_vault(tmp_path / "b", {"y.md": card("Choir rota", "Currently halfway through the rota; next step is Sunday.")})
    result = run_cli("lint", str(a / "x.md"), str(b / "y.md"), "--format", "json")
    got = json.loads(result.stdout)  # one array, not two glued together
    assert sorted((f["vault"], f["path"]) for f in got) == [(str(a.resolve()), "x.md"), (str(b.resolve()), "y.md")]
    sarif = json.loads(run_cli("lint", str(a / "x.md"), str(b / "y.md"), "--format", "sarif").stdout)["runs"][0]
    assert sorted(base["uri"] for base in sarif["originalUriBaseIds"].values()) == sorted(
        [a.resolve().as_uri() + "/", b.resolve().as_uri() + "/"])


# --------------------------------------------------------------------------- [*], --show-fixes, --diff


def test_fixable_findings_are_marked(ferry: Path, run_cli: Run) -> None:
    (ferry / "ops" / "tide.md").write_text(card("Which tide table the ferry follows", "The harbour master's table."), encoding="utf-8")
    lines = lint(run_cli, ferry).stdout.splitlines()
    marked = {line.split(": ", 1)[1].split(" ", 1)[0] for line in lines if " [*] " in line}
    assert marked == {"I101", "F006"}  # safe fixes; archiving the session note is unsafe
    unsafe = lint(run_cli, ferry, "--unsafe-fixes").stdout
    assert re.search(r"sailing\.md:\d+: S101 \[\*\] ", unsafe)


def test_show_fixes_lists_what_fix_would_do_and_writes_nothing(ferry: Path, run_cli: Run) -> None:
    before = snapshot_tree(ferry, state=False)
    result = lint(run_cli, ferry, "--show-fixes")
    assert result.exit_code == 1
    assert "Would fix (cards lint --fix):\n" in result.stderr
    assert f"  {os.path.relpath(ferry / 'ops' / 'gate.md')}: quote description (F006)\n" in result.stderr
    assert "sailing" not in result.stderr.split("Would fix")[1]  # unsafe: not without --unsafe-fixes
    assert snapshot_tree(ferry, state=False) == before
    unsafe = lint(run_cli, ferry, "--show-fixes", "--unsafe-fixes").stderr
    assert "sailing.md: archive it (S101 " in unsafe


def test_diff_is_exactly_what_fix_writes(ferry: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ferry)
    before = snapshot_tree(ferry, state=False)
    shown = run_cli("lint", "--diff", "--unsafe-fixes")
    assert shown.exit_code == 1 and shown.stdout.startswith("--- a/ops/gate.md\n+++ b/ops/gate.md\n"), shown.stdout
    assert "+++ b/archive/ops/sailing.md\n" in shown.stdout and "+++ b/INDEX.md\n" in shown.stdout
    assert "Would fix " in shown.stderr
    assert snapshot_tree(ferry, state=False) == before
    assert run_cli("lint", "--fix", "--unsafe-fixes").exit_code == 0
    after = snapshot_tree(ferry, state=False)

    def diff(old: str, new: str) -> str:
        a = before[old].decode().splitlines(keepends=True)
        b = after[new].decode().splitlines(keepends=True)
        return "".join(difflib.unified_diff(a, b, f"a/{old}", f"b/{new}"))

    expected = diff("ops/gate.md", "ops/gate.md") + diff("ops/sailing.md", "archive/ops/sailing.md") + diff("INDEX.md", "INDEX.md")
    assert shown.stdout == expected


def test_diff_with_nothing_to_fix_exits_0(ferry: Path, run_cli: Run) -> None:
    (ferry / "ops" / "gate.md").unlink()
    assert run_cli("--vault", str(ferry), "index").exit_code == 0
    result = lint(run_cli, ferry, "--diff")  # the session note stays an error, but --diff is about fixes
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == "No fixes to make.\n"


def test_diff_and_fix_together_is_a_usage_error(ferry: Path, run_cli: Run) -> None:
    result = lint(run_cli, ferry, "--diff", "--fix")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1


# --------------------------------------------------------------------------- --output-file


@pytest.mark.parametrize("fmt", ["text", "json", "json-lines", "github", "sarif"])
def test_output_file_holds_what_stdout_would(ferry: Path, run_cli: Run, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "reports" / f"lint.{fmt}"
    printed = lint(run_cli, ferry, "--format", fmt)
    written = lint(run_cli, ferry, "--format", fmt, "--output-file", str(out))
    assert (written.exit_code, written.stdout) == (printed.exit_code, "")
    assert out.read_text(encoding="utf-8") == printed.stdout
    assert not [p for p in out.parent.iterdir() if p != out]  # no temp file left beside it


def test_output_file_that_cannot_be_written_is_one_line(ferry: Path, run_cli: Run, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    result = lint(run_cli, ferry, "-o", str(tmp_path / "afile" / "lint.json"))
    assert result.exit_code in (1, 2) and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


# --------------------------------------------------------------------------- --statistics


def _summary(stderr: str) -> tuple[int, int, int]:
    m = SUMMARY.search(stderr)
    assert m, stderr
    return int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0)


def test_statistics_in_json_agree_with_the_summary(ferry: Path, run_cli: Run) -> None:
    rows = json.loads(lint(run_cli, ferry, "--statistics", "--format", "json").stdout)
    assert [list(r) for r in rows] == [["code", "category", "summary", "count", "errors", "warnings", "fixable"]] * len(rows)
    errors, warnings, fixable = _summary(lint(run_cli, ferry).stderr)
    assert sum(r["errors"] for r in rows) == errors
    assert sum(r["warnings"] for r in rows) == warnings
    assert sum(r["fixable"] for r in rows) == fixable
    assert {r["code"]: r["fixable"] for r in rows} == {"S101": 0, "F006": 1}
    text = lint(run_cli, ferry, "--statistics")
    assert _summary(text.stderr) == (errors, warnings, fixable)
    assert "     1  F006  [*] [structure] " in text.stdout


def test_statistics_in_the_other_formats(ferry: Path, run_cli: Run) -> None:
    lines = [json.loads(line) for line in lint(run_cli, ferry, "--statistics", "--format", "json-lines").stdout.splitlines()]
    assert [r["code"] for r in lines] == ["F006", "S101"]
    github = lint(run_cli, ferry, "--statistics", "--format", "github").stdout.splitlines()
    assert github == [line for line in github if line.startswith(("::error title=", "::warning title="))] and len(github) == 2
    sarif = json.loads(lint(run_cli, ferry, "--statistics", "--format", "sarif").stdout)["runs"][0]
    assert {r["id"]: r["properties"]["count"] for r in sarif["tool"]["driver"]["rules"]} == {"F006": 1, "S101": 1}
    assert sarif["results"] == []


def test_statistics_keeps_exit_codes(ferry: Path, run_cli: Run) -> None:
    assert lint(run_cli, ferry, "--statistics", "--format", "json").exit_code == 1
    assert lint(run_cli, ferry, "--statistics", "--format", "json", "--exit-zero").exit_code == 0


# --------------------------------------------------------------------------- cards lint DIR


def test_lint_the_vault_folder_is_the_whole_vault(ferry: Path, run_cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    (ferry / "ops" / "tide.md").write_text(card("Which tide table the ferry follows", "The harbour master's table."), encoding="utf-8")
    monkeypatch.chdir(ferry.parent)
    whole = run_cli("--vault", "mem", "lint")
    folder = run_cli("lint", "mem/")
    assert (folder.exit_code, folder.stdout, folder.stderr) == (whole.exit_code, whole.stdout, whole.stderr)
    assert "I101" in folder.stdout  # the vault's own folder: its index is checked too


def test_lint_a_folder_in_the_vault_is_the_cards_under_it(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "bakery/oven.md": card("Oven status", "Currently halfway through descaling; next step is the seals."),
        "choir/rota.md": card("Choir rota status", "Currently halfway through the rota; next step is Sunday."),
    })
    result = run_cli("lint", str(root / "bakery"))
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [os.path.relpath(root / "bakery" / "oven.md")]
    assert "1 card" in result.stderr or "Found 1 error" in result.stderr
    both = run_cli("lint", str(root / "bakery"), str(root / "choir" / "rota.md"), "--format", "json")
    assert [f["path"] for f in json.loads(both.stdout)] == ["bakery/oven.md", "choir/rota.md"]


def test_lint_a_folder_in_no_vault_is_one_line(tmp_path: Path, run_cli: Run) -> None:
    (tmp_path / "loose").mkdir()
    result = run_cli("lint", str(tmp_path / "loose"))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "not in a cards vault" in result.stderr


def test_lint_dir_as_a_real_process(tmp_path: Path) -> None:
    root = make_vault(tmp_path / "repo" / "memory", {"tide.md": card("Which tide table the ferry uses", "The harbour master's.")})
    env = {**os.environ, "HOME": str(tmp_path / "home"), "CARDS_TODAY": "2026-11-30"}
    env.pop("CARDS_VAULT", None)
    subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(root), "index"], env=env, check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-m", "cardindex", "lint", "memory/"], cwd=root.parent, env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "All checks passed! 1 card checked.\n")


def test_a_link_spelled_another_way_is_still_flagged_with_the_card_it_may_mean(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "12-oven_descaling.md": card("How often the bakery oven is descaled", "Every 40 bakes."),
        "tide_tables.md": card("Which tide table the ferry uses", "The harbour master's."),
        "notes.md": card("Where the bakery and ferry notes point", "See [[oven-descaling]], [[Tide Tables]] and [[choir]]."),
    })
    assert sorted(_links(run_cli, root)) == sorted([
        ("notes.md", 5, "[[oven-descaling]] links to no card; did you mean [[12-oven_descaling]]?"),
        ("notes.md", 5, "[[Tide Tables]] links to no card; did you mean [[tide_tables]]?"),
        ("notes.md", 5, "[[choir]] links to no card"),
    ])


def test_diff_never_prints_a_secret(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "oven.md": f"---\ndescription: Oven vendor: the service login\ntype: reference\n---\nThe vendor portal token is {GH}.\n",
    })
    result = lint(run_cli, root, "--diff")
    assert result.exit_code == 1 and '+description: "Oven vendor: the service login"' in result.stdout
    assert GH not in result.stdout and GH[:8] not in result.stdout and "[redacted]" in result.stdout


@settings(max_examples=80, deadline=None)
@given(target=st.text(alphabet=string.ascii_letters + string.digits + " -_", min_size=1, max_size=20).filter(str.strip),
       ticks=st.integers(1, 3), before=st.sampled_from(["", "See ", "A ferry note: "]))
def test_brackets_in_a_code_span_are_never_a_link_and_outside_always_one(target: str, ticks: int, before: str) -> None:
    from cardindex.lint.links import body_links
    from cardindex.store.card import Card

    fence = "`" * ticks
    coded = Card.from_text("x.md", f"---\ndescription: d\ntype: project\n---\n{before}{fence}[[{target}]]{fence} and more.\n")
    assert list(body_links(coded)) == []
    plain = Card.from_text("x.md", f"---\ndescription: d\ntype: project\n---\n{before}[[{target}]] and `code`.\n")
    assert list(body_links(plain)) == [(5, target.strip(), False)]


def test_a_link_by_slug_finds_a_claude_code_memory_file_named_type_underscore_slug(tmp_path: Path, run_cli: Run) -> None:
    root = make_vault(tmp_path / "v", {
        "feedback_no-guessing.md": card("Never invent a source", "Say you do not know instead."),
        "project_pottery.md": card("Kiln schedule", "Firing on Fridays; see [[no-guessing]] and [[pottery]], not [[glazes]]."),
    })
    assert _links(run_cli, root) == [("project_pottery.md", 5, "[[glazes]] links to no card")]
