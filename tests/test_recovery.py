"""After a kill -9: what each next command does, and says, about the job it interrupted.

Real subprocesses and real SIGKILLs (`CARDS_TEST_KILL_AT`, `CARDS_TEST_KILL_AFTER_WRITES`);
the statistical version over thousands of cards is tests/test_crash.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from test_consolidate import put, tree

KILLED = -9


def cards(vault: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CARDS_TEST_")}
    return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args], check=False,
                          capture_output=True, text=True, env={**clean, **env}, timeout=120)


def entries(vault: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((vault / ".cardindex" / "journal").glob("*.json"))]


def pending(vault: Path) -> str | None:
    mark = vault / ".cardindex" / "pending"
    return mark.read_text().strip() if mark.exists() else None


@pytest.fixture
def messy(vault: Path) -> Path:
    """Cards a consolidate supersedes, merges and archives: a job of several writes."""
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.",
        key="deploy-day", verified="2026-03-01")
    put(vault, "deploy-thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.",
        key="deploy-day", verified="2026-09-01")
    put(vault, "old-promo.md", "The spring promo banner text", "Spring sale: 20% off.", expires="2026-04-01")
    put(vault, "sub/tz.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.", type="user")
    put(vault, "sub/tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.", type="user",
        verified="2026-06-01")
    assert cards(vault, "index").returncode == 0
    return vault


# ------------------------------------------------------------------ cards undo after a crash


def test_undo_after_an_interrupted_consolidate_finishes_the_rollback(messy: Path) -> None:
    before = tree(messy)
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AFTER_WRITES="2").returncode == KILLED
    assert tree(messy) != before
    [job] = entries(messy)
    done = cards(messy, "undo")
    assert done.returncode == 0, done.stderr
    assert (f"recovered: job {job['id']} (consolidate) was interrupted; the vault is as it was before it "
            "(rolled back 2 file(s))") in done.stderr
    assert done.stdout == (f"undo: job {job['id']} needs no undo: it was interrupted and is rolled back; nothing else "
                           "undone (`cards undo` again undoes the job before it)\n")
    assert tree(messy) == before and pending(messy) is None
    again = cards(messy, "undo")
    assert (again.returncode, again.stderr) == (1, "error: nothing to undo: every job in the journal is undone already\n")


def test_an_undo_killed_part_way_is_rolled_back_then_run_again_by_the_next_undo(messy: Path) -> None:
    before = tree(messy)
    assert cards(messy, "consolidate").returncode == 0
    after = tree(messy)
    [job] = entries(messy)
    killed = cards(messy, "undo", CARDS_TEST_KILL_AFTER_WRITES="3")
    assert killed.returncode == KILLED
    half = tree(messy)
    assert half not in (before, after)  # half undone: what the issue measured, and now recoverable
    undo_job = pending(messy)
    assert undo_job is not None and entries(messy)[-1]["undoes"] == job["id"]
    done = cards(messy, "undo")
    assert done.returncode == 0, done.stderr
    assert f"recovered: job {undo_job} (undo) was interrupted; the vault is as it was before it" in done.stderr
    assert done.stdout.startswith(f"undid job {job['id']} (recorded as ")
    assert tree(messy) == before and pending(messy) is None
    rolled, redone = entries(messy)[1:]
    assert rolled["rolled_back"] is True and redone["undoes"] == job["id"] and "rolled_back" not in redone


@pytest.mark.parametrize("point", ["pack", "mark", "entry", "written", "cleared"])
def test_an_undo_killed_after_any_durable_step_is_completed_by_the_next_undo(messy: Path, point: str) -> None:
    before = tree(messy)
    assert cards(messy, "consolidate").returncode == 0
    assert cards(messy, "undo", CARDS_TEST_KILL_AT=point).returncode == KILLED
    done = cards(messy, "undo")
    cards_only = {k: v for k, v in before.items() if k != "INDEX.md"}
    assert {k: v for k, v in tree(messy).items() if k != "INDEX.md"} == cards_only and pending(messy) is None
    if point == "cleared":  # the undo was complete; only INDEX.md was left one job behind, as after any such kill
        assert (done.returncode, done.stderr) == (1, "error: nothing to undo: every job in the journal is undone already\n")
        assert cards(messy, "index").returncode == 0 and tree(messy) == before
    else:
        assert done.returncode == 0 and done.stdout.startswith("undid job "), done.stderr
        assert tree(messy) == before


def test_an_undo_killed_part_way_is_rolled_back_by_any_writer(messy: Path) -> None:
    assert cards(messy, "consolidate").returncode == 0
    after = tree(messy)
    assert cards(messy, "undo", CARDS_TEST_KILL_AFTER_WRITES="2").returncode == KILLED
    done = cards(messy, "index")
    assert done.returncode == 0 and "(undo) was interrupted; the vault is as it was before it" in done.stderr
    assert tree(messy) == after
    journal = cards(messy, "journal")
    assert "undo  (interrupted; rolled back)" in journal.stdout and "(undone)" not in journal.stdout
    assert cards(messy, "undo").returncode == 0  # the consolidate can still be undone


def test_a_rollback_killed_part_way_is_finished_by_the_next_command(messy: Path) -> None:
    before = tree(messy)
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AT="written").returncode == KILLED
    assert cards(messy, "status", CARDS_TEST_KILL_AFTER_WRITES="1").returncode == KILLED  # killed in its rollback
    assert pending(messy) is not None
    done = cards(messy, "status")
    assert done.returncode == 0 and "the vault is as it was before it" in done.stderr
    assert tree(messy) == before and pending(messy) is None


# ------------------------------------------------------------------ every gap between durable steps


@pytest.mark.parametrize("point", ["pack", "mark", "entry", "written", "cleared"])
def test_a_kill_after_each_durable_step_leaves_no_phantom_job(messy: Path, point: str) -> None:
    before = tree(messy)
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AT=point).returncode == KILLED
    status = cards(messy, "status", "--format", "json")
    assert status.returncode == 0, status.stderr
    report = json.loads(status.stdout)
    assert report["interrupted_job"] is None
    if point in ("pack",):  # before the mark: nothing to recover
        assert report["rolled_back_job"] is None and entries(messy) == [] and tree(messy) == before
    elif point == "mark":  # the mark names a job whose entry was never written
        assert "it had changed nothing" in status.stderr and entries(messy) == [] and tree(messy) == before
    elif point in ("entry", "written"):
        [job] = entries(messy)
        assert report["rolled_back_job"] == job["id"] and job["rolled_back"] is True and tree(messy) == before
    else:  # complete: only INDEX.md is one job behind, and `cards status` says so
        assert report["rolled_back_job"] is None and not report["index"]["current"]
    undo = cards(messy, "undo")
    if point == "cleared":
        assert undo.returncode == 0, undo.stderr
    else:
        assert (undo.returncode, undo.stderr) == (1, "error: nothing to undo: every job in the journal is undone already\n"
                                                  if entries(messy) else "error: nothing to undo: the journal is empty\n")
    assert tree(messy) == before


def test_an_old_phantom_entry_is_marked_rolled_back_instead_of_refused_forever(messy: Path) -> None:
    """An entry an older cards left (written, no mark, no file touched): undo says so once."""
    before = tree(messy)
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AT="entry").returncode == KILLED
    (messy / ".cardindex" / "pending").unlink()  # as the old order (entry, then mark) could leave it
    [job] = entries(messy)
    undo = cards(messy, "undo")
    assert undo.returncode == 1
    assert undo.stderr == (f"error: nothing to undo: job {job['id']} left no trace (every file it names is as it was "
                           "before it); it is marked rolled back now\n")
    assert tree(messy) == before and entries(messy)[0]["rolled_back"] is True
    assert "nothing to undo: every job" in cards(messy, "undo").stderr


# ------------------------------------------------------------------ readers and status


@pytest.mark.parametrize("command", [["list"], ["show", "deploy-thu"], ["search", "deploy"], ["context"], ["journal"],
                                     ["consolidate", "--dry-run"]])
def test_a_pure_reader_warns_in_one_line_and_changes_nothing(messy: Path, command: list[str]) -> None:
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AFTER_WRITES="2").returncode == KILLED
    half, job = tree(messy), pending(messy)
    done = cards(messy, *command)
    assert done.returncode == 0, done.stderr
    warning = (f"warning: job {job} was interrupted and the vault may be half changed; `cards status` (or any command "
               "that writes) rolls it back\n")
    assert done.stderr.startswith(warning) and done.stderr.count("interrupted") == 1
    assert tree(messy) == half and pending(messy) == job


def test_status_rolls_back_and_says_so(messy: Path) -> None:
    before = tree(messy)
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AFTER_WRITES="3").returncode == KILLED
    job = pending(messy)
    done = cards(messy, "status")
    assert done.returncode == 0
    assert f"interrupted job: {job}, rolled back just now (the vault is as it was before it)\n" in done.stdout
    assert tree(messy) == before


@pytest.mark.parametrize("command", [["lint"], ["add", "The staging database is rebuilt every Sunday night.", "--force"],
                                     ["archive", "old-promo"], ["import", "-", "--apply"]])
def test_every_writer_and_lint_recover_before_they_read(messy: Path, command: list[str]) -> None:
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AFTER_WRITES="3").returncode == KILLED
    job = pending(messy)
    done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(messy), *command], check=False,
                          capture_output=True, text=True, input="- Backups are kept for 35 days.\n", timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert f"recovered: job {job} (consolidate) was interrupted; the vault is as it was before it" in done.stderr
    assert "changed while the job was planned" not in done.stderr and pending(messy) is None


# ------------------------------------------------------------------ stale temp files


def _temp(folder: Path, name: str, age: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"half a file")
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    return path


def test_the_next_writer_removes_our_stale_temp_files_and_nothing_else(messy: Path) -> None:
    state = messy / ".cardindex"
    ours = [_temp(messy, ".INDEX.md.0a1b2c3d.cards-tmp", 1), _temp(state / "journal", ".x.json.deadbeef.cards-tmp", 1),
            _temp(state / "cache", ".cards.marshal.01234567.cards-tmp", 60)]
    kept = [_temp(messy, "notes.cards-tmp", 60), _temp(messy, ".INDEX.md.nothex!!.cards-tmp", 60),
            _temp(state / "cache", ".lint.marshal.89abcdef.cards-tmp", 0)]  # a cache writer may still be at it
    assert cards(messy, "list").returncode == 0 and all(p.exists() for p in ours)  # readers leave them
    assert cards(messy, "index").returncode == 0
    assert [p.exists() for p in ours] == [False] * 3 and [p.exists() for p in kept] == [True] * 3


def test_a_recovery_removes_the_temp_files_of_the_whole_vault(messy: Path) -> None:
    assert cards(messy, "consolidate", CARDS_TEST_KILL_AFTER_WRITES="2").returncode == KILLED
    left = _temp(messy / "sub", ".tz.md.fedcba98.cards-tmp", 1)  # a card write killed between its temp and rename
    done = cards(messy, "status")
    assert "removed 1 temp file(s)" in done.stderr and not left.exists()


def test_a_vault_whose_lock_cannot_be_taken_gets_a_warning_not_a_traceback(
    messy: Path, invoke: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardindex.store.lock import VaultLock

    assert cards(messy, "consolidate", CARDS_TEST_KILL_AFTER_WRITES="2").returncode == KILLED
    job, half = pending(messy), tree(messy)

    def read_only(self: VaultLock) -> VaultLock:
        raise PermissionError(13, "Permission denied", str(self.path))

    monkeypatch.setattr(VaultLock, "__enter__", read_only)
    result = invoke("status")
    assert result.exit_code == 0
    assert result.stderr.startswith(f"warning: job {job} was interrupted and the vault may be half changed")
    assert f"interrupted job: {job}, not rolled back yet; the vault may be half changed\n" in result.stdout
    assert tree(messy) == half
    linted = invoke("lint")  # lint takes no lock of its own: it goes on, on what it finds
    assert linted.exit_code in (0, 1) and linted.stderr.startswith(f"warning: job {job} was interrupted")
