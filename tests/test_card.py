"""Card parsing, validation and the round-trip writer, driven by the fixture cards.

Fixtures: tests/fixtures/cards/good/*.md with EXPECTED.json ({file: {description, type}})
and bad/*.md with EXPECTED.json ({file: {line, why}}, line being the 1-based file line of
the problem, null for whole-file problems).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import same

from cardindex.store.card import Card, Problem, decode, links, quote, set_fields, yaml_value
from cardindex.errors import CardError
from cardindex.store.fields import keeps_nested
from cardindex.store.frontmatter import nested_block
from cardindex.redaction import has_control

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
GOOD_DIR = FIXTURES / "good"
BAD_DIR = FIXTURES / "bad"
GOOD = json.loads((GOOD_DIR / "EXPECTED.json").read_text(encoding="utf-8"))
BAD = json.loads((BAD_DIR / "EXPECTED.json").read_text(encoding="utf-8"))
GOOD_NAMES = sorted(GOOD)
BAD_NAMES = sorted(BAD)
NOT_TEXT = {"binary.md", "latin1.md", "utf16.md"}  # rejected by decode() itself
MISSING = object()



def read_text(path: Path) -> str:
    text, problem = decode(path.read_bytes())
    assert problem is None, problem
    assert text is not None
    return text


def good(name: str) -> tuple[str, Card]:
    text = read_text(GOOD_DIR / name)
    return text, Card.from_text(name, text)


def file_lines(text: str) -> list[str]:
    """The file's lines as an editor shows them: split after each '\\n' only."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def newline_of(text: str) -> str:
    return "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"


def with_final_newline(text: str) -> str:
    return text if text.endswith("\n") else text + newline_of(text)


def close_index(lines: list[str]) -> int:
    """Index of the closing '---' of the frontmatter in `lines`."""
    return next(i for i in range(1, len(lines)) if lines[i].rstrip() == "---")


def frontmatter_yaml(text: str) -> str:
    lines = file_lines(text)
    return "".join(lines[1 : close_index(lines)])


def card_from_fields(*fields: tuple[str, str]) -> str:
    """Card text with the given (key, raw YAML value) lines, in order."""
    out = ["---\n"]
    for key, raw in fields:
        out.append(f"{key}: {raw}\n")
    out += ["---\n", "Body.\n"]
    return "".join(out)


def errors_of(card: Card) -> list[Problem]:
    return [p for p in card.problems if p.severity == "error"]


# --------------------------------------------------------------------------- fixtures


def test_fixture_lists_match_expectations() -> None:
    assert sorted(p.name for p in GOOD_DIR.glob("*.md")) == GOOD_NAMES
    assert sorted(p.name for p in BAD_DIR.glob("*.md")) == BAD_NAMES


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_good_fixture_is_usable_with_expected_description_and_type(name: str) -> None:
    _, card = good(name)
    assert card.usable, card.problems
    assert card.description == GOOD[name]["description"]
    assert card.type == GOOD[name]["type"]
    assert card.id == name[:-3]
    if name != "lenient-colon.md":
        assert card.problems == ()


@pytest.mark.parametrize("name", sorted(set(GOOD_NAMES) - {"lenient-colon.md"}))
def test_good_fixture_fields_are_what_yaml_reads(name: str) -> None:
    text, card = good(name)
    expected = yaml.safe_load(frontmatter_yaml(text))
    assert same(dict(card.meta), expected)
    lines = file_lines(text)
    assert card.body == "".join(lines[close_index(lines) + 1 :])


def test_lenient_colon_is_read_as_text_with_one_warning() -> None:
    text, card = good("lenient-colon.md")
    assert card.usable
    assert card.meta["description"] == "Deploys: only on Thursdays, never during the billing batch"
    assert card.meta["name"] == "deploy schedule"
    assert card.meta["type"] == "project"
    description_line = next(i for i, line in enumerate(file_lines(text), 1) if line.startswith("description:"))
    assert description_line == 3
    assert len(card.problems) == 1
    (warning,) = card.problems
    assert warning.severity == "warning"
    assert warning.line == description_line
    assert isinstance(warning.fix, str) and warning.fix
    assert "description" in warning.message
    assert "\n" not in warning.message


