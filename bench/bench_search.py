"""How fast `cards search` is, against the read floor measured in the same run (issue 15).

For each size, a seeded vault from the shared generator (kept under bench/vaults/,
gitignored), then, every number the median wall time of a real subprocess:

  floor        a Python loop that walks the vault and reads every card's bytes (run in turn with
               `warm`, so that both see the same load; their paired ratios are printed too)
  cold         `cards search` with no search index (builds it)
  warm         `cards search` again, nothing changed
  one edit     `cards search` after one card was saved by rename (as `cards` and most editors save:
               a temp file renamed over it), a different card each time
  in place     `cards search` after one card was rewritten in place (same inode; found by the sweep)
  sync         in-process: the index update after one saved card, and on an unchanged vault

Each vault has a `.cardindex.yaml` with real settings (not only comments), as a used vault
has. The package is byte-compiled first (an installed `cards` has its .pyc files; with
PYTHONDONTWRITEBYTECODE set, as here, every process would compile every module again).

    python bench/bench_search.py --sizes 10000,100000 --repeat 5

Targets: warm faster than the floor at 10k; warm under 0.3 s at 100k; the update after one
changed card proportional to that card (compare "sync, one edit" with "sync, unchanged").
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GENERATOR = REPO.parent.parent / "shared" / "bench" / "make_vault.py"
if not GENERATOR.exists():
    GENERATOR = Path("/work/shared/bench/make_vault.py")
FLOOR = r"""
import os, sys
n = 0
for folder, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    for name in files:
        if name.endswith(".md") and name != "INDEX.md":
            with open(os.path.join(folder, name), "rb") as fh:
                fh.read()
            n += 1
print(n)
"""
QUERIES = ["billing service storage", "which queue does the scheduler use", "oncall rotaton for the api"]


def timed(cmd: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"{cmd} failed ({done.returncode}): {done.stderr.strip()}")
    return wall


SETTINGS = "multi_valued_keys: [owner, reviewer]\nindex_budget:\n  lines: 200\n  bytes: 25000\n"


def vault_for(work: Path, n: int, seed: int) -> Path:
    vault = work / f"search-{n}-seed{seed}"
    if not (vault / ".generated").exists():
        subprocess.run([sys.executable, str(GENERATOR), "--n", str(n), "--out", str(vault), "--seed", str(seed),
                        "--labels", str(work / f"search-{n}-seed{seed}.labels.json")], check=True,
                       capture_output=True)
        (vault / ".generated").write_text("ok\n")
    config = vault / ".cardindex.yaml"  # real settings, not only comments: the warm path must not parse YAML
    if SETTINGS not in (config.read_text(encoding="utf-8") if config.exists() else ""):
        config.write_text(SETTINGS + (config.read_text(encoding="utf-8") if config.exists() else ""), encoding="utf-8")
    return vault


def save(path: Path, data: bytes) -> None:
    """Save as an editor does: a temp file beside the card, renamed over it."""
    tmp = path.with_name(f".{path.name}.bench-tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def sync_seconds(vault: Path) -> float:
    code = ("import sys, time; from pathlib import Path; from cardindex.store.vault import Vault; "
            "from cardindex.agents.search import open_index; t = time.perf_counter(); "
            "open_index(Vault(Path(sys.argv[1]))).close(); print(time.perf_counter() - t)")
    done = subprocess.run([sys.executable, "-c", code, str(vault)], capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--work", type=Path, default=REPO / "bench" / "vaults")
    ap.add_argument("--cards", default=os.path.join(os.path.dirname(sys.executable), "cards"))
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "cardindex")], check=True, env=env,
                   capture_output=True)
    print(f"{'cards':>7} {'row':16} {'median s':>9} {'min s':>7} {'x floor':>8}")
    for n in (int(s) for s in args.sizes.split(",")):
        vault = vault_for(args.work, n, args.seed)
        search = [args.cards, "--vault", str(vault), "search"]
        rows: dict[str, list[float]] = {"floor": []}
        floor = [sys.executable, "-c", FLOOR, str(vault)]
        timed(floor)
        (vault / ".cardindex" / "cache" / "search.sqlite").unlink(missing_ok=True)
        rows["cold"] = [timed([*search, QUERIES[0]])]
        time.sleep(2.1)  # past the racily-clean window of the files the cold run saw
        timed([*search, QUERIES[0]])
        rows["warm"] = []
        ratios = []
        for i in range(args.repeat):  # floor and warm in turn: on a shared machine the load changes by the second
            rows["floor"].append(timed(floor))
            rows["warm"].append(timed([*search, QUERIES[i % len(QUERIES)]]))
            ratios.append(rows["warm"][-1] / rows["floor"][-1])
        cards = sorted(p for p in vault.rglob("*.md") if ".cardindex" not in p.parts)
        edits, in_place, syncs = [], [], []
        for i in range(args.repeat):
            path = cards[(i * 7919) % len(cards)]
            original = path.read_bytes()
            try:
                save(path, original + f"\nEdited {i} for the benchmark.\n".encode())
                edits.append(timed([*search, QUERIES[0]]))
                save(path, original + f"\nEdited again {i}.\n".encode())
                syncs.append(sync_seconds(vault))
                path.write_bytes(original + f"\nEdited in place {i}.\n".encode())
                in_place.append(timed([*search, QUERIES[0]]))
            finally:
                save(path, original)
        timed([*search, QUERIES[0]])
        time.sleep(2.1)
        timed([*search, QUERIES[0]])
        rows["one edit"] = edits
        rows["in place"] = in_place
        rows["sync, one edit"] = syncs
        rows["sync, unchanged"] = [sync_seconds(vault) for _ in range(args.repeat)]
        base = statistics.median(rows["floor"])
        for name, values in rows.items():
            med = statistics.median(values)
            print(f"{n:7} {name:16} {med:9.3f} {min(values):7.3f} {med / base:8.2f}")
        print(f"{n:7} {'warm / floor':16} median of the {len(ratios)} paired ratios: {statistics.median(ratios):.2f} "
              f"(load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
