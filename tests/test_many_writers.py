"""Many writers on one vault: 8 `cards add`, a `cards consolidate` loop and `cards watch` at once.

Every card written is on disk exactly once at the end (live, or archived by a
supersession), INDEX.md passes `--check`, and no temp file is left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import temp_files

WRITERS = 8
CARDS_EACH = 6
CONSOLIDATIONS = 4


def _cards(vault: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cardindex", "--vault", str(vault), *args]


def _writer(vault: Path, n: int) -> str:
    """A shell loop of `cards add` calls (one process per card, as agents do)."""
    lines = []
    for i in range(CARDS_EACH):
        text = f"Writer {n} fact {i}: service w{n}s{i} listens on port {9000 + n * 100 + i}"
        key = ["--key", f"shared-{i}"] if n % 4 == 0 and i < 2 else []  # some keys shared across writers
        args = _cards(vault, "add", text, "--description", f"Port of service w{n}s{i}", "--force", *key)
        lines.append(" ".join(f"'{a}'" for a in args) + " >/dev/null || exit 1")
    return "\n".join(lines)


def test_eight_adds_a_consolidation_and_a_watch_lose_nothing(vault: Path) -> None:
    env = {**os.environ, "CARDS_TODAY": "2026-11-30", "CARDS_LOCK_TIMEOUT": "120"}
    watch = subprocess.Popen(_cards(vault, "watch"), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)
        writers = [subprocess.Popen(["sh", "-c", _writer(vault, n)], env=env, stderr=subprocess.PIPE, text=True)
                   for n in range(WRITERS)]
        sleeper = " && ".join(" ".join(_cards(vault, "consolidate")) + " >/dev/null" for _ in range(CONSOLIDATIONS))
        consolidator = subprocess.Popen(["sh", "-c", sleeper], env=env, stderr=subprocess.PIPE, text=True)
        for proc in [*writers, consolidator]:
            _, err = proc.communicate(timeout=240)
            assert proc.returncode == 0, err
        time.sleep(1.0)  # let watch settle on the last change
    finally:
        watch.send_signal(signal.SIGINT)
        out, err = watch.communicate(timeout=30)
    assert watch.returncode == 0, err
    assert "Traceback" not in err

    found: dict[str, list[str]] = {}
    for path in vault.rglob("*.md"):
        if ".cardindex" in path.parts or path.name == "INDEX.md":
            continue
        text = path.read_text(encoding="utf-8")
        for n in range(WRITERS):
            for i in range(CARDS_EACH):
                if f"Writer {n} fact {i}:" in text:
                    found.setdefault(f"{n}/{i}", []).append(path.relative_to(vault).as_posix())
    assert len(found) == WRITERS * CARDS_EACH, sorted(set(f"{n}/{i}" for n in range(WRITERS) for i in range(CARDS_EACH)) - set(found))
    assert all(len(paths) == 1 for paths in found.values()), {k: v for k, v in found.items() if len(v) > 1}
    check = subprocess.run(_cards(vault, "index", "--check"), env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert temp_files(vault) == []
    assert not (vault / ".cardindex" / "pending").exists()
