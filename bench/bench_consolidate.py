#!/usr/bin/env python3
"""Benchmark `cards consolidate --all` on a generated vault, and score its decisions.

Not a test: it prints a table per vault size, set against the read floor measured in the
same run (as bench_lint.py does), and scores the decisions of the cold run against the
labels the generator (../shared/bench/make_vault.py) writes next to the vault:

- merges against `near_duplicates`: a merge decision's card and each of its related
  cards form a pair; a pair is correct when the generator labels the two cards
  duplicates of each other, or of the same original;
- supersessions and conflicts against `contradictions` (a supersede decision's card and
  each winner, a conflict decision's card and each other side form pairs). For a
  labelled contradiction resolved by supersession, the winner should be the card with
  the newer `verified` date (the generator draws dates at random), and equal dates
  should make a conflict.

Consolidation changes the vault, so every timed run works on a fresh copy of the
generated vault (copying, and flushing the copy to disk with sync, are not timed). Every number is the wall time of a real
subprocess; `cpu s` is user + sys of the child.

    python bench/bench_consolidate.py                            # 10k cards, 3 runs per row
    python bench/bench_consolidate.py --sizes 1000,10000 --repeat 3 --json bench/results/consolidate.json

See bench/README.md, "Consolidation".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as bf  # run, expect, summary, vaults, settle, Bench, floors, machine info
from bench_foundation import BenchError, Cmd, Proc, Row

DEFAULT_WORK = Path("/tmp/cardindex-bench-consolidate")
EXAMPLES = 8
warnings = bf.warnings


# ------------------------------------------------------------------ vault copies


def fresh_copy(pristine: Path, run: Path) -> list[Path]:
    """`run` becomes a copy of the generated vault (cards and INDEX.md, no .cardindex/). Returns its cards."""
    if run.exists():
        shutil.rmtree(run)
    shutil.copytree(pristine, run, ignore=shutil.ignore_patterns(".cardindex", bf.STAMP))
    # flush the copy now: otherwise the timed run's fsyncs also wait for the copy's 10k dirty files
    os.sync()
    return bf.card_files(run)


def decisions_of(cmd: Cmd, proc: Proc) -> dict[str, Any]:
    bf.expect(proc, cmd)
    try:
        data = json.loads(proc.stdout)
    except ValueError as exc:
        raise BenchError(f"{bf.fmt_cmd(cmd)}: stdout is not JSON ({exc}): {proc.stdout[:500]!r}") from None
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), list):
        raise BenchError(f"{bf.fmt_cmd(cmd)}: expected an object with a 'decisions' list, got {proc.stdout[:500]!r}")
    return data


# ------------------------------------------------------------------ scoring


def read_fields(vault: Path, rel: str) -> dict[str, str]:
    """description, key and verified of a generated card (flat frontmatter; the generator writes it)."""
    out: dict[str, str] = {}
    try:
        text = (vault / rel).read_text(encoding="utf-8")
    except OSError:
        return out
    for line in text.split("\n---", 1)[0].splitlines()[1:]:
        m = re.match(r"(description|key|verified|scope): (.*)$", line)
        if m:
            value = m.group(2)
            out[m.group(1)] = json.loads(value) if value.startswith('"') else value
    return out


def ordered(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _groups(pairs: list[list[str]]) -> dict[str, str]:
    """Union-find over labelled pairs: card path -> its group (an original and its restatements)."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    return {x: root(x) for x in parent}


def _prf(found: set[Any], correct: set[Any], truth: set[Any], hit: set[Any]) -> dict[str, Any]:
    return {
        "found": len(found),
        "correct": len(correct),
        "labelled": len(truth),
        "labelled_found": len(hit),
        "precision": len(correct) / len(found) if found else None,
        "recall": len(hit) / len(truth) if truth else None,
    }


