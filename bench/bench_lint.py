#!/usr/bin/env python3
"""Benchmark `cards lint` against the cost of just reading the cards, and score its findings.

Not a test: it prints a table per vault size, the growth from the smallest to the largest
size, precision and recall against the generator's labels, and the issue's targets with
PASS/MISS. With --json it also writes every sample. Every number is the wall time of a
real subprocess, so interpreter start-up and imports are included, as a user sees them.

    python bench/bench_lint.py                                   # 10k and 50k; 3 repeats
    python bench/bench_lint.py --sizes 10000,50000 --repeat 3 --json bench/results/lint.json

Vaults are the ones bench_foundation.py uses: ../shared/bench/make_vault.py (seeded), kept
under bench/vaults/ with the same stamp, and reused by both scripts. The generator writes
`<vault>.labels.json` next to each vault (near_duplicates, contradictions, session_only):
the warm run's JSON findings are scored against it. See bench/README.md, "cards lint".
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as bf  # the helpers: run, expect, summary, vaults, settle, Bench, ...
from bench_foundation import BenchError, Cmd, Proc, Row

TARGET_WARM = 2.0  # issue 3: 10k cards under 2 s warm
TARGET_WARM_AT = 10_000
LINEAR_SLACK = 1.25  # "close to linear": time grows at most 1.25x as fast as the card count
SLOW = 30.0  # an untimed first run slower than this caps the series at 2 timed runs
CONTRADICTION_CODES = ("C101", "C102", "C103")
EXAMPLES = 20  # false positives and negatives kept per category in --json

warnings = bf.warnings  # one list, shared with the helpers


# ------------------------------------------------------------------ helpers


def clear_cache(vault: Path) -> None:
    """Cold: no `.cardindex/` (parse cache, lock, journal). INDEX.md stays, as in a kept vault."""
    shutil.rmtree(vault / ".cardindex", ignore_errors=True)


def repo_above(vault: Path) -> Path | None:
    """The repo `cards lint` compares cards against (derivable rules): the git top-level above the vault."""
    for folder in [vault.resolve(), *vault.resolve().parents]:
        if (folder / ".git").exists():
            return folder
    return None


def commit_count(repo: Path | None) -> int | None:
    """Commits the derivable rules compare every card with (cards reads at most 2,000)."""
    if repo is None:
        return None
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "--count", "HEAD"], capture_output=True, text=True, check=False
    )
    return int(done.stdout) if done.returncode == 0 and done.stdout.strip().isdigit() else None


def load_labels(vault: Path) -> dict[str, Any]:
    path = vault.parent / f"{vault.name}.labels.json"
    try:
        labels: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise BenchError(f"cannot read the generator's labels {path}: {exc}") from None
    return labels


def vault_with_labels(work: Path, generator: Path, n: int, seed: int, env: dict[str, str]) -> tuple[Path, bool]:
    """bench_foundation's vault for (n, seed), generated again if its labels file is missing."""
    vault, reused = bf.ensure_vault(work, generator, n, seed, env)
    labels = vault.parent / f"{vault.name}.labels.json"
    if reused and not labels.is_file():
        (vault / bf.STAMP).unlink(missing_ok=True)
        shutil.rmtree(vault)
        vault, reused = bf.ensure_vault(work, generator, n, seed, env)
    return vault, reused


def findings_of(cmd: Cmd, proc: Proc) -> list[dict[str, Any]]:
    """The JSON array `cards lint --format json` printed (exit 1: the generated vaults always have findings)."""
    bf.expect(proc, cmd, code=1)
    try:
        data = json.loads(proc.stdout)
    except ValueError as exc:
        raise BenchError(f"{bf.fmt_cmd(cmd)}: stdout is not JSON ({exc}): {proc.stdout[:500]!r}") from None
    if not isinstance(data, list) or not all(isinstance(f, dict) and "code" in f and "path" in f for f in data):
        raise BenchError(f"{bf.fmt_cmd(cmd)}: expected a JSON array of findings, got {proc.stdout[:500]!r}")
    return data


# ------------------------------------------------------------------ scoring


def _pairs(findings: list[dict[str, Any]], codes: tuple[str, ...]) -> set[tuple[str, str]]:
    """Each finding names the other card in related[0]; both cards of a pair report it: count the pair once."""
    out = set()
    for f in findings:
        if f["code"] in codes and f.get("related"):
            a, b = sorted([f["path"], f["related"][0]])
            out.add((a, b))
    return out


