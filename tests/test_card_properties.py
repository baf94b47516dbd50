"""Property tests for the card parser and the round-trip writer.

Frontmatter is generated from a small YAML grammar (plain, single- and double-quoted
scalars, ints, dates, flow and block lists, block scalars, nested mappings, comments,
blank lines) with arbitrary bodies. The differential test holds the fast path
(`_fast_fields`) to what the YAML loader of the slow path says about the same text.
"""

from __future__ import annotations

import datetime as dt
import re
import string
from dataclasses import dataclass
from typing import Any

import pytest
import yaml
from helpers import same
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cardindex.store.card import TYPES, UNSAFE_TO_REWRITE, _fast_fields, parse, set_fields
from cardindex.redaction import has_control

# The loader the parser's slow path uses; the fast path must give what it gives. (The pure
# SafeLoader differs from CSafeLoader on a few flow inputs such as `[a?b]`; the C one is what cards get.)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# derandomize: the same examples on every run, so a failure is reproducible and CI is not flaky.
SETTINGS = settings(
    max_examples=300, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}
MISSING = object()



def file_lines(text: str) -> list[str]:
    """The file's lines as an editor shows them: split after each '\\n' only."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


class YamlError(Exception):
    pass


def yaml_load(text: str) -> Any:
    try:
        return yaml.load(text, Loader=LOADER)  # a safe loader
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: a timestamp such as 2026-13-45
        raise YamlError(str(exc)) from None


# --------------------------------------------------------------------------- the grammar

LOWER = string.ascii_lowercase
ALNUM = string.ascii_letters + string.digits


def word(first: str, rest: str, max_size: int) -> st.SearchStrategy[str]:
    """Like the regex [first][rest]{0,max_size} (from_regex is too slow for 300 examples)."""
    return st.builds(lambda a, b: a + b, st.sampled_from(first), st.text(rest, max_size=max_size))


KEYS = word(LOWER, LOWER + string.digits + "_-", 10).filter(
    lambda k: k not in YAML_WORDS and k not in ("description", "type")
)
# Characters YAML allows raw inside a scalar on one line.
CHAR = st.characters(
    codec="utf-8",
    exclude_categories=("Cs", "Cc", "Zl", "Zp"),
    exclude_characters="\ufffe\uffff",
)
CHAR_OR_TAB = st.one_of(CHAR, st.just("\t"))
LINE_TEXT = st.text(CHAR_OR_TAB, max_size=20)
BODY_CHAR = st.characters(exclude_categories=["Cs"]).filter(lambda c: c == "\n" or not has_control(c))
PUNCT = st.sampled_from(list(" :#-'\",[]{}!&*?|>%@`\\/.()+=~"))


def _plain_ok(s: str) -> bool:
    return bool(s) and " #" not in s and ": " not in s and not s.endswith(":") and s == s.rstrip(" ")


PLAIN = st.builds(
    lambda first, rest: first + rest,
    st.characters(categories=("Lu", "Ll", "Lo")),
    st.text(st.one_of(CHAR, PUNCT), max_size=20),
).filter(_plain_ok)
FLOW_PLAIN = word(string.ascii_letters + "é漢", ALNUM + "é漢 ._/-", 12).map(str.rstrip)


def single_quoted(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


DQ_TOKEN = st.one_of(
    CHAR_OR_TAB.filter(lambda c: c not in '\\"'),
    st.sampled_from(["\\\\", '\\"', "\\n", "\\t", "\\x41", "\\u00e9", "\\U0001F642", "\\0", "\\ ", "\\/"]),
)
DOUBLE_QUOTED = st.lists(DQ_TOKEN, max_size=15).map(lambda toks: '"' + "".join(toks) + '"')
SINGLE_QUOTED = LINE_TEXT.map(single_quoted)
INTS = st.integers(-(10**6), 10**12).map(str)
DATES = st.dates(dt.date(1900, 1, 1), dt.date(2100, 12, 31)).map(dt.date.isoformat)
WORDS = st.sampled_from(["true", "false", "yes", "No", "null", "~", "1.5"])
SCALAR = st.one_of(PLAIN, SINGLE_QUOTED, DOUBLE_QUOTED, INTS, DATES, WORDS)
FLOW_ITEM = st.one_of(FLOW_PLAIN.filter(bool), SINGLE_QUOTED, DOUBLE_QUOTED, INTS, DATES)
COMMENT = st.text(CHAR_OR_TAB, max_size=15).map(lambda s: "# " + s)


@dataclass
class Entry:
    key: str | None  # None for comments and blank lines
    lines: list[str]  # without line endings


@st.composite
def field_entry(draw: st.DrawFn, key: str) -> Entry:
    kind = draw(
        st.sampled_from(["scalar", "scalar", "scalar", "flow", "block-list", "block-scalar", "mapping", "empty"])
    )
    if kind == "scalar":
        value = draw(SCALAR)
        if draw(st.booleans()):
            value += "  " + draw(COMMENT)
        return Entry(key, [f"{key}: {value}"])
    if kind == "empty":
        return Entry(key, [f"{key}:"])
    if kind == "flow":
        items = draw(st.lists(FLOW_ITEM, max_size=4))
        return Entry(key, [f"{key}: [" + ", ".join(items) + "]"])
    if kind == "block-list":
        indent = draw(st.sampled_from(["", "  "]))
        items = draw(st.lists(SCALAR, min_size=1, max_size=4))
        return Entry(key, [f"{key}:"] + [f"{indent}- {item}" for item in items])
    if kind == "block-scalar":
        style = draw(st.sampled_from(["|", "|-", ">", ">-"]))
        first = draw(st.text(CHAR, min_size=1, max_size=15).filter(lambda s: not s[0].isspace()))
        rest = draw(st.lists(st.one_of(st.just(""), st.text(CHAR_OR_TAB, min_size=1, max_size=15)), max_size=3))
        while rest and not rest[-1].strip():
            rest.pop()
        return Entry(key, [f"{key}: {style}", "  " + first] + [("  " + line) if line else "" for line in rest])
    subkeys = draw(st.lists(KEYS, min_size=1, max_size=3, unique=True))
    return Entry(key, [f"{key}:"] + [f"  {sub}: {draw(SCALAR)}" for sub in subkeys])


DESCRIPTION = st.one_of(
    st.lists(word(LOWER, LOWER + string.digits, 8), min_size=1, max_size=6)
    .map(lambda words: " ".join(words).capitalize())
    .filter(lambda s: isinstance(yaml.safe_load(s), str)),
    st.text(CHAR, min_size=1, max_size=30).filter(lambda s: s.strip() != "").map(single_quoted),
)


@dataclass
class Generated:
    text: str
    newline: str
    entries: list[Entry]

    def start_of(self, key: str) -> tuple[int, int] | None:
        """(file line index of the field's first line, how many lines it has)."""
        index = 1
        for entry in self.entries:
            if entry.key == key:
                return index, len(entry.lines)
            index += len(entry.lines)
        return None

    @property
    def close(self) -> int:
        return 1 + sum(len(e.lines) for e in self.entries)

    @property
    def keys(self) -> list[str]:
        return [e.key for e in self.entries if e.key is not None]


@st.composite
def cards(draw: st.DrawFn) -> Generated:
    keys = draw(st.lists(KEYS, max_size=6, unique=True))
    entries = [draw(field_entry(key)) for key in keys]
    for _ in range(draw(st.integers(0, 3))):
        filler = draw(st.one_of(COMMENT, st.sampled_from(["", "   "])))
        entries.insert(draw(st.integers(0, len(entries))), Entry(None, [filler]))
    description = Entry("description", [f"description: {draw(DESCRIPTION)}"])
    type_ = Entry("type", [f"type: {draw(st.sampled_from(TYPES))}"])
    entries.insert(draw(st.integers(0, len(entries))), description)
    entries.insert(draw(st.integers(0, len(entries))), type_)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    # No control characters in the body: such a card is never rewritten (tests/test_nested_fields.py).
    body_lines = draw(st.lists(st.one_of(st.sampled_from(["---", "...", "", "--- x"]), st.text(BODY_CHAR)), max_size=5))
    body = newline.join(body_lines)
    if draw(st.booleans()):
        body += newline
    fm = [line for entry in entries for line in entry.lines]
    text = newline.join(["---", *fm, "---"]) + newline + body
    return Generated(text, newline, entries)


def rewritable(card: Generated) -> bool:
    """No repeated key and no control character (a YAML escape may make one): set_fields refuses those."""
    return not any(p.kind in UNSAFE_TO_REWRITE for p in parse(card.text).problems)


def with_final_newline(card: Generated) -> str:
    return card.text if card.text.endswith("\n") else card.text + card.newline


def frontmatter_text(card: Generated) -> str:
    return "".join(file_lines(card.text)[1 : card.close])


# --------------------------------------------------------------------------- round trip


@SETTINGS
@given(cards())
def test_parse_reads_what_yaml_reads(card: Generated) -> None:
    parsed = parse(card.text)
    assert same(parsed.meta, yaml_load(frontmatter_text(card)))
    assert parsed.body_offset == len("".join(file_lines(card.text)[: card.close + 1]))
    assert [p for p in parsed.problems if p.severity != "error"] == []  # valid YAML: nothing read leniently


@SETTINGS
@given(cards())
def test_set_fields_without_updates_is_identity(card: Generated) -> None:
    assume(rewritable(card))
    assert set_fields(card.text, {}) == with_final_newline(card)


TEXT_VALUES = st.text(max_size=30)
VALUES = st.one_of(
    TEXT_VALUES,
    st.sampled_from(["yes", "null", "1.10", "2026-01-01", "- x", "[a]", "'a'", '"a"', "a: b", "a #b", " x "]),
    st.integers(-(10**12), 10**12),
    st.dates(dt.date(1900, 1, 1), dt.date(2100, 12, 31)),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(TEXT_VALUES, max_size=4),
)


@SETTINGS
@given(cards(), st.data())
def test_set_one_field_changes_only_that_field(card: Generated, data: st.DataObject) -> None:
    assume(rewritable(card))
    before = parse(card.text)
    key = data.draw(st.one_of(st.sampled_from(card.keys), KEYS), label="key")
    value = data.draw(VALUES, label="value")

    out = set_fields(card.text, {key: value})
    after = parse(out)

    assert same(after.meta.get(key, MISSING), value)
    assert same(
        {k: v for k, v in after.meta.items() if k != key},
        {k: v for k, v in before.meta.items() if k != key},
    )
    original = with_final_newline(card)
    assert out[after.body_offset :] == original[before.body_offset :]

    old, new = file_lines(original), file_lines(out)
    found = card.start_of(key)
    start, count = found if found is not None else (card.close, 0)
    assert new[:start] == old[:start]
    assert new[start].startswith(f"{key}: ")
    assert new[start].endswith(card.newline)
    assert new[start + 1 :] == old[start + count :]


@SETTINGS
@given(cards(), st.data())
def test_remove_one_field_removes_only_its_lines(card: Generated, data: st.DataObject) -> None:
    assume(rewritable(card))
    before = parse(card.text)
    key = data.draw(st.sampled_from(card.keys), label="key")
    out = set_fields(card.text, {key: None})
    after = parse(out)
    assert key not in after.meta
    assert same(after.meta, {k: v for k, v in before.meta.items() if k != key})
    start, count = card.start_of(key)  # type: ignore[misc]
    old = file_lines(with_final_newline(card))
    head, rest = old[:start], old[start + count :]
    if same(parse("".join(head + rest)).meta, after.meta):
        assert file_lines(out) == head + rest  # exactly the field's lines go
    else:
        # Whitespace-only lines after the field would join a block scalar above it; those
        # (and only those) may go too.
        new = file_lines(out)
        assert new[:start] == head
        dropped = len(rest) - len(new[start:])
        assert dropped > 0
        assert new[start:] == rest[dropped:]
        assert all(not line.strip(" \t\r\n") for line in rest[:dropped])


# --------------------------------------------------------------------------- the fast path

ADVERSARIAL = [
    "yes", "No", "NO", "on", "Off", "y", "n", "~", "null", "Null", "NULL", "true", "False",
    "1.10", "1.5", "10", "-1", "+1", "0x1F", "0o17", "017", "1_000", "1e3", ".5", ".inf", "-.inf", ".nan",
    "2026-13-45", "2026-02-30", "2026-01-01", "2026-1-1", "2026-01-01T10:00:00", "2026-01-01 10:00:00",
    "2026-01-01x", "12:30", "190:20:30",
    "-x", "- x", "-", "--", "---", "?x", "? x", ":x", ",x", "'a''b'", "'a'b'", "''", '""', '"a\\"b"', '"a\\nb"',
    '"a', "'a", "a'", 'a"', "a #b", "a#b", "a # b", "#a", "a: b", "a:b", "a:", "a :", "a::b",
    '[a, "b"]', "[a, 'b']", "[]", "[ ]", "[,]", "[a,]", "[a, [b]]", "[a, {b: 1}]", "[a]x", "[a] #c", "[a, b c]",
    "[a #b]", "[a:b]", "[a: b]", "[a?b]", "[?a]", "[-a]", "[- a]", "[yes]", "[1]", "[2026-01-01]", "[~]",
    "[\xa0a]", "[a\xa0]", "[a,\tb]", "[\ta]", "[a, b]  ", "[a, b]\t",
    "{a: 1}", "{}", "]x", "}x", "]", "}", "&x", "*x", "&a x", "!tag", "!!str 1", "|", ">", "|-", "%x", "@x", "`x",
    "=", "<<", "<x", "a\tb", "a\t", "\ta", "a  ", "a  b", "é", "漢字", "🙂", "a\xa0", "\xa0a", "\u3000",
    "a\x00", "a\x01", "a\x7f", "a\x85", "a\x85b", "a\u2028", "a\u2028b", "a\u2029", "a\ufeff", "\ufeffa",
    "a\ufffe", "a\x0b", "a\x0c", "a\x1c", "a\x1e", "a\rb", "a\r",
]  # fmt: skip
INDICATORS = "[]{}'\"&*!|>%@`#,?:-~=<+.0123456789 \t"
YAML_SIGNIFICANT = st.sampled_from(
    [
        *"aAyYnN01-._:#'\"[]{},&*!|>%@`?~=<+eEx \t\\/",
        "\xa0",
        "\u3000",
        "é",
        "🙂",
        "\x00",
        "\x01",
        "\x7f",
        "\x85",
        "\u2028",
        "\ufeff",
        "\ufffe",
        "\x0c",
        "\r",
    ]
)
# Anything a file can hold, leaning to assigned characters (which the fast path may answer).
ANY_CHAR = st.one_of(
    st.characters(categories=("L", "M", "N", "P", "S", "Zs")),
    st.characters(categories=("L", "M", "N", "P", "S", "Zs")),
    st.characters(categories=("L", "M", "N", "P", "S", "Zs")),
    st.characters(categories=("L", "M", "N", "P", "S", "Zs")),
    st.characters(exclude_categories=["Cs"]),
    st.sampled_from(["\t", "\x00", "\x7f", "\x85", "\u2028", "\xa0", "\ufeff", "\ufffe", "\\", '"', "'", "#", ":"]),
)


def any_text(min_size: int = 0, max_size: int = 10) -> st.SearchStrategy[str]:
    # lists + join: st.text(ANY_CHAR) would merge the alphabets and lose the weighting.
    return st.lists(ANY_CHAR, min_size=min_size, max_size=max_size).map("".join)


FAST_VALUES = st.one_of(
    st.sampled_from(ADVERSARIAL),
    st.sampled_from(ADVERSARIAL),
    st.text(YAML_SIGNIFICANT, min_size=1, max_size=10),
    st.builds(lambda a, b: a + b, st.sampled_from(ADVERSARIAL), st.text(YAML_SIGNIFICANT, max_size=4)),
    st.builds(lambda a, b: a + b, st.text(YAML_SIGNIFICANT, max_size=4), st.sampled_from(ADVERSARIAL)),
    st.lists(st.one_of(st.sampled_from(ADVERSARIAL), st.text(YAML_SIGNIFICANT, max_size=4)), max_size=3).map(
        lambda items: "[" + ", ".join(items) + "]"
    ),
    # Every YAML indicator and number start, then something ordinary.
    st.builds(lambda a, b: a + b, st.sampled_from(list(INDICATORS)), word(string.ascii_letters, ALNUM + " .", 4)),
    st.builds(lambda a, b: a + b, st.sampled_from(list(INDICATORS)), word(string.ascii_letters, ALNUM + " .", 4)),
    # Values the fast path is meant to answer, with any characters inside.
    st.builds(lambda a, b: a + b, st.sampled_from("abcXYZé漢"), any_text(0, 10)),
    st.builds(lambda a, b: a + b, st.sampled_from("abcXYZé漢"), any_text(0, 10)),
    any_text(0, 10).map(lambda v: '"' + v + '"'),
    any_text(0, 10).map(lambda v: "'" + v + "'"),
    st.lists(any_text(1, 5), max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    st.lists(any_text(1, 5), max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    any_text(1, 10),
)
# Lines the fast path reads, around the one under test.
PLAIN_VALUES = st.one_of(
    word(string.ascii_letters, ALNUM + " ._/-", 12).map(str.rstrip),
    DATES,
    st.lists(word(string.ascii_letters, ALNUM, 6), max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    word(string.ascii_letters, ALNUM + " ", 8).map(lambda v: f"'{v}'"),
)
FAST_KEYS = st.one_of(
    word(string.ascii_letters + "_", ALNUM + "_-", 6),
    word(string.ascii_letters + "_", ALNUM + "_-", 6),
    word(string.ascii_letters + "_", ALNUM + "_-", 6),
    st.sampled_from(["yes", "No", "on", "OFF", "null", "Null", "true", "y", "n", "_", "a-b", "x1", "description"]),
)
# Weighted towards what the fast path answers: only those examples can catch it out.
SEPARATORS = st.sampled_from([": "] * 8 + [":  ", ":", ":\t", " : ", ": \t"])
TRAILERS = st.sampled_from([""] * 6 + [" ", "  ", "\t", "  # c", " #c", "#c", "\xa0"])
OTHER_LINES = st.one_of(
    st.sampled_from(["", "# comment", "#", "# a: b #c"]),
    st.sampled_from(["", "# comment", "#", "# a: b #c"]),
    st.sampled_from([" ", "\t", "\xa0", "\u3000", "\x85", "  # indented comment", "  x: y", "- a", "\ufeff"]),
)


@st.composite
def flat_frontmatter(draw: st.DrawFn) -> str:
    """Flat `key: value` lines around one line under test; most of them the fast path answers."""
    lines = [f"k{i}: {draw(PLAIN_VALUES)}" for i in range(draw(st.integers(0, 2)))]
    tested = draw(FAST_KEYS) + draw(SEPARATORS) + draw(FAST_VALUES) + draw(TRAILERS)
    lines.insert(draw(st.integers(0, len(lines))), tested)
    for _ in range(draw(st.integers(0, 2))):
        lines.insert(draw(st.integers(0, len(lines))), draw(OTHER_LINES))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline


def check_fast_path(text: str) -> bool:
    """Assert the fast path agrees with YAML on `text`; return whether it answered."""
    lines = text.splitlines(keepends=True)  # as parse() hands them over
    fast = _fast_fields(lines)
    if fast is None:
        return False
    try:
        expected = yaml_load(text)
    except YamlError as exc:
        raise AssertionError(f"fast path read {fast!r} from {text!r}, YAML says: {exc}") from None
    assert same(fast, expected), f"fast path read {fast!r} from {text!r}, YAML reads {expected!r}"
    return True


@SETTINGS
@given(flat_frontmatter())
def test_fast_path_agrees_with_yaml(text: str) -> None:
    check_fast_path(text)


ANSWERED_VALUES = st.one_of(
    st.builds(lambda a, b: a + b, st.sampled_from("abcXYZé漢_/"), any_text(0, 12)),
    any_text(0, 12).map(lambda v: '"' + v + '"'),
    any_text(0, 12).map(lambda v: "'" + v + "'"),
    st.lists(any_text(1, 6), max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
    st.lists(any_text(1, 6), max_size=4).map(lambda items: "[ " + " , ".join(items) + " ]"),
    st.builds(lambda d, tail: d + tail, DATES, any_text(0, 3)),
)


@st.composite
def answered_frontmatter(draw: st.DrawFn) -> str:
    """Clean `key: value` lines whose values hold any characters: the fast path's home ground."""
    lines = [f"k{i}: {draw(PLAIN_VALUES)}" for i in range(draw(st.integers(0, 2)))]
    tested = f"{draw(word(LOWER, LOWER + '_-', 6))}: {draw(ANSWERED_VALUES)}{draw(st.sampled_from(['', ' ', '  ']))}"
    lines.insert(draw(st.integers(0, len(lines))), tested)
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["", "# note", "#: x"])))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(lines) + newline


@SETTINGS
@given(answered_frontmatter())
def test_fast_path_agrees_with_yaml_on_any_characters(text: str) -> None:
    check_fast_path(text)


@pytest.mark.parametrize("value", ADVERSARIAL, ids=[repr(v) for v in ADVERSARIAL])
@pytest.mark.parametrize("form", ["k: {}\n", "a: 1\r\nk: {}  \r\n", "k: [{}]\n", "k: [x, {} ]\n"])
def test_fast_path_agrees_with_yaml_on_adversarial_values(form: str, value: str) -> None:
    check_fast_path(form.format(value))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("description: Deploy day\ntype: project\n", {"description": "Deploy day", "type": "project"}),
        ("verified: 2026-09-14\n", {"verified": dt.date(2026, 9, 14)}),
        ("tags: [deploy, release]\n", {"tags": ["deploy", "release"]}),
        ("tags: []\n", {"tags": []}),
        ("lock: yes\n", {"lock": True}),
        ("x: null\n", {"x": None}),
        ("name: 'Release merges'\n", {"name": "Release merges"}),
        ('name: "Release merges"\n', {"name": "Release merges"}),
        ("# comment\n\nkey: a-b_c\n", {"key": "a-b_c"}),
        ("source: incidents/2026-03-11.md:42\n", {"source": "incidents/2026-03-11.md:42"}),
    ],
)
def test_fast_path_answers_common_cards(text: str, expected: dict[str, Any]) -> None:
    """The differential tests only mean something when the fast path does answer."""
    assert check_fast_path(text)
    assert same(_fast_fields(text.splitlines(keepends=True)), expected)
