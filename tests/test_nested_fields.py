"""Cards in Claude Code's nested form: every field read from the top level or `metadata:`,
written where it lives, and the two places disagreeing as a finding of its own (F010)."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.store.card import Card, parse, set_fields
from cardindex.errors import CardError
from cardindex.store.fields import CARD_FIELDS

Invoke = Callable[..., Result]

NESTED = """\
---
name: Release day
description: Which weekday releases go out
metadata:
  type: project
  key: release-day
  scope: repo:web
  status: conflict
  lock: true
  created: 2026-01-05
  verified: 2026-10-01
  expires: 2027-01-01
  supersedes: [old-release]
  superseded_by: newer
  merged_from: release-copy
  merged_into: other
  conflicts_with: release-mondays
  source: user said
  tags: [release, web]
  confidence: high
  lint-ignore: [S101]
  node_type: memory
  originSessionId: 3f1c9a2e-8b7d-4c1e-9f0a-2d6b5e4c3a10
  modified: 2026-10-01T09:00:00Z
---
Release on Wednesdays only.
"""


def flat(text: str) -> str:
    """The same card with `metadata:` dissolved into the top level (Claude Code keys dropped)."""
    text = re.sub(r"  (node_type|originSessionId|modified):.*\n", "", text)
    return text.replace("metadata:\n", "").replace("\n  ", "\n")


def test_every_field_is_read_from_metadata() -> None:
    nested, top = Card.from_text("r.md", NESTED), Card.from_text("r.md", flat(NESTED))
    assert nested.problems == () and top.problems == ()
    assert "key" not in nested.meta  # the raw frontmatter stays as written
    for card in (nested, top):
        assert (card.type, card.key, card.scope, card.status, card.locked) == ("project", "release-day", "repo:web", "conflict", True)
        assert (card.created, card.verified, card.expires) == (dt.date(2026, 1, 5), dt.date(2026, 10, 1), dt.date(2027, 1, 1))
    for key in CARD_FIELDS - {"modified", "name", "description"}:
        assert nested.fields[key] == top.fields[key], key
    assert nested.modified == dt.date(2026, 10, 1)


def test_name_and_description_are_read_from_metadata_when_absent_above() -> None:
    card = Card.from_text("c.md", "---\nmetadata:\n  name: N\n  description: D\n  type: user\n---\nBody.\n")
    assert (card.name, card.description, card.usable) == ("N", "D", True)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("lock", "yes please", "'lock' must be true or false"), ("verified", "soon", "'verified' must be an ISO date"),
     ("status", "done", "unknown status 'done'"), ("tags", "{a: 1}", "'tags' must be text or a list"),
     ("type", "note", "unknown type 'note'")],
)
def test_a_bad_nested_value_points_at_its_own_line(field: str, value: str, words: str) -> None:
    text = f"---\ndescription: x\nmetadata:\n  type: user\n  node_type: memory\n  {field}: {value}\n---\nBody.\n"
    if field == "type":
        text = text.replace("  type: user\n", "")
    card = Card.from_text("c.md", text)
    errors = [p for p in card.problems if p.severity == "error"]
    assert len(errors) == 1 and words in errors[0].message
    assert errors[0].line == text.splitlines().index(f"  {field}: {value}") + 1


# ------------------------------------------------------------------ both places (F010)


def test_both_places_with_different_values_is_f010(invoke: Invoke, vault: Path) -> None:
    text = "---\ndescription: Staging port\ntype: reference\nkey: staging-port\nmetadata:\n  key: db-port\n---\nPort 5433.\n"
    (vault / "port.md").write_text(text)
    result = invoke("lint", "--format", "json", str(vault / "port.md"))
    assert result.exit_code == 1
    findings = [f for f in json.loads(result.stdout) if f["code"] == "F010"]
    assert [(f["line"], f["severity"]) for f in findings] == [(4, "error")]
    assert "'key' is 'staging-port' here and 'db-port' under metadata (line 6)" in findings[0]["message"]
    assert "F010" in invoke("rule", "F010").stdout


@pytest.mark.parametrize(("above", "below"), [("2026-01-01", "'2026-01-01'"), ("[a]", "a"), ("true", "true"), ("x", "x")])
def test_the_same_value_in_both_places_is_fine(above: str, below: str) -> None:
    field = {"2026-01-01": "verified", "[a]": "tags", "true": "lock", "x": "scope"}[above]
    card = Card.from_text("c.md", f"---\ndescription: d\ntype: user\n{field}: {above}\nmetadata:\n  {field}: {below}\n---\nB.\n")
    assert card.problems == ()


# ------------------------------------------------------------------ writing where a field lives


def test_a_write_changes_a_nested_field_in_place_and_adds_new_ones_beside_it() -> None:
    text = NESTED.replace("  status: conflict\n", "  status: active\n").replace("  superseded_by: newer\n", "")
    out = set_fields(text, {"status": "superseded", "superseded_by": "release-wednesdays"})
    lines, new = text.splitlines(keepends=True), out.splitlines(keepends=True)
    at = lines.index("  status: active\n")
    assert new[at] == "  status: superseded\n"
    last = lines.index("  modified: 2026-10-01T09:00:00Z\n")
    assert new[last + 1] == "  superseded_by: release-wednesdays\n"  # last in the metadata block
    assert new[: at] + new[at + 1 : last + 1] + new[last + 2 :] == lines[:at] + lines[at + 1 :]
    card = Card.from_text("r.md", out)
    assert (card.status, card.fields["superseded_by"], card.problems) == ("superseded", "release-wednesdays", ())


def test_a_flat_card_keeps_new_fields_at_the_top_level() -> None:
    text = "---\ndescription: d\ntype: user\nkey: k\nmetadata:\n  node_type: memory\n---\nB.\n"
    assert set_fields(text, {"status": "stale"}) == text.replace("  node_type: memory\n", "  node_type: memory\nstatus: stale\n")


def test_removing_takes_a_field_out_of_both_places() -> None:
    text = "---\ndescription: d\ntype: user\nstatus: stale\nmetadata:\n  status: stale\n  node_type: memory\n---\nB.\n"
    out = set_fields(text, {"status": None})
    assert out == "---\ndescription: d\ntype: user\nmetadata:\n  node_type: memory\n---\nB.\n"
    both = text.replace("  status: stale", "  status: active")
    fixed = set_fields(both, {"status": "archived"})  # a write settles a disagreement: both places get the value
    assert fixed.count("status: archived") == 2 and Card.from_text("c.md", fixed).problems == ()


def test_a_field_inside_a_flow_mapping_is_refused_not_duplicated() -> None:
    text = "---\ndescription: d\nmetadata: {type: user, status: active}\n---\nB.\n"
    with pytest.raises(CardError, match="flow mapping"):
        set_fields(text, {"status": "stale"}, path="c.md")
    assert Card.from_text("c.md", set_fields(text, {"key": "k"})).key == "k"  # a new field goes to the top level


INDENTS = st.sampled_from(["  ", "    ", " "])
VALUES = st.one_of(
    st.text(st.characters(categories=("L", "N", "P", "Zs")), max_size=20),
    st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31)),
    st.booleans(),
    st.lists(st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8), max_size=3),
)
OUR_FIELDS = st.sampled_from(sorted(CARD_FIELDS - {"name", "description", "modified"}))


@st.composite
def nested_cards(draw: st.DrawFn) -> tuple[str, str]:
    """A card in nested form with some fields under `metadata:` (any indentation), and its newline."""
    indent = draw(INDENTS)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    inside = draw(st.lists(st.sampled_from(["key: k1", "scope: global", "status: active", "verified: 2026-01-02",
                                             "# a comment", "node_type: memory", "tags:", "lock: false"]),
                           unique=True, max_size=6))
    inside = ["type: user", *inside]
    block: list[str] = []
    for line in inside:
        block.append(indent + line)
        if line == "tags:":
            block += [indent + "- a", indent + "- b"] if draw(st.booleans()) else [indent * 2 + "- a"]
    lines = ["---", "name: N", "description: D", "metadata:", *block, "extra: kept", "---", "Body line.", ""]
    return newline.join(lines), newline


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(nested_cards(), OUR_FIELDS, st.one_of(st.none(), VALUES))
def test_set_fields_round_trips_under_metadata(card: tuple[str, str], key: str, value: Any) -> None:
    text, newline = card
    out = set_fields(text, {key: value})
    after = Card.from_text("c.md", out)
    before = Card.from_text("c.md", text)
    if value is None:
        assert key not in after.fields
    else:
        assert after.fields[key] == value
    # Every other field reads as before, and nothing moved to the other place.
    assert {k: v for k, v in after.fields.items() if k not in (key, "metadata")} == {
        k: v for k, v in before.fields.items() if k not in (key, "metadata")}
    assert key not in after.meta  # the card keeps its fields under metadata: so does the new one
    # Every other byte is kept: removing the field's lines from both gives the same text.
    def without(s: str) -> list[str]:
        return [x for x in s.splitlines(keepends=True)
                if not re.match(rf"\s+{re.escape(key)}:", x) and not (key == "tags" and re.match(r"\s+- [ab]", x))]
    assert without(out) == without(text)
    assert all(x.endswith(newline) for x in out.splitlines(keepends=True))
    assert [p for p in parse(out).problems if p.kind != "field"] == []  # a wrong value type is the caller's


# ------------------------------------------------------------------ the measured failure (issue 11)


LOCKED = """\
---
name: Release day
description: Which weekday releases go out
metadata:
  type: project
  key: release-day
  lock: true
  verified: 2026-10-01
  node_type: memory
  originSessionId: 3f1c9a2e-8b7d-4c1e-9f0a-2d6b5e4c3a10
  modified: 2026-10-01T09:00:00Z