def score(out: dict[str, Any], labels: dict[str, Any], pristine: Path) -> dict[str, Any]:

    def md(cid: str) -> str:  # decisions name ids, labels name paths
        return f"{cid}.md"

    decisions = out["decisions"]
    dup_truth = {ordered(*p) for p in labels["near_duplicates"]}
    con_truth = {ordered(*p) for p in labels["contradictions"]}
    group = _groups(labels["near_duplicates"])

    # merges: canonical x each merged card; a labelled pair is found when both sit in one merge decision
    merge_pairs: set[tuple[str, str]] = set()
    clusters: list[set[str]] = []
    for d in decisions:
        if d["action"] == "merge":
            members = {md(d["card"]), *(md(r) for r in d["related"])}
            clusters.append(members)
            for r in d["related"]:
                merge_pairs.add(ordered(md(d["card"]), md(r)))
    merge_ok = {p for p in merge_pairs if p[0] in group and group.get(p[1]) == group[p[0]]}
    merge_hit = {p for p in dup_truth if any(p[0] in c and p[1] in c for c in clusters)}

    sup_pairs: dict[tuple[str, str], tuple[str, str]] = {}  # pair -> (old, winner)
    conf_pairs: set[tuple[str, str]] = set()
    for d in decisions:
        for r in d["related"]:
            pair = ordered(md(d["card"]), md(r))
            if d["action"] == "supersede":
                sup_pairs[pair] = (md(d["card"]), md(r))
            elif d["action"] == "conflict":
                conf_pairs.add(pair)
    con_found = set(sup_pairs) | conf_pairs
    con_ok = con_found & con_truth
    resolved_dups = {p for p in dup_truth if p in merge_hit or p in sup_pairs}

    # direction: the newer `verified` must win; a tie must be a conflict
    direction: Counter[str] = Counter()
    wrong_direction = []
    for p in con_truth:
        a, b = (read_fields(pristine, x).get("verified", "") for x in p)
        if p in sup_pairs:
            old, new = sup_pairs[p]
            vo, vn = read_fields(pristine, old).get("verified", ""), read_fields(pristine, new).get("verified", "")
            if vn > vo:
                direction["newer verified won"] += 1
            elif vn == vo:
                direction["tie superseded (should be a conflict)"] += 1
                wrong_direction.append((old, new, vo, vn))
            else:
                direction["older verified won"] += 1
                wrong_direction.append((old, new, vo, vn))
        elif p in conf_pairs:
            direction["conflict (tie)" if a == b else "conflict although the dates differ"] += 1
        else:
            direction["not found"] += 1

    def describe(pair: tuple[str, str]) -> list[str]:
        return [
            f"{x}: {read_fields(pristine, x).get('description', '?')!r} "
            f"(key {read_fields(pristine, x).get('key', '-')}, verified {read_fields(pristine, x).get('verified', '-')})"
            for x in pair
        ]

    false_merges = sorted(merge_pairs - merge_ok)
    con_fp = sorted(con_found - con_truth)
    return {
        "decisions by action": dict(Counter(d["action"] for d in decisions)),
        "merge (pairs vs near_duplicates)": _prf(merge_pairs, merge_ok, dup_truth, merge_hit),
        "supersede + conflict (pairs vs contradictions)": _prf(con_found, con_ok, con_truth, con_ok),
        "supersede only": _prf(set(sup_pairs), set(sup_pairs) & con_truth, con_truth, set(sup_pairs) & con_truth),
        "conflict only": _prf(conf_pairs, conf_pairs & con_truth, con_truth, conf_pairs & con_truth),
        "supersede/conflict pairs that are labelled duplicates": len(con_found & dup_truth),
        "supersede/conflict pairs labelled neither": len(con_found - con_truth - dup_truth),
        "labelled duplicates resolved (merged or superseded)": f"{len(resolved_dups)}/{len(dup_truth)}",
        "labelled contradictions by outcome": dict(direction),
        "examples": {
            "false merges": [describe(p) for p in false_merges[:EXAMPLES]],
            "missed duplicates": [describe(p) for p in sorted(dup_truth - resolved_dups)[:EXAMPLES]],
            "supersede/conflict pairs labelled neither": [describe(p) for p in con_fp if p not in dup_truth][:EXAMPLES],
            "missed contradictions": [describe(p) for p in sorted(con_truth - con_found)[:EXAMPLES]],
            "wrong direction": [list(x) for x in wrong_direction[:EXAMPLES]],
        },
    }


# ------------------------------------------------------------------ the measurements


