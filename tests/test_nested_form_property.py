"""A vault in Claude Code's nested form gets exactly the decisions of the same vault in flat form (issue 11).

Every card of a vault is converted with `nested_form.to_nested` (every key but name,
description and metadata moved under `metadata:`, plus node_type, originSessionId and a
`modified` that carries no new evidence: see that module). Both vaults then go through
the same commands, and what each decides must be the same:

- `cards lint --select ALL` findings (F010, both places, cannot occur here: nothing is in
  both), with each line number read as where it points (which field, or which body line),
  since the nested frontmatter is longer;
- INDEX.md, `cards context`, `cards context --query`, `cards search`;
- the `cards consolidate --dry-run` plan, and after `cards consolidate` every card's
  fields (so each write landed where its field lives) and INDEX.md again;
- `cards add` through the write gate: its output, exit code, and the fields it leaves;
- `cards lint --fix`, which quotes values read leniently (an unquoted `: `) where they live.

Nothing is normalised but line numbers and the vault's own path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nested_form import CLAUDE_KEYS, convert_vault, to_nested

from cardindex.store.card import Card
from cardindex.store.frontmatter import frontmatter_span

RunCli = Callable[..., Result]
ROOT = Path(__file__).parent.parent
VAULTS = {
    "sample-vault": ROOT / "sample-vault",
    "demo-vault": ROOT / "demo-vault",
    "lint-corpus": ROOT / "tests" / "lint_corpus" / "vault",
    "claude-memory": ROOT / "tests" / "fixtures" / "claude-memory",
}
QUERIES = ("deploy", "postgres port", "invoice", "tests database")
_KEY = re.compile(r"(\s*)([A-Za-z_][\w-]*)[ \t]*:")


def where(root: Path, rel: str, line: int) -> tuple[str, object]:
    """What a finding's line points at: ("field", name), ("body", offset) or ("line", n) outside a card."""
    try:
        lines = (root / rel).read_text(encoding="utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError):
        return ("line", line)
    close = frontmatter_span(lines)
    if close is None or line <= 1:
        return ("line", line)
    if line > close + 1:
        return ("body", line - close - 1)
    for i in range(line - 1, 0, -1):  # the field that holds this line: its own, or the one it continues
        m = _KEY.match(lines[i])
        if m and len(m.group(1)) <= 2 and not (m.group(1) == "" and m.group(2) == "metadata" and i < line - 1):
            return ("field", m.group(2))
    return ("line", line)


_PLACE = re.compile(r"([\w./-]+\.md):(\d+)")
_JOB = re.compile(r"\b\d{8}T\d{6,12}-[0-9a-f]{4}\b")


def normal(root: Path, text: str) -> str:
    """`text` with the vault's path, job ids (a clock time) and `FILE:LINE` (as where it points) made comparable."""
    text = _JOB.sub("JOB", text.replace(os.path.relpath(root), "VAULT").replace(str(root), "VAULT"))
    return _PLACE.sub(lambda m: f"{m.group(1)}:{where(root, m.group(1).removeprefix('VAULT/'), int(m.group(2)))}", text)


def run(run_cli: RunCli, root: Path, *args: str, input: str | None = None) -> tuple[int, str, str]:
    result = run_cli("--vault", str(root), *args, input=input)
    return result.exit_code, normal(root, result.stdout), normal(root, result.stderr)


def lint_decisions(run_cli: RunCli, root: Path) -> list[tuple[Any, ...]]:
    code, out, _ = run(run_cli, root, "lint", "--select", "ALL", "--format", "json")
    assert code in (0, 1)
    findings = []
    for f in json.loads(out):
        if f["code"] == "F010":
            continue
        findings.append((f["path"], where(root, f["path"], f["line"]), f["code"], f["severity"], f["message"],
                         tuple(f.get("related") or ()), f.get("fix")))
    return sorted(findings, key=repr)


def card_fields(root: Path) -> dict[str, dict[str, str]]:
    """Every card's fields as cards reads them, and its other keys wherever they are (Claude Code's own left out)."""
    out = {}
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".cardindex/"):
            continue
        card = Card.from_text(rel, path.read_bytes().decode("utf-8", "replace"))
        inner = card.meta.get("metadata")
        every = {**(inner if isinstance(inner, dict) else {}), **card.fields}  # unknown keys must survive too
        out[rel] = {k: repr(v) for k, v in every.items() if k not in ("metadata", *CLAUDE_KEYS)}
    return out


def decisions(run_cli: RunCli, root: Path, add: tuple[str, ...] | None) -> dict[str, Any]:
    seen: dict[str, Any] = {"lint": lint_decisions(run_cli, root)}
    seen["index"] = run(run_cli, root, "index")
    seen["INDEX.md"] = sorted((p.name, p.read_text()) for p in root.glob("*.md") if p.name in ("INDEX.md", "MEMORY.md"))
    seen["context"] = run(run_cli, root, "context", "--budget", "3000")
    for query in QUERIES:
        seen[f"context {query}"] = run(run_cli, root, "context", "--query", query)
        seen[f"search {query}"] = run(run_cli, root, "search", query, "--format", "json")
    seen["plan"] = run(run_cli, root, "consolidate", "--all", "--dry-run", "--format", "json")
    if add is not None:
        seen["add"] = run(run_cli, root, "add", *add)
    seen["consolidate"] = run(run_cli, root, "consolidate", "--all", "--format", "json")
    seen["fix"] = run(run_cli, root, "lint", "--fix")  # quotes what was read leniently, where it lives
    seen["after"] = card_fields(root)
    seen["INDEX.md after"] = sorted((p.name, p.read_text()) for p in root.glob("*.md") if p.name in ("INDEX.md", "MEMORY.md"))
    seen["lint after"] = lint_decisions(run_cli, root)
    return seen


