#!/usr/bin/env python3
"""Benchmark `cards watch`: how soon INDEX.md follows a save, and what an idle watcher costs.

Not a test: it prints a table per vault size and, with --json, writes every sample.

    python bench/bench_watch.py                                  # 1k and 10k cards
    python bench/bench_watch.py --sizes 10000 --repeat 20 --json bench/results/watch.json

For each size it measures, in one run:

- the floors, as bench_foundation.py does: a Python read of every card, and what a user
  without a watcher does after a save: run `cards index` (a whole process, warm cache);
- `cards watch` (inotify): the time from an editor-style save (temp file renamed over a
  card shown in INDEX.md, with a new description) to INDEX.md holding the new line; then
  the watcher's CPU time over an idle period, and that INDEX.md was not rewritten in it;
- the same with `cards watch --poll`.

Vaults come from ../shared/bench/make_vault.py (seeded) and are kept under
bench/vaults/watch/, apart from bench_foundation.py's, which that script edits while it
runs. Every edited card is restored at the end and `cards index --check` must pass.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as foundation  # a sibling script, not a package
from bench_foundation import (
    FLOOR_READ,
    Bench,
    BenchError,
    Row,
    card_files,
    ensure_vault,
    expect,
    release_vault,
    settle,
    summary,
    verdict,
)

REPO = foundation.REPO
DEFAULT_WORK = REPO / "bench" / "vaults" / "watch"
TARGET_LATENCY = 0.5  # issue 5: save -> INDEX.md updated, at 10k cards
TARGET_IDLE = 0.01  # "near zero": under 1% of one CPU while idle
LINK = re.compile(r"^- \[[^\]]*\]\(([^)]+)\)", re.MULTILINE)


# ------------------------------------------------------------------ a watcher process


def cpu_of(pid: int) -> float:
    """CPU seconds of every thread of `pid`, from /proc/PID/task/*/schedstat (ns precision)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that just ended
    return total / 1e9


class Watcher:
    """`cards watch` with stdout and stderr in files."""

    def __init__(self, cards: list[str], vault: Path, env: dict[str, str], logs: Path, *args: str) -> None:
        self.vault = vault
        self.index = vault / "INDEX.md"
        self.err_path = logs / f"watch{'-'.join(args)}.err"
        self.out_path = logs / f"watch{'-'.join(args)}.out"
        self.cmd = [*cards, "--vault", str(vault), "watch", *args]
        t0 = time.perf_counter()
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(self.cmd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        self.wait_for(lambda: "\nwatching " in "\n" + self.stderr(), "its 'watching' line", timeout=120)
        self.startup = time.perf_counter() - t0

    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace")

    def passes(self) -> int:
        return sum(1 for line in self.stderr().splitlines() if line.startswith("index: ")) - 1

    def wait_for(self, ok: Any, what: str, timeout: float = 30.0, step: float = 0.001) -> None:
        deadline = time.monotonic() + timeout
        while not ok():
            if self.proc.poll() is not None:
                raise BenchError(f"{shlex.join(self.cmd)} exited {self.proc.returncode} waiting for {what}:\n{self.stderr()}")
            if time.monotonic() > deadline:
                raise BenchError(f"{shlex.join(self.cmd)}: no {what} after {timeout:g} s; stderr:\n{self.stderr()[-2000:]}")
            time.sleep(step)

    def wait_quiet(self, still: float = 0.25) -> None:
        """Until the watcher used under 2 ms of CPU in `still` seconds: the pass (and its lint) is over."""
        deadline = time.monotonic() + 60
        before = cpu_of(self.proc.pid)
        while time.monotonic() < deadline:
            time.sleep(still)
            now = cpu_of(self.proc.pid)
            if now - before < 0.002:
                return
            before = now
        raise BenchError(f"{shlex.join(self.cmd)} never went quiet")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=30)
        err = self.stderr()
        if code != 0 or "Traceback" in err:
            raise BenchError(f"{shlex.join(self.cmd)}: SIGINT gave exit {code}; stderr:\n{err[-2000:]}")


def save(path: Path, data: bytes) -> float:
    """An editor's atomic save (temp file renamed over the card); returns the moment of the rename."""
    tmp = path.with_name(path.name + ".benchtmp")
    tmp.write_bytes(data)
    t0 = time.perf_counter()
    os.replace(tmp, path)
    return t0


def edited(original: bytes, token: str) -> bytes:
    new, count = re.subn(rb"^description: .*$", f"description: Watch benchmark edit {token}".encode(), original,
                         count=1, flags=re.MULTILINE)
    if count != 1:
        raise BenchError("a card without a description line")
    return new


def latency_series(w: Watcher, cards: list[Path], originals: dict[Path, bytes], token: str, repeat: int) -> Row:
    """Save -> INDEX.md holds the new line; one untimed warm-up first. CPU is the watcher's per pass."""
    samples: list[float] = []
    cpu: list[float] = []
    ticks = foundation._cpu_ticks()
    for i in range(-1, repeat):
        w.wait_quiet()
        path = cards[(i + 1) % len(cards)]
        mark = f"{token}-{i + 1}"
        cpu0 = cpu_of(w.proc.pid)
        passes = w.passes()
        t0 = save(path, edited(originals[path], mark))
        needle = f"Watch benchmark edit {mark}"
        last = None

        def updated(needle: str = needle) -> bool:
            nonlocal last
            try:
                st = w.index.stat()
            except FileNotFoundError:
                return False
            if (st.st_ino, st.st_mtime_ns) == last:
                return False
            last = (st.st_ino, st.st_mtime_ns)
            return needle in w.index.read_text()

        w.wait_for(updated, f"INDEX.md with {needle!r}")
        wall = time.perf_counter() - t0
        w.wait_for(lambda: w.passes() > passes, "the pass line")  # noqa: B023
        w.wait_quiet()
        if i >= 0:
            samples.append(wall)
            cpu.append(cpu_of(w.proc.pid) - cpu0)
    row = summary(samples, cpu)
    row["p90"] = statistics.quantiles(samples, n=10)[-1] if len(samples) >= 2 else samples[0]
    row["machine_busy"] = foundation._busy(ticks, foundation._cpu_ticks())
    return row


def idle_cpu(w: Watcher, seconds: float) -> Row:
    """The watcher's CPU over `seconds` with nothing changing; INDEX.md must stay as it is."""
    w.wait_quiet()
    st = w.index.stat()
    passes = w.passes()
    cpu0, t0 = cpu_of(w.proc.pid), time.perf_counter()
    time.sleep(seconds)
    used, wall = cpu_of(w.proc.pid) - cpu0, time.perf_counter() - t0
    after = w.index.stat()
    if (after.st_ino, after.st_mtime_ns) != (st.st_ino, st.st_mtime_ns) or w.passes() != passes:
        raise BenchError(f"{shlex.join(w.cmd)}: INDEX.md rewritten or a pass ran while nothing changed")
    return {"seconds": wall, "cpu": used, "share": used / wall}


# ------------------------------------------------------------------ one size


def bench_size(b: Bench, vault: Path, n: int, a: argparse.Namespace, logs: Path) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    files = card_files(vault)
    if len(files) != n:
        raise BenchError(f"{vault}: expected {n} cards, found {len(files)}")
    b.untimed(b.cards_cmd(vault, "index"))
    settle(files)
    b.untimed(b.cards_cmd(vault, "index"))  # the cache now trusts every card's stat
    shown = [vault / m.group(1) for m in LINK.finditer((vault / "INDEX.md").read_text())]
    if len(shown) < 2:
        raise BenchError(f"{vault / 'INDEX.md'} shows fewer than 2 cards")
    originals = {p: p.read_bytes() for p in shown}
    token = f"{os.getpid()}x{int(time.time())}"

    # 1. the floors: a Python read of every card; and `cards index` run by hand after a save
    rows["floor: python read"] = b.series(
        lambda i: [sys.executable, "-c", FLOOR_READ, str(vault)], check=lambda i, cmd, p: expect(p, cmd)
    )
    rows["floor: save, then cards index"] = b.series(
        lambda i: b.cards_cmd(vault, "index"),
        setup=lambda i: save(shown[i % len(shown)], edited(originals[shown[i % len(shown)]], f"{token}-index-{i}")),
        check=lambda i, cmd, p: expect(p, cmd, stderr_re=r"wrote INDEX\.md"),
    )
    for path, data in originals.items():
        path.write_bytes(data)
    b.untimed(b.cards_cmd(vault, "index"))
    settle(list(originals))
    b.untimed(b.cards_cmd(vault, "index"))
    index_text = (vault / "INDEX.md").read_text()

    # 2. the watcher, then the polling watcher
    modes = [("inotify", ())] + ([("poll", ("--poll",))] if a.poll_repeat > 0 else [])
    for mode, args in modes:
        extra = (*args, *(("--debounce", str(a.debounce)) if a.debounce is not None else ()))
        b.idle()
        w = Watcher(b.cards, vault, b.env, logs, *extra)
        try:
            label = "watch" if mode == "inotify" else "watch --poll"
            rows[f"{label}: start-up to 'watching'"] = summary([w.startup], [cpu_of(w.proc.pid)])
            repeat = a.repeat if mode == "inotify" else a.poll_repeat
            rows[f"{label}: save -> INDEX.md updated"] = latency_series(w, shown, originals, f"{token}{mode}", repeat)
            idle = idle_cpu(w, a.idle)
            rows[f"{label}: idle {a.idle:g} s"] = {
                "median": idle["cpu"], "min": idle["cpu"], "max": idle["cpu"], "spread": 0.0,
                "samples": [idle["cpu"]], "cpu_median": idle["cpu"], "cpu_samples": [idle["cpu"]],
                "idle_share": idle["share"], "idle_seconds": idle["seconds"],
            }
            for path, data in originals.items():  # restore, through the watcher
                save(path, data)
            w.wait_for(lambda: (vault / "INDEX.md").read_text() == index_text, "INDEX.md as before the edits",
                       step=0.01)
            w.wait_quiet()
        finally:
            w.stop()
        b.untimed(b.cards_cmd(vault, "index", "--check"), stderr_re=r"up to date")
    return rows


# ------------------------------------------------------------------ reporting


def print_table(title: str, rows: dict[str, Row]) -> None:
    floor = rows["floor: python read"]["median"]
    by_hand = rows["floor: save, then cards index"]["median"]
    print(f"\n{title}")
    head = (f"  {'operation':<44} {'median s':>9} {'min s':>8} {'max s':>8} {'p90 s':>7} {'spread':>7}"
            f" {'x read':>7} {'x index':>8} {'cpu s':>7} {'busy':>5}")
    print(head)
    print("  " + "-" * (len(head) - 2))
    for name, r in rows.items():
        if "idle_share" in r:
            print(f"  {name:<44} {'':>9} {'':>8} {'':>8} {'':>7} {'':>7} {'':>7} {'':>8} {r['cpu_median']:>7.3f}"
                  f"   = {r['idle_share'] * 100:.2f}% of one CPU")
            continue
        p90 = f"{r['p90']:.3f}" if "p90" in r else ""
        busy = r.get("machine_busy")
        print(f"  {name:<44} {r['median']:>9.3f} {r['min']:>8.3f} {r['max']:>8.3f} {p90:>7} {r['spread'] * 100:>6.0f}%"
              f" {r['median'] / floor:>7.2f} {r['median'] / by_hand:>8.2f} {r['cpu_median']:>7.3f}"
              f" {'' if busy is None else f'{busy * 100:.0f}%':>5}")


def targets_for(size: int, rows: dict[str, Row]) -> list[tuple[str, str, str]]:
    out = []
    r = rows["watch: save -> INDEX.md updated"]
    by_hand = rows["floor: save, then cards index"]["median"]
    if size >= 10_000:
        out.append((f"watch latency < {TARGET_LATENCY:g} s at 10k",
                    f"{r['median']:.3f} s (min {r['min']:.3f}, p90 {r['p90']:.3f}; {r['median'] / by_hand:.2f}x cards index)",
                    verdict(r["median"] < TARGET_LATENCY, r["min"] < TARGET_LATENCY)))
    for name, idle in rows.items():
        if name.startswith("watch: idle"):  # polling scans the vault every second: shown, not judged
            measured = f"{idle['idle_share'] * 100:.2f}% ({idle['cpu_median'] * 1000:.0f} ms over {idle['idle_seconds']:.1f} s)"
            out.append((f"watch idle CPU < {TARGET_IDLE * 100:g}%", measured, verdict(idle["idle_share"] < TARGET_IDLE)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated vault sizes (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=10, help="timed saves per size with inotify (default: %(default)s)")
    ap.add_argument("--poll-repeat", type=int, default=5, help="timed saves with --poll; 0 skips polling (default: %(default)s)")
    ap.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured (default: %(default)s)")
    ap.add_argument("--debounce", type=float, help="pass --debounce to cards watch (default: the command's own)")
    ap.add_argument("--seed", type=int, default=42, help="generator seed (default: %(default)s)")
    ap.add_argument("--work", type=Path, default=DEFAULT_WORK, help="where vaults are kept (default: bench/vaults/watch/)")
    ap.add_argument("--generator", type=Path, default=foundation.DEFAULT_GENERATOR, help="make_vault.py")
    ap.add_argument("--cards", help="the cards command (default: the cards next to this Python)")
    ap.add_argument("--bytecode", choices=("cached", "env"), default="cached", help="as in bench_foundation.py")
    ap.add_argument("--wait-idle", type=float, default=0.0, metavar="SECONDS",
                    help="before each series, wait up to SECONDS for an idle machine (default: off)")
    ap.add_argument("--json", type=Path, metavar="OUT", help="write every number and sample here")
    a = ap.parse_args()

    sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    if a.repeat < 2 or not sizes or min(sizes) < 2 or a.idle <= 0:
        ap.error("--repeat must be 2 or more, --sizes and --idle positive")
    if not a.generator.is_file():
        ap.error(f"no generator at {a.generator}")
    cards = foundation.cards_command(ap, a.cards)
    env = foundation.bench_env(pycache=REPO / "bench" / "vaults" / "pycache" if a.bytecode == "cached" else None)
    b = Bench(cards, a.repeat, env, a.wait_idle)
    sources = foundation.source_files()
    info = foundation.machine_info(cards, env, sources)
    print(f"cards watch benchmark — {info['date']}")
    print(f"  machine: {info['cpu_count']} CPUs ({info['cpu_model']}), {info['platform']}")
    print(f"  python {info['python']}; {info['cards_version']} at {info['cards']}")
    print(f"  git {info['git_commit']}{' (dirty)' if info['git_dirty'] else ''}, sources {info['source_sha256']}; "
          f"load average {tuple(round(x, 2) for x in info['loadavg_at_start'] or ())}")
    print(f"  {a.repeat} timed saves per size (+1 warm-up), {a.poll_repeat} with --poll; idle {a.idle:g} s; "
          f"debounce {'default' if a.debounce is None else a.debounce}")

    result: dict[str, Any] = {"machine": info, "args": {k: str(v) for k, v in vars(a).items()}, "sizes": {}}
    verdicts: list[tuple[str, str, str, str]] = []
    for n in sizes:
        print(f"\nvault of {n} cards")
        vault, reused = ensure_vault(a.work, a.generator, n, a.seed, env)
        if reused:
            print(f"  reusing {vault}")
        logs = a.work / f"logs-{n}"
        logs.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        rows = bench_size(b, vault, n, a, logs)
        release_vault(vault, a.generator, n, a.seed)
        print_table(f"{n} cards (series took {time.perf_counter() - t0:.0f} s; x read and x index: median over "
                    "each floor's median)", rows)
        tl = targets_for(n, rows)
        for target, measured, v in tl:
            print(f"  target {target:<32} {v:<15} {measured}")
            verdicts.append((str(n), target, measured, v))
        result["sizes"][str(n)] = {"vault": str(vault), "rows": rows,
                                   "targets": [dict(zip(("target", "measured", "verdict"), t, strict=True)) for t in tl]}
    now = foundation.source_files()
    if now != sources:
        changed = sorted(k for k in now.keys() | sources.keys() if now.get(k) != sources.get(k))
        foundation.warnings.append(f"cardindex sources changed during the run ({', '.join(changed)})")
    print("\ntargets (issue 5), judged on medians")
    for size, target, measured, v in verdicts:
        print(f"  {v:<15} {size:>6}  {target:<32} {measured}")
    result["verdicts"] = [dict(zip(("size", "target", "measured", "verdict"), v, strict=True)) for v in verdicts]
    result["warnings"] = foundation.warnings
    for w in foundation.warnings:
        print(f"  WARNING: {w}")
    if a.json:
        foundation.write_json(a.json, result)
    return 0


if __name__ == "__main__":
    foundation.run_main(main)
