"""Startup stays light: heavy modules load only for the commands that need them.

Each case runs `cardindex.cli.main(ARGS)` in a fresh interpreter and records
`sys.modules` afterwards. watchdog (the watcher) and rapidfuzz (similarity) are never
needed to show help, add a card, list or show; jinja2 renders cards and the index, so
only commands that render may load it; `--help` does not even parse YAML.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

TODAY = "2026-11-30"
CARD = "---\ndescription: Which weekday production deploys happen\ntype: project\nkey: deploy-day\n---\nThursdays.\n"

PROBE = """
import json, sys
from cardindex.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""


def cli_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), CARDS_TODAY=TODAY)
    return env


def loaded(modules: list[str], package: str) -> list[str]:
    return [m for m in modules if m == package or m.startswith(package + ".")]


def probe(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    out = tmp_path / "modules.json"
    result = subprocess.run(
        [sys.executable, "-c", PROBE, str(out), *args],
        cwd=tmp_path,
        env=cli_env(tmp_path / "home"),
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in result.stderr, result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    return data["code"], data["modules"]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "deploy-day.md").write_text(CARD, encoding="utf-8")
    return root


CASES = {
    "help": (("--help",), ("watchdog", "rapidfuzz", "jinja2", "yaml")),
    "version": (("--version",), ("watchdog", "rapidfuzz", "jinja2", "yaml")),
    "add-help": (("add", "--help"), ("watchdog", "rapidfuzz", "jinja2", "yaml")),
    "add": (("add", "Staging is reset every Sunday night.", "--key", "staging-reset"), ("watchdog", "rapidfuzz")),
    "list": (("list",), ("watchdog", "rapidfuzz", "jinja2")),
    "list-json": (("list", "--all", "--format", "json"), ("watchdog", "rapidfuzz", "jinja2")),
    "show": (("show", "deploy-day"), ("watchdog", "rapidfuzz", "jinja2")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_command_imports(tmp_path: Path, vault: Path, case: str) -> None:
    args, forbidden = CASES[case]
    uses_vault = args[0] in ("add", "list", "show") and "--help" not in args
    code, modules = probe(tmp_path, *(("--vault", str(vault)) if uses_vault else ()), *args)
    assert code == 0
    assert "cardindex.cli" in modules
    assert {name: loaded(modules, name) for name in forbidden} == {name: [] for name in forbidden}


def test_add_really_wrote_a_card(tmp_path: Path, vault: Path) -> None:
    """The `add` probe above must measure a real add, not an early exit."""
    code, modules = probe(tmp_path, "--vault", str(vault), "add", "Staging is reset every Sunday night.")
    assert code == 0
    assert (vault / "staging-is-reset-every-sunday-night.md").is_file()
    assert "](staging-is-reset-every-sunday-night.md)" in (vault / "INDEX.md").read_text(encoding="utf-8")
    assert loaded(modules, "watchdog") == loaded(modules, "rapidfuzz") == []


def test_help_importtime_via_module_entry(tmp_path: Path) -> None:
    """The real entry point (`python -m cardindex --help`), measured with -X importtime."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "cardindex", "--help"],
        cwd=tmp_path,
        env=cli_env(tmp_path / "home"),
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0
    imported = [
        line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")
    ]
    assert "cardindex.cli" in imported
    heavy = [m for m in imported if m.split(".")[0] in ("watchdog", "rapidfuzz", "jinja2", "yaml", "numpy")]
    assert heavy == []


def test_help_wall_time_sanity(tmp_path: Path) -> None:
    """Not the benchmark (see bench/): only a bound that catches a gross regression."""
    env = cli_env(tmp_path / "home")
    import resource

    def child_cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    times = []
    for _ in range(5):
        start = child_cpu()  # CPU time of the child: a busy machine (xdist, other jobs) does not count
        result = subprocess.run(
            [sys.executable, "-m", "cardindex", "--help"],
            cwd=tmp_path,
            env=env,
            check=False,
            capture_output=True,
            timeout=60,
        )
        times.append(child_cpu() - start)
        assert result.returncode == 0
    assert statistics.median(times) < 0.5, times