def assert_same_decisions(run_cli: RunCli, flat: Path, nested: Path, add: tuple[str, ...] | None = None) -> None:
    a, b = decisions(run_cli, flat, add), decisions(run_cli, nested, add)
    for key in a:
        if isinstance(a[key], dict):
            for name in a[key]:
                assert a[key][name] == b[key].get(name), (key, name)
        assert a[key] == b[key], key


def init(run_cli: RunCli, root: Path) -> None:
    index_file = "MEMORY.md" if (root / "MEMORY.md").exists() and not (root / "INDEX.md").exists() else "INDEX.md"
    if not (root / ".cardindex.yaml").exists():
        (root / ".cardindex.yaml").write_text(f"index_file: {index_file}\n")


@pytest.mark.parametrize("name", sorted(VAULTS))
def test_fixture_vaults_decide_the_same_in_nested_form(run_cli: RunCli, tmp_path: Path, name: str) -> None:
    flat = tmp_path / "flat"
    shutil.copytree(VAULTS[name], flat, ignore=shutil.ignore_patterns(".cardindex"))
    init(run_cli, flat)
    nested = convert_vault(flat, tmp_path / "nested")
    changed = sum((flat / p.relative_to(nested)).read_bytes() != p.read_bytes() for p in nested.rglob("*.md"))
    assert changed >= 5  # the conversion did something
    add = ("Deploy to production on Fridays now, no longer on Thursdays.", "--description",
           "Which weekday production deploys happen", "--key", "deploy-day", "--type", "project")
    assert_same_decisions(run_cli, flat, nested, add)


# ------------------------------------------------------------------ generated vaults

DESCRIPTIONS = ("Which weekday production deploys happen", "Deploys: which weekday", "Staging Postgres port", "How money amounts are stored",
                "Release day for the web app", "Test database policy")
BODIES = ("Deploy to production on Thursdays only.", "Deploy to production on Tuesdays only.",
          "Staging Postgres listens on port 5433.", "Staging Postgres listens on port 6432 now.",
          "Store money as integer cents, never floats.", "Never store money as floats; use integer cents.",
          "Release on Wednesdays only.", "Release on Mondays.",
          "Integration tests hit a real Postgres, never a mocked client.",
          "We are currently halfway through the migration.")
DATES = ("2025-06-01", "2026-01-15", "2026-03-01", "2026-10-01", "2027-02-01")


@st.composite
def flat_card(draw: st.DrawFn) -> str:
    fields: list[str] = []
    if draw(st.booleans()):
        fields.append("name: " + draw(st.sampled_from(["Deploy day", "Staging port", "Money", "Release day"])))
    fields.append("description: " + draw(st.sampled_from(DESCRIPTIONS)))
    fields.append("type: " + draw(st.sampled_from(["project", "feedback", "reference", "user"])))
    optional = {
        "key": st.sampled_from(["deploy-day", "staging-port", "release-day"]),
        "scope": st.sampled_from(["global", "repo:web", "path:src/api"]),
        "status": st.sampled_from(["active", "conflict", "superseded", "stale"]),
        "lock": st.sampled_from(["true", "false"]),
        "created": st.sampled_from(DATES),
        "verified": st.sampled_from(DATES),
        "expires": st.sampled_from(DATES),
        "source": st.sampled_from(["user said", "chat: 2026-11-03 standup"]),  # the second read leniently (F006)
        "tags": st.sampled_from(["[ops]", "[ops, release]", "billing"]),
        "confidence": st.sampled_from(["high", "0.8"]),
        "lint-ignore": st.just("[S101]"),
        "supersedes": st.just("old-card"),
        "# a comment": st.just(""),
    }
    for key in draw(st.lists(st.sampled_from(sorted(optional)), unique=True, max_size=6)):
        value = draw(optional[key])
        fields.append(key if key.startswith("#") else f"{key}: {value}")
    body = draw(st.sampled_from(BODIES))
    if draw(st.booleans()):
        body += "\n\n**Why:** it collided with the billing batch."
    return "\n".join(["---", *fields, "---", body, ""])


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(flat_card(), min_size=1, max_size=6))
def test_generated_vaults_decide_the_same_in_nested_form(run_cli: RunCli, tmp_path_factory: pytest.TempPathFactory,
                                                         cards: list[str]) -> None:
    base = tmp_path_factory.mktemp("gen")
    flat = base / "flat"
    flat.mkdir()
    (flat / ".cardindex.yaml").write_text("max_age: {project: 400}\n")
    for i, text in enumerate(cards):
        (flat / f"card-{i}.md").write_text(text)
    nested = convert_vault(flat, base / "nested")
    assert all(to_nested(t, "x.md") != t for t in cards)
    add = ("Staging Postgres listens on port 7000 now.", "--description", "Staging Postgres port",
           "--key", "staging-port", "--type", "reference")
    assert_same_decisions(run_cli, flat, nested, add)