---
Release on Wednesdays only.
"""
STALE = """\
---
name: Release day
description: Which weekday releases go out
metadata:
  type: project
  key: release-day
  verified: 2026-03-01
  node_type: memory
  originSessionId: 5d0e2b71-0c4a-4f7e-a1d3-7b9c8e6f5a42
  modified: 2026-03-01T09:00:00Z
---
Release on Mondays.
"""


@pytest.mark.parametrize("form", ["nested", "flat"])
def test_consolidate_supersedes_the_older_card_by_the_locked_one(invoke: Invoke, vault: Path, form: str) -> None:
    shape = (lambda t: t) if form == "nested" else flat
    locked, stale = vault / "release-wednesdays.md", vault / "release-mondays.md"
    locked.write_text(shape(LOCKED))
    stale.write_text(shape(STALE))
    before = locked.read_bytes()

    plan = invoke("consolidate", "--dry-run", "--format", "json")
    assert plan.exit_code == 0, plan.stderr
    assert [(d["action"], d["card"], d["related"]) for d in json.loads(plan.stdout)["decisions"]] == [
        ("supersede", "release-mondays", ["release-wednesdays"])]

    result = invoke("consolidate")
    assert result.exit_code == 0, result.stderr
    assert locked.read_bytes() == before  # the locked card, byte for byte
    assert not stale.exists()
    archived = Card.from_text("archive/release-mondays.md", (vault / "archive" / "release-mondays.md").read_text())
    assert (archived.status, archived.fields["superseded_by"]) == ("superseded", "release-wednesdays")
    if form == "nested":
        assert "status" not in archived.meta and "  status: superseded\n" in archived.text
    index = (vault / "INDEX.md").read_text()
    assert "release-wednesdays.md" in index and "release-mondays" not in index
    again = invoke("consolidate", "--all", "--dry-run", "--format", "json")
    assert json.loads(again.stdout)["decisions"] == []  # a second run, even over every card, plans nothing
