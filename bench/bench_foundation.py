#!/usr/bin/env python3
"""Benchmark the foundation of cardindex against the cost of just reading the cards.

Not a test: it prints a table per vault size and, with --json, writes every sample.
Every number is the wall time of a real subprocess (time.perf_counter around
subprocess.run), so interpreter start-up and imports are included, as a user sees them.

    python bench/bench_foundation.py                        # 1k, 10k, 50k; 5 repeats
    python bench/bench_foundation.py --sizes 1000,10000 --repeat 5 --json bench/results/run.json

Vaults come from ../shared/bench/make_vault.py (seeded, byte-identical per size and
seed) and are kept under bench/vaults/ (gitignored) for the next run. See bench/README.md
for what each row means.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parent.parent
DEFAULT_GENERATOR = REPO.parent / "shared" / "bench" / "make_vault.py"
DEFAULT_WORK = REPO / "bench" / "vaults"
STAMP = ".bench-stamp.json"  # a dot file: never a card, never read by the floors
RACY_WAIT = 2.1  # the parse cache trusts a file's stat only when it changed >= 2 s before the cache was written

# The read floor: walk the vault and read every card's bytes, nothing else.
FLOOR_READ = r"""
import os, sys
n = size = 0
for folder, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = [d for d in dirs if not d.startswith(".")]
    for name in files:
        if name.endswith(".md") and name != "INDEX.md" and not name.startswith("."):
            with open(os.path.join(folder, name), "rb") as fh:
                size += len(fh.read())
            n += 1
print(n, size)
"""

TARGETS = {  # issue 2's targets; each is judged on the median
    "cold": "cold index <= 2x read floor",
    "warm": "warm index <= 0.25 s at 10k",
    "add": "add --force <= 0.25 s at 10k",
    "add_gate": "add (gate) <= 0.25 s at 10k",
    "startup": "cards --help <= 120 ms",
}


# ------------------------------------------------------------------ helpers


Cmd = list[str] | str
Proc = subprocess.CompletedProcess[str]
Row = dict[str, Any]  # one operation's numbers: median, min, max, spread, samples, cpu, ...


class Timed(NamedTuple):
    wall: float  # seconds, perf_counter around subprocess.run
    cpu: float  # user + sys seconds of the child and its children
    proc: Proc


class BenchError(RuntimeError):
    """cards (or a floor) did something unexpected; the message says what."""


def fmt_cmd(cmd: Cmd) -> str:
    return cmd if isinstance(cmd, str) else shlex.join(cmd)


def run(cmd: Cmd, *, env: dict[str, str], shell: bool = False) -> Timed:
    """Wall time and CPU time of one subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, shell=shell, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Timed(wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc)


def expect(proc: Proc, cmd: Cmd, *, code: int = 0, stderr_re: str | None = None) -> re.Match[str] | None:
    """Fail loudly, quoting the command and its output, when cards misbehaves."""
    match = re.search(stderr_re, proc.stderr) if stderr_re else None
    if proc.returncode != code or (stderr_re and not match):
        raise BenchError(
            f"unexpected result from: {fmt_cmd(cmd)}\n  exit {proc.returncode} (expected {code})"
            + (f"; stderr should match {stderr_re!r}" if stderr_re else "")
            + f"\n  stdout: {proc.stdout.strip()[:2000]!r}\n  stderr: {proc.stderr.strip()[:2000]!r}"
        )
    return match


def summary(samples: list[float], cpu: list[float]) -> Row:
    med = statistics.median(samples)
    return {
        "median": med,
        "min": min(samples),
        "max": max(samples),
        "spread": (max(samples) - min(samples)) / med if med else 0.0,
        "samples": samples,
        "cpu_median": statistics.median(cpu),  # user + sys seconds: what contention does not inflate
        "cpu_samples": cpu,
    }