def bench_size(b: bf.Bench, pristine: Path, n: int, scratch: Path) -> tuple[dict[str, Row], dict[str, Any]]:
    files = bf.card_files(pristine)
    if len(files) != n:
        raise BenchError(f"{pristine}: expected {n} cards, found {len(files)}")
    # a maintained vault has its INDEX.md; the parse cache is not kept in the pristine copy
    b.untimed(b.cards_cmd(pristine, "index"), stderr_re=r"INDEX\.md")
    shutil.rmtree(pristine / ".cardindex", ignore_errors=True)
    run = scratch / f"run-{n}"
    rows: dict[str, Row] = {}
    outputs: list[dict[str, Any]] = []

    rows["floor: python read"] = b.series(
        lambda i: [sys.executable, "-c", bf.FLOOR_READ, str(pristine)],
        check=lambda i, cmd, p: bf._check_floor(cmd, p, n),
    )
    consolidate = b.cards_cmd(run, "consolidate", "--all", "--format", "json")

    def check(i: int, cmd: Cmd, proc: Proc) -> None:
        out = decisions_of(cmd, proc)
        if outputs and out["decisions"] != outputs[0]["decisions"]:
            warnings.append(f"{n}: run {i + 1} decided differently from the first run (not deterministic)")
        outputs.append(out)

    def cold(i: int) -> None:
        fresh_copy(pristine, run)

    rows["cold consolidate --all"] = b.series(lambda i: consolidate, setup=cold, check=check)
    first = outputs[0]
    # the vault after a real run: INDEX.md current, and a second run has nothing to do
    b.untimed(b.cards_cmd(run, "index", "--check"))
    again = decisions_of(consolidate, bf.run(consolidate, env=b.env).proc)
    if again["decisions"]:
        warnings.append(
            f"{n}: a second `consolidate --all` decided {len(again['decisions'])} more things "
            f"({dict(Counter(d['action'] for d in again['decisions']))})"
        )

    def warm(i: int) -> None:
        # a stat-trusted parse cache: the cards settle (>= 2 s old) before `cards index` writes it
        bf.settle(fresh_copy(pristine, run))
        b.untimed(b.cards_cmd(run, "index"), stderr_re=r"INDEX\.md")

    rows["warm consolidate --all"] = b.series(lambda i: consolidate, setup=warm, check=check)
    warm(0)
    rows["warm consolidate --all --dry-run"] = b.series(
        lambda i: [*consolidate, "--dry-run"], check=lambda i, cmd, p: decisions_of(cmd, p)
    )
    # after a real run: `consolidate --all` again (nothing left to decide), and the windowed default
    bf.run(consolidate, env=b.env)
    rows["second run --all (nothing new)"] = b.series(
        lambda i: consolidate, check=lambda i, cmd, p: decisions_of(cmd, p)
    )
    window = b.cards_cmd(run, "consolidate", "--format", "json")
    rows["second run, window (nothing new)"] = b.series(lambda i: window, check=lambda i, cmd, p: decisions_of(cmd, p))
    for row in rows.values():
        row["runs"] = len(row["samples"])
    shutil.rmtree(run, ignore_errors=True)
    first["changes_count"] = len(first.get("changes") or [])
    return rows, first


# ------------------------------------------------------------------ reporting


