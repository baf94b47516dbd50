"""Cards no command may rewrite: repeated frontmatter keys (F011) and control characters (F012).

YAML keeps the last of two equal keys and a rewrite used to edit the first, so a
superseded card with two `status:` lines read `active`. Such cards, and cards holding a
control character anywhere, are one finding each, are left out of every decision, and
stay byte for byte through consolidate, supersede, archive and lint --fix.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.store.card import Card, set_fields
from cardindex.errors import CardError

Invoke = Callable[..., Result]

TWO_STATUSES = """\
---
description: Which weekday production deploys happen
type: project
key: deploy-day
status: superseded
verified: 2026-01-01
status: active
---
Deploy on Tuesdays.
"""
NESTED_TWICE = """\
---
description: Which weekday production deploys happen
metadata:
  type: project
  key: deploy-day
  verified: 2026-01-01
  node_type: memory
  key: deploy-weekday
---
Deploy on Tuesdays.
"""
NEWER = """\
---
description: Which weekday production deploys happen
type: project
key: deploy-day
verified: 2026-06-01
---
Deploy on Thursdays only.
"""
ESC_BODY = "---\ndescription: Which weekday production deploys happen\ntype: project\nkey: deploy-day\n---\nDeploy on \x1b]52;c;aGk=\x07Tuesdays.\n"
ESC_ESCAPE = '---\ndescription: "Which weekday \\e[31mproduction deploys happen"\ntype: project\nkey: deploy-day\n---\nDeploy on Tuesdays.\n'
ESC_FIELD = "---\ndescription: Which weekday \x1b[2J production deploys happen\ntype: project\nkey: deploy-day\n---\nDeploy on Tuesdays.\n"
UNSAFE = {"two-statuses": TWO_STATUSES, "nested-twice": NESTED_TWICE, "esc-body": ESC_BODY, "esc-escape": ESC_ESCAPE,
          "esc-field": ESC_FIELD}
CODE = {"two-statuses": "F011", "nested-twice": "F011", "esc-body": "F012", "esc-escape": "F012", "esc-field": "F012"}


def lint(invoke: Invoke, vault: Path, name: str) -> list[dict[str, object]]:
    result = invoke("lint", "--format", "json", str(vault / f"{name}.md"))
    assert result.exit_code == 1, result.stderr
    findings: list[dict[str, object]] = json.loads(result.stdout)
    return findings


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_one_clear_structure_finding(invoke: Invoke, vault: Path, name: str) -> None:
    (vault / f"{name}.md").write_text(UNSAFE[name])
    found = [(f["code"], f["line"], f["severity"]) for f in lint(invoke, vault, name) if f["category"] == "structure"]
    line = {"two-statuses": 7, "nested-twice": 8, "esc-body": 6, "esc-escape": 2, "esc-field": 2}[name]
    assert found == [(CODE[name], line, "error")]  # and no F003 for the raw ESC YAML cannot read


def test_the_messages_name_both_lines_and_the_character(invoke: Invoke, vault: Path) -> None:
    (vault / "two-statuses.md").write_text(TWO_STATUSES)
    (vault / "esc-body.md").write_text(ESC_BODY)
    (message,) = [f["message"] for f in lint(invoke, vault, "two-statuses") if f["code"] == "F011"]
    assert "key 'status' appears twice (lines 5 and 7)" in str(message)
    (message,) = [f["message"] for f in lint(invoke, vault, "esc-body") if f["code"] == "F012"]
    assert "\\x1b (ESC)" in str(message) and "\x1b" not in str(message)


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_consolidate_and_lint_fix_leave_it_byte_for_byte(invoke: Invoke, vault: Path, name: str) -> None:
    unsafe = vault / f"{name}.md"
    unsafe.write_text(UNSAFE[name])
    (vault / "deploy-thursdays.md").write_text(NEWER)
    before = unsafe.read_bytes()
    assert invoke("consolidate", "--all").exit_code == 0
    assert invoke("lint", "--fix").exit_code == 1
    assert invoke("lint", "--fix", "--unsafe-fixes").exit_code == 1
    assert unsafe.read_bytes() == before
    assert f"{name}.md" not in (vault / "INDEX.md").read_text()  # left out of every decision, the index too


@pytest.mark.parametrize("name", sorted(UNSAFE))
@pytest.mark.parametrize("command", [("supersede", "{card}", "deploy-thursdays"), ("supersede", "deploy-thursdays", "{card}"),
                                     ("archive", "{card}")])
def test_explicit_edits_are_refused(invoke: Invoke, vault: Path, name: str, command: tuple[str, ...]) -> None:
    unsafe = vault / f"{name}.md"
    unsafe.write_text(UNSAFE[name])
    other = vault / "deploy-thursdays.md"
    other.write_text(NEWER)
    before = (unsafe.read_bytes(), other.read_bytes())
    result = invoke(*(part.format(card=name) for part in command))
    assert result.exit_code == 1
    assert f"{name}.md" in result.stderr and "fix it first" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert (unsafe.read_bytes(), other.read_bytes()) == before


def test_an_unquoted_colon_on_a_card_with_a_repeated_key_is_not_fixed(invoke: Invoke, vault: Path) -> None:
    text = TWO_STATUSES.replace("description: Which weekday production deploys happen", "description: Deploys: Tuesdays")
    path = vault / "colon.md"
    path.write_text(text)
    assert {f["code"] for f in lint(invoke, vault, "colon")} >= {"F006", "F011"}
    assert invoke("lint", "--fix").exit_code == 1
    assert path.read_text() == text


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_set_fields_refuses_naming_the_file_and_line(name: str) -> None:
    with pytest.raises(CardError) as info:
        set_fields(UNSAFE[name], {"status": "superseded"}, path=f"{name}.md")
    line = Card.from_text("c.md", UNSAFE[name]).problems[0].line
    assert str(info.value).startswith(f"{name}.md:{line}: not rewritten: ")
    assert "\n" not in str(info.value) and "\x1b" not in str(info.value)


def test_repeated_keys_are_found_at_every_level() -> None:
    deep = "---\ndescription: d\ntype: user\ncontacts:\n  alice: a@x\n  alice: b@x\n---\nB.\n"
    flow = "---\ndescription: d\ntype: user\nextra: {a: 1, a: 2}\n---\nB.\n"
    for text in (deep, flow):
        assert [p.kind for p in Card.from_text("c.md", text).problems] == ["duplicate"]
    assert Card.from_text("c.md", "---\ndescription: d\ntype: user\nstatus: active\n---\nB.\n").problems == ()


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x08", "\r", "\x7f", "\x85", "\u2028", "\x9b"])
def test_every_control_character_is_found(char: str) -> None:
    card = Card.from_text("c.md", f"---\ndescription: d\ntype: user\n---\nBody {char}here.\n")
    assert [(p.kind, p.line) for p in card.problems] == [("control", 5)]
    assert not card.usable and not card.rewritable


def test_tabs_and_crlf_line_endings_are_not_control_characters() -> None:
    card = Card.from_text("c.md", "---\r\ndescription: d\r\ntype: user\r\n---\r\nBody\twith a tab.\r\n")
    assert card.problems == () and card.rewritable


def test_a_real_process_reports_and_keeps_them(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    vault = tmp_path / "v"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("")
    for name, text in UNSAFE.items():
        (vault / f"{name}.md").write_text(text)
    (vault / "deploy-thursdays.md").write_text(NEWER)
    before = {p.name: p.read_bytes() for p in vault.glob("*.md")}
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PYTHONPATH")}
    env.update(HOME=str(tmp_path / "home"), CARDS_TODAY="2026-11-30")

    def cards(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args], env=env,
                              capture_output=True, text=True, timeout=60, check=False)

    lint = cards("lint", "--format", "json")
    assert lint.returncode == 1 and "Traceback" not in lint.stderr
    assert sorted((f["path"], f["code"]) for f in json.loads(lint.stdout) if f["code"] in ("F011", "F012")) == sorted(
        (f"{name}.md", CODE[name]) for name in UNSAFE)
    assert "\x1b" not in lint.stdout + lint.stderr
    consolidated = cards("consolidate", "--all")
    assert consolidated.returncode == 0 and "Traceback" not in consolidated.stderr
    assert {p.name: p.read_bytes() for p in vault.glob("*.md") if p.name != "INDEX.md"} == before


@pytest.mark.parametrize(("text", "description"), [("Deploy \x1b[31mon Thursdays only.", "Deploy day"),
                                                   ("Deploy on Thursdays only.", "Deploy\x07 day")])
def test_cards_add_refuses_a_control_character(invoke: Invoke, vault: Path, text: str, description: str) -> None:
    result = invoke("add", text, "--description", description, "--type", "project")
    assert result.exit_code == 1
    assert "F012" in result.stdout + result.stderr and "\x1b" not in result.stdout + result.stderr
    assert sorted(p.name for p in vault.glob("*.md")) == ["INDEX.md"]
