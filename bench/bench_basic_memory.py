"""cardindex against basic-memory on one vault: index it from nothing, then one search (issue 18).

Not a test. basic-memory (PyPI `basic-memory`, Python >= 3.12) is never a dependency of
this project: install it into a venv of its own, and this script runs its CLI there.

    /root/.pyenv/versions/3.12.1/bin/python -m venv /tmp/bm-venv
    /tmp/bm-venv/bin/pip install basic-memory
    python bench/bench_basic_memory.py                  # 1k cards, 3 runs each
    python bench/bench_basic_memory.py --repeat 1 --n 1000

Without that venv it prints one line saying so and exits 0. Each run starts from nothing:
a fresh copy of the generated vault (basic-memory rewrites the files it indexes, adding
permalinks to their frontmatter, so it never sees the shared bench vault), and a fresh
home folder for basic-memory's config and database. cardindex: `cards index` with no
`.cardindex/`, then `cards search QUERY`. basic-memory: `basic-memory project add NAME
PATH` (which indexes the folder before it returns), then `basic-memory tool search-notes
QUERY --project NAME`. Both searches must find something. The read floor (a Python loop
that reads every card) is measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as bf  # a sibling script, not a package

DEFAULT_BM = Path("/tmp/bm-venv/bin/basic-memory")
QUERY = "authentication"  # a word of the generated bodies (basic-memory does not search the frontmatter)


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, bf.Proc]:
    done = bf.run(cmd, env=env)
    bf.expect(done.proc, cmd)
    return done.wall, done.proc


def one_run(cards: list[str], bm: Path, source: Path, env: dict[str, str], query: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-bm-") as tmp:
        work = Path(tmp)
        ours, theirs, home = work / "cards-vault", work / "bm-vault", work / "home"
        for copy in (ours, theirs):
            shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".cardindex", "INDEX.md", bf.STAMP))
        home.mkdir()
        run_env = {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                   "XDG_STATE_HOME": str(home / ".state")}
        out: dict[str, float] = {}
        out["floor: python read"], _ = timed([sys.executable, "-c", bf.FLOOR_READ, str(ours)], run_env)
        out["cards index"], _ = timed([*cards, "--vault", str(ours), "index"], run_env)
        out["cards search"], found = timed([*cards, "--vault", str(ours), "search", query, "--format", "json"], run_env)
        if not json.loads(found.stdout):
            raise bf.BenchError(f"cards search {query!r} found nothing")
        out["basic-memory project add"], _ = timed([str(bm), "project", "add", "bench", str(theirs)], run_env)
        out["basic-memory search-notes"], found = timed(
            [str(bm), "tool", "search-notes", query, "--project", "bench"], run_env)
        if not json.loads(found.stdout).get("results"):
            raise bf.BenchError(f"basic-memory search-notes {query!r} found nothing:\n{found.stdout[:500]}")
        return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="cards in the vault")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--query", default=QUERY)
    ap.add_argument("--basic-memory", dest="bm", type=Path, default=DEFAULT_BM, help="its CLI, in its own venv")
    ap.add_argument("--work", type=Path, default=bf.DEFAULT_WORK)
    ap.add_argument("--generator", type=Path, default=next(
        (p for p in (bf.DEFAULT_GENERATOR, bf.REPO.parent.parent / "shared" / "bench" / "make_vault.py") if p.is_file()),
        bf.DEFAULT_GENERATOR))
    ap.add_argument("--cards", help="the cards command (default: the one next to this python)")
    a = ap.parse_args()
    if not a.bm.is_file():
        print(f"skipped: no basic-memory at {a.bm} (install it into a venv of its own; see this script's docstring)")
        return 0
    env = bf.bench_env(drop=("CARDS_TODAY",), pycache=a.work / "pycache")
    cards = bf.cards_command(ap, a.cards)
    source, _ = bf.ensure_vault(a.work, a.generator, a.n, a.seed, env)
    runs = [one_run(cards, a.bm, source, env, a.query) for _ in range(a.repeat)]
    med = {name: statistics.median(r[name] for r in runs) for name in runs[0]}
    floor = med["floor: python read"]
    print(f"{a.n} cards, {a.repeat} run(s), query {a.query!r}; medians")
    print(f"  {'step':28} {'median s':>9} {'x read':>8}")
    for name, value in med.items():
        print(f"  {name:28} {value:9.3f} {value / floor:8.1f}")
    ours = med["cards index"] + med["cards search"]
    theirs = med["basic-memory project add"] + med["basic-memory search-notes"]
    print(f"\n  index from nothing + one search: cards {ours:.3f} s, basic-memory {theirs:.3f} s: "
          f"{theirs / ours:.0f}x faster ({'PASS' if theirs / ours >= 100 else 'MISS'} >= 100x)")
    return 0


if __name__ == "__main__":
    bf.run_main(main)
