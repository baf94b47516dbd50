"""How cardindex grows: every figure at 1k, 10k (and 100k) cards, as a ratio to the read floor.

Not a test. One table per size, then the growth from the smaller size to the next
(time ratio; 10 would be linear for 10x the cards). Every figure is the median wall time
of a real subprocess, and its peak memory is the child's own `ru_maxrss` (from
`os.wait4`, so one child's peak is never another's). The floors are measured in the
same run, on the same vault, right before: a Python loop that reads every card file,
and `cat` of every file.

    python bench/bench_scale.py --sizes 1000,10000            # about 2 minutes
    python bench/bench_scale.py --sizes 1000,10000 --100k     # and 100k cards (several minutes)

Vaults come from ../shared/bench/make_vault.py and are kept under bench/vaults/, shared
with bench_foundation.py (see bench/README.md).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import itertools

import bench_foundation as bf  # a sibling script, not a package
import bench_watch as bw

Row = dict[str, Any]
TARGETS_10K = {  # issue 18, judged on the median ratio to the python read floor
    "cold index": 2.0,
    "warm lint": 1.5,
    "add": 1.0,
}
WATCH_TARGET = 0.2  # seconds, save -> INDEX.md at 10k
GROWTH_TARGET = 12.0  # 100k figure / 10k figure
MEMORY_TARGET_MB = 300.0  # peak at 100k


# The timed child is started by this small launcher, not by the benchmark itself: a child's
# ru_maxrss counts the memory of the process it was forked from (Linux keeps the high-water
# mark across exec), and the benchmark holds listings of 100k paths. The launcher is a bare
# Python (about 10 MB); it times fork, exec and wait of the command, excluding its own start-up.
LAUNCHER = r"""
import os, sys, time
args = sys.argv[2:]
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(args[0], args)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - t0
with open(sys.argv[1], "w") as out:
    out.write(f"{wall} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def run_measured(cmd: list[str] | str, env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall seconds, the child's own peak RSS in MB, and its result."""
    argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else list(cmd)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as report:
        subprocess.run([sys.executable, "-c", LAUNCHER, report.name, *argv], env=env, stdout=out, stderr=err,
                       stdin=subprocess.DEVNULL, check=False)
        wall_s, rss_kb, code_s = report.read().split()
        out.seek(0)
        err.seek(0)
        done = subprocess.CompletedProcess(cmd, int(code_s), out.read().decode(errors="replace"),
                                           err.read().decode(errors="replace"))
    return float(wall_s), int(rss_kb) / 1024, done


def series(b: bf.Bench, cmd_for: Callable[[int], list[str] | str], *,
           setup: Callable[[int], object] | None = None,
           check: Callable[[int, Any, subprocess.CompletedProcess[str]], object] | None = None,
           teardown: Callable[[int, subprocess.CompletedProcess[str]], object] | None = None,
           repeat: int | None = None) -> Row:
    """Median, min and peak memory of `repeat` timed runs after one untimed warm-up."""
    walls: list[float] = []
    peaks: list[float] = []
    for i in [-1, *range(repeat or b.repeat)]:
        if setup:
            setup(i)
        cmd = cmd_for(i)
        wall, peak, proc = run_measured(cmd, b.env)
        (check or (lambda i, c, p: bf.expect(p, c)))(i, cmd, proc)
        if teardown:
            teardown(i, proc)
        if i >= 0:
            walls.append(wall)
            peaks.append(peak)
    return {"median": statistics.median(walls), "min": min(walls), "peak_mb": max(peaks), "samples": walls}


def bench_size(b: bf.Bench, vault: Path, n: int, logs: Path, watch_repeat: int) -> dict[str, Row]:
    files = bf.card_files(vault)
    if len(files) != n:
        raise bf.BenchError(f"{vault}: expected {n} cards, found {len(files)}")
    bf.settle(files)
    rows: dict[str, Row] = {}
    rows["floor: python read"] = series(b, lambda i: [sys.executable, "-c", bf.FLOOR_READ, str(vault)])
    cat = (f"cd {shlex.quote(str(vault))} && find . -name '*.md' -not -name INDEX.md -not -path '*/.*' -print0"
           " | xargs -0 cat > /dev/null")
    rows["floor: cat"] = series(b, lambda i: cat)

    def cold_check(i: int, cmd: Any, p: subprocess.CompletedProcess[str]) -> None:
        bf.expect(p, cmd, stderr_re=r"wrote INDEX\.md")

    rows["cold index"] = series(b, lambda i: b.cards_cmd(vault, "index"),
                                setup=lambda i: bf.clear_state(vault), check=cold_check)
    # The cold run just wrote INDEX.md: a run within 2 s of that trusts no stat of it (racily clean, like
    # the parse cache and lint's run memo). A warm run is one after the vault settled.
    bf.settle([vault / "INDEX.md"])
    up_to_date = r"INDEX\.md is up to date"
    rows["warm index"] = series(b, lambda i: b.cards_cmd(vault, "index"),
                                check=lambda i, c, p: bf.expect(p, c, stderr_re=up_to_date))
    rows["warm lint"] = series(b, lambda i: b.cards_cmd(vault, "lint", "--exit-zero", "--format", "json"))

    token = f"{os.getpid()}x{int(time.time())}"

    def add_series(kind: str, *flags: str) -> Row:
        def text(i: int) -> str:
            return f"Scale fact {token}{kind} number {i + 2}: the nightly export waits for the ledger close."

        def add_cmd(i: int) -> list[str]:
            return b.cards_cmd(vault, "add", text(i), "-d", f"Scale card {token}{kind} {i + 2} on export timing", *flags)

        def teardown(i: int, proc: subprocess.CompletedProcess[str]) -> None:
            path = Path(proc.stdout.strip())
            if not path.is_file() or text(i) not in path.read_text():
                raise bf.BenchError(f"cards add printed {proc.stdout.strip()!r}: missing or without the text")
            path.unlink()
            b.untimed(b.cards_cmd(vault, "index"))

        return series(b, add_cmd, teardown=teardown)

    rows["add"] = add_series("g")
    rows["add --force"] = add_series("f", "--force")
    rows["search"] = series(b, lambda i: b.cards_cmd(vault, "search", "deploy day"))
    rows["search, one card saved"] = search_after_save(b, vault, files)
    rows["context"] = series(b, lambda i: b.cards_cmd(vault, "context"))
    rows["--help"] = series(b, lambda i: [*b.cards, "--help"])
    if watch_repeat:
        rows["watch save -> INDEX.md"] = watch_row(b, vault, files, logs, watch_repeat)
    return rows


def search_after_save(b: bf.Bench, vault: Path, files: list[Path]) -> Row:
    """`cards search` right after one card was saved by rename (a temp file renamed over it, as editors and
    `cards` save): the search index takes that one card (its folder's listing, then the card), not the vault."""
    card = files[len(files) // 2]
    original = card.read_bytes()

    def save(i: int) -> None:
        tmp = card.with_name(f".{card.name}.scale-tmp")
        tmp.write_bytes(original + f"\nSaved {i + 2} for the benchmark.\n".encode())
        os.replace(tmp, card)

    try:
        return series(b, lambda i: b.cards_cmd(vault, "search", "deploy day"), setup=save)
    finally:
        card.write_bytes(original)


def watch_row(b: bf.Bench, vault: Path, files: list[Path], logs: Path, repeat: int) -> Row:
    """bench_watch's latency series (an editor's atomic save of a shown card), plus the watcher's peak memory."""
    index = (vault / "INDEX.md").read_text()
    shown = [vault / m for m in bw.LINK.findall(index)][:repeat + 1] or files[:repeat + 1]
    originals = {p: p.read_bytes() for p in shown}
    w = bw.Watcher(b.cards, vault, b.env, logs)
    try:
        row = bw.latency_series(w, shown, originals, f"scale{os.getpid()}", repeat)
    finally:
        for p, data in originals.items():
            p.write_bytes(data)
        peak_kb = _hwm_kb(w.proc.pid)  # its own mm's high-water mark: ru_maxrss would count ours too
        w.proc.send_signal(2)
        w.proc.wait(timeout=60)
    b.untimed(b.cards_cmd(vault, "index"))
    return {"median": row["median"], "min": row["min"], "peak_mb": peak_kb / 1024, "samples": row["samples"]}


def _hwm_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def print_size(n: int, rows: dict[str, Row]) -> None:
    floor, cat = rows["floor: python read"]["median"], rows["floor: cat"]["median"]
    print(f"\n{n} cards")
    print(f"  {'figure':28} {'median s':>9} {'min s':>8} {'x read':>7} {'x cat':>7} {'peak MB':>8}")
    for name, row in rows.items():
        print(f"  {name:28} {row['median']:9.3f} {row['min']:8.3f} {row['median'] / floor:7.2f} "
              f"{row['median'] / cat:7.2f} {row['peak_mb']:8.1f}")


def verdicts(per_size: dict[int, dict[str, Row]]) -> list[str]:
    out = []
    if 10000 in per_size:
        rows = per_size[10000]
        floor = rows["floor: python read"]["median"]
        for name, limit in TARGETS_10K.items():
            ratio = rows[name]["median"] / floor
            out.append(f"{'PASS' if ratio <= limit else 'MISS'}  10k {name} <= {limit}x read floor: {ratio:.2f}x")
        if "watch save -> INDEX.md" in rows:
            t = rows["watch save -> INDEX.md"]["median"]
            out.append(f"{'PASS' if t < WATCH_TARGET else 'MISS'}  10k watch save -> INDEX.md < {WATCH_TARGET} s: {t:.3f} s")
    if 10000 in per_size and 100000 in per_size:
        small, big = per_size[10000], per_size[100000]
        for name in big:
            if name in small and not name.startswith("floor"):
                g = big[name]["median"] / small[name]["median"]
                out.append(f"{'PASS' if g <= GROWTH_TARGET else 'MISS'}  growth 100k/10k {name} <= {GROWTH_TARGET:g}: {g:.1f}")
        peak = max(r["peak_mb"] for name, r in big.items() if not name.startswith("floor"))
        out.append(f"{'PASS' if peak < MEMORY_TARGET_MB else 'MISS'}  peak memory at 100k < {MEMORY_TARGET_MB:g} MB: {peak:.0f} MB")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--100k", dest="big", action="store_true", help="also 100,000 cards")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--watch-repeat", type=int, default=5, help="saves timed per size (0: no watch row)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--work", type=Path, default=bf.DEFAULT_WORK)
    ap.add_argument("--generator", type=Path, default=next(
        (p for p in (bf.DEFAULT_GENERATOR, bf.REPO.parent.parent / "shared" / "bench" / "make_vault.py") if p.is_file()),
        bf.DEFAULT_GENERATOR), help="make_vault.py (default: ../shared/bench/, or ../../shared/bench/ from a worktree)")
    ap.add_argument("--cards", help="the cards command (default: the one next to this python)")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s] + ([100000] if a.big else [])
    env = bf.bench_env(drop=("CARDS_TODAY",), pycache=a.work / "pycache")
    b = bf.Bench(bf.cards_command(ap, a.cards), a.repeat, env)
    logs = a.work / "scale-logs"
    logs.mkdir(parents=True, exist_ok=True)
    per_size: dict[int, dict[str, Row]] = {}
    for n in sizes:
        vault, _ = bf.ensure_vault(a.work, a.generator, n, a.seed, env)
        try:
            per_size[n] = bench_size(b, vault, n, logs, a.watch_repeat)
        finally:
            bf.release_vault(vault, a.generator, n, a.seed)
        print_size(n, per_size[n])
    ordered = sorted(per_size)
    for small, big in itertools.pairwise(ordered):
        print(f"\ngrowth {small} -> {big} cards (x{big // small} cards): time ratio, peak memory ratio")
        for name, row in per_size[big].items():
            if name in per_size[small]:
                s = per_size[small][name]
                print(f"  {name:28} {row['median'] / s['median']:7.1f} {row['peak_mb'] / s['peak_mb']:7.1f}")
    lines = verdicts(per_size)
    if lines:
        print("\ntargets (issue 18), judged on medians")
        for line in lines:
            print("  " + line)
    return 0


if __name__ == "__main__":
    bf.run_main(main)
