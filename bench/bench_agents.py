#!/usr/bin/env python3
"""Benchmark what an agent runs: `cards context` at session start and `cards search`.

Issue 6's target: `cards context` under 0.3 s on a 10k vault with a warm cache. Every
number is the wall time of a real subprocess, set against the Python read floor
measured in the same run (the helpers come from bench_foundation.py).

    python bench/bench_agents.py                      # 1k and 10k, 5 repeats
    python bench/bench_agents.py --sizes 10000 --repeat 7
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_foundation import (
    DEFAULT_GENERATOR,
    DEFAULT_WORK,
    FLOOR_READ,
    Bench,
    Cmd,
    Proc,
    Row,
    bench_env,
    card_files,
    cards_command,
    ensure_vault,
    expect,
    release_vault,
    settle,
)

TARGET = 0.3  # seconds, warm `cards context` at 10k


def bench(b: Bench, vault: Path, n: int) -> dict[str, Row]:
    files = card_files(vault)
    rows: dict[str, Row] = {}
    b.untimed(b.cards_cmd(vault, "index"))  # warm the parse cache
    settle(files)
    b.untimed(b.cards_cmd(vault, "index"))  # and trust it (nothing racily clean)
    rows["floor: python read"] = b.series(lambda i: [sys.executable, "-c", FLOOR_READ, str(vault)])

    def has_context(i: int, cmd: Cmd, proc: Proc) -> None:
        expect(proc, cmd)
        if not proc.stdout.startswith("# Memory (cards context") or "left out" not in proc.stdout:
            raise SystemExit(f"unexpected context output from {shlex.join(cmd) if isinstance(cmd, list) else cmd}")

    rows["context (warm: unchanged vault)"] = b.series(lambda i: b.cards_cmd(vault, "context"), check=has_context)
    rows["context --budget 1500 (warm)"] = b.series(
        lambda i: b.cards_cmd(vault, "context", "--budget", "1500"), check=has_context
    )
    target = files[len(files) // 2]
    original = target.read_bytes()

    def touch(i: int) -> None:  # one card changed since the last run: the memo misses, the parse cache hits
        target.write_bytes(original + f"\nEdited {i}.\n".encode())

    try:
        rows["context (one card changed)"] = b.series(lambda i: b.cards_cmd(vault, "context"), setup=touch,
                                                      check=has_context)
    finally:
        target.write_bytes(original)
    rows["search 'deploy day' (warm)"] = b.series(
        lambda i: b.cards_cmd(vault, "search", "deploy day"), check=lambda i, cmd, p: expect(p, cmd)
    )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK)
    parser.add_argument("--generator", type=Path, default=DEFAULT_GENERATOR)
    a = parser.parse_args()
    cards = cards_command(parser, None)
    env = bench_env()
    env.setdefault("CARDS_TODAY", "2026-11-30")
    b = Bench(cards, a.repeat, env)
    missed = False
    for n in (int(s) for s in a.sizes.split(",")):
        vault, _ = ensure_vault(a.work, a.generator, n, a.seed, env)
        try:
            rows = bench(b, vault, n)
        finally:
            release_vault(vault, a.generator, n, a.seed)
        floor = rows["floor: python read"]["median"]
        print(f"\n{n:,} cards (median of {a.repeat}; read floor {floor:.3f} s)")
        print(f"  {'operation':<34} {'median':>8} {'min':>8} {'x floor':>8}")
        for name, row in rows.items():
            print(f"  {name:<34} {row['median']:8.3f} {row['min']:8.3f} {row['median'] / floor:8.1f}")
        if n >= 10_000:
            warm = rows["context (warm: unchanged vault)"]["median"]
            ok = warm <= TARGET
            missed |= not ok
            print(f"  target: warm context <= {TARGET} s at 10k: {'PASS' if ok else 'MISS'} ({warm:.3f} s)")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