def _prf(found: set[Any], truth: set[Any]) -> dict[str, Any]:
    tp = len(found & truth)
    return {
        "false_positives": sorted(found - truth)[:EXAMPLES],
        "false_negatives": sorted(truth - found)[:EXAMPLES],
        "labelled": len(truth),
        "found": len(found),
        "tp": tp,
        "fp": len(found - truth),
        "fn": len(truth - found),
        "precision": tp / len(found) if found else None,
        "recall": tp / len(truth) if truth else None,
    }


def _quoted(message: str) -> str:
    """The words a session rule matched (the first quoted part of its message)."""
    m = re.search(r"'([^']*)'", message)
    return m.group(1).lower() if m else message


def score(findings: list[dict[str, Any]], labels: dict[str, Any]) -> dict[str, Any]:
    """Precision and recall per labelled category, and how the misses were classified instead."""
    dup_truth = {tuple(sorted(p)) for p in labels["near_duplicates"]}
    con_truth = {tuple(sorted(p)) for p in labels["contradictions"]}
    ses_truth = set(labels["session_only"])
    dup_found = _pairs(findings, ("U101",))
    con_found = _pairs(findings, CONTRADICTION_CODES)
    ses_found = {f["path"] for f in findings if f["category"] == "session"}
    by_code = {code: _pairs(findings, (code,)) for code in CONTRADICTION_CODES}
    ses_messages = Counter(
        _quoted(f["message"]) for f in findings if f["category"] == "session" and f["path"] not in ses_truth
    )
    return {
        "duplicate (U101 vs near_duplicates)": _prf(dup_found, dup_truth),
        "contradiction (C101-C103 vs contradictions)": _prf(con_found, con_truth),
        "session (category vs session_only)": _prf(ses_found, ses_truth),
        "contradiction pairs by code": {c: {"found": len(p), "tp": len(p & con_truth)} for c, p in by_code.items()},
        "labelled duplicates reported as contradictions": len(dup_truth & con_found),
        "labelled contradictions reported as duplicates": len(con_truth & dup_found),
        "session false positives by matched words": dict(ses_messages.most_common()),
        "findings by code": dict(sorted(Counter(f["code"] for f in findings).items())),
    }


# ------------------------------------------------------------------ the measurements


def adaptive_series(b: bf.Bench, cmd_for: Any, *, setup: Any, check: Any, slow: float) -> Row:
    """Bench.series with its warm-up run done here: a slow warm-up caps the timed runs at 2."""
    b.idle()
    setup(-1)
    cmd = cmd_for(-1)
    first = bf.run(cmd, env=b.env)
    check(-1, cmd, first.proc)
    repeat = b.repeat if first.wall < slow else min(b.repeat, 2)
    row = b.series(cmd_for, repeat=repeat, setup=setup, check=check, warmup=False)
    row["warmup"] = first.wall
    row["runs"] = repeat
    return row