def card_files(vault: Path) -> list[Path]:
    out: list[Path] = []
    for folder, dirs, files in os.walk(vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        out.extend(Path(folder, f) for f in files if f.endswith(".md") and f != "INDEX.md" and not f.startswith("."))
    return sorted(out)


def settle(paths: list[Path]) -> float:
    """Wait until every file last changed (mtime or ctime) more than RACY_WAIT seconds ago.

    A file changed less than 2 s before the parse cache is written is "racily clean":
    cards re-reads it on every later run. Setting mtimes into the past does not help,
    since os.utime itself moves the ctime to now. Returns the seconds waited.
    """
    latest = 0.0
    for p in paths:
        st = p.stat()
        latest = max(latest, st.st_mtime, st.st_ctime)
    wait = latest + RACY_WAIT - time.time()
    if wait > 0:
        time.sleep(wait)
    return max(wait, 0.0)


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ------------------------------------------------------------------ vaults


def ensure_vault(work: Path, generator: Path, n: int, seed: int, env: dict[str, str]) -> tuple[Path, bool]:
    """The vault for (n, seed): reused when its stamp matches, else generated again.

    The stamp is removed while a benchmark mutates the vault and written back once the
    vault is restored, so a run that dies half-way forces a fresh vault next time.
    """
    vault = work / f"vault-{n}-seed{seed}"
    want = {"n": n, "seed": seed, "generator_sha256": sha256_file(generator)}
    stamp = vault / STAMP
    try:
        have = json.loads(stamp.read_text())
    except (OSError, ValueError):
        have = None
    if have == want and len(card_files(vault)) == n:
        stamp.unlink()
        return vault, True
    work.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(generator), "--n", str(n), "--out", str(vault), "--seed", str(seed)]
    r = run(cmd, env=env)
    expect(r.proc, cmd)
    print(f"  generated in {r.wall:.1f} s: {r.proc.stdout.strip()}")
    return vault, False


def release_vault(vault: Path, generator: Path, n: int, seed: int) -> None:
    want = {"n": n, "seed": seed, "generator_sha256": sha256_file(generator)}
    (vault / STAMP).write_text(json.dumps(want) + "\n")


def clear_state(vault: Path) -> None:
    shutil.rmtree(vault / ".cardindex", ignore_errors=True)
    for name in ("INDEX.md",):
        try:
            (vault / name).unlink()
        except FileNotFoundError:
            pass


# ------------------------------------------------------------------ the measurements


class Bench:
    def __init__(self, cards: list[str], repeat: int, env: dict[str, str], wait_idle: float = 0.0) -> None:
        self.cards = cards
        self.repeat = repeat
        self.env = env
        self.wait_idle = wait_idle

    def idle(self) -> float | None:
        """Wait up to `wait_idle` s for a second in which under 15% of the machine is busy.

        On a shared machine this keeps other work out of most series. Returns the busy
        share of the last second sampled (None when off or without /proc/stat).
        """
        if self.wait_idle <= 0:
            return None
        deadline = time.monotonic() + self.wait_idle
        while True:
            before = _cpu_ticks()
            time.sleep(1.0)
            busy = _busy(before, _cpu_ticks())
            if busy is None or busy < 0.15 or time.monotonic() >= deadline:
                return busy

    def series(
        self,
        cmd_for: Callable[[int], Cmd],
        *,
        repeat: int | None = None,
        setup: Callable[[int], object] | None = None,
        check: Callable[[int, Cmd, Proc], object] | None = None,
        teardown: Callable[[int, Proc], object] | None = None,
        shell: bool = False,
        warmup: bool = True,
    ) -> Row:
        """Time `cmd_for(i)` `repeat` times; setup/teardown run outside the clock."""
        repeat = repeat or self.repeat
        busy_at_start = self.idle()
        samples: list[float] = []
        cpu: list[float] = []
        ticks_before = _cpu_ticks()
        rounds = ([-1] if warmup else []) + list(range(repeat))
        for i in rounds:
            if setup:
                setup(i)
            cmd = cmd_for(i)
            r = run(cmd, env=self.env, shell=shell)
            if check:
                check(i, cmd, r.proc)
            if teardown:
                teardown(i, r.proc)
            if i >= 0:
                samples.append(r.wall)
                cpu.append(r.cpu)
        row = summary(samples, cpu)
        row["machine_busy"] = _busy(ticks_before, _cpu_ticks())
        row["machine_busy_before"] = busy_at_start
        return row

    def cards_cmd(self, vault: Path, *args: str) -> list[str]:
        return [*self.cards, "--vault", str(vault), *args]

    def untimed(self, cmd: list[str], stderr_re: str | None = None) -> Proc:
        proc = run(cmd, env=self.env).proc
        expect(proc, cmd, stderr_re=stderr_re)
        return proc


