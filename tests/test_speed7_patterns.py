"""Compiled patterns kept in the vault's cache folder (`cardindex/lazy.py`): the same code as `re.compile`'s.

A pattern object compares equal to another only when their pattern text, flags and
compiled code are the same, so `==` against `re.compile` is the test that the kept code
is the code `re` would make.
"""

from __future__ import annotations

import importlib
import marshal
import os
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardindex
from cardindex import lazy
from cardindex.store import built


@pytest.fixture
def cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "v" / ".cardindex" / "cache"
    folder.mkdir(parents=True)
    monkeypatch.setattr(lazy, "_KEPT", [])
    monkeypatch.setattr(lazy, "_NEW", {})
    built.use(folder)
    yield folder
    built.use(None)


def _package_patterns() -> list[tuple[str | bytes, int]]:
    found: dict[tuple[str | bytes, int], None] = {}
    for info in pkgutil.walk_packages(cardindex.__path__, "cardindex."):
        if info.name.endswith(("__main__", "mcp_server")):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, lazy.LazyPattern):
                found[(value.pattern, int(value.flags))] = None
    return list(found)


def test_every_pattern_of_the_package_compiles_to_re_s_code_fresh_and_kept(cache_folder: Path) -> None:
    patterns = _package_patterns()
    assert len(patterns) > 300
    for pattern, flags in patterns:
        assert lazy.compile_kept(pattern, flags) == re.compile(pattern, flags), pattern
    lazy.keep_new()
    table = marshal.loads((cache_folder / "built-patterns.marshal").read_bytes())[1]
    assert set(table) == set(patterns)
    lazy._KEPT.clear()  # another process: reads the table
    for pattern, flags in patterns:
        kept = lazy.compile_kept(pattern, flags)
        assert kept == re.compile(pattern, flags), pattern
    assert lazy._NEW == {}  # every one came from the table


def test_groups_and_flags_survive(cache_folder: Path) -> None:
    text = r"(?P<slot>\w+)\s*[:=]\s*(?P<value>\d+)(?:\s+(ms|s))?"
    first = lazy.compile_kept(text, re.IGNORECASE)
    lazy.keep_new()
    lazy._KEPT.clear()
    again = lazy.compile_kept(text, re.IGNORECASE)
    assert lazy._NEW == {}
    m = again.search("timeout = 250 MS")
    assert m is not None and m.group("slot", "value") == ("timeout", "250") and m.group(3) == "MS"
    assert (again.groups, again.groupindex, again.flags) == (first.groups, dict(first.groupindex), first.flags)


@pytest.mark.parametrize("damage", [b"", b"\x00broken", "other code"])
def test_a_broken_table_is_ignored(cache_folder: Path, damage: bytes | str) -> None:
    text = r"ledger (?:close|open)s? at (\d\d):(\d\d)"
    if damage == "other code":  # another engine's code for the pattern: the engine refuses it, re compiles
        data = marshal.dumps((lazy._key(), {(text, 0): (32, [1, 2, 3], 2, {}, (None, None, None))}))
    else:
        assert isinstance(damage, bytes)
        data = damage
    (cache_folder / "built-patterns.marshal").write_bytes(data)
    assert lazy.compile_kept(text) == re.compile(text)
    assert lazy.compile_kept(text).match("ledger closes at 18:30") is not None


def test_a_command_keeps_the_patterns_it_compiled(vault: Path) -> None:
    """Through the real entry point, in fresh processes: the first compiles and keeps, the next reads."""
    def cards(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args], capture_output=True,
                              text=True, check=False, env={**os.environ, "CARDS_TODAY": "2026-11-30"})

    first = cards("add", "The nightly export waits for the ledger close at 18:30.", "-d", "Export timing")
    assert first.returncode == 0, first.stderr
    assert cards("index").returncode == 0  # a vault of one card gets its cache folder here
    second = cards("add", "Invoices are numbered per branch, starting at 1000 each January.", "-d", "Invoice numbers")
    assert second.returncode == 0, second.stderr
    table = marshal.loads((vault / ".cardindex" / "cache" / "built-patterns.marshal").read_bytes())[1]
    assert len(table) >= 20
    assert all(lazy.compile_kept(p, f) == re.compile(p, f) for p, f in table)