def bench_size(b: bf.Bench, vault: Path, n: int, slow: float) -> tuple[dict[str, Row], list[dict[str, Any]]]:
    files = bf.card_files(vault)
    if len(files) != n:
        raise BenchError(f"{vault}: expected {n} cards, found {len(files)}")
    # INDEX.md current, as in a maintained vault (untimed); the cards settled, so the parse cache trusts their stat
    b.untimed(b.cards_cmd(vault, "index"), stderr_re=r"INDEX\.md")
    bf.settle(files)
    rows: dict[str, Row] = {}
    outputs: dict[str, str] = {}

    rows["floor: python read"] = b.series(
        lambda i: [sys.executable, "-c", bf.FLOOR_READ, str(vault)],
        check=lambda i, cmd, p: bf._check_floor(cmd, p, n),
    )
    for row in rows.values():
        row["runs"] = b.repeat

    lint = b.cards_cmd(vault, "lint", "--format", "json")

    def check_cold(i: int, cmd: Cmd, proc: Proc) -> None:
        findings_of(cmd, proc)
        outputs.setdefault("cold", proc.stdout)

    rows["cold lint"] = adaptive_series(
        b, lambda i: lint, setup=lambda i: clear_cache(vault), check=check_cold, slow=slow
    )

    # Warm: the caches of the last cold run in place, nothing changed. A warm run that
    # rewrites the parse cache did not trust it (racily clean files, a cache miss); one that
    # rewrites the lint cache saw the repo change (other work in this repo): say so.
    snapshot: dict[str, object] = {}

    warm_findings: list[dict[str, Any]] = []

    def check_warm(i: int, cmd: Cmd, proc: Proc) -> None:
        warm_findings[:] = findings_of(cmd, proc)
        outputs["warm"] = proc.stdout
        before, now = snapshot["before"], bf.cache_state(vault)
        assert isinstance(before, dict)
        run = i + 1 if i >= 0 else "(warm-up)"
        for name in sorted(set(before) | set(now)):
            if before.get(name) == now.get(name):
                continue
            if name.startswith("lint-"):
                warnings.append(f"{n}: warm lint run {run} rewrote the lint cache {name}: the repo or the sources changed")
            else:
                warnings.append(f"{n}: warm lint run {run} rewrote {vault / '.cardindex' / 'cache' / name}: "
                                "the cache was not trusted")

    rows["warm lint"] = adaptive_series(
        b, lambda i: lint, setup=lambda i: snapshot.update(before=bf.cache_state(vault)), check=check_warm, slow=slow
    )
    if outputs["warm"] != outputs["cold"]:
        warnings.append(f"{n}: the warm run's findings differ from the cold run's")

    # One card's description edited before each run: that card is parsed and linted again,
    # its statement changes, so the duplicate and contradiction pairs are computed again for
    # the whole vault (an edit outside the statement would reuse them), and INDEX.md may
    # be rendered again. The edit changes no other card's findings.
    target = files[0]
    original = target.read_bytes()
    target_rel = target.relative_to(vault).as_posix()
    if not re.search(rb'^description: "', original, re.MULTILINE):
        raise BenchError(f"{target}: no quoted description line to edit")

    def edit_description(i: int) -> None:
        target.write_bytes(re.sub(rb'^(description: ")', b"\\1Edited %d: " % i, original, count=1, flags=re.MULTILINE))

    def elsewhere(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [f for f in findings if target_rel not in (f["path"], *f["related"]) and f["code"] != "I101"]

    def check_edit(i: int, cmd: Cmd, proc: Proc) -> None:
        if elsewhere(findings_of(cmd, proc)) != elsewhere(warm_findings):
            warnings.append(f"{n}: editing {target_rel} changed findings on other cards")

    rows["warm lint, 1 card edited"] = adaptive_series(
        b, lambda i: lint, setup=edit_description, check=check_edit, slow=slow
    )
    target.write_bytes(original)
    bf.settle([target])
    if findings_of(lint, bf.run(lint, env=b.env).proc) != warm_findings:
        warnings.append(f"{n}: after restoring {target_rel}, the findings differ from the warm run's")

    # Warm without the derivable rules: what comparing the cards against the repo above the
    # vault costs (the generated vaults sit in this repo, under bench/vaults/).
    def check_no_repo(i: int, cmd: Cmd, proc: Proc) -> None:
        rest = [f for f in findings_of(cmd, proc) if f["category"] != "derivable"]
        if rest != [f for f in warm_findings if f["category"] != "derivable"]:
            warnings.append(f"{n}: --ignore derivable changed the other rules' findings")

    rows["warm lint, no derivable"] = adaptive_series(
        b, lambda i: [*lint, "--ignore", "derivable"], setup=lambda i: None, check=check_no_repo, slow=slow
    )
    return rows, warm_findings


# ------------------------------------------------------------------ reporting


def per_1k(row: Row, n: int) -> float:
    return float(row["median"]) / (n / 1000)


def print_table(title: str, rows: dict[str, Row], n: int) -> None:
    print(f"\n{title}")
    head = (
        f"  {'operation':<24} {'runs':>4} {'median s':>9} {'min s':>8} {'max s':>8} {'spread':>7}"
        f" {'x read':>7} {'ms/1k':>7} {'cpu s':>7} {'busy':>5}"
    )
    print(head)
    print("  " + "-" * (len(head) - 2))
    floor = rows["floor: python read"]["median"]
    for name, r in rows.items():
        busy = r.get("machine_busy")
        print(
            f"  {name:<24} {r['runs']:>4} {r['median']:>9.3f} {r['min']:>8.3f} {r['max']:>8.3f}"
            f" {r['spread'] * 100:>6.0f}% {r['median'] / floor:>7.2f} {per_1k(r, n) * 1000:>7.1f}"
            f" {r['cpu_median']:>7.3f} {'' if busy is None else f'{busy * 100:.0f}%':>5}"
        )


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def print_scores(n: int, s: dict[str, Any]) -> None:
    print(f"\n  scored against {n}-card labels (warm run's JSON)")
    print(
        f"    {'category':<46} {'labelled':>8} {'found':>6} {'tp':>6} {'fp':>6} {'fn':>6} {'precision':>9} {'recall':>7}"
    )
    for name, m in s.items():
        if isinstance(m, dict) and "precision" in m:
            print(
                f"    {name:<46} {m['labelled']:>8} {m['found']:>6} {m['tp']:>6} {m['fp']:>6} {m['fn']:>6}"
                f" {_fmt(m['precision']):>9} {_fmt(m['recall']):>7}"
            )
    codes = ", ".join(
        f"{c} {v['found']} pairs ({v['tp']} labelled)" for c, v in s["contradiction pairs by code"].items()
    )
    print(f"    contradiction pairs by code: {codes}")
    print(
        f"    labelled duplicates reported as contradictions: {s['labelled duplicates reported as contradictions']}; "
        f"labelled contradictions reported as duplicates: {s['labelled contradictions reported as duplicates']}"
    )
    fp_words = s["session false positives by matched words"]
    if fp_words:
        print(f"    session false positives by matched words: {', '.join(f'{k!r} {v}' for k, v in fp_words.items())}")
    print(f"    findings by code: {', '.join(f'{k} {v}' for k, v in s['findings by code'].items())}")


def growth_lines(sizes: list[int], per_size: dict[int, dict[str, Row]]) -> list[tuple[str, float, float, float]]:
    """(operation, time(largest)/time(smallest), size factor, per-1k ratio) for each row."""
    small, large = min(sizes), max(sizes)
    factor = large / small
    out = []
    for name in per_size[small]:
        g = per_size[large][name]["median"] / per_size[small][name]["median"]
        out.append((name, g, factor, g / factor))
    return out


# ------------------------------------------------------------------ main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,50000", help="comma-separated vault sizes (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per operation (default: %(default)s)")
    ap.add_argument(
        "--slow",
        type=float,
        default=SLOW,
        help="a series whose untimed first run takes longer than this many seconds gets at most 2 timed runs "
        "(default: %(default)s)",
    )
    ap.add_argument("--seed", type=int, default=42, help="generator seed (default: %(default)s)")
    ap.add_argument("--work", type=Path, default=bf.DEFAULT_WORK, help="where vaults are kept (default: bench/vaults/)")
    ap.add_argument(
        "--generator",
        type=Path,
        default=bf.DEFAULT_GENERATOR,
        help="make_vault.py (default: ../shared/bench/make_vault.py from the repo root)",
    )
    ap.add_argument(
        "--cards", help="the cards command, e.g. 'python -m cardindex' (default: the cards next to this Python)"
    )
    ap.add_argument(
        "--bytecode",
        choices=("cached", "env"),
        default="cached",
        help="as in bench_foundation.py: cached (default) lets every subprocess cache bytecode under WORK/pycache",
    )
    ap.add_argument(
        "--wait-idle",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="as in bench_foundation.py: before each series, wait up to SECONDS for the machine to be idle "
        "(default: off)",
    )
    ap.add_argument("--json", type=Path, metavar="OUT", help="write every number, sample and score here")
    a = ap.parse_args()

    sizes = sorted({int(s) for s in a.sizes.split(",") if s.strip()})
    if a.repeat < 1 or not sizes or min(sizes) < 1:
        ap.error("--repeat and --sizes must be positive")
    if not a.generator.is_file():
        ap.error(f"no generator at {a.generator}")
    cards = bf.cards_command(ap, a.cards)
    env = bf.bench_env(drop=("PRE_COMMIT",), pycache=a.work / "pycache" if a.bytecode == "cached" else None)
    b = bf.Bench(cards, a.repeat, env, a.wait_idle)

    sources = bf.source_files()
    info = bf.machine_info(cards, env, sources)
    info["bytecode"] = a.bytecode
    info["wait_idle"] = a.wait_idle
    print(f"cardindex lint benchmark — {info['date']}")
    print(f"  machine: {info['cpu_count']} CPUs ({info['cpu_model']}), {info['platform']}")
    print(f"  python {info['python']} ({sys.executable}); {info['cards_version']} at {info['cards']}")
    print(
        f"  git {info['git_commit']}{' (dirty)' if info['git_dirty'] else ''}, sources {info['source_sha256']}; "
        f"load average {tuple(round(x, 2) for x in info['loadavg_at_start'] or ())}"
    )
    print(
        f"  sizes {sizes}, {a.repeat} timed runs each after one untimed warm-up (2 when the warm-up takes over "
        f"{a.slow:.0f} s); medians judged; bytecode: {a.bytecode}"
    )
    if a.wait_idle > 0:
        print(f"  waiting up to {a.wait_idle:g} s before each series for the machine to be idle")

    result: dict[str, Any] = {"machine": info, "repeat": a.repeat, "seed": a.seed, "sizes": {}}
    per_size: dict[int, dict[str, Row]] = {}
    verdicts: list[tuple[str, str, str, str]] = []

    for n in sizes:
        print(f"\nvault of {n} cards")
        vault, reused = vault_with_labels(a.work, a.generator, n, a.seed, env)
        if reused:
            print(f"  reusing {vault}")
        repo = repo_above(vault)
        commits = commit_count(repo)
        print(
            "  derivable rules compare against: "
            + (f"{repo} ({commits} commits)" if repo else "no repo (none above the vault)")
        )
        t0 = time.perf_counter()
        load_before = bf._loadavg()
        rows, findings = bench_size(b, vault, n, a.slow)
        load_after = bf._loadavg()
        bf.release_vault(vault, a.generator, n, a.seed)
        floor = rows["floor: python read"]["median"]
        for r in rows.values():
            r["x_read"] = r["median"] / floor
            r["ms_per_1k"] = per_1k(r, n) * 1000
        per_size[n] = rows
        print_table(
            f"{n} cards  (series took {time.perf_counter() - t0:.0f} s; 1-min load {load_before} -> {load_after})",
            rows,
            n,
        )
        s = score(findings, load_labels(vault))
        print_scores(n, s)
        if n == TARGET_WARM_AT:
            w = rows["warm lint"]
            verdicts.append(
                (
                    str(n),
                    f"warm lint < {TARGET_WARM:g} s at 10k",
                    (
                        f"{w['median']:.3f} s (min {w['min']:.3f} s, cpu {w['cpu_median']:.3f} s; "
                        f"{w['x_read']:.1f}x read floor)"
                    ),
                    bf.verdict(w["median"] < TARGET_WARM, w["min"] < TARGET_WARM),
                )
            )
        result["sizes"][str(n)] = {
            "vault": str(vault),
            "reused": reused,
            "repo": str(repo) if repo else None,
            "repo_commits": commits,
            "rows": rows,
            "loadavg_1min": [load_before, load_after],
            "scores": s,
        }

    if len(sizes) > 1:
        lo, hi = min(sizes), max(sizes)
        print(f"\ngrowth from {lo} to {hi} cards (size factor {hi / lo:g}), medians")
        print(f"  {'operation':<24} {'growth':>7} {'size x':>7} {'per-1k ratio':>13}   ms/1k at each size")
        result["growth"] = {}
        for name, g, factor, ratio in growth_lines(sizes, per_size):
            at = ", ".join(f"{n}: {per_1k(per_size[n][name], n) * 1000:.1f}" for n in sizes)
            print(f"  {name:<24} {g:>7.2f} {factor:>7g} {ratio:>13.2f}   {at}")
            result["growth"][name] = {"growth": g, "size_factor": factor, "per_1k_ratio": ratio}
            if name != "floor: python read":
                verdicts.append(
                    (
                        f"{lo}->{hi}",
                        f"{name} grows close to linearly (<= {LINEAR_SLACK:g}x size factor)",
                        f"time x{g:.2f} for cards x{factor:g} (per 1k cards x{ratio:.2f})",
                        bf.verdict(ratio <= LINEAR_SLACK),
                    )
                )

    now = bf.source_files()
    if now != sources:
        changed = sorted(k for k in now.keys() | sources.keys() if now.get(k) != sources.get(k))
        warnings.append(
            f"cardindex sources changed during the run ({info['source_sha256']} -> {bf.source_digest(now)}; "
            f"{', '.join(changed)}): the numbers may mix versions"
        )
    print("\ntargets (issue 3), judged on medians")
    for size, target, measured, v in verdicts:
        print(f"  {v:<15} {size:>12}  {target:<52} {measured}")
    result["verdicts"] = [dict(zip(("size", "target", "measured", "verdict"), v, strict=False)) for v in verdicts]
    result["warnings"] = warnings
    for message in warnings:
        print(f"  WARNING: {message}")

    if a.json:
        bf.write_json(a.json, result)
    return 0


if __name__ == "__main__":
    bf.run_main(main)
