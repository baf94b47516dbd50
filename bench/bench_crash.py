#!/usr/bin/env python3
"""Kill -9 cards commands at random points, many times, and check the vault always ends whole.

The big run of tests/test_crash.py (same harness, tests/crash_harness.py): for each of
consolidate, add (a supersession), import --apply and undo, TRIALS trials on a generated
vault of CARDS cards. A trial kills the command (after a durable step of its job, after
its Nth file write, or at a random moment), runs one next step (undo, status, index,
add, consolidate, lint, in turn), and checks that the vault is exactly what the next
step leaves on the vault before the command or after it, with no temp file, no pending
mark, no card both live and archived, and that `cards undo` down to the empty journal
gives back the generated vault byte for byte. Stops at the first trial that fails.

    python bench/bench_crash.py                              # 50 trials x 4 commands, 2,000 cards
    python bench/bench_crash.py --trials 100 --cards 5000 --json bench/results/crash.json
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from crash_harness import Harness, Results, TrialFailed

COMMANDS = ("consolidate", "add", "import", "undo")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=50, help="trials per command (default: %(default)s)")
    ap.add_argument("--cards", type=int, default=2000, help="cards in the generated vault (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=20261130, help="seed of the kill timings (default: %(default)s)")
    ap.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated subset of %(default)s")
    ap.add_argument("--work", type=Path, help="where the vaults go (default: a temp folder, removed after)")
    ap.add_argument("--json", type=Path, help="write the counts here")
    a = ap.parse_args()
    work = a.work or Path(tempfile.mkdtemp(prefix="cards-crash-"))
    results = Results()
    started = time.perf_counter()
    try:
        harness = Harness(work / f"run-{a.cards}", a.cards, point_rounds=2 if a.trials >= 30 else 1)
        for command in a.commands.split(","):
            rng = random.Random(f"{a.seed}-{command}")
            t0 = time.perf_counter()
            for index in range(a.trials):
                harness.trial(command, index, rng, results)
            _, _, took, writes = harness.states(command)
            print(f"{command:<12} {results.trials[command]:>4} trials whole   "
                  f"recovered {results.recovered[command]:>3}   temps left by the kill {results.temps_left[command]:>3}   "
                  f"ended before/after/same {results.outcomes[(command, 'before')]}/{results.outcomes[(command, 'after')]}"
                  f"/{results.outcomes[(command, 'same')]}   "
                  f"kills {dict(sorted((k[1], v) for k, v in results.kinds.items() if k[0] == command))}   "
                  f"(full run {took:.2f} s, {writes} writes; {time.perf_counter() - t0:.0f} s)", flush=True)
    except TrialFailed as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        if a.work is None:
            shutil.rmtree(work, ignore_errors=True)
    results.seconds = time.perf_counter() - started
    print(f"all {sum(results.trials.values())} trials whole on {a.cards:,} cards in {results.seconds:.0f} s")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({
            "cards": a.cards, "trials": dict(results.trials), "recovered": dict(results.recovered),
            "temps_left": dict(results.temps_left),
            "outcomes": {f"{k[0]}:{k[1]}": v for k, v in results.outcomes.items()},
            "kills": {f"{k[0]}:{k[1]}": v for k, v in results.kinds.items()}, "seconds": round(results.seconds, 1),
        }, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
