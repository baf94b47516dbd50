"""Two versions of cardindex, run in alternation on one vault: warm lint, add, cold index (issue 18).

The warm findings, each added card, INDEX.md and the journaled job must be the same in both.

Not a test. On a machine shared with other work, a number measured a few minutes after
another one can differ by half. Here the two versions take turns, run by run, and the
read floor is measured between them, so both see the same load.

    git archive be7bf2f | tar -x -C /tmp/before        # the version to compare against
    python bench/bench_ab.py --before /tmp/before --vault bench/vaults/vault-10000-seed42

Each version runs as `python -P -S -m cardindex` with its source folder first on
PYTHONPATH, and this venv's site-packages second, on its own copy of the vault made beside
it (`VAULT-ab-before`, `VAULT-ab-after`, removed at the end): the two versions' caches and
memos are keyed on different code, so on one vault each run would undo the other's. The
copies are written to: an added card is removed after each add, INDEX.md is made again,
and `.cardindex/` is deleted before each cold run. Use a generated vault, never one of
your own. The floor reads the original vault.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as bf  # a sibling script, not a package


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="a source tree of the other version (holds cardindex/)")
    ap.add_argument("--after", type=Path, default=bf.REPO, help="default: this checkout")
    ap.add_argument("--vault", type=Path, required=True)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    vault = a.vault.resolve()
    site = sysconfig.get_paths()["purelib"]
    env = bf.bench_env(drop=("CARDS_TODAY",), pycache=bf.DEFAULT_WORK / "pycache")
    code = {"before": a.before.resolve(), "after": a.after.resolve()}
    walls: dict[str, list[float]] = {}
    copies = {which: vault.with_name(f"{vault.name}-ab-{which}") for which in code}
    for copy in copies.values():
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(vault, copy, ignore=shutil.ignore_patterns(".cardindex"))
    time.sleep(bf.RACY_WAIT)  # copied files are racily clean until then: no cache would trust their stat
    try:
        return _runs(a, vault, copies, code, site, env, walls)
    finally:
        for copy in copies.values():
            shutil.rmtree(copy, ignore_errors=True)


def _runs(a: argparse.Namespace, vault: Path, copies: dict[str, Path], code: dict[str, Path], site: str,
          env: dict[str, str], walls: dict[str, list[float]]) -> int:
    def cards(which: str, *args: str) -> list[str]:
        return ["env", f"PYTHONPATH={code[which]}:{site}", sys.executable, "-P", "-S", "-m", "cardindex",
                "--vault", str(copies[which]), *args]

    def timed(cmd: list[str], name: str | None = None) -> subprocess.CompletedProcess[str]:
        start = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise bf.BenchError(f"{bf.fmt_cmd(cmd)} exited {done.returncode}: {done.stderr[-500:]}")
        if name:
            walls.setdefault(name, []).append(wall)
        return done

    def floor() -> None:
        timed([sys.executable, "-c", bf.FLOOR_READ, str(vault)], "floor")

    lint = ("lint", "--exit-zero", "--format", "json")
    seen: dict[str, dict[str, str]] = {}  # what each version printed or wrote, by step: they must be equal

    def same(step: str, which: str, text: str) -> None:
        got = seen.setdefault(step, {})
        got[which] = text.replace(str(copies[which]), "VAULT")
        if len(got) == len(code) and len(set(got.values())) > 1:
            raise bf.BenchError(f"{step}: the two versions differ")
    for which in code:  # caches of both versions warm, and settled
        timed(cards(which, "index"))
        timed(cards(which, *lint))
    time.sleep(bf.RACY_WAIT)
    for which in code:
        timed(cards(which, *lint))
    for _ in range(a.repeat):
        for which in code:
            floor()
            same("warm lint findings", which, timed(cards(which, *lint), f"{which}: warm lint").stdout)
    for i in range(a.repeat):
        for which in code:
            floor()
            text = f"Bench fact {i} {os.getpid()}: the kiln cools overnight before it is unloaded."
            added = timed(cards(which, "add", text, "-d", f"Kiln card {i} {os.getpid()} on cooling"),
                          f"{which}: add")
            card = Path(added.stdout.strip())
            same(f"add {i}: the card and INDEX.md", which, card.read_text() + (copies[which] / "INDEX.md").read_text())
            # The job it journaled: its actions and reasons (its id and time are the run's own).
            newest = timed(cards(which, "journal", "-n", "1")).stdout.splitlines()[1:]
            same(f"add {i}: the journal's actions", which, "\n".join(newest))
            card.unlink()
            timed(cards(which, "index"))
    for _ in range(a.repeat):
        for which in code:
            shutil.rmtree(copies[which] / ".cardindex", ignore_errors=True)
            (copies[which] / "INDEX.md").unlink(missing_ok=True)
            floor()
            timed(cards(which, "index"), f"{which}: cold index")
            same("cold INDEX.md", which, (copies[which] / "INDEX.md").read_text())
    base = statistics.median(walls.pop("floor"))
    print(f"read floor {base:.3f} s (median, measured between the runs); medians of {a.repeat}")
    print(f"  equal in both versions: {', '.join(sorted(seen))}")
    for name, samples in sorted(walls.items(), key=lambda kv: (kv[0].split(": ")[1], kv[0])):
        m = statistics.median(samples)
        print(f"  {name:22} {m:7.3f} s {m / base:7.2f}x  (min {min(samples):.3f})")
    return 0


if __name__ == "__main__":
    bf.run_main(main)