# ------------------------------------------------------------------ shared by every bench script


def cards_command(ap: argparse.ArgumentParser, given: str | None) -> list[str]:
    """`--cards`, else the cards next to this Python, else the one on PATH."""
    if given:
        return shlex.split(given)
    beside = Path(sys.executable).parent / "cards"
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("cards")  # e.g. run with another python than the venv's
    if found is None:
        ap.error(f"no cards next to {sys.executable} nor on PATH; pass --cards")
    return [found]


def bench_env(*, drop: tuple[str, ...] = (), pycache: Path | None = None) -> dict[str, str]:
    """The environment for the timed subprocesses: no vault, editor or `drop` settings leak in.

    With `pycache`, bytecode is cached there: an installed wheel has its .pyc files, and an
    editable install under PYTHONDONTWRITEBYTECODE=1 would compile cardindex on every run.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", *drop)}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache.resolve())
    return env


def write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, default=str) + "\n")
    print(f"\nwrote {path}")


def run_main(main: Callable[[], int], *, stopped: int = 1) -> None:
    """Exit with `main()`'s code; a benchmark that stops says why in one line and exits `stopped`."""
    try:
        sys.exit(main())
    except BenchError as exc:
        print(f"\nbenchmark stopped: {exc}", file=sys.stderr)
        sys.exit(stopped)
    except KeyboardInterrupt:
        sys.exit(130)


warnings: list[str] = []


