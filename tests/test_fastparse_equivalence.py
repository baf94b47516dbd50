"""The fast frontmatter path (`store/fastparse.py`) against YAML: it declines, or it reads what YAML reads.

Three kinds of evidence: a hypothesis property over generated frontmatter in the shapes
the fast path answers (nested `metadata:` blocks, `- item` lists, values that start with
a digit) and the shapes next to them that it must decline; every card in the project's
own vaults and fixtures (and the real vaults under /tmp/realvaults when present) read
both ways; and the CLI still reporting what only the YAML path finds (repeated keys,
unquoted colons) on cards in the nested form.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import Result
from helpers import same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.store.fastparse import fast_fields
from cardindex.store.frontmatter import frontmatter_span

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # what the slow path uses
SETTINGS = settings(max_examples=1000, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
ROOT = Path(__file__).resolve().parent.parent
SEALED = {"sealed_corpus", "sealed_corpus2", "sealed_corpus3", "retrieval_sealed", "life_sealed"}  # held-out sets: never read here


def agrees(text: str) -> bool:
    """Assert the fast path declines `text` or reads what YAML reads; return whether it answered."""
    fast = fast_fields(text.splitlines(keepends=True))
    if fast is None:
        return False
    try:
        expected = yaml.load(text, Loader=LOADER)
    except (yaml.YAMLError, ValueError) as exc:
        raise AssertionError(f"fast path read {fast!r} from {text!r}; YAML refuses it: {exc}") from None
    assert same(fast, expected), f"fast path read {fast!r} from {text!r}; YAML reads {expected!r}"
    return True


# --------------------------------------------------------------------------- generated frontmatter

KEYS = st.sampled_from(["type", "name", "key", "scope", "modified", "node_type", "Tags", "a_b", "x-1", "id", "v"] * 3
                       + ["on", "null", "type"])  # now and then a key YAML reads as a bool or null, or a repeat
# Values the fast path answers, weighted so that most examples reach it (only those can catch it
# out), beside values next to them that it must leave to YAML, and random text.
ANSWERED = st.sampled_from(["plain words", "0", "7", "10", "1e3", "1.2.3", "3 days", "2026-11-30", "2026-1-3",
                            "2026-11-30T08:15:00Z", "2026-11-30T08:15:00.123456789Z", "2026-11-30T08:15:00",
                            "4f1c2e9a-77b0-4c1d-9e2f-0a1b2c3d4e5f", "12345678-aaaa", "yes", "No", "true", "'q'",
                            '"q"', "[a, b]", "[1.2.3, x]", "[]", "x-ray", "2.0.0-rc1", "a:b", "é漢"])
TRICKY = st.sampled_from(["010", "0_1", "0x1f", "1_000", "12:30", "1.5", "2026-02-30", "2026-11-30 08:15:00",
                          "2026-11-30T25:15:00Z", "2026-11-30T08:15:00+02:00", "~", "-3", "+4", ".5", "a: b",
                          "a #b", "x:", "'it''s'", '"a\\"b"', "[1, 2]", "{a: 1}", "|", ">", "&a x", "*a", "!tag x",
                          "%x", "@x", "`x`", "- a", "9 #c", "2026-11-30 # c", "0b101", "190:20:30", "1.", "null"])
SCALARS = st.one_of(*[ANSWERED] * 10, TRICKY,
                    st.text(st.sampled_from("az09-:. #_'\"[],éZT"), min_size=1, max_size=10))
INDENTS = st.sampled_from(["  "] * 6 + ["", " ", "    ", "\t"])


@st.composite
def entry(draw: st.DrawFn, key: str) -> list[str]:
    """One top-level entry: `key: value`, a block mapping, a block list, or `key:` alone."""
    kind = draw(st.sampled_from(["scalar", "scalar", "mapping", "list", "empty"]))
    if kind == "scalar":
        return [f"{key}: {draw(SCALARS)}"]
    if kind == "empty":
        return [f"{key}:"]
    indent = draw(INDENTS)
    lines = [f"{key}:"]
    children = draw(st.lists(KEYS, min_size=1, max_size=3, unique=not draw(st.integers(0, 9))))
    for child in children:
        own = indent if draw(st.integers(0, 7)) else draw(INDENTS)  # now and then a line out of step
        if kind == "mapping":
            lines.append(f"{own}{child}: {draw(SCALARS)}")
        else:
            lines.append(f"{own}- {draw(SCALARS)}")
        if not draw(st.integers(0, 9)):
            lines.append(draw(st.sampled_from(["", "# c", "  # c", f"{indent}more text", "   "])))
    return lines


@st.composite
def frontmatter(draw: st.DrawFn) -> str:
    keys = draw(st.lists(KEYS, min_size=1, max_size=4, unique=not draw(st.integers(0, 9))))
    lines = [line for key in keys for line in draw(entry(key))]
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return newline.join(lines) + newline


@SETTINGS
@given(frontmatter())
def test_fast_path_declines_or_agrees_with_yaml(text: str) -> None:
    agrees(text)


def test_the_property_reaches_the_new_shapes() -> None:
    """The generated examples exercise what the fast path now answers, not only its refusals."""
    answered = [
        "metadata:\n  type: project\n  modified: 2026-11-30T08:15:00.5Z\n",
        "tags:\n  - deploy\n  - 7\n",
        "tags:\n- deploy\n- 2026-01-02\nname: x\n",
        "version: 1.2.3\nid: 4f1c2e9a-77b0-4c1d-9e2f-0a1b2c3d4e5f\ncount: 10\n",
        "metadata:\n\n  # why\n  type: user\n# top\nname: n\n",
        "parent:\nname: n\n",
    ]
    for text in answered:
        assert agrees(text), text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("metadata:\n  type: project\n  node_type: memory\n", {"metadata": {"type": "project", "node_type": "memory"}}),
        ("tags:\n  - a\n  - b\n", {"tags": ["a", "b"]}),
        ("n: 42\n", {"n": 42}),
        ("v: 2.10.1\n", {"v": "2.10.1"}),
        ("m: 2026-11-30T08:15:00Z\n", {"m": dt.datetime(2026, 11, 30, 8, 15, tzinfo=dt.timezone.utc)}),
        ("m: 2026-11-30T08:15:00.25\n", {"m": dt.datetime(2026, 11, 30, 8, 15, 0, 250000)}),
        ("k:\nname: n\n", {"k": None, "name": "n"}),
    ],
)
def test_new_shapes_read_as_yaml_reads_them(text: str, expected: dict[str, Any]) -> None:
    assert same(fast_fields(text.splitlines(keepends=True)), expected)


@pytest.mark.parametrize(
    "text",
    [
        "metadata:\n  type: a\n  type: b\n",  # a repeated key under metadata: YAML's path reports it
        "metadata:\n  type: a\n    more\n",  # a continued value
        "metadata:\n  type: a\n   name: b\n",  # odd indentation
        "metadata:\n  inner:\n    type: a\n",  # two levels down
        "metadata:\n\ttype: a\n",  # a tab
        "description:\n  a value on the next line\n",
        "tags:\n  - a\n - b\n",
        "tags:\n  - [a, b]\n",
        "ratio: 0.5\n",
        "mode: 0644\n",
        "at: 2026-11-30 08:15:00\n",
        "at: 2026-11-30T08:15:00+02:00\n",
        "at: 2026-13-30T08:15:00Z\n",
        "description: Rule: always quote\n",  # the lenient colon: only the YAML path reads and reports it
        "a: 1\na: 2\n",
        "# only a comment\n",
    ],
)
def test_shapes_the_fast_path_leaves_to_yaml(text: str) -> None:
    assert fast_fields(text.splitlines(keepends=True)) is None


# --------------------------------------------------------------------------- every card we have

def _cards(*roots: Path) -> Iterator[Path]:
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SEALED and d not in (".git", ".cardindex", ".venv")]
            for name in files:
                if name.endswith(".md"):
                    yield Path(folder, name)


def _frontmatters(*roots: Path) -> Iterator[tuple[Path, str]]:
    for path in _cards(*roots):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.splitlines(keepends=True)
        close = frontmatter_span(lines)
        if close is not None:
            yield path, "".join(lines[1:close])


def _compare(roots: list[Path]) -> tuple[int, int]:
    seen = answered = 0
    for path, text in _frontmatters(*roots):
        seen += 1
        try:
            answered += agrees(text)
        except AssertionError as exc:
            raise AssertionError(f"{path}: {exc}") from None
    return seen, answered


def test_every_project_card_reads_the_same_both_ways() -> None:
    roots = [ROOT / "tests", ROOT / "sample-vault", ROOT / "demo-vault", ROOT / "bench" / "vaults"]
    seen, answered = _compare([r for r in roots if r.exists()])
    assert seen > 100 and answered > seen // 2  # the comparison means something only where it answers


REAL = Path("/tmp/realvaults")


@pytest.mark.skipif(not REAL.is_dir(), reason="the real vault clones are not on this machine")
def test_every_real_vault_card_reads_the_same_both_ways() -> None:
    seen, answered = _compare([REAL])
    assert seen > 1000 and answered > seen // 2


# --------------------------------------------------------------------------- what only YAML's path finds, end to end

NESTED = "---\nname: {name}\ndescription: {description}\nmetadata:\n  type: project\n{extra}---\nThe release train leaves on Wednesdays.\n"


def _lint(vault: Path, run_cli: Callable[..., Result], text: str) -> str:
    (vault / "train.md").write_text(text, encoding="utf-8")
    return str(run_cli("--vault", str(vault), "lint", "--select", "F", "--format", "json").output)


def test_a_repeated_key_under_metadata_is_still_reported(vault: Path, run_cli: Callable[..., Result]) -> None:
    out = _lint(vault, run_cli, NESTED.format(name="Train", description="Which day the release train leaves",
                                              extra="  type: reference\n"))
    assert '"F011"' in out


def test_an_unquoted_colon_in_a_nested_card_is_still_read_leniently(vault: Path, run_cli: Callable[..., Result]) -> None:
    out = _lint(vault, run_cli, NESTED.format(name="Train", description="Release train: leaves on Wednesdays",
                                              extra="  modified: 2026-11-30T08:15:00Z\n"))
    assert '"F006"' in out


def test_a_clean_nested_card_has_no_structure_finding(vault: Path, run_cli: Callable[..., Result]) -> None:
    out = _lint(vault, run_cli, NESTED.format(name="Train", description="Which day the release train leaves",
                                              extra="  modified: 2026-11-30T08:15:00Z\n  count: 3\n"))
    assert '"F0' not in out