@pytest.mark.parametrize(
    ("name", "expected_type"),
    [("claude-nested-metadata.md", "feedback"), ("crlf.md", "reference"), ("project_session_2026-03-15.md", "project")],
)
def test_type_is_read_from_metadata(name: str, expected_type: str) -> None:
    _, card = good(name)
    assert "type" not in card.meta
    assert card.meta["metadata"]["type"] == expected_type
    assert card.type == expected_type
    assert card.usable


def test_fixture_field_values() -> None:
    _, dates = good("dates.md")
    assert dates.created == dt.date(2025, 11, 30)
    assert dates.verified == dt.date(2026, 1, 2)
    assert dates.expires == dt.date(2026, 6, 30)
    assert dates.evidence == dt.date(2026, 1, 2)
    assert dates.meta["modified"] == "2026-01-02T10:15:00+01:00"

    _, nested = good("claude-nested-metadata.md")
    assert nested.meta["metadata"]["modified"] == dt.datetime(2026, 3, 15, 9, 41, 7, tzinfo=dt.timezone.utc)
    assert nested.name == "Testing preferences"
    assert nested.title == "Testing preferences"

    _, lock_yes = good("lock-yes.md")
    assert lock_yes.locked is True
    assert lock_yes.meta["lint-ignore"] == ["temporal-words"]

    _, tz = good("tags-empty-lock-true.md")
    assert tz.locked is True
    assert tz.meta["tags"] == []
    assert tz.key == "timezone"

    _, scoped = good("key-and-scope-path.md")
    assert scoped.scope == "path:src/api"
    assert scoped.key == "api-timeout"
    assert scoped.status == "active"

    _, unknown = good("unknown-fields.md")
    assert same(unknown.meta["x-enabled"], False)
    assert same(unknown.meta["schema_version"], 1.1)
    assert unknown.meta["contacts"] == {
        "primary": "ana@example.com",
        "escalation": {"pager": "payments-oncall", "hours": "24/7"},
    }
    assert unknown.meta["tags"] == ["ownership", "payments"]

    _, escapes = good("double-quoted-escapes.md")
    assert escapes.meta["name"] == "Café printer"
    assert escapes.meta["description"] == 'The "café" printer needs the \\\\print01 share path'

    _, empty = good("empty-body.md")
    assert empty.body == ""

    _, plain = good("feedback_testing.md")
    assert plain.title == "feedback testing"
    assert links(plain.body) == ["project_session_2026-03-15"]


def test_byte_order_mark_is_allowed() -> None:
    text, card = good("full-spec-card.md")
    with_bom = Card.from_text("x.md", "\ufeff" + text)
    assert with_bom.usable
    assert same(dict(with_bom.meta), dict(card.meta))
    assert with_bom.body == card.body


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_fixture_is_rejected_on_the_expected_line(name: str) -> None:
    data = (BAD_DIR / name).read_bytes()
    text, problem = decode(data)
    assert (text is None) == (name in NOT_TEXT)
    if text is None:
        assert problem is not None
        errors = [problem]
    else:
        assert problem is None
        card = Card.from_text(name, text)
        assert not card.usable
        errors = errors_of(card)
    assert errors
    assert all(p.severity == "error" for p in errors)
    expected_line = BAD[name]["line"]
    if expected_line is None:
        assert {p.line for p in errors} <= {None, 1}
        assert len({p.line for p in errors}) == 1
    else:
        assert {p.line for p in errors} == {expected_line}, errors
    for p in errors:
        assert p.message.strip()
        assert "\n" not in p.message and "\r" not in p.message
        assert "Traceback" not in p.message


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_fixture_is_never_live(name: str) -> None:
    text, _ = decode((BAD_DIR / name).read_bytes())
    if text is not None:
        card = Card.from_text(name, text)
        assert card.live(dt.date(2026, 1, 1)) is False


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"\xff\xfe-\x00-\x00-\x00\n\x00", None),
        (b"\xfe\xff\x00-\x00-\x00-\x00\n", None),
        (b"---\x00\n", None),
        (b"---\ndescription: caf\xe9\n", 2),
        (b"---\ndescription: ok\ntype: user\n---\n\xc3(\n", 5),
    ],
)
def test_decode_problems(data: bytes, line: int | None) -> None:
    text, problem = decode(data)
    assert text is None
    assert problem is not None
    assert problem.severity == "error"
    assert problem.line == line
    assert "\n" not in problem.message


