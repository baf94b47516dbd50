"""Patterns compiled on first use (`cardindex.lazy.lazy_pattern`), and what importing the gate no longer pays."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardindex import lazy as lazy_module
from cardindex.lazy import LazyPattern, lazy_pattern

# How many patterns importing the write gate compiles (re.compile calls, counted in a fresh
# interpreter). Every rule module compiled its patterns at import before: about 350.
COUNT_COMPILES = r"""
import re, sys
count = 0
real = re.compile
def counting(*a, **k):
    global count
    count += 1
    return real(*a, **k)
re.compile = counting
import cardindex.lint.gate
print(count)
"""


def test_nothing_is_compiled_until_used(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    real = re.compile

    def counting(*a: object, **k: object) -> object:
        calls.append(a)
        return real(*a, **k)  # type: ignore[call-overload]

    monkeypatch.setattr(re, "compile", counting)
    monkeypatch.setattr(lazy_module, "compile_kept", counting)  # how a lazy pattern compiles (kept code, or afresh)
    word = lazy_pattern(r"\bharbour\w*", re.IGNORECASE)
    assert calls == []
    assert word.pattern == r"\bharbour\w*" and word.flags == re.IGNORECASE  # readable without compiling
    combined = lazy_pattern(rf"(?:{word.pattern})\s+master")
    assert calls == []
    assert combined.search("the Harbourmaster master") is None
    found = combined.search("harbour master")
    assert found is not None and found.group() == "harbour master"
    assert len(calls) == 1  # `combined` only: `word` was never used
    assert word.findall("harbours, Harbour") == ["harbours", "Harbour"]
    assert word.findall("harbour") == ["harbour"]
    assert len(calls) == 2  # once each


def test_the_methods_are_the_compiled_patterns_after_first_use() -> None:
    lazy = lazy_pattern(r"(?P<n>\d+) (?P<unit>kg|t)")
    assert isinstance(lazy, LazyPattern)
    assert lazy.groupindex == {"n": 1, "unit": 2} and lazy.groups == 2
    real = lazy.compiled()
    assert lazy.compiled() is real
    assert lazy.sub is not None and lazy.sub.__self__ is real
    assert lazy.subn("3 kg and 4 t", "") == real.subn("3 kg and 4 t", "")


def test_given_a_pattern_it_is_returned_as_is() -> None:
    compiled = re.compile("x")
    assert lazy_pattern(compiled) is compiled
    lazy = lazy_pattern("y")
    assert lazy_pattern(lazy) is lazy
    bytes_pattern = lazy_pattern(rb"\x00+")
    assert bytes_pattern.sub(b"", b"a\x00\x00b") == b"ab"


PATTERNS = [
    (r"\b(?:currently|right now|at the moment)\b", re.IGNORECASE),
    (r"^\s*[-*] \[[ xX]\]", re.MULTILINE),
    (r"(\w+)@(\w+)\.(?:com|org)", 0),
    (r"(?<=\d)\s*(?:ms|s|min)\b", 0),
]


@given(st.sampled_from(PATTERNS), st.text(alphabet="abc xX-*[]@.\n0123456789msincurentlyghtowRIGHT", max_size=80))
def test_lazy_answers_as_compiled(spec: tuple[str, int], text: str) -> None:
    pattern, flags = spec
    lazy, real = lazy_pattern(pattern, flags), re.compile(pattern, flags)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text)
    assert lazy.sub("_", text) == real.sub("_", text)
    assert lazy.split(text) == real.split(text)
    assert bool(lazy.match(text)) == bool(real.match(text))
    assert bool(lazy.fullmatch(text)) == bool(real.fullmatch(text))


def test_importing_the_gate_compiles_few_patterns() -> None:
    """The rule modules' patterns wait for their first use (before: about 350 compiled at import)."""
    out = subprocess.run([sys.executable, "-c", COUNT_COMPILES], capture_output=True, text=True, check=True)
    assert int(out.stdout) < 140, out.stdout
