"""The vault lock: a clear message naming the holder, and no stale lock after a kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HOLD = """
import sys, time
from pathlib import Path
from cardindex.store.lock import VaultLock
with VaultLock(Path(sys.argv[1]) / ".cardindex"):
    print("held", flush=True)
    time.sleep(60)
"""


def _cards(vault: Path, *args: str, timeout: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDS_TODAY": "2026-11-30", "CARDS_LOCK_TIMEOUT": timeout}
    return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args],
                           capture_output=True, text=True, env=env, timeout=60)


def _holder(vault: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(vault), "consolidate"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_held_lock_times_out_naming_the_holder(vault: Path) -> None:
    holder = _holder(vault)
    try:
        started = time.monotonic()
        result = _cards(vault, "add", "Deploy on Thursdays only.", "--force", timeout="0.5")
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {vault / '.cardindex' / 'lock'}: the vault is locked by pid {holder.pid} (")
    assert "waited 0.5 s" in result.stderr and "CARDS_LOCK_TIMEOUT" in result.stderr
    assert "Traceback" not in result.stderr and waited < 10
    assert not list(vault.glob("deploy*.md"))


def test_a_lock_left_by_a_killed_process_is_not_stale(vault: Path) -> None:
    holder = _holder(vault)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    assert f"pid {holder.pid}" in (vault / ".cardindex" / "lock").read_text()  # its note is still there
    started = time.monotonic()
    result = _cards(vault, "add", "Deploy on Thursdays only.", "--force", timeout="5")
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - started < 5  # the kernel released the flock with the process: no wait
    note = (vault / ".cardindex" / "lock").read_text()
    assert f"pid {holder.pid} " not in note and note.endswith(" (cards add)\n")  # the new holder's note: no arguments