def test_decode_reads_utf8() -> None:
    assert decode("---\ndescription: café\n".encode()) == ("---\ndescription: café\n", None)


def test_alias_bomb_is_rejected_quickly_and_small() -> None:
    text = read_text(BAD_DIR / "alias-bomb.md")
    tracemalloc.start()
    try:
        start = time.perf_counter()
        card = Card.from_text("alias-bomb.md", text)
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 5_000_000
    assert not card.usable
    assert len(errors_of(card)) == 1
    assert "alias" in errors_of(card)[0].message


def test_anchor_without_alias_is_rejected() -> None:
    text = card_from_fields(("description", "x"), ("type", "user"), ("created", "&day 2026-01-02"))
    card = Card.from_text("a.md", text)
    assert [(p.line, p.severity) for p in card.problems] == [(4, "error")]
    assert "anchor" in card.problems[0].message


# --------------------------------------------------------------------------- validation

BASE = (("name", "Test card"), ("description", "A test card"), ("type", "project"))

WRONG_VALUES = [
    ("name", "5"),
    ("name", "[a, b]"),
    ("name", "{a: 1}"),
    ("description", "[a, b]"),
    ("description", "5"),
    ("description", "''"),
    ("description", "{a: 1}"),
    ("description", "true"),
    ("type", "note"),
    ("type", "5"),
    ("type", "[user]"),
    ("type", "User"),
    ("key", "2024"),
    ("key", "true"),
    ("key", "[a, b]"),
    ("scope", "5"),
    ("scope", "{path: src}"),
    ("status", "maybe"),
    ("status", "5"),
    ("status", "[active]"),
    ("status", "Active"),
    ("created", "last week"),
    ("created", "5"),
    ("verified", "[2026-01-01]"),
    ("verified", "2026-02-30"),
    ("expires", "yes"),
    ("expires", "2026-13-45"),
    ("expires", "2026-01-01T25:00:00"),
    ("supersedes", "5"),
    ("supersedes", "[a, 5]"),
    ("superseded_by", "{a: b}"),
    ("merged_from", "[[a]]"),
    ("source", "5"),
    ("source", "[a, b]"),
    ("lock", "'yes'"),
    ("lock", "1"),
    ("lock", "maybe"),
    ("tags", "5"),
    ("tags", "{a: 1}"),
    ("confidence", "true"),
    ("confidence", "[1]"),
    ("confidence", "{a: 1}"),
    ("lint-ignore", "5"),
    ("lint-ignore", "{S101: true}"),
]


@pytest.mark.parametrize(("key", "raw"), WRONG_VALUES, ids=[f"{k}={v}" for k, v in WRONG_VALUES])
def test_wrong_field_value_is_an_error_on_its_line(key: str, raw: str) -> None:
    fields = [(k, raw if k == key else v) for k, v in BASE]
    if key not in dict(BASE):
        fields.insert(2, (key, raw))  # between description and type: not the last line
    text = card_from_fields(*fields)
    line = 2 + [k for k, _ in fields].index(key)
    card = Card.from_text("c.md", text)  # must not raise, whatever the value
    errors = errors_of(card)
    assert [p.line for p in errors] == [line], card.problems
    shown = "type" if key == "type" else key
    assert shown in errors[0].message
    assert "\n" not in errors[0].message
    assert not card.usable


