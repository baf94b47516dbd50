#!/usr/bin/env python3
"""Score labelled pairs of a corpus in two halves: tuning (odd-numbered) and held out (even-numbered).

    python bench/held_out.py tests/pairs_dev2 [--kind duplicate|contradiction] [--half tune|held|both] [--list]

The labelled pairs are sorted by their first path and numbered from 1; the odd-numbered
ones are tuned on, the even-numbered ones are held out (scored at the start and the end
of a pass, never looked at in between). Reads `bench/why_pairs.py --summary`; changes nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--kind", default="duplicate", choices=["duplicate", "contradiction"])
    parser.add_argument("--half", default="both", choices=["tune", "held", "both"])
    parser.add_argument("--list", action="store_true", help="one line per pair of the half")
    args = parser.parse_args()
    labels = json.loads((args.corpus / "labels.json").read_text())
    pairs = sorted(tuple(p) for p in labels["pairs"][args.kind])
    half = {p: ("tune" if n % 2 == 1 else "held") for n, p in enumerate(pairs, 1)}
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("why_pairs.py")), str(args.corpus),
                          "--kind", args.kind, "--summary"], capture_output=True, text=True, check=True).stdout
    results: dict[str, Counter[str]] = {"tune": Counter(), "held": Counter()}
    for line in out.splitlines():
        if " | " not in line:
            continue
        head, b = line.rsplit(" | ", 1)
        why, a = head.rsplit(None, 1)
        p = (a, b.strip())
        if p not in half:
            continue
        h = half[p]
        results[h][why.strip()] += 1
        if args.list and args.half in (h, "both"):
            print(f"{h:5} {why.strip():50} {a} | {b.strip()}")
    for h in ("tune", "held"):
        if args.half not in (h, "both"):
            continue
        c = results[h]
        print(f"{h}: {c['found']} of {sum(c.values())} {args.kind} pairs found")
        if args.half == "tune" or h == "tune":
            for why, n in c.most_common():
                print(f"   {n:3} {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