def _cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) jiffies of the whole machine from /proc/stat, or None elsewhere."""
    try:
        with open("/proc/stat") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields) - idle, sum(fields)


def _busy(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """Share of all CPUs busy over a series; the benchmark itself keeps about one CPU busy."""
    if not before or not after or after[1] == before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def cache_state(vault: Path) -> dict[str, tuple[int, int]]:
    folder = vault / ".cardindex" / "cache"
    try:
        return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}
    except OSError:
        return {}


def source_files() -> dict[str, str]:
    """cardindex/ and templates/ as they are on disk (path -> sha256): other work may change them mid-run."""
    paths = sorted((REPO / "cardindex").rglob("*.py")) + sorted((REPO / "templates").glob("*"))
    return {p.relative_to(REPO).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def source_digest(files: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]


def index_counts(stderr: str) -> tuple[int, int] | None:
    m = re.search(r"\((\d+) cards(?:, (\d+) left out by the budget)?\)", stderr)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def bench_size(b: Bench, vault: Path, n: int) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    files = card_files(vault)
    if len(files) != n:
        raise BenchError(f"{vault}: expected {n} cards, found {len(files)}")
    settle(files)

    # 1. the floors
    rows["floor: python read"] = b.series(
        lambda i: [sys.executable, "-c", FLOOR_READ, str(vault)],
        check=lambda i, cmd, p: _check_floor(cmd, p, n),
    )
    cat = (
        f"cd {shlex.quote(str(vault))} && find . -name '*.md' -not -name INDEX.md -not -path '*/.*' -print0"
        " | xargs -0 cat > /dev/null"
    )
    rows["floor: cat"] = b.series(lambda i: cat, shell=True, check=lambda i, cmd, p: expect(p, cmd))

    # 2. cold index: no parse cache, no INDEX.md
    def check_cold(i: int, cmd: Cmd, proc: Proc) -> None:
        expect(proc, cmd, stderr_re=r"wrote INDEX\.md")
        counts = index_counts(proc.stderr)
        if counts is None or sum(counts) != n:
            raise BenchError(
                f"{fmt_cmd(cmd)}: expected {n} live cards (shown + left out), stderr: {proc.stderr.strip()!r}"
            )

    rows["cold index"] = b.series(
        lambda i: b.cards_cmd(vault, "index"), setup=lambda i: clear_state(vault), check=check_cold
    )
    index_text = (vault / "INDEX.md").read_text()
    shown, omitted = index_counts(b.untimed(b.cards_cmd(vault, "index", "--check")).stderr) or (0, 0)

    # 3. warm index: cache in place, nothing changed. A warm run that rewrites the parse
    #    cache did not trust it (racily clean files, a cache miss): say so.
    up_to_date = r"INDEX\.md is up to date"
    snapshot: dict[str, object] = {}

    def check_warm(i: int, cmd: Cmd, proc: Proc) -> None:
        expect(proc, cmd, stderr_re=up_to_date)
        now = cache_state(vault)
        if now != snapshot["before"]:
            warnings.append(
                f"{n}: warm run {i + 1 if i >= 0 else '(warm-up)'} rewrote {vault / '.cardindex' / 'cache'}: the cache was not trusted"
            )

    rows["warm index"] = b.series(
        lambda i: b.cards_cmd(vault, "index"),
        setup=lambda i: snapshot.update(before=cache_state(vault)),
        check=check_warm,
    )

    # parse everything again without the cache (INDEX.md present, so no write): the parse cost alone
    rows["index --no-cache"] = b.series(
        lambda i: [*b.cards, "--vault", str(vault), "--no-cache", "index"],
        check=lambda i, cmd, p: expect(p, cmd, stderr_re=up_to_date),
    )

    # 4a. one card's body edited: one file re-read and parsed, INDEX.md unchanged
    target = files[0]
    original = target.read_bytes()

    def edit_body(i: int) -> None:
        target.write_bytes(original + f"\nBenchmark edit {i}.\n".encode())

    rows["warm index, 1 body edit"] = b.series(
        lambda i: b.cards_cmd(vault, "index"),
        setup=edit_body,
        check=lambda i, cmd, p: expect(p, cmd, stderr_re=up_to_date),
    )
    target.write_bytes(original)
    settle([target])
    b.untimed(b.cards_cmd(vault, "index"))

    # 4b. the description of a card shown in INDEX.md edited: INDEX.md re-rendered and written
    link = re.search(r"^- \[[^\]]*\]\(([^)]+)\)", index_text, re.MULTILINE)
    if link is None:
        raise BenchError(f"no card link in {vault / 'INDEX.md'}:\n{index_text[:500]}")
    shown_card = vault / link.group(1)
    shown_original = shown_card.read_bytes()
    if not re.search(rb'^description: "', shown_original, re.MULTILINE):
        raise BenchError(f"{shown_card}: no quoted description line to edit")

    def edit_description(i: int) -> None:
        shown_card.write_bytes(
            re.sub(rb'^(description: ")', b"\\1Edited %d: " % i, shown_original, count=1, flags=re.MULTILINE)
        )

    rows["warm index, 1 shown-description edit"] = b.series(
        lambda i: b.cards_cmd(vault, "index"),
        setup=edit_description,
        check=lambda i, cmd, p: expect(p, cmd, stderr_re=r"wrote INDEX\.md"),
    )
    shown_card.write_bytes(shown_original)
    settle([shown_card])
    b.untimed(b.cards_cmd(vault, "index"))
    if (vault / "INDEX.md").read_text() != index_text:
        raise BenchError(f"{vault / 'INDEX.md'} differs from the cold run's after restoring the edited cards")

    # 5. cards add into the warm vault; each added card is removed again (untimed) and
    #    the index regenerated, so every repeat sees the same vault. `--force` skips the
    #    write gate (the lint rules a new card must pass); the second series keeps it.
    token = f"{os.getpid()}x{int(time.time())}"

    def add_series(kind: str, *flags: str) -> Row:
        def text(i: int) -> str:
            return f"Benchmark fact {token}{kind} number {i + 1}: the bench runs before every release."

        def add_cmd(i: int) -> list[str]:
            desc = f"Benchmark card {token}{kind} number {i + 1} about release timing"
            return b.cards_cmd(vault, "add", text(i), "-d", desc, *flags)

        def add_teardown(i: int, proc: Proc) -> None:
            path = Path(proc.stdout.strip())
            if not path.is_file() or text(i) not in path.read_text():
                raise BenchError(
                    f"cards add printed {proc.stdout.strip()!r}, but that file is missing or lacks the text"
                )
            path.unlink()
            b.untimed(b.cards_cmd(vault, "index"))

        row = b.series(add_cmd, check=lambda i, cmd, p: expect(p, cmd), teardown=add_teardown)
        b.untimed(b.cards_cmd(vault, "index", "--check"), stderr_re=up_to_date)
        if len(card_files(vault)) != n:
            raise BenchError(f"{vault}: {len(card_files(vault))} cards after the add series, expected {n}")
        return row

    rows["add --force"] = add_series("f", "--force")
    try:
        rows["add (write gate on)"] = add_series("g")
    except BenchError as exc:  # the gate may refuse the benchmark's card: report it, keep going
        warnings.append(f"{n}: add without --force: {exc}")

    # 6. the racily-clean trap: every card changed (here: os.utime, which moves the ctime)
    #    less than 2 s before the cold run wrote the cache. Warm runs then re-read every
    #    card until something else makes cards save its cache again.
    def racy_setup() -> None:
        now = time.time() - 3600
        for p in files:
            os.utime(p, (now, now))
        clear_state(vault)
        b.untimed(b.cards_cmd(vault, "index"), stderr_re=r"wrote INDEX\.md")

    racy_setup()
    rows["warm index, cache written < 2 s after the cards changed"] = b.series(
        lambda i: b.cards_cmd(vault, "index"), check=lambda i, cmd, p: expect(p, cmd, stderr_re=up_to_date)
    )

    for row in rows.values():
        row["shown"], row["omitted"] = shown, omitted
    return rows


def _check_floor(cmd: Cmd, proc: Proc, n: int) -> None:
    expect(proc, cmd)
    got = int(proc.stdout.split()[0])
    if got != n:
        raise BenchError(f"read floor saw {got} cards, expected {n}")


def bench_startup(b: Bench, repeat: int) -> dict[str, Row]:
    help_cmd = [*b.cards, "--help"]
    rows = {
        "python -c pass": b.series(
            lambda i: [sys.executable, "-c", "pass"], repeat=repeat, check=lambda i, cmd, p: expect(p, cmd)
        ),
        "cards --help": b.series(lambda i: help_cmd, repeat=repeat, check=lambda i, cmd, p: expect(p, cmd)),
    }
    return rows


# ------------------------------------------------------------------ reporting


def verdict(ok: bool, ok_at_min: bool | None = None) -> str:
    """PASS/MISS on the median; a miss whose fastest run would pass says so (noise, or close)."""
    if ok:
        return "PASS"
    return "MISS (min PASS)" if ok_at_min else "MISS"


def targets_for(size: int, rows: dict[str, Row]) -> list[tuple[str, str, str]]:
    """(target, measured, PASS/MISS) lines for one size, judged on the median."""
    floor = rows["floor: python read"]["median"]
    floor_cpu = rows["floor: python read"]["cpu_median"]
    out = []
    cold = rows["cold index"]
    floor_min = rows["floor: python read"]["min"]
    out.append(
        (
            TARGETS["cold"],
            (
                f"{cold['median'] / floor:.2f}x ({cold['median']:.3f} s vs {floor:.3f} s; "
                f"min/min {cold['min'] / floor_min:.2f}x; cpu {cold['cpu_median'] / floor_cpu:.2f}x)"
            ),
            verdict(cold["median"] <= 2 * floor, cold["min"] <= 2 * floor_min),
        )
    )
    if size == 10_000:
        for key, name in (("warm", "warm index"), ("add", "add --force"), ("add_gate", "add (write gate on)")):
            if name not in rows:
                continue
            r = rows[name]
            out.append(
                (
                    TARGETS[key],
                    f"{r['median']:.3f} s (min {r['min']:.3f} s, cpu {r['cpu_median']:.3f} s)",
                    verdict(r["median"] <= 0.25, r["min"] <= 0.25),
                )
            )
    return out


def print_table(title: str, rows: dict[str, Row], floor: float | None, cat: float | None) -> None:
    print(f"\n{title}")
    head = f"  {'operation':<56} {'median s':>9} {'min s':>8} {'max s':>8} {'spread':>7}"
    if floor:
        head += f" {'x read':>7} {'x cat':>7}"
    head += f" {'cpu s':>7} {'busy':>5}"
    print(head)
    print("  " + "-" * (len(head) - 2))
    for name, r in rows.items():
        line = f"  {name:<56} {r['median']:>9.3f} {r['min']:>8.3f} {r['max']:>8.3f} {r['spread'] * 100:>6.0f}%"
        if floor:
            line += f" {r['median'] / floor:>7.2f} {r['median'] / cat:>7.2f}"
        busy = r.get("machine_busy")
        line += f" {r['cpu_median']:>7.3f} {'' if busy is None else f'{busy * 100:.0f}%':>5}"
        print(line)


def _loadavg() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def machine_info(cards: list[str], env: dict[str, str], sources: dict[str, str]) -> dict[str, Any]:
    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ver = run([*cards, "--version"], env=env).proc
    try:
        commit = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], check=False, capture_output=True, text=True
        ).stdout.strip()
        dirty = bool(
            subprocess.run(
                ["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                check=False,
                capture_output=True,
                text=True,
            ).stdout.strip()
        )
    except OSError:
        commit, dirty = None, None
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu,
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "platform": platform.platform(),
        "cards": fmt_cmd(cards),
        "cards_version": ver.stdout.strip() or ver.stderr.strip(),
        "git_commit": commit,
        "git_dirty": dirty,
        "source_sha256": source_digest(sources),  # cardindex/ and templates/ as measured (the tree may be dirty)
        "loadavg_at_start": load,
    }


# ------------------------------------------------------------------ main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,50000", help="comma-separated vault sizes (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per operation (default: %(default)s)")
    ap.add_argument("--startup-repeat", type=int, default=10, help="timed runs of cards --help (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=42, help="generator seed (default: %(default)s)")
    ap.add_argument("--work", type=Path, default=DEFAULT_WORK, help="where vaults are kept (default: bench/vaults/)")
    ap.add_argument(
        "--generator",
        type=Path,
        default=DEFAULT_GENERATOR,
        help="make_vault.py (default: ../shared/bench/make_vault.py from the repo root)",
    )
    ap.add_argument(
        "--cards", help="the cards command, e.g. 'python -m cardindex' (default: the cards next to this Python)"
    )
    ap.add_argument(
        "--bytecode",
        choices=("cached", "env"),
        default="cached",
        help="cached (default): let every subprocess cache bytecode under WORK/pycache, as an "
        "installed wheel would; env: run with the inherited environment as it is "
        "(PYTHONDONTWRITEBYTECODE=1 then means recompiling cardindex on every run)",
    )
    ap.add_argument(
        "--wait-idle",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="before each series, wait up to SECONDS for the machine to be idle (for shared machines; default: off)",
    )
    ap.add_argument("--json", type=Path, metavar="OUT", help="write every number and sample here")
    a = ap.parse_args()

    sizes = [int(s) for s in a.sizes.split(",") if s.strip()]
    if a.repeat < 1 or not sizes or min(sizes) < 1:
        ap.error("--repeat and --sizes must be positive")
    if not a.generator.is_file():
        ap.error(f"no generator at {a.generator}")
    cards = cards_command(ap, a.cards)
    env = bench_env(pycache=a.work / "pycache" if a.bytecode == "cached" else None)
    b = Bench(cards, a.repeat, env, a.wait_idle)

    sources = source_files()
    info = machine_info(cards, env, sources)
    print(f"cardindex foundation benchmark — {info['date']}")
    print(f"  machine: {info['cpu_count']} CPUs ({info['cpu_model']}), {info['platform']}")
    print(f"  python {info['python']} ({sys.executable}); {info['cards_version']} at {info['cards']}")
    print(
        f"  git {info['git_commit']}{' (dirty)' if info['git_dirty'] else ''}, sources {info['source_sha256']}; "
        f"load average {tuple(round(x, 2) for x in info['loadavg_at_start'] or ())}"
    )
    print(f"  sizes {sizes}, {a.repeat} timed runs each after one untimed warm-up; medians judged")
    if a.wait_idle > 0:
        print(f"  waiting up to {a.wait_idle:g} s before each series for the machine to be idle")
    info["wait_idle"] = a.wait_idle
    print(
        f"  bytecode: {a.bytecode}"
        + (
            f" (PYTHONPYCACHEPREFIX={env['PYTHONPYCACHEPREFIX']})"
            if "PYTHONPYCACHEPREFIX" in env
            else f" (PYTHONDONTWRITEBYTECODE={env.get('PYTHONDONTWRITEBYTECODE', '')!r})"
        )
    )
    info["bytecode"] = a.bytecode

    result: dict[str, Any] = {"machine": info, "repeat": a.repeat, "seed": a.seed, "sizes": {}, "startup": {}}
    verdicts: list[tuple[str, str, str, str]] = []

    load_before = _loadavg()
    startup = bench_startup(b, max(a.startup_repeat, 1))
    result["startup"] = startup
    print_table(f"startup (no vault; 1-min load {load_before} -> {_loadavg()})", startup, None, None)
    helpm = startup["cards --help"]["median"]
    verdicts.append(
        (
            "-",
            TARGETS["startup"],
            (
                f"{helpm * 1000:.0f} ms (cpu {startup['cards --help']['cpu_median'] * 1000:.0f}"
                f" ms; python -c pass {startup['python -c pass']['median'] * 1000:.0f} ms)"
            ),
            verdict(helpm <= 0.120, startup["cards --help"]["min"] <= 0.120),
        )
    )

    for n in sizes:
        print(f"\nvault of {n} cards")
        vault, reused = ensure_vault(a.work, a.generator, n, a.seed, env)
        if reused:
            print(f"  reusing {vault}")
        t0 = time.perf_counter()
        load_before = _loadavg()
        rows = bench_size(b, vault, n)
        load_after = _loadavg()
        release_vault(vault, a.generator, n, a.seed)
        floor = rows["floor: python read"]["median"]
        cat = rows["floor: cat"]["median"]
        for r in rows.values():
            r["x_read"] = r["median"] / floor
            r["x_cat"] = r["median"] / cat
        shown, omitted = rows["cold index"]["shown"], rows["cold index"]["omitted"]
        print_table(
            f"{n} cards  (INDEX.md shows {shown}, {omitted} left out by the budget; "
            f"series took {time.perf_counter() - t0:.0f} s; 1-min load {load_before} -> {load_after})",
            rows,
            floor,
            cat,
        )
        tl = targets_for(n, rows)
        for target, measured, v in tl:
            print(f"  target {target:<30} {v:<15} {measured}")
            verdicts.append((str(n), target, measured, v))
        result["sizes"][str(n)] = {
            "vault": str(vault),
            "reused": reused,
            "rows": rows,
            "loadavg_1min": [load_before, load_after],
            "targets": [dict(zip(("target", "measured", "verdict"), t, strict=False)) for t in tl],
        }

    now = source_files()
    if now != sources:
        changed = sorted(k for k in now.keys() | sources.keys() if now.get(k) != sources.get(k))
        warnings.append(
            f"cardindex sources changed during the run ({info['source_sha256']} -> {source_digest(now)}; "
            f"{', '.join(changed)}): the numbers may mix versions"
        )
    print("\ntargets (issue 2), judged on medians")
    for size, target, measured, v in verdicts:
        print(f"  {v:<15} {size:>6}  {target:<30} {measured}")
    result["verdicts"] = [dict(zip(("size", "target", "measured", "verdict"), v, strict=False)) for v in verdicts]
    result["warnings"] = warnings
    for w in warnings:
        print(f"  WARNING: {w}")

    if a.json:
        write_json(a.json, result)
    return 0


if __name__ == "__main__":
    run_main(main)