def test_unknown_metadata_type_points_at_its_line() -> None:
    text = "---\ndescription: x\nmetadata:\n  node_type: memory\n  type: note\n---\nBody.\n"
    card = Card.from_text("c.md", text)
    assert [p.line for p in errors_of(card)] == [5]
    assert "note" in errors_of(card)[0].message


@pytest.mark.parametrize(
    "fields",
    [
        (("supersedes", "old-card"),),
        (("superseded_by", "[a/b, c]"), ("status", "superseded")),
        (("created", "2026-01-01T10:00:00"), ("verified", "'2026-01-02'"), ("expires", "2027-01-01")),
        (("confidence", "high"),),
        (("confidence", "0.9"),),
        (("confidence", "3"),),
        (("lock", "false"),),
        (("lock", "yes"),),
        (("scope", "repo:ledger"), ("status", "conflict")),
        (("lint-ignore", "[S101, session]"), ("tags", "deploy")),
        (("metadata", "{type: user}"),),
    ],
)
def test_valid_field_values_have_no_problems(fields: tuple[tuple[str, str], ...]) -> None:
    text = card_from_fields(("description", "x"), ("type", "user"), *fields)
    assert Card.from_text("c.md", text).problems == ()


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("---\ntype: user\n---\n", 1),
        ("---\ndescription: x\n---\n", 1),
        ("---\n---\n", 1),
        ("---\n# only a comment\n---\n", 1),
        ("no frontmatter\n", 1),
        ("---\ndescription: x\ntype: user\n", 1),
        ("---\ndescription: x\ntype: user\n\tbad: tab\n---\n", 4),
        ("---\ndescription: x\ntype: user\ntags: [a\n---\n", 5),
        ("---\n- a\n---\n", 2),
        ("---\ndescription: x\ntype: user\ntrue: 1\n---\n", 4),
        ("---\ndescription: x\ntype: user\n2024-01-01: 1\n---\n", 4),
    ],
)
def test_structure_problems_have_lines(text: str, line: int) -> None:
    card = Card.from_text("c.md", text)
    assert not card.usable
    assert errors_of(card)[0].line == line
    for p in card.problems:
        assert "\n" not in p.message and "Traceback" not in p.message


@pytest.mark.parametrize("tail", ["", "tags:\n  - a\n"], ids=["flat", "block-list"])
@pytest.mark.parametrize("char", ["\x08", "\x00", "\x1b", "\x7f", "\ufffe"])
def test_control_character_in_frontmatter_is_one_line_error_with_its_line(char: str, tail: str) -> None:
    """YAML does not allow these raw; the card is an error on that line, with a one-line message."""
    text = f"---\ntype: user\ndescription: a{char}b\n{tail}---\nBody.\n"
    card = Card.from_text("c.md", text)
    errors = errors_of(card)
    assert [p.line for p in errors] == [3], card.problems
    assert "\n" not in errors[0].message


def test_empty_text_does_not_crash() -> None:
    card = Card.from_text("c.md", "")
    assert not card.usable
    assert [p.line for p in card.problems] == [1]


# --------------------------------------------------------------------------- dates, liveness, links


def dated(status: str = "active", expires: str | None = "2026-06-30") -> Card:
    fields = [("description", "x"), ("type", "project"), ("status", status)]
    if expires:
        fields.append(("expires", expires))
    return Card.from_text("d.md", card_from_fields(*fields))


def test_expired() -> None:
    card = dated()
    assert card.expires == dt.date(2026, 6, 30)
    assert card.expired(dt.date(2026, 6, 29)) is False
    assert card.expired(dt.date(2026, 6, 30)) is False
    assert card.expired(dt.date(2026, 7, 1)) is True
    assert dated(expires=None).expired(dt.date(2100, 1, 1)) is False


