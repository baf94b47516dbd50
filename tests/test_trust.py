"""The `llm:` trust rule (SPEC §7): a vault's llm command runs only once the user trusted it.

Every test points $XDG_CONFIG_HOME and $XDG_STATE_HOME (and, for real processes, $HOME)
at tmp_path. The llm command here writes a marker file, so "it ran" is a file on disk,
not a message.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

Invoke = Callable[..., Result]
PY = shlex.quote(sys.executable)


def marker_command(marker: Path) -> str:
    """An llm command that leaves `marker` behind and answers with a body."""
    code = f"import pathlib, sys; sys.stdin.read(); pathlib.Path({str(marker)!r}).write_text('ran'); print('Rewritten.')"
    return f"{PY} -c {shlex.quote(code)}"


def put(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", "type: user", *(f"{k}: {v}" for k, v in fields.items()),
             "---", body, ""]
    (root / rel).write_text("\n".join(lines), encoding="utf-8")


def duplicates(vault: Path) -> None:
    """Two cards that consolidate merges (the llm command is asked only for a merge)."""
    put(vault, "tz1.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.")
    put(vault, "tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.",
        verified="2026-06-01")


def set_vault_llm(vault: Path, command: str) -> None:
    (vault / ".cardindex.yaml").write_text(f"llm: {json.dumps(command)}\n", encoding="utf-8")


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$XDG_CONFIG_HOME and $XDG_STATE_HOME under tmp_path/xdg; returns that folder."""
    base = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(base / "state"))
    return base


def merged_body(vault: Path) -> str:
    return (vault / "tz2.md").read_text(encoding="utf-8").split("---\n", 2)[2]


NOTE = "the llm command in {} was not run ({}); review it, then run `cards trust` to allow it, or pass --llm"


def test_an_untrusted_vault_llm_does_not_run(invoke: Invoke, vault: Path, tmp_path: Path, xdg: Path) -> None:
    marker = tmp_path / "marker"
    set_vault_llm(vault, marker_command(marker))
    duplicates(vault)
    result = invoke("consolidate")
    assert result.exit_code == 0, result.stderr
    assert not marker.exists()
    assert result.stderr == "note: " + NOTE.format(vault / ".cardindex.yaml", "this vault is not trusted") + "\n"
    assert merged_body(vault) == "User is in the Europe/Berlin timezone.\n"  # deterministic merge
    assert "merge" in result.stdout


def test_trust_runs_it_until_the_command_changes(invoke: Invoke, vault: Path, tmp_path: Path, xdg: Path) -> None:
    marker = tmp_path / "marker"
    set_vault_llm(vault, marker_command(marker))
    trusted = invoke("trust")
    assert trusted.exit_code == 0, trusted.stderr
    assert trusted.stdout.splitlines()[0] == (
        f"trusted {vault.resolve()}: `cards consolidate` and `cards import --from-log` may run its llm command")
    store = json.loads((xdg / "state" / "cardindex" / "trusted.json").read_text(encoding="utf-8"))
    assert list(store["vaults"]) == [str(vault.resolve())]
    duplicates(vault)
    result = invoke("consolidate")
    assert result.exit_code == 0 and result.stderr == ""
    assert marker.read_text() == "ran"
    assert merged_body(vault) == "Rewritten.\n"
    # A pull changes the command: untrusted again, until trusted again.
    assert invoke("undo").exit_code == 0
    other = tmp_path / "other-marker"
    set_vault_llm(vault, marker_command(other))
    again = invoke("consolidate")
    assert again.exit_code == 0
    assert not other.exists()
    assert again.stderr == "note: " + NOTE.format(vault / ".cardindex.yaml",
                                                  "it changed since you trusted this vault") + "\n"
    listed = invoke("trust", "--list", "--format", "json")
    assert [row["state"] for row in json.loads(listed.stdout)] == ["changed since: not run until trusted again"]


def test_revoke_makes_it_untrusted(invoke: Invoke, vault: Path, tmp_path: Path, xdg: Path) -> None:
    marker = tmp_path / "marker"
    set_vault_llm(vault, marker_command(marker))
    assert invoke("trust").exit_code == 0
    assert "(trusted)" in invoke("trust", "--list").stdout
    revoked = invoke("trust", "--revoke")
    assert revoked.exit_code == 0 and revoked.stdout == f"revoked: the llm command of {vault.resolve()} no longer runs\n"
    assert invoke("trust", "--list").stdout.startswith("no trusted vaults")
    duplicates(vault)
    assert invoke("consolidate").exit_code == 0
    assert not marker.exists()