def print_table(title: str, rows: dict[str, Row], n: int) -> None:
    print(f"\n{title}")
    head = (
        f"  {'operation':<34} {'runs':>4} {'median s':>9} {'min s':>8} {'max s':>8} {'spread':>7} {'x read':>7}"
        f" {'cpu s':>7} {'x read cpu':>10} {'busy':>5}"
    )
    print(head)
    print("  " + "-" * (len(head) - 2))
    floor = rows["floor: python read"]
    for name, r in rows.items():
        busy = r.get("machine_busy")
        print(
            f"  {name:<34} {r['runs']:>4} {r['median']:>9.3f} {r['min']:>8.3f} {r['max']:>8.3f}"
            f" {r['spread'] * 100:>6.0f}% {r['median'] / floor['median']:>7.1f} {r['cpu_median']:>7.3f}"
            f" {r['cpu_median'] / floor['cpu_median']:>10.1f} {'' if busy is None else f'{busy * 100:.0f}%':>5}"
        )


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def print_scores(n: int, s: dict[str, Any], out: dict[str, Any]) -> None:
    print(
        f"\n  decisions of the cold run ({out['live']} live cards): "
        + ", ".join(f"{k} {v}" for k, v in sorted(s["decisions by action"].items()))
        + f"; {out['changes_count']} card changes"
    )
    print(f"    {'scored':<48} {'pairs':>6} {'correct':>7} {'labelled':>8} {'found':>6} {'precision':>9} {'recall':>7}")
    for name, m in s.items():
        if isinstance(m, dict) and "precision" in m:
            print(
                f"    {name:<48} {m['found']:>6} {m['correct']:>7} {m['labelled']:>8} {m['labelled_found']:>6}"
                f" {_fmt(m['precision']):>9} {_fmt(m['recall']):>7}"
            )
    print(
        f"    supersede/conflict pairs that are labelled duplicates (same fact, same key): "
        f"{s['supersede/conflict pairs that are labelled duplicates']}; labelled neither: "
        f"{s['supersede/conflict pairs labelled neither']}"
    )
    print(
        f"    labelled duplicates resolved (merged or superseded): {s['labelled duplicates resolved (merged or superseded)']}"
    )
    print(
        "    labelled contradictions by outcome: "
        + ", ".join(f"{k} {v}" for k, v in sorted(s["labelled contradictions by outcome"].items()))
    )
    for kind, items in s["examples"].items():
        if items:
            print(f"    {kind} (up to {EXAMPLES}):")
            for item in items[:4]:
                print("      " + "\n        ".join(str(x) for x in item))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000", help="comma-separated vault sizes (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per operation (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=42, help="generator seed (default: %(default)s)")
    ap.add_argument(
        "--work",
        type=Path,
        default=DEFAULT_WORK,
        help="generated vaults and their working copies (default: %(default)s)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the generated vaults in --work afterwards")
    ap.add_argument("--generator", type=Path, default=bf.DEFAULT_GENERATOR, help="make_vault.py")
    ap.add_argument("--cards", help="the cards command (default: the cards next to this Python)")
    ap.add_argument("--bytecode", choices=("cached", "env"), default="cached", help="as in bench_foundation.py")
    ap.add_argument("--wait-idle", type=float, default=0.0, metavar="SECONDS", help="as in bench_foundation.py")
    ap.add_argument("--json", type=Path, metavar="OUT", help="write every number, sample and score here")
    a = ap.parse_args()

    sizes = sorted({int(s) for s in a.sizes.split(",") if s.strip()})
    if a.repeat < 1 or not sizes or min(sizes) < 1:
        ap.error("--repeat and --sizes must be positive")
    if not a.generator.is_file():
        ap.error(f"no generator at {a.generator}")
    cards = bf.cards_command(ap, a.cards)
    env = bf.bench_env(drop=("CARDS_TODAY",))
    if a.bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str((bf.DEFAULT_WORK / "pycache").resolve())
    b = bf.Bench(cards, a.repeat, env, a.wait_idle)

    sources = bf.source_files()
    info = bf.machine_info(cards, env, sources)
    print(f"cardindex consolidation benchmark — {info['date']}")
    print(f"  machine: {info['cpu_count']} CPUs ({info['cpu_model']}), {info['platform']}")
    print(f"  python {info['python']}; {info['cards_version']} at {info['cards']}")
    print(
        f"  git {info['git_commit']}{' (dirty)' if info['git_dirty'] else ''}, sources {info['source_sha256']}; "
        f"load average {tuple(round(x, 2) for x in info['loadavg_at_start'] or ())}"
    )
    print(f"  sizes {sizes}, {a.repeat} timed runs each after one untimed warm-up, each on a fresh copy; medians")

    result: dict[str, Any] = {"machine": info, "repeat": a.repeat, "seed": a.seed, "sizes": {}}
    a.work.mkdir(parents=True, exist_ok=True)
    for n in sizes:
        print(f"\nvault of {n} cards")
        pristine, reused = bf.ensure_vault(a.work, a.generator, n, a.seed, env)
        if reused:
            print(f"  reusing {pristine}")
        labels = json.loads((pristine.parent / f"{pristine.name}.labels.json").read_text())
        t0 = time.perf_counter()
        load_before = bf._loadavg()
        rows, first = bench_size(b, pristine, n, a.work)
        load_after = bf._loadavg()
        bf.release_vault(pristine, a.generator, n, a.seed)
        print_table(
            f"{n} cards  (series took {time.perf_counter() - t0:.0f} s; 1-min load {load_before} -> {load_after})",
            rows,
            n,
        )
        s = score(first, labels, pristine)
        print_scores(n, s, first)
        result["sizes"][str(n)] = {
            "vault": str(pristine),
            "rows": rows,
            "scores": s,
            "loadavg_1min": [load_before, load_after],
        }

    now = bf.source_files()
    if now != sources:
        changed = sorted(k for k in now.keys() | sources.keys() if now.get(k) != sources.get(k))
        warnings.append(
            f"cardindex sources changed during the run ({info['source_sha256']} -> {bf.source_digest(now)}; "
            f"{', '.join(changed)}): the numbers may mix versions"
        )
    for message in warnings:
        print(f"  WARNING: {message}")
    result["warnings"] = warnings
    if a.json:
        bf.write_json(a.json, result)
    if not a.keep:  # only what this run generated: --work may be a shared folder such as bench/vaults
        for n in sizes:
            vault = a.work / f"vault-{n}-seed{a.seed}"
            shutil.rmtree(vault, ignore_errors=True)
            (a.work / f"{vault.name}.labels.json").unlink(missing_ok=True)
        try:
            a.work.rmdir()  # only when nothing else is left in it
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    bf.run_main(main)