@pytest.mark.parametrize(
    ("status", "today", "live"),
    [
        ("active", dt.date(2026, 6, 30), True),
        ("active", dt.date(2026, 7, 1), False),
        ("conflict", dt.date(2026, 1, 1), True),
        ("conflict", dt.date(2026, 7, 1), False),
        ("stale", dt.date(2026, 1, 1), False),
        ("superseded", dt.date(2026, 1, 1), False),
        ("archived", dt.date(2026, 1, 1), False),
    ],
)
def test_live(status: str, today: dt.date, live: bool) -> None:
    card = dated(status)
    assert card.usable
    assert card.status == status
    assert card.live(today) is live


def test_unusable_card_is_not_live() -> None:
    card = Card.from_text("x.md", card_from_fields(("description", "x"), ("type", "note")))
    assert card.live(dt.date(2026, 1, 1)) is False
    assert Card.from_text("x.md", "---\ntype: user\n---\n").live(dt.date(2026, 1, 1)) is False


def test_defaults() -> None:
    card = Card.from_text("sub/deploy-day.md", card_from_fields(("description", "  two   spaces "), ("type", "user")))
    assert card.id == "sub/deploy-day"
    assert card.title == "deploy-day"
    assert card.status == "active"
    assert card.scope == "global"
    assert card.key is None
    assert card.locked is False
    assert card.evidence is None
    assert card.description == "two spaces"


def test_links() -> None:
    body = "See [[a]], [[b/c|alias]] and [[d#heading]].\nAlso [[ e ]] and [[f#h|shown]]; not [single] or [[]].\n"
    assert links(body) == ["a", "b/c", "d", "e", "f"]
    assert links("no links here") == []


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_set_fields_without_updates_keeps_every_byte(name: str) -> None:
    text, _ = good(name)
    out = set_fields(text, {})
    assert out == with_final_newline(text)
    if name == "no-final-newline.md":
        assert out == text + "\n"
    else:
        assert out == text


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_set_fields_changes_only_its_fields(name: str) -> None:
    text, before = good(name)
    updates = {"status": "superseded", "superseded_by": "x/y"}
    out = set_fields(text, updates)
    after = Card.from_text(name, out)

    # A card in Claude Code's nested form gets the new fields under `metadata:`.
    assert after.fields["status"] == "superseded"
    assert after.fields["superseded_by"] == "x/y"
    assert after.status == "superseded"
    assert after.usable

    def rest(meta: Any) -> Any:
        out = {k: v for k, v in meta.items() if k not in updates}
        if isinstance(out.get("metadata"), dict):
            out["metadata"] = rest(out["metadata"])
        return out

    assert same(rest(after.meta), rest(before.meta))
    assert after.problems == before.problems
    assert after.body == (with_final_newline(before.body) if before.body else "")

    old = file_lines(with_final_newline(text))
    new = file_lines(out)
    nl = newline_of(text)
    touched = ("status:", "superseded_by:")
    old_close, new_close = close_index(old), close_index(new)
    # The body and the fences are untouched.
    assert new[new_close:] == old[old_close:]
    # Every frontmatter line other than the changed and added ones is unchanged, in order.
    assert [x for x in new[:new_close] if not x.lstrip().startswith(touched)] == [
        x for x in old[:old_close] if not x.lstrip().startswith(touched)
    ]
    # An existing field keeps its place; new fields go last, before the closing fence.
    old_status = [i for i, x in enumerate(old[:old_close]) if x.startswith("status:")]
    if old_status:
        assert new[old_status[0]] == f"status: superseded{nl}"
        assert new[new_close - 1] == f"superseded_by: x/y{nl}"
    elif keeps_nested(before.meta):  # Claude Code's form: new fields go last under `metadata:`
        block = nested_block(old, old_close)
        assert block is not None
        at = block.end
        assert new[at : at + 2] == [f"{block.indent}status: superseded{nl}", f"{block.indent}superseded_by: x/y{nl}"]
    else:
        assert new[new_close - 2 : new_close] == [f"status: superseded{nl}", f"superseded_by: x/y{nl}"]
    assert len(new) == len(old) + 2 - len(old_status)


