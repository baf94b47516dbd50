"""Shared fixtures: every test runs in tmp_path, with a fake home and a pinned date.

The autouse fixture points $HOME, `Path.home()` and `os.path.expanduser("~")` at an
empty folder under tmp_path and fails the test if anything is written there, so no
test can touch the real home directory. `CARDS_TODAY` pins the date cards are judged
against; $CARDS_VAULT, $EDITOR and $VISUAL from the developer's shell are removed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cardindex.cli import cli

TODAY = "2026-11-30"
TEMP_SUFFIX = ".cards-tmp"


@pytest.fixture(autouse=True)
def fake_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty home folder in tmp_path; the test fails if anything lands in it."""
    home = tmp_path / "home"
    home.mkdir()
    real_expanduser = os.path.expanduser

    def expanduser(path: Any) -> Any:
        text = os.fspath(path)
        if isinstance(text, str) and (text == "~" or text.startswith("~/")):
            return str(home) + text[1:]
        return real_expanduser(path)

    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: cls(home)))
    monkeypatch.setattr(os.path, "expanduser", expanduser)
    for var in ("CARDS_VAULT", "EDITOR", "VISUAL"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("CARDS_TODAY", TODAY)
    yield home
    assert sorted(p.name for p in home.iterdir()) == [], "a test wrote into the home directory"


@pytest.fixture
def runner() -> CliRunner:
    """A CliRunner; click >= 8.2 keeps `result.stdout` and `result.stderr` apart."""
    return CliRunner()


def _checked(result: Result) -> Result:
    """Fail loudly when the command crashed instead of exiting (a traceback for a user)."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"cards crashed with {result.exception!r}; stderr={result.stderr!r}") from result.exception
    return result


@pytest.fixture
def run_cli(runner: CliRunner) -> Callable[..., Result]:
    """Run `cards ARGS...` exactly as given (no --vault added); crashes fail the test."""

    def run(*args: str, input: str | bytes | None = None, env: dict[str, str | None] | None = None) -> Result:
        return _checked(runner.invoke(cli, list(args), input=input, env=env, prog_name="cards"))

    return run


@pytest.fixture
def vault(tmp_path: Path, run_cli: Callable[..., Result]) -> Path:
    """An empty vault made with `cards init` at tmp_path/vault."""
    root = tmp_path / "vault"
    result = run_cli("init", str(root))
    assert result.exit_code == 0, result.stderr
    return root


@pytest.fixture
def invoke(vault: Path, run_cli: Callable[..., Result]) -> Callable[..., Result]:
    """Run `cards --vault VAULT ARGS...` (the `vault` fixture unless `vault=` is given)."""
    default_vault = vault

    def run(
        *args: str,
        input: str | bytes | None = None,
        env: dict[str, str | None] | None = None,
        vault: Path | None = None,
    ) -> Result:
        return run_cli("--vault", str(vault or default_vault), *args, input=input, env=env)

    return run


def write_card_file(root: Path, rel: str, text: str | bytes) -> Path:
    """Write `text` (str as UTF-8, or raw bytes) to root/rel, creating folders."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        path.write_bytes(text.encode("utf-8"))
    else:
        path.write_bytes(text)
    return path


@pytest.fixture
def write_card() -> Callable[[Path, str, str | bytes], Path]:
    """`write_card(root, rel, text)`: put a card file into a vault as a person would."""
    return write_card_file


def card_text(description: str, type: str = "project", body: str = "Body.", **fields: Any) -> str:
    """A small valid card. Extra fields are written as `key: value` lines in order."""
    lines = ["---", f"description: {description}", f"type: {type}"]
    for key, value in fields.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        lines.append(f"{key}: {value}")
    lines += ["---", body, ""]
    return "\n".join(lines)


@pytest.fixture
def make_card() -> Callable[..., str]:
    """`make_card(description, type="project", body="Body.", **fields)` -> card text."""
    return card_text


def snapshot_tree(root: Path, *, state: bool = True) -> dict[str, bytes]:
    """Every file under `root` (symlinks not followed) -> its bytes; `state=False` skips .cardindex/."""
    out: dict[str, bytes] = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = Path(folder).relative_to(root)
        if not state and rel_folder == Path("."):
            dirs[:] = [d for d in dirs if d != ".cardindex"]
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = Path(folder) / name
            rel = (rel_folder / name).as_posix()
            out[rel] = b"->" + os.readlink(path).encode() if path.is_symlink() else path.read_bytes()
    return out


@pytest.fixture
def snapshot() -> Callable[..., dict[str, bytes]]:
    """`snapshot(root, state=True)`: {relative path: bytes} of every file under root."""
    return snapshot_tree


def temp_files(root: Path) -> list[str]:
    """Leftover atomic-write temp files anywhere under root."""
    found = []
    for folder, _dirs, files in os.walk(root):
        found += [os.path.join(folder, f) for f in files if f.endswith(TEMP_SUFFIX)]
    return sorted(found)


@pytest.fixture
def leftover_temp_files() -> Callable[[Path], list[str]]:
    return temp_files


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trust the stat of files written a moment ago, so a second run takes them by stat (no racy window)."""
    from cardindex.store import parse_cache

    monkeypatch.setattr(parse_cache, "RACY_NS", 0)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the card loader parses in this test, in order (a card from the parse cache adds none)."""
    from cardindex.store.card import Parsed, parse

    calls: list[str] = []

    def counting(text: str) -> Parsed:
        calls.append(text)
        return parse(text)

    monkeypatch.setattr("cardindex.store.loading.parse", counting)
    return calls
