"""The warm search path with a real `.cardindex.yaml`: no YAML imported, and the settings still as the file says.

The parsed settings are kept by the hash of the file's bytes (`store.settings_memo`), so a
warm run does not import PyYAML; any change of the bytes is parsed again, a file that is
invalid is refused every time, and a memo that is damaged is no error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.errors import ConfigError
from cardindex.store import settings_memo
from cardindex.store.config import CONFIG_FILE, load_config

PROBE = """
import json, sys
from cardindex.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""

SETTINGS = "archive_dir: old\nmulti_valued_keys: [owner, region]\nindex_budget:\n  lines: 120\n"


def probe(tmp_path: Path, vault: Path, *args: str) -> tuple[int, list[str], str]:
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PYTHONPATH")}
    env["HOME"] = str(tmp_path / "home")
    done = subprocess.run([sys.executable, "-c", PROBE, str(out), "--vault", str(vault), *args], env=env,
                          capture_output=True, text=True, check=False, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    return data["code"], data["modules"], done.stdout


@pytest.fixture
def greenhouse(tmp_path: Path) -> Path:
    root = tmp_path / "greenhouse"
    root.mkdir()
    (root / CONFIG_FILE).write_text(SETTINGS, encoding="utf-8")
    for name, desc, body in [
        ("misting.md", "When the misting nozzles run", "The nozzles run every forty minutes in summer."),
        ("seedlings.md", "Which tray holds the tomato seedlings", "Tray four, by the east glass."),
        ("vents.md", "How the roof vents are opened", "A motor opens them above 26 degrees."),
    ]:
        (root / name).write_text(f"---\ndescription: {desc}\ntype: project\n---\n{body}\n", encoding="utf-8")
    (root / "old").mkdir()
    (root / "old" / "heater.md").write_text(
        "---\ndescription: Which heater warmed the tomato house\ntype: project\nstatus: archived\n---\nA gas heater.\n",
        encoding="utf-8")
    return root


def test_a_warm_search_with_real_settings_imports_no_yaml(tmp_path: Path, greenhouse: Path) -> None:
    probe(tmp_path, greenhouse, "search", "nozzles")  # builds the index and the cache folder
    probe(tmp_path, greenhouse, "search", "nozzles")  # parses the settings once more and keeps them
    code, modules, out = probe(tmp_path, greenhouse, "search", "tomato seedlings")
    assert code == 0 and out.split()[1] == "seedlings"
    assert not [m for m in modules if m == "yaml" or m.startswith("yaml.")]
    # the settings are still those of the file: the archive is `old/`, searched with --all
    code, _, out = probe(tmp_path, greenhouse, "search", "gas heater", "--all")
    assert code == 0 and "old/heater" in out


def test_an_edit_of_the_settings_is_read_at_once(greenhouse: Path) -> None:
    (greenhouse / ".cardindex" / "cache").mkdir(parents=True)
    assert load_config(greenhouse).index_budget.lines == 120
    assert load_config(greenhouse).index_budget.lines == 120  # from the memo
    # the same length, the same second: only the bytes tell the two apart
    (greenhouse / CONFIG_FILE).write_text(SETTINGS.replace("120", "130"), encoding="utf-8")
    assert load_config(greenhouse).index_budget.lines == 130
    assert load_config(greenhouse).multi_valued_keys == frozenset({"owner", "region"})


def test_an_invalid_config_is_refused_every_time(greenhouse: Path) -> None:
    (greenhouse / ".cardindex" / "cache").mkdir(parents=True)
    (greenhouse / CONFIG_FILE).write_text("archive_dir: old\narchive_dir: older\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ConfigError, match=r"twice|duplicate"):
            load_config(greenhouse)


def test_a_damaged_memo_is_parsed_past(greenhouse: Path) -> None:
    cache = greenhouse / ".cardindex" / "cache"
    cache.mkdir(parents=True)
    load_config(greenhouse)
    memo = cache / "settings.marshal"
    assert memo.is_file()
    for junk in (b"", b"\x00garbage", memo.read_bytes()[:-3]):
        memo.write_bytes(junk)
        assert load_config(greenhouse).archive_dir == "old"


def test_no_memo_is_written_where_there_is_no_cache_folder(tmp_path: Path) -> None:
    (tmp_path / CONFIG_FILE).write_text(SETTINGS, encoding="utf-8")
    assert load_config(tmp_path).archive_dir == "old"
    assert not (tmp_path / ".cardindex").exists()


def test_a_value_marshal_cannot_hold_is_parsed_each_time(greenhouse: Path) -> None:
    (greenhouse / ".cardindex" / "cache").mkdir(parents=True)
    raw = b"archive_dir: old\nnote_day: 2026-03-01\n"
    settings_memo.keep(greenhouse / CONFIG_FILE, raw, {"archive_dir": "old", "day": __import__("datetime").date.today()})
    assert settings_memo.recall(greenhouse / CONFIG_FILE, raw) is None


def test_the_search_cli_reads_the_settings_from_the_memo(greenhouse: Path, run_cli: Callable[..., Result],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_cli("--vault", str(greenhouse), "search", "vents").exit_code == 0
    assert run_cli("--vault", str(greenhouse), "search", "vents").exit_code == 0
    from cardindex.store import config

    def no_yaml(text: str, label: str) -> object:
        raise AssertionError("parsed the settings again")

    monkeypatch.setattr(config, "_safe_yaml", no_yaml)
    result = run_cli("--vault", str(greenhouse), "search", "roof vents", "--format", "json")
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["id"] == "vents"