def test_update_keeps_position_and_neighbours() -> None:
    text, _ = good("full-spec-card.md")
    out = set_fields(text, {"verified": dt.date(2026, 10, 1), "confidence": 1})
    assert out == text.replace("verified: 2026-09-14\n", "verified: 2026-10-01\n").replace(
        "confidence: 0.95\n", "confidence: 1\n"
    )


def test_update_in_place_with_comments_and_blank_lines() -> None:
    text, _ = good("comments-and-order.md")
    out = set_fields(text, {"type": "user", "key": "rota"})
    lines = file_lines(text)
    lines[9] = "type: user\n"
    lines[2] = "key: rota\n"
    assert out == "".join(lines)


def remove_lines(text: str, first: int, last: int) -> str:
    """`text` without its file lines first..last (1-based, inclusive)."""
    lines = file_lines(text)
    return "".join(lines[: first - 1] + lines[last:])


@pytest.mark.parametrize(
    ("name", "key", "first", "last"),
    [
        ("unknown-fields.md", "tags", 17, 19),  # block list at column 0
        ("unknown-fields.md", "reviewers", 13, 15),  # indented block list
        ("unknown-fields.md", "contacts", 8, 12),  # nested mapping
        ("unknown-fields.md", "labels", 16, 16),
        ("unknown-fields.md", "x-priority", 5, 5),
        ("scope-repo.md", "merged_from", 7, 9),
        ("block-scalars-other-fields.md", "notes", 4, 8),  # block scalar with a blank line inside
        ("block-scalars-other-fields.md", "summary", 9, 11),
        ("block-scalars-other-fields.md", "rationale", 12, 13),
        ("comments-and-order.md", "status", 6, 6),
        ("comments-and-order.md", "name", 12, 12),
        ("claude-nested-metadata.md", "metadata", 4, 8),
        ("crlf.md", "name", 2, 2),
    ],
)
def test_removing_a_field_removes_only_its_lines(name: str, key: str, first: int, last: int) -> None:
    text, before = good(name)
    out = set_fields(text, {key: None})
    assert out == remove_lines(text, first, last)
    after = Card.from_text(name, out)
    assert key not in after.meta
    assert same(dict(after.meta), {k: v for k, v in before.meta.items() if k != key})


def test_removing_a_field_keeps_the_block_scalar_before_it() -> None:
    # A whitespace-only line after the removed field must not join the block scalar above.
    text = "---\nnotes: |\n  first\ntype: user\n   \ndescription: x\n---\n"
    before = Card.from_text("c.md", text)
    assert before.meta["notes"] == "first\n"
    out = set_fields(text, {"type": None})
    after = Card.from_text("c.md", out)
    assert "type" not in after.meta
    assert after.meta["notes"] == "first\n"
    assert after.meta["description"] == "x"


def test_removing_a_missing_field_changes_nothing() -> None:
    text, _ = good("full-spec-card.md")
    assert set_fields(text, {"lock": None, "expires": None}) == text


def test_replacing_a_block_list_with_a_flow_list() -> None:
    text, _ = good("unknown-fields.md")
    out = set_fields(text, {"tags": ["a", "b"]})
    lines = file_lines(text)
    assert out == "".join([*lines[:16], "tags: [a, b]\n", *lines[19:]])
    assert Card.from_text("u.md", out).meta["tags"] == ["a", "b"]


