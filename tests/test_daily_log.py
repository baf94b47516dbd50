"""`cards log`: the raw tier. Entries are appended, never lost under many writers, never cards.

The log is read back by `daily_log.entries`, which `cards state` and consolidation use, so
what is appended must come back exactly: the round trip is a hypothesis property.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.errors import UsageError
from cardindex.store import daily_log

T0 = dt.datetime(2026, 11, 30, 9, 15, 0, tzinfo=dt.timezone.utc)
RANDOM_TOKEN = "ghp_" + "R7x" * 12  # 36 characters after the prefix, shaped like a GitHub token


def test_an_entry_goes_to_its_days_file_under_a_header(tmp_path: Path) -> None:
    log = tmp_path / "log"
    first = daily_log.append(log, "Left off in the export screen: the CSV toggle is next", T0)
    second = daily_log.append(log, "Paused the auth cleanup\nafter the session store", T0 + dt.timedelta(hours=2))
    assert first.path == log / "2026-11-30.md" and (first.line, second.line) == (3, 4)
    assert first.path.read_text(encoding="utf-8") == (
        "# Log 2026-11-30\n\n"
        "- 2026-11-30T09:15:00Z Left off in the export screen: the CSV toggle is next\n"
        "- 2026-11-30T11:15:00Z Paused the auth cleanup\n  after the session store\n")
    later = daily_log.append(log, "next day", T0 + dt.timedelta(days=1))
    assert later.path.name == "2026-12-01.md" and later.line == 3
    assert [day for day, _ in daily_log.days(log)] == [dt.date(2026, 11, 30), dt.date(2026, 12, 1)]


def test_entries_read_back_with_their_times_lines_and_hand_written_lines(tmp_path: Path) -> None:
    log = tmp_path / "log"
    daily_log.append(log, "one", T0)
    daily_log.append(log, "two\n\nwith a gap", T0 + dt.timedelta(minutes=5))
    path = log / "2026-11-30.md"
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\nwritten by hand, no time\n")
    got = list(daily_log.entries(path))
    assert [(e.time, e.text, e.line) for e in got] == [
        (T0, "one", 3), (T0 + dt.timedelta(minutes=5), "two\n\nwith a gap", 4), (None, "written by hand, no time", 8)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40)
                .map(lambda s: s.strip()).filter(bool), min_size=1, max_size=4))
def test_what_is_appended_comes_back(tmp_path_factory: pytest.TempPathFactory, lines: list[str]) -> None:
    log = tmp_path_factory.mktemp("log")
    text = "\n".join(lines)
    entry = daily_log.append(log, text, T0)
    back = [e for e in daily_log.entries(entry.path) if e.line == entry.line]
    assert len(back) == 1 and back[0].text == "\n".join(line.rstrip() for line in lines).strip()


@pytest.mark.parametrize("text, message", [
    ("   \n ", "empty"), ("a\x1b[31m", "control character"), ("x" * (daily_log.MAX_ENTRY + 1), "at most"),
])
def test_bad_entries_are_refused_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        daily_log.append(tmp_path / "log", text, T0)
    assert not (tmp_path / "log" / "2026-11-30.md").exists()


def test_the_cli_logs_reads_stdin_and_prints_json(invoke: Callable[..., Result], vault: Path) -> None:
    done = invoke("log", "Left", "off", "in", "the", "export", "screen", env={"CARDS_NOW": "2026-11-30T09:15:00Z"})
    assert done.exit_code == 0, done.stderr
    assert done.stdout == "logged to log/2026-11-30.md:3\n"
    piped = invoke("log", "--format", "json", "-", input="from a hook\nsecond line\n",
                   env={"CARDS_NOW": "2026-11-30T10:00:00Z"})
    assert json.loads(piped.stdout) == {"path": "log/2026-11-30.md", "line": 4, "time": "2026-11-30T10:00:00Z"}
    at = invoke("log", "--at", "2026-11-29T18:00:00+01:00", "an older note")
    assert at.exit_code == 0 and "log/2026-11-29.md:3" in at.stdout
    assert "- 2026-11-29T17:00:00Z an older note\n" in (vault / "log" / "2026-11-29.md").read_text(encoding="utf-8")


def test_logs_are_never_cards(invoke: Callable[..., Result], vault: Path) -> None:
    invoke("add", "--description", "Which weekday deploys go out", "--type", "project", "Deploys go out on Tuesdays.")
    invoke("log", "Currently halfway through the deploy script; next step: the rollback flag")
    listed = json.loads(invoke("list", "--format", "json").stdout)
    assert [c["path"] for c in listed] == ["which-weekday-deploys-go-out.md"] or len(listed) == 1
    assert all(not str(c["path"]).startswith("log/") for c in listed)
    lint = invoke("lint", "--format", "json")
    assert all(not str(f["path"]).startswith("log/") for f in json.loads(lint.stdout or "[]"))
    index = (vault / "INDEX.md").read_text(encoding="utf-8")
    assert "log/" not in index and "halfway" not in index


def test_secrets_and_bad_times_are_refused(invoke: Callable[..., Result], vault: Path) -> None:
    done = invoke("log", f"the CI token is {RANDOM_TOKEN}")
    assert done.exit_code == 1 and "secret" in done.stderr and RANDOM_TOKEN not in done.stderr + done.stdout
    assert not (vault / "log").exists()
    bad = invoke("log", "--at", "yesterday", "x")
    assert bad.exit_code == 2 and "--at must be an ISO date" in bad.stderr and "Traceback" not in bad.stderr


def test_a_configured_log_folder_is_used_and_skipped_as_cards(run_cli: Callable[..., Result], vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("log_dir: journal/raw\n", encoding="utf-8")
    done = run_cli("--vault", str(vault), "log", "x", env={"CARDS_NOW": "2026-11-30T09:15:00Z"})
    assert done.exit_code == 0 and "journal/raw/2026-11-30.md:3" in done.stdout
    assert json.loads(run_cli("--vault", str(vault), "list", "--format", "json").stdout) == []
    (vault / ".cardindex.yaml").write_text("log_dir: ../outside\n", encoding="utf-8")
    bad = run_cli("--vault", str(vault), "log", "x")
    assert bad.exit_code == 2 and "'log_dir' must be a folder inside the vault" in bad.stderr


WRITERS, EACH = 24, 15


def test_twenty_four_processes_lose_no_entry(vault: Path) -> None:
    """24 processes append at once, 15 entries each, some multi-line: every entry is there, whole, once."""
    script = textwrap.dedent(f"""
        import datetime as dt, sys, time
        from pathlib import Path
        from cardindex.store import daily_log
        n = int(sys.argv[1])
        while not Path(sys.argv[3]).exists():  # all start together
            time.sleep(0.005)
        for i in range({EACH}):
            text = f"writer {{n}} entry {{i}}" + ("\\nsecond line of " + str(n) + "/" + str(i) if i % 3 == 0 else "")
            daily_log.append(Path(sys.argv[2]), text, dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc))
    """)
    go = vault / ".cardindex" / "go"
    procs = [subprocess.Popen([sys.executable, "-c", script, str(n), str(vault / "log"), str(go)],
                              stderr=subprocess.PIPE) for n in range(WRITERS)]
    time.sleep(1.0)
    go.touch()
    cli = [subprocess.Popen([sys.executable, "-m", "cardindex", "--vault", str(vault), "log", f"from the cli {n}"],
                            env={**os.environ, "CARDS_NOW": "2026-11-30T12:00:00Z"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE) for n in range(4)]
    for proc in procs + cli:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    path = vault / "log" / "2026-11-30.md"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Log 2026-11-30\n\n") and text.count("# Log") == 1
    got = [e.text for e in daily_log.entries(path)]
    expected = [f"writer {n} entry {i}" + (f"\nsecond line of {n}/{i}" if i % 3 == 0 else "")
                for n in range(WRITERS) for i in range(EACH)] + [f"from the cli {n}" for n in range(4)]
    assert sorted(got) == sorted(expected)


def test_a_log_folder_that_leads_out_of_the_vault_is_refused(run_cli: Callable[..., Result], vault: Path,
                                                             tmp_path: Path) -> None:
    """A `log` symlink (or `log_dir:`) to a folder outside must not turn `cards log` into a write there."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault / "log").symlink_to(outside)
    for args in (["log", "x"], ["state"], ["status"], ["consolidate"]):
        done = run_cli("--vault", str(vault), *args, env={"CARDS_NOW": "2026-11-30T09:15:00Z"})
        assert done.exit_code == 1, (args, done.stdout, done.stderr)
        assert "leads out of the vault" in done.stderr and "Traceback" not in done.stderr
    assert list(outside.iterdir()) == []
