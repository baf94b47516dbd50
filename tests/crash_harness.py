"""Kill -9 a cards command at random points, run a next step, check the vault ends whole.

Shared by tests/test_crash.py (a few trials per command, in CI) and bench/bench_crash.py
(the full count on bigger vaults). Each scenario has a vault B (before the command) and
A (after a complete run, computed once on a copy). A trial copies B, starts the command
as a real subprocess and kills it with SIGKILL: at a random moment, after its Nth file
write (`CARDS_TEST_KILL_AFTER_WRITES`), or right after one durable step of the job
(`CARDS_TEST_KILL_AT`). Then it runs one next step (undo, status, index, add,
consolidate or lint) and checks:

- every file of the vault outside `.cardindex/` and INDEX.md is exactly what the next
  step leaves on B, or exactly what it leaves on A: the whole vault, never a mix;
- after `cards index`, INDEX.md too;
- no pending mark, no temp file of ours (a parse-cache temp younger than the grace
  the cleanup allows is tolerated), no card both live and archived;
- `cards undo`, repeated until the journal has nothing left, ends on the vault as it
  was generated, byte for byte, and never refuses with "changed by hand".
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

TODAY = "2026-11-30"
TEMP_SUFFIX = ".cards-tmp"
CACHE_GRACE = 10.0
KILL_POINTS = ("pack", "mark", "entry", "written", "cleared")
NEXT_STEPS = ("undo", "status", "index", "add", "consolidate", "lint")
PROBE = ["add", "Crash probe: the nightly export keeps 14 days of snapshots.", "-n", "crash probe", "--force"]

_SYL = ["ka", "lo", "mi", "tre", "vo", "sa", "ne", "bri", "do", "fa", "gu", "hel", "ji", "ko", "lu", "mar",
        "no", "pe", "qui", "ra", "sti", "tu", "ul", "ve", "wy", "xa", "yo", "zen"]
_ASPECTS = {
    "storage": ["PostgreSQL 15", "PostgreSQL 16", "MySQL 8", "SQLite", "DynamoDB"],
    "cache": ["Redis", "Memcached", "Varnish", "KeyDB"],
    "queue": ["Celery", "RQ", "Kafka", "RabbitMQ", "SQS"],
    "ci": ["GitHub Actions", "GitLab CI", "Jenkins", "Buildkite"],
    "deploy": ["Helm charts", "Nomad jobs", "AWS ECS", "systemd units"],
    "tests": ["pytest", "vitest", "jest", "cargo nextest"],
}


class TrialFailed(AssertionError):
    """A trial left a vault that is not whole."""


def _name(i: int) -> str:
    a, b, c = i % 28, (i // 28) % 28, (i // 784) % 28
    return (_SYL[a] + _SYL[b] + _SYL[c]).capitalize()


def make_vault(root: Path, n: int, seed: int = 7) -> None:
    """A vault of about `n` cards with work for consolidate: ~7% superseded values, ~4%
    expired cards, ~3% reworded duplicates; a third of the cards in a subfolder."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    (root / ".cardindex.yaml").write_text("index_budget:\n  lines: 400\n  bytes: 60000\n", encoding="utf-8")
    (root / "team").mkdir()
    aspects = sorted(_ASPECTS)
    for i in range(n):
        name, aspect = _name(i // len(aspects)), aspects[i % len(aspects)]
        value = rng.choice(_ASPECTS[aspect])
        key = f"{name.lower()}-{aspect}"
        month, day = 1 + rng.randrange(9), 1 + rng.randrange(28)
        extra = ""
        if i % 15 == 14:  # a newer value in the previous card's slot: supersedes it
            prev_name, prev_aspect = _name((i - 1) // len(aspects)), aspects[(i - 1) % len(aspects)]
            name, aspect, key = prev_name, prev_aspect, f"{prev_name.lower()}-{prev_aspect}"
            value = f"{rng.choice(_ASPECTS[aspect])} (replacing the old choice)"
            month = 10
        elif i % 23 == 22:
            extra = "expires: 2026-03-01\n"
        text = (f"---\ndescription: {name} uses {value} for {aspect}\ntype: project\nkey: {key}\n"
                f"created: 2026-{month:02d}-01\nverified: 2026-{month:02d}-{day:02d}\n{extra}---\n"
                f"{name} uses {value} for {aspect}.\n\n**Why:** decided in design review {i}.\n")
        folder = root / "team" if i % 3 == 0 else root
        (folder / f"{name.lower()}-{aspect}-{i}.md").write_text(text, encoding="utf-8")
        if i % 31 == 30:  # the same value of the same key, reworded: merged
            dup = (f"---\ndescription: For {aspect}, {name} relies on {value}\ntype: project\nkey: {key}\n"
                   f"created: 2026-{month:02d}-01\nverified: 2026-{month:02d}-{day:02d}\n---\n"
                   f"For {aspect}, {name} relies on {value}.\n")
            (root / f"{name.lower()}-{aspect}-{i}-again.md").write_text(dup, encoding="utf-8")


# ------------------------------------------------------------------ running cards


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH", "CARDS_TEST_KILL_AFTER_WRITES",
                        "CARDS_TEST_KILL_AT")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), CARDS_TODAY=TODAY, CARDS_LOCK_TIMEOUT="120", **extra)
    return env