def test_crlf_card_keeps_crlf() -> None:
    text, before = good("crlf.md")
    out = set_fields(text, {"name": "Endings", "status": "stale", "verified": dt.date(2026, 1, 2)})
    lines = file_lines(out)
    assert all(line.endswith("\r\n") for line in lines)
    assert lines[1] == "name: Endings\r\n"
    assert lines[5:7] == ["  status: stale\r\n", "  verified: 2026-01-02\r\n"]  # where its `type` is
    after = Card.from_text("crlf.md", out)
    assert after.verified == dt.date(2026, 1, 2)
    assert after.body == before.body


def test_no_final_newline_card_gets_one() -> None:
    text, _ = good("no-final-newline.md")
    out = set_fields(text, {"status": "stale"})
    assert out == text.replace("type: project\n", "type: project\nstatus: stale\n") + "\n"


def test_card_with_fields_is_set_fields() -> None:
    text, card = good("feedback_testing.md")
    assert card.with_fields({"key": "test-suite"}) == set_fields(text, {"key": "test-suite"})


def test_set_fields_without_frontmatter_raises_card_error() -> None:
    with pytest.raises(CardError) as info:
        set_fields("no frontmatter\n", {"status": "stale"}, path="x.md")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith("x.md")
    with pytest.raises(CardError):
        set_fields("---\ndescription: never closed\n", {"status": "stale"})


def test_set_field_that_is_a_prefix_of_another() -> None:
    text = card_from_fields(("description", "x"), ("type", "user"), ("key-name", "a"), ("keys", "[a]"))
    out = set_fields(text, {"key": "k"})
    assert out == text.replace("keys: [a]\n", "keys: [a]\nkey: k\n")
    out = set_fields(text, {"key": None})
    assert out == text


# --------------------------------------------------------------------------- YAML values

TRICKY_STRINGS = [
    " leading",
    "trailing ",
    " ",
    "",
    "a: b",
    "a:",
    ":a",
    "a #b",
    "#a",
    "'quoted'",
    "'a",
    '"dq"',
    '"a',
    "it's",
    'say "hi"',
    "back\\slash",
    "\\",
    "yes",
    "No",
    "ON",
    "null",
    "Null",
    "~",
    "1.10",
    "10",
    "0x1F",
    "1_000",
    "+1",
    ".5",
    ".inf",
    "=",
    "<<",
    "2026-01-01",
    "2026-01-01T10:00:00",
    "- x",
    "-x",
    "-",
    "?",
    "? x",
    "[a]",
    "[a, b]",
    "{a: 1}",
    "]x",
    "}x",
    "a,b",
    "&x",
    "*x",
    "!tag",
    "|",
    ">",
    "%x",
    "@x",
    "`x",
    "a\tb",
    "café 漢字 Zoë",
    "emoji 🙂🚀",
    "\ufeffbom",
    "a\x01b",
    "\x00",
    "a\x7f",
    "\x1b[31mred",
    "a\x0bb",
    "a\x0cb",
    "a\x1cb",
    "a\x85b",
    "a\u2028b",
    "a\u2029b",
    "a\nb",
    "a\rb",
    "a\r\nb",
    "line\n",
    "\ufffe",
]


def load_value(raw: str) -> Any:
    return yaml.safe_load(f"k: {raw}\n")["k"]


@pytest.mark.parametrize("value", TRICKY_STRINGS, ids=[repr(s) for s in TRICKY_STRINGS])
def test_yaml_value_reads_back_as_the_same_string(value: str) -> None:
    assert same(load_value(yaml_value(value)), value)


@pytest.mark.parametrize("value", TRICKY_STRINGS, ids=[repr(s) for s in TRICKY_STRINGS])
def test_quote_reads_back_as_the_same_string(value: str) -> None:
    quoted = quote(value)
    assert quoted.startswith('"') and quoted.endswith('"')
    assert same(load_value(quoted), value)
    assert same(yaml.safe_load(quoted), value)