def test_the_user_config_llm_runs_without_trust(invoke: Invoke, vault: Path, tmp_path: Path, xdg: Path) -> None:
    marker = tmp_path / "marker"
    own = xdg / "config" / "cardindex" / "config.yaml"
    own.parent.mkdir(parents=True)
    own.write_text(f"llm: {json.dumps(marker_command(marker))}\n", encoding="utf-8")
    duplicates(vault)
    result = invoke("consolidate")
    assert result.exit_code == 0 and result.stderr == ""
    assert marker.exists() and merged_body(vault) == "Rewritten.\n"


def test_the_user_config_runs_instead_of_an_untrusted_vault_llm(invoke: Invoke, vault: Path, tmp_path: Path,
                                                                xdg: Path) -> None:
    theirs, mine = tmp_path / "theirs", tmp_path / "mine"
    set_vault_llm(vault, marker_command(theirs))
    own = xdg / "config" / "cardindex" / "config.yaml"
    own.parent.mkdir(parents=True)
    own.write_text(f"llm: {json.dumps(marker_command(mine))}\n", encoding="utf-8")
    duplicates(vault)
    result = invoke("consolidate")
    assert result.exit_code == 0
    assert mine.exists() and not theirs.exists()
    assert "was not run (this vault is not trusted)" in result.stderr


def test_llm_on_the_command_line_runs(invoke: Invoke, vault: Path, tmp_path: Path, xdg: Path) -> None:
    theirs, given = tmp_path / "theirs", tmp_path / "given"
    set_vault_llm(vault, marker_command(theirs))
    duplicates(vault)
    result = invoke("consolidate", "--llm", marker_command(given))
    assert result.exit_code == 0 and result.stderr == ""
    assert given.exists() and not theirs.exists()
    assert merged_body(vault) == "Rewritten.\n"


def test_an_untrusted_llm_is_not_run_by_import(invoke: Invoke, vault: Path, tmp_path: Path, xdg: Path) -> None:
    marker = tmp_path / "marker"
    set_vault_llm(vault, marker_command(marker))
    log = tmp_path / "2026-11-03.md"
    log.write_text("- 09:00 user: Actually, always run the migrations before the tests.\n", encoding="utf-8")
    result = invoke("import", "--from-log", str(log))
    assert not marker.exists()
    assert result.stderr.count("was not run (this vault is not trusted)") == 1
    given = invoke("import", "--from-log", str(log), "--llm", marker_command(marker))
    assert marker.exists(), given.stderr


def test_trust_without_an_llm_command_is_refused(invoke: Invoke, vault: Path, xdg: Path) -> None:
    result = invoke("trust")
    assert result.exit_code == 1
    assert result.stderr == f"error: nothing to trust: .cardindex.yaml of {vault} names no llm command\n"
    assert not (xdg / "state").exists()


def test_trust_prints_the_command_redacted(invoke: Invoke, vault: Path, xdg: Path) -> None:
    set_vault_llm(vault, "llm --key sk_live_4eC39HqLyjWDarjtT1zdp7dc -m x")
    result = invoke("trust")
    assert result.exit_code == 0
    assert "sk_live_4eC39HqLyjWDarjtT1zdp7dc" not in result.stdout
    assert "    llm --key [redacted] -m x" in result.stdout.splitlines()


@pytest.mark.parametrize(("text", "message"), [
    ("llm: [a, b]\n", "'llm' must be text: a command line"),
    ("vaults: []\n", "unknown setting 'vaults' (known: llm, user_vault)"),
    ("a: &a [x, x]\nb: [*a, *a]\n", "YAML anchors and aliases are not allowed in the config"),
])
def test_a_bad_user_config_is_one_line(invoke: Invoke, vault: Path, xdg: Path, text: str, message: str) -> None:
    own = xdg / "config" / "cardindex" / "config.yaml"
    own.parent.mkdir(parents=True)
    own.write_text(text, encoding="utf-8")
    duplicates(vault)
    result = invoke("consolidate")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {own}") and result.stderr.endswith(f"{message}\n")
    assert result.stderr.count("\n") == 1


def test_trust_through_a_real_process(vault: Path, tmp_path: Path) -> None:
    """HOME at tmp: the defaults ~/.config and ~/.local/state are used, nothing else is touched."""
    home = tmp_path / "real-home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "CARDS_TODAY": "2026-11-30"}
    marker = tmp_path / "marker"
    set_vault_llm(vault, marker_command(marker))
    duplicates(vault)

    def cards(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args], env=env,
                              capture_output=True, text=True, check=False, timeout=60)

    started = time.monotonic()
    plan = cards("consolidate", "--dry-run")
    assert plan.returncode == 0 and not marker.exists() and plan.stderr == ""  # a dry run asks nothing
    assert cards("consolidate").returncode == 0 and not marker.exists()
    assert cards("undo").returncode == 0
    assert cards("trust").returncode == 0
    assert (home / ".local/state/cardindex/trusted.json").is_file()
    done = cards("consolidate")
    assert done.returncode == 0, done.stderr
    assert marker.exists()
    assert time.monotonic() - started < 60