def cards(vault: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def _ok(done: subprocess.CompletedProcess[str], *allowed: int) -> subprocess.CompletedProcess[str]:
    if done.returncode not in (allowed or (0,)) or "Traceback" in done.stderr:
        raise TrialFailed(f"cards {' '.join(map(str, done.args[4:]))} exited {done.returncode}: {done.stderr[-2000:]}")
    return done


# ------------------------------------------------------------------ snapshots


def snapshot(root: Path, *, with_index: bool = True) -> dict[str, str]:
    """sha256 of every file under the vault outside `.cardindex/` (INDEX.md only if asked)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        if rel_folder == ".":
            dirs[:] = [d for d in dirs if d != ".cardindex"]
        for name in files:
            rel = os.path.normpath(os.path.join(rel_folder, name))
            if rel == "INDEX.md" and not with_index:
                continue
            out[rel] = hashlib.sha256(Path(folder, name).read_bytes()).hexdigest()
    return out


def _problems(root: Path) -> list[str]:
    """What a whole vault never has: temp files, a pending mark, a card both live and archived."""
    found = []
    now = time.time()
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(TEMP_SUFFIX):
                path = Path(folder, name)
                cache = root / ".cardindex" / "cache"  # the parse cache's shards are a folder below it
                young_cache = cache in (path.parent, path.parent.parent) and now - path.stat().st_mtime < CACHE_GRACE
                if not young_cache:
                    found.append(f"temp file {path.relative_to(root)}")
    if (root / ".cardindex" / "pending").exists():
        found.append("a pending mark")
    archive = root / "archive"
    if archive.is_dir():
        for path in archive.rglob("*.md"):
            live = root / path.relative_to(archive)
            if live.exists():
                found.append(f"{live.relative_to(root)} is both live and archived")
    return found


def _diff(got: dict[str, str], want: dict[str, str]) -> str:
    changed = sorted(k for k in got.keys() & want.keys() if got[k] != want[k])
    return (f"{len(got.keys() - want.keys())} extra {sorted(got.keys() - want.keys())[:3]}, "
            f"{len(want.keys() - got.keys())} missing {sorted(want.keys() - got.keys())[:3]}, "
            f"{len(changed)} changed {changed[:3]}")


# ------------------------------------------------------------------ scenarios


@dataclass
class Scenario:
    """One command to kill, on a vault prepared by `prepare` (given a fresh copy of the generated vault)."""

    name: str
    command: list[str]
    prepare: Callable[[Path, dict[str, str]], None] = lambda vault, env: None


def scenarios(inputs: Path) -> list[Scenario]:
    """consolidate, add (a supersession), import --apply and undo (of a consolidate)."""
    notes = inputs / "notes.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    notes.write_text("# Team notes\n\n" + "".join(
        f"- The {svc} service pages the {team} rota when its error budget burns faster than {n}x.\n"
        for svc, team, n in [("ledger", "payments", 4), ("atlas", "search", 6), ("quill", "docs", 3),
                             ("harbor", "platform", 5), ("beacon", "alerts", 8), ("sprocket", "build", 2),
                             ("orchid", "mobile", 7), ("tundra", "data", 9)]), encoding="utf-8")

    def consolidated(vault: Path, env: dict[str, str]) -> None:
        _ok(cards(vault, "consolidate", env=env))

    return [
        Scenario("consolidate", ["consolidate"]),
        Scenario("add", ["add", "Kakaka now uses Valkey for cache.", "-k", "kakaka-cache", "-n", "Kakaka cache",
                         "--force"]),  # supersedes the generated card of that key
        Scenario("import", ["import", str(notes), "--apply"]),
        Scenario("undo", ["undo"], consolidated),
    ]


@dataclass
class Results:
    trials: Counter[str] = field(default_factory=Counter)  # per scenario
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)  # (scenario, "before"/"after")
    kinds: Counter[tuple[str, str]] = field(default_factory=Counter)  # (scenario, how it was killed)
    recovered: Counter[str] = field(default_factory=Counter)  # trials whose next step rolled a job back
    temps_left: Counter[str] = field(default_factory=Counter)  # trials that left temp files to clean up
    seconds: float = 0.0


class Harness:
    """The generated vault, each scenario's B and A, and references for the next steps that write."""

    def __init__(self, work: Path, n: int, seed: int = 7, point_rounds: int = 1) -> None:
        self.work = work
        self.point_rounds = point_rounds  # trials killed at each durable step: 1 or 2 rounds of 5
        self.env = cli_env(work / "home")
        self.generated = work / "generated"
        make_vault(self.generated, n, seed)
        _ok(cards(self.generated, "index", env=self.env))
        # A vault in use: a lint has kept the synonym tables in its cache, so the trials' commands read them
        # (building them takes seconds, which would be most of each killed run).
        _ok(cards(self.generated, "lint", "--exit-zero", env=self.env))
        self.pristine = snapshot(self.generated)
        self.scenarios = {s.name: s for s in scenarios(work / "inputs")}
        self._states: dict[str, tuple[Path, Path, float, int]] = {}
        self._refs: dict[tuple[str, str, str], dict[str, str]] = {}
        self._count = 0

    def _copy(self, source: Path, label: str) -> Path:
        self._count += 1
        target = self.work / f"{label}-{self._count}"
        shutil.copytree(source, target, symlinks=True)
        return target

    def states(self, name: str) -> tuple[Path, Path, float, int]:
        """(B, A, seconds a full run takes, files its job writes) for scenario `name`."""
        if name not in self._states:
            scenario = self.scenarios[name]
            before = self._copy(self.generated, f"{name}-B")
            scenario.prepare(before, self.env)
            after = self._copy(before, f"{name}-A")
            started = time.perf_counter()
            _ok(cards(after, *scenario.command, env=self.env))
            took = time.perf_counter() - started
            writes = _job_writes(after)
            self._states[name] = (before, after, took, writes)
        return self._states[name]

    def expected(self, name: str, step: str, side: str) -> dict[str, str]:
        """The vault after `step` on B or A (side "before"/"after"), with INDEX.md."""
        before, after, _, _ = self.states(name)
        source = before if side == "before" else after
        if step in ("status", "index", "lint"):
            return snapshot(source)
        if step == "undo":  # undo after the job, or after its rollback: the vault before the job
            return snapshot(before if name != "undo" else after)
        key = (name, step, side)
        if key not in self._refs:
            copy = self._copy(source, f"{name}-{step}-{side}")
            _next_step(copy, step, self.env)
            self._refs[key] = snapshot(copy)
            shutil.rmtree(copy)
        return self._refs[key]

    def trial(self, name: str, index: int, rng: random.Random, results: Results) -> None:
        scenario = self.scenarios[name]
        before, _, took, writes = self.states(name)
        vault = self._copy(before, f"{name}-trial")
        step = NEXT_STEPS[index % len(NEXT_STEPS)]
        kind = _kill(vault, scenario.command, self.env, index, rng, took, writes, self.point_rounds)
        results.kinds[(name, kind.split("=")[0])] += 1
        if any(_problems(vault)) and any(p.startswith("temp file") for p in _problems(vault)):
            results.temps_left[name] += 1
        if index % 5 == 4 and (vault / ".cardindex" / "pending").exists():
            # the next command killed too, part way through its rollback
            cards(vault, "status", env={**self.env, "CARDS_TEST_KILL_AFTER_WRITES": "1"})
        done = _next_step(vault, step, self.env)
        if "recovered: job" in done.stderr:
            results.recovered[name] += 1
        where = f"{name} trial {index} (killed {kind}, next step {step})"
        problems = _problems(vault)
        if problems:
            raise TrialFailed(f"{where}: {'; '.join(problems[:5])}")
        got = snapshot(vault, with_index=False)
        sides = {side: self.expected(name, step, side) for side in ("before", "after")}
        match = [side for side, want in sides.items() if got == {k: v for k, v in want.items() if k != "INDEX.md"}]
        if not match:
            raise TrialFailed(f"{where}: the vault is neither before nor after: "
                              + " / ".join(f"vs {side}: {_diff(got, {k: v for k, v in want.items() if k != 'INDEX.md'})}"
                                           for side, want in sides.items()))
        _ok(cards(vault, "index", env=self.env), 0)
        if snapshot(vault) not in [sides[side] for side in match]:
            raise TrialFailed(f"{where}: INDEX.md is not the one of the vault it describes")
        results.outcomes[(name, match[-1] if len(match) == 1 else "same")] += 1
        self._undo_all(vault, where)
        results.trials[name] += 1
        shutil.rmtree(vault)

    def _undo_all(self, vault: Path, where: str) -> None:
        for _ in range(8):
            done = cards(vault, "undo", env=self.env)
            if done.returncode == 1 and "nothing to undo" in done.stderr:
                break
            if done.returncode != 0 or "Traceback" in done.stderr:
                raise TrialFailed(f"{where}: cards undo exited {done.returncode}: {done.stderr[-1000:]}")
        else:
            raise TrialFailed(f"{where}: cards undo never ran out of jobs")
        if _problems(vault) or snapshot(vault) != self.pristine:
            raise TrialFailed(f"{where}: undoing every job does not give back the generated vault: "
                              f"{_problems(vault)} {_diff(snapshot(vault), self.pristine)}")


def _job_writes(vault: Path) -> int:
    """How many file writes the newest job made (an archive, two files in the journal, is one write)."""
    import json

    entries = sorted((vault / ".cardindex" / "journal").glob("*.json"))
    if not entries:
        return 0
    job = json.loads(entries[-1].read_text(encoding="utf-8"))
    count = 0
    for action in job["actions"]:
        files = action["files"]
        moved = (action["action"] != "undo" and len(files) == 2 and files[0]["after"] is None
                 and files[1]["before"] is None)
        count += 1 if moved else len(files)
    return count


def _kill(vault: Path, command: list[str], env: dict[str, str], index: int, rng: random.Random,
          took: float, writes: int, point_rounds: int) -> str:
    """Run `command` and kill it: at a durable step, after N writes, or at a random moment."""
    if index < len(KILL_POINTS) * point_rounds:  # round 2 meets each point with another next step
        point = KILL_POINTS[index % len(KILL_POINTS)]
        done = cards(vault, *command, env={**env, "CARDS_TEST_KILL_AT": point})
        if done.returncode != -signal.SIGKILL:
            raise TrialFailed(f"CARDS_TEST_KILL_AT={point} did not kill cards {command[0]}: {done.stderr[-500:]}")
        return f"at={point}"
    if index % 2 == 1 and writes > 0:
        n = rng.randint(1, writes)
        done = cards(vault, *command, env={**env, "CARDS_TEST_KILL_AFTER_WRITES": str(n)})
        if done.returncode != -signal.SIGKILL:
            raise TrialFailed(f"CARDS_TEST_KILL_AFTER_WRITES={n} did not kill cards {command[0]}: {done.stderr[-500:]}")
        return f"after-writes={n}"
    delay = rng.uniform(0.05, took * 1.05)
    proc = subprocess.Popen([sys.executable, "-m", "cardindex", "--vault", str(vault), *command], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=600)
    return f"random={delay:.3f}s"


def _next_step(vault: Path, step: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    if step == "undo":
        return _ok(cards(vault, "undo", env=env), 0, 1)  # 1: nothing (left) to undo
    if step == "add":
        return _ok(cards(vault, *PROBE, env=env))
    if step == "lint":
        return _ok(cards(vault, "lint", env=env), 0, 1)  # 1: findings
    return _ok(cards(vault, step, env=env))