@pytest.mark.parametrize("value", TRICKY_STRINGS, ids=[repr(s) for s in TRICKY_STRINGS])
def test_written_value_stays_on_one_line(value: str) -> None:
    """set_fields and parse work line by line (str.splitlines), so a value must be one line."""
    assert len(f"k: {yaml_value(value)}\n".splitlines()) == 1
    assert len(f"k: {quote(value)}\n".splitlines()) == 1


@pytest.mark.parametrize("value", TRICKY_STRINGS, ids=[repr(s) for s in TRICKY_STRINGS])
def test_set_fields_writes_any_string_and_can_replace_it(value: str) -> None:
    text, before = good("full-spec-card.md")
    out = set_fields(text, {"source": value, "note": value})
    after = Card.from_text("c.md", out)
    if has_control(value.replace("\r\n", "\n")):
        # Written escaped, read back exactly, and then the card is one F012 finding: never rewritten until fixed.
        assert [p.kind for p in after.problems] == ["control"]
        assert same(after.meta.get("source", MISSING), value)
        with pytest.raises(CardError, match="control character"):
            set_fields(out, {"source": "plain"})
        return
    assert after.problems == ()
    assert same(after.meta.get("source", MISSING), value)
    assert same(after.meta.get("note", MISSING), value)
    assert same(
        {k: v for k, v in after.meta.items() if k not in ("source", "note")},
        {k: v for k, v in before.meta.items() if k != "source"},
    )
    assert after.body == before.body
    again = set_fields(out, {"source": "plain", "note": None})
    assert again == text.replace("source: incidents/2026-03-11.md:42\n", "source: plain\n")


LISTS = [
    [],
    ["a", "b"],
    ["a,b", "[x]", "x y", "{y}", "z]"],
    ["yes", "null", "1.10", "2026-01-01", "- x", "a #b", "a: b"],
    ["'a", '"b', "]c", "}d", "café", "🙂"],
    ["a\nb", "a\x85b", "a\u2028b", "\x00"],
    TRICKY_STRINGS,
]


@pytest.mark.parametrize("value", LISTS, ids=range(len(LISTS)))
def test_yaml_value_lists(value: list[str]) -> None:
    raw = yaml_value(value)
    assert same(load_value(raw), value)
    assert len(f"k: {raw}\n".splitlines()) == 1


SCALARS = [
    True,
    False,
    0,
    -5,
    10**20,
    0.95,
    -0.5,
    1.5e-05,
    1e16,
    float("inf"),
    float("-inf"),
    dt.date(2026, 1, 1),
    dt.date(1999, 12, 31),
    dt.datetime(2026, 1, 1, 10, 0),
    dt.datetime(2026, 1, 1, 10, 0, 5, 250000),
    dt.datetime(2026, 3, 15, 9, 41, 7, tzinfo=dt.timezone.utc),
    dt.datetime(2026, 3, 15, 9, 41, 7, tzinfo=dt.timezone(dt.timedelta(hours=1))),
    [dt.date(2026, 1, 1), True, 3],
]


@pytest.mark.parametrize("value", SCALARS, ids=[repr(v) for v in SCALARS])
def test_yaml_value_other_types(value: Any) -> None:
    assert same(load_value(yaml_value(value)), value)


def test_yaml_value_is_plain_when_it_can_be() -> None:
    assert yaml_value("deploy-day") == "deploy-day"
    assert yaml_value("x/y") == "x/y"
    assert yaml_value("path:src/api") == "path:src/api"
    assert yaml_value(["a", "b"]) == "[a, b]"
    assert yaml_value(dt.date(2026, 1, 2)) == "2026-01-02"
    assert yaml_value(True) == "true"
    assert yaml_value(None) == "null"
    assert yaml_value("yes") == '"yes"'
    assert yaml_value("2026-01-01") == '"2026-01-01"'
    with pytest.raises(TypeError):
        yaml_value({"a": 1})
