#!/usr/bin/env python3
"""Lifecycle simulation of consolidation (issue 4): implant rules, change them, bury them, sleep nightly.

The evaluation that sleep-consolidation designs propose (shared/background, "Sleep-Inspired
Consolidation", section V): implant a rule, change it midway, run many rounds of
distracting work, and check whether the session-start view shows the new rule, the old
one, or both side by side. Over --days simulated days, an agent writing into one vault:

- day 1: implants five rules, each with a single-valued `key` (`cards add --key ... --force`);
- changes three of them midway: a new value for the same key through `cards add --key`,
  a new value that arrives *without* a key (contradicting the old value), and a new value
  for the same key written as a file; later a back-dated card for that last key arrives
  (written on day ~60, `verified` before the current value's date): it must be superseded
  on arrival and never win;
- writes distractors every day: new facts in the generator's vocabulary
  (../shared/bench/make_vault.py), reworded duplicates of earlier facts and of the rules
  (with and without the key), and session-only notes that expire a few days later. A
  seeded share goes through `cards add --force`, the rest is written as files, as an
  agent with file tools does;
- every night runs `cards consolidate --now DAY --format json` (every `cards` call runs
  with CARDS_TODAY=DAY), then `cards index --check` (and `cards index` when that fails:
  what a session-start hook would do), and reads the session-start view: INDEX.md.

Every card the simulation writes is recorded with its ground truth (which fact, which
rule and value), identified by its description and body, which consolidation never
changes. The index is checked through the card files its lines link to, and through the
line's own text (every rule card's description carries its value).

    python bench/bench_lifecycle.py                       # 90 days, 4 distractors a day
    python bench/bench_lifecycle.py --days 30 --csv bench/results/lifecycle.csv

Exits 1 when a target is missed: a stale value in INDEX.md after its change was
consolidated, a current rule value missing from INDEX.md, a wrong supersession or merge,
or INDEX.md growing with the raw card count over the last 30 days; 2 when the
simulation itself stops. See bench/README.md,
"Consolidation".
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as bf  # fmt_cmd, BenchError, machine_info, source_files, DEFAULT_GENERATOR
from bench_foundation import BenchError

try:
    import yaml
except ImportError:  # pragma: no cover - cardindex itself needs PyYAML
    sys.exit("bench_lifecycle.py needs PyYAML (run it with the dev venv's python)")
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

START = dt.date(2026, 1, 5)  # simulated day 1
PLATEAU_RATIO = 0.25  # over the last 30 days INDEX.md may grow at most this share of the raw growth rate
LINK_LINE = re.compile(r"^\s*-\s+\[(?P<title>(?:[^\]\\]|\\.)*)\]\((?P<link>[^)]+)\)\s+—\s+(?P<rest>.*)$")

# --------------------------------------------------------------------------- the rules

# Each rule: its key, type, the values it takes, a pattern that finds a value in text, and
# wordings (description, body). Wording 0 is the canonical one (implant, changes); the
# others are the agent restating the rule later in other words. Every description names
# the value, so the INDEX.md line itself shows which value a card holds.
RULES: dict[str, dict[str, Any]] = {
    "deploy-day": {
        "type": "feedback",
        "pattern": r"\b{v}s?\b",
        "wordings": [
            (
                "Production deploys happen on {v}s only",
                (
                    "Deploy to production on {v}s only.\n\n**Why:** deploys on other days collided with the billing "
                    "batch.\n**How to apply:** refuse to schedule a production deploy on any other day."
                ),
            ),
            ("Reminder: production deploys happen on {v}s only", "Deploy to production on {v}s only."),
            ("Production deploys are done on {v}s only", "Production deploys are done on {v}s, never on other days."),
            ("Only deploy to production on {v}s", "Deploy to production only on {v}s, as agreed with the team."),
            ("Production deploy day is {v}", "The weekly production deploy goes out on {v}."),
        ],
    },
    "staging-db-port": {
        "type": "project",
        "pattern": r"\b{v}\b",
        "wordings": [
            (
                "Staging Postgres listens on port {v}",
                "The staging Postgres server listens on port {v}; connect through the bastion host.",
            ),
            ("Note: staging Postgres listens on port {v}", "Staging Postgres listens on port {v}."),
            (
                "Staging Postgres is reachable on port {v}",
                "Connect to the staging Postgres on port {v} through the bastion host.",
            ),
            ("staging postgres port: {v} (confirmed)", "The staging database port is {v}."),
            ("Port {v} is the staging Postgres port", "Use port {v} for the staging Postgres database."),
        ],
    },
    "review-approvals": {
        "type": "project",
        "pattern": r"\b(?:{v}|two)\s+approv",
        "wordings": [
            (
                "Pull requests need {v} approving reviews before merge",
                (
                    "Every pull request needs {v} approving reviews before it is merged.\n\n**Why:** a single reviewer "
                    "missed the billing regression in March.\n**How to apply:** do not merge with fewer approvals."
                ),
            ),
            (
                "Reminder: pull requests need {v} approving reviews prior to merge",
                "Pull requests need {v} approving reviews.",
            ),
            (
                "Pull requests require {v} approvals before merging",
                "Wait for {v} approvals before merging a pull request.",
            ),
            ("Merging a pull request takes {v} approvals", "A pull request is merged only after {v} approvals."),
        ],
    },
    "edge-runtime": {
        "type": "project",
        "pattern": r"\bnode(?:\.js)?\s+{v}\b",
        "wordings": [
            ("Edge workers run on Node {v}", "The edge workers run on Node {v} in production and staging."),
            ("Note: edge workers run on Node {v}", "Edge workers run on Node {v}."),
            ("Edge workers are built on Node {v}", "Build and run the edge workers on Node {v}."),
            ("The edge worker runtime is Node.js {v}", "Edge workers use the Node.js {v} runtime."),
        ],
    },
    "oncall-channel": {
        "type": "reference",
        "pattern": r"{v}\b",
        "wordings": [
            (
                "Page the on-call engineer in {v}",
                (
                    "Page the on-call engineer in the {v} Slack channel.\n\n**How to apply:** for any production "
                    "incident, post there first."
                ),
            ),
            ("Reminder: page the on-call engineer in {v}", "Page on-call in {v}."),
            ("On-call is paged in {v}", "The on-call engineer is paged in {v} on Slack."),
            ("Link to the on-call channel: {v}", "Incidents go to {v}."),
        ],
    },
}
INITIAL = {
    "deploy-day": "Thursday",
    "staging-db-port": "5433",
    "review-approvals": "2",
    "edge-runtime": "18",
    "oncall-channel": "#ops-pager",
}


@dataclass(frozen=True)
class Change:
    """A scheduled write that gives a rule a value (or, back-dated, tries to)."""

    day: int
    slot: str
    value: str
    how: str  # "add-key": cards add --key; "add-nokey": cards add, no key; "file-key": a file with the key
    verified_day: int | None = None  # back-dated: `verified` set to this day
    current: bool = True  # False: back-dated, never the current value
    body: str | None = None


def schedule(days: int) -> list[Change]:
    """Changes at fixed shares of the run (day 40/45/46/60 of 90)."""

    def at(share: float) -> int:
        return max(3, min(days, round(days * share)))

    return [
        Change(at(40 / 90), "edge-runtime", "22", "file-key"),
        Change(at(45 / 90), "deploy-day", "Tuesday", "add-key"),
        Change(
            at(46 / 90),
            "staging-db-port",
            "6432",
            "add-nokey",
            body="The staging Postgres server listens on port 6432 since the PgBouncer rollout.",
        ),
        Change(
            at(60 / 90),
            "edge-runtime",
            "20",
            "file-key",
            verified_day=at(30 / 90),
            current=False,
            body="The edge workers run on Node 20, per the platform runbook.",
        ),
    ]


def value_pattern(slot: str, value: str) -> re.Pattern[str]:
    return re.compile(RULES[slot]["pattern"].format(v=re.escape(value)), re.IGNORECASE)


# --------------------------------------------------------------------------- ground truth


@dataclass
class Truth:
    """What a written card is, by the simulation's own record."""

    kind: str  # rule, rule-change, rule-backdated, rule-dup, distractor, distractor-dup, noise
    fact: str  # cards with one fact id say the same thing
    day: int
    via: str  # add or file
    slot: str | None = None  # the rule's key (also for keyless rule cards)
    value: str | None = None
    keyed: bool = False
    expires_day: int | None = None


def identity(description: str, body: str) -> str:
    """A card's identity: consolidation never changes its description or body (no llm configured)."""
    return hashlib.sha256(f"{description.strip()}\n\0{body.strip()}".encode()).hexdigest()[:20]


def day_of(date: dt.date) -> int:
    return (date - START).days + 1


def date_of(day: int) -> dt.date:
    return START + dt.timedelta(days=day - 1)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].rstrip("-") or "card"


# --------------------------------------------------------------------------- reading the vault


@dataclass
class Seen:
    id: str
    path: str
    meta: dict[str, Any]
    description: str
    truth: Truth | None


class Reader:
    """Parse card files (memoized on their bytes) and map them to ground truth."""

    def __init__(self, root: Path, truth: dict[str, Truth]) -> None:
        self.root = root
        self.truth = truth
        self.memo: dict[bytes, tuple[dict[str, Any], str, str]] = {}

    def parse(self, data: bytes) -> tuple[dict[str, Any], str, str]:
        digest = hashlib.blake2b(data, digest_size=16).digest()
        hit = self.memo.get(digest)
        if hit is not None:
            return hit
        text = data.decode("utf-8")
        meta: dict[str, Any] = {}
        body = text
        if text.startswith("---\n"):
            end = text.find("\n---\n", 3)
            if end >= 0:
                meta = yaml.load(text[4:end], Loader=LOADER) or {}
                body = text[end + 5 :]
        desc = str(meta.get("description") or "")
        out = (meta, desc, identity(desc, body))
        self.memo[digest] = out
        return out

    def scan(self, archived: bool = False) -> list[Seen]:
        out: list[Seen] = []
        base = self.root / "archive" if archived else self.root
        if not base.is_dir():
            return out
        for folder, dirs, files in os.walk(base):
            dirs[:] = sorted(
                d for d in dirs if not d.startswith(".") and (archived or Path(folder, d) != self.root / "archive")
            )
            for name in sorted(files):
                if not name.endswith(".md") or name.startswith(".") or name in ("INDEX.md", "README.md"):
                    continue
                p = Path(folder, name)
                rel = p.relative_to(self.root).as_posix()
                meta, desc, ident = self.parse(p.read_bytes())
                out.append(Seen(rel[:-3], rel, meta, desc, self.truth.get(ident)))
        return out


def as_day(value: Any) -> int | None:
    if isinstance(value, dt.date):
        return day_of(value)
    if isinstance(value, str):
        try:
            return day_of(dt.date.fromisoformat(value))
        except ValueError:
            return None
    return None


def is_live(card: Seen, day: int) -> bool:
    status = card.meta.get("status") or "active"
    exp = as_day(card.meta.get("expires"))
    return status in ("active", "conflict") and (exp is None or exp >= day)


def ids(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


# --------------------------------------------------------------------------- the simulation


@dataclass
class Record:
    """One day's numbers (after that night's consolidation)."""

    day: int
    date: str
    raw: int  # card files the agent has written so far
    written_today: int
    live: int
    archived: int
    index_lines: int
    index_bytes: int
    index_cards: int  # card lines in INDEX.md
    omitted: int  # live cards the budget left out
    merges: int = 0
    supersedes: int = 0
    conflicts: int = 0
    archives: int = 0
    conflict_cards: int = 0
    stale_in_index: int = 0
    stale_live: int = 0
    current_shown: int = 0
    current_live: int = 0
    rule_lines: int = 0
    index_stale_after_consolidate: bool = False
    consolidate_s: float = 0.0
    ctx_cards: int | None = None  # cards context, when the command exists
    ctx_stale: int | None = None
    ctx_current: int | None = None


@dataclass
class Sim:
    args: argparse.Namespace
    cards: list[str]
    vault: Path
    env: dict[str, str]
    gen: Any
    rng: random.Random
    truth: dict[str, Truth] = field(default_factory=dict)
    idhist: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # id -> facts it has held
    idtruth: dict[str, Truth] = field(default_factory=dict)  # id -> the latest card's truth under that id
    used_ids: set[str] = field(default_factory=set)
    facts: list[dict[str, Any]] = field(default_factory=list)  # distractor facts (generator dicts)
    fact_keyed: list[bool] = field(default_factory=list)
    raw: int = 0
    noise_n: int = 0
    texts: set[str] = field(default_factory=set)
    verdicts: list[dict[str, Any]] = field(default_factory=list)  # every judged decision
    add_seconds: list[float] = field(default_factory=list)
    cons_seconds: list[float] = field(default_factory=list)
    calls: int = 0
    context_cmd: bool = False
    findings: list[str] = field(default_factory=list)
    reader: Reader | None = None

    # ------------------------------------------------------------ running cards

    def run(self, day: int, *args: str, code: int | tuple[int, ...] = 0) -> subprocess.CompletedProcess[str]:
        env = dict(self.env, CARDS_TODAY=date_of(day).isoformat())
        cmd = [*self.cards, "--vault", str(self.vault), *args]
        self.calls += 1
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        codes = code if isinstance(code, tuple) else (code,)
        if proc.returncode not in codes:
            raise BenchError(
                f"unexpected result on day {day} from: CARDS_TODAY={date_of(day)} {bf.fmt_cmd(cmd)}\n"
                f"  exit {proc.returncode} (expected {codes})\n  stdout: {proc.stdout.strip()[:2000]!r}\n"
                f"  stderr: {proc.stderr.strip()[:2000]!r}"
            )
        return proc

    # ------------------------------------------------------------ writing

    def _unique_text(self, desc: str, body: str) -> tuple[str, str]:
        """The simulation identifies cards by text: two writes of the same text get distinct bodies."""
        n = 1
        out = body
        while identity(desc, out) in self.texts:
            n += 1
            out = f"{body}\n\nRestated ({n})."
        self.texts.add(identity(desc, out))
        return desc, out

    def write(
        self,
        day: int,
        truth: Truth,
        desc: str,
        body: str,
        ctype: str,
        *,
        key: str | None = None,
        scope: str | None = None,
        via: str = "file",
        verified_day: int | None = None,
        expires_day: int | None = None,
        folder: str = "",
    ) -> None:
        desc, body = self._unique_text(desc, body)
        truth.via = via
        truth.keyed = bool(key)
        truth.expires_day = expires_day
        self.truth[identity(desc, body)] = truth
        self.raw += 1
        if via == "add":
            args = ["add", body, "-d", desc, "--type", ctype, "--force", "--format", "json"]
            if key:
                args += ["--key", key]
            if scope:
                args += ["--scope", scope]
            if expires_day is not None:
                args += ["--expires", date_of(expires_day).isoformat()]
            t0 = time.perf_counter()
            proc = self.run(day, *args)
            self.add_seconds.append(time.perf_counter() - t0)
            out = json.loads(proc.stdout)
            cid = out["id"]
            for old in out.get("superseded") or []:
                self.judge(
                    day,
                    {"action": "supersede", "card": old, "related": [cid], "reason": "cards add: same key"},
                    source="add",
                    new_truth=truth,
                )
        else:
            stem = slugify(desc)
            rel = f"{folder}{stem}"
            n = 1
            while rel in self.used_ids or (self.vault / f"{rel}.md").exists():
                n += 1
                rel = f"{folder}{stem}-{n}"
            fm = [f"description: {json.dumps(desc)}", f"type: {ctype}"]
            if key:
                fm.append(f"key: {json.dumps(key)}")
            if scope:
                fm.append(f"scope: {json.dumps(scope)}")
            fm.append(f"created: {date_of(day).isoformat()}")
            fm.append(f"verified: {date_of(verified_day or day).isoformat()}")
            if expires_day is not None:
                fm.append(f"expires: {date_of(expires_day).isoformat()}")
            path = self.vault / f"{rel}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("---\n" + "\n".join(fm) + "\n---\n" + body.strip() + "\n", encoding="utf-8")
            cid = rel
        self.used_ids.add(cid)
        self.idhist[cid].add(truth.fact)
        self.idtruth[cid] = truth

    def via(self) -> str:
        return "add" if self.rng.random() < self.args.add_share else "file"

    def write_rule(
        self,
        day: int,
        slot: str,
        value: str,
        kind: str,
        wording: int,
        *,
        keyed: bool,
        via: str,
        verified_day: int | None = None,
        body: str | None = None,
    ) -> None:
        rule = RULES[slot]
        d_tpl, b_tpl = rule["wordings"][wording]
        desc, text = d_tpl.format(v=value), body or b_tpl.format(v=value)
        fact = f"rule:{slot}={value}"
        self.write(
            day,
            Truth(kind, fact, day, via, slot=slot, value=value),
            desc,
            text,
            rule["type"],
            key=slot if keyed else None,
            via=via,
            verified_day=verified_day,
        )

    def write_distractor(self, day: int) -> None:
        g = self.gen
        while True:
            f = g.new_fact()
            desc, body = g.describe(f), g.body(f)
            if not self.mentions_rule(desc + " " + body):
                break
        i = len(self.facts)
        self.facts.append(f)
        keyed = self.rng.random() < 0.5
        self.fact_keyed.append(keyed)
        self.write(
            day,
            Truth("distractor", f"fact:{i}", day, ""),
            desc,
            body,
            f["type"],
            key=f["key"] if keyed else None,
            scope=f["scope"],
            via=self.via(),
            folder=f"{f['type']}/",
        )

    def write_distractor_dup(self, day: int) -> None:
        g = self.gen
        i = self.rng.randrange(len(self.facts))
        f = self.facts[i]
        for _ in range(20):
            desc = g.reword(g.describe(f))
            body = g.body(f)
            if not self.mentions_rule(desc + " " + body):
                break
        r = self.rng.random()
        key = f["key"] if r < 0.4 else (f["key"] + self.rng.choice(["-2", ".v2", "-dup", ".alt"]) if r < 0.6 else None)
        self.write(
            day,
            Truth("distractor-dup", f"fact:{i}", day, ""),
            desc,
            body,
            f["type"],
            key=key,
            scope=f["scope"],
            via=self.via(),
            folder=f"{f['type']}/",
        )

    def write_noise(self, day: int) -> None:
        c = self.gen.session_card()
        self.noise_n += 1
        expires = day + self.rng.randint(1, 4)
        self.write(
            day,
            Truth("noise", f"noise:{self.noise_n}", day, ""),
            c["description"],
            c["body"],
            c["type"],
            via=self.via(),
            expires_day=expires,
            folder="notes/",
        )

    def mentions_rule(self, text: str) -> bool:
        return any(value_pattern(s, v).search(text) for s in RULES for v in self.values(s))

    @staticmethod
    def values(slot: str) -> list[str]:
        out = [INITIAL[slot]]
        for c in ALL_CHANGES:
            if c.slot == slot and c.value not in out:
                out.append(c.value)
        return out

    # ------------------------------------------------------------ ground truth over time

    def current(self, slot: str, day: int) -> str:
        value = INITIAL[slot]
        for c in sorted(ALL_CHANGES, key=lambda c: c.day):
            if c.slot == slot and c.current and c.day <= day:
                value = c.value
        return value

    def stale(self, slot: str, day: int) -> set[str]:
        """Values the slot no longer holds on `day` (changed, or back-dated writes already made)."""
        seen = {INITIAL[slot]} | {c.value for c in ALL_CHANGES if c.slot == slot and c.day <= day}
        return seen - {self.current(slot, day)}

    # ------------------------------------------------------------ judging decisions

    def judge(self, day: int, d: dict[str, Any], *, source: str, new_truth: Truth | None = None) -> None:
        action = d["action"]
        card = self.idtruth.get(d["card"])
        related = [
            new_truth if (new_truth is not None and source == "add") else self.idtruth.get(r) for r in d["related"]
        ]
        verdict = "ok"
        why = ""
        if action == "merge":
            bad = [
                r
                for r, t in zip(d["related"], related, strict=True)
                if card is None or t is None or t.fact != card.fact
            ]
            if bad:
                verdict, why = (
                    "wrong",
                    f"merged {', '.join(bad)} ({', '.join(self.fact_of(b) for b in bad)}) into a card of {self.fact_of(d['card'])}",
                )
        elif action == "supersede":
            for r, t in zip(d["related"], related, strict=True):
                ok, reason = self.supersede_ok(card, t, day)
                if not ok:
                    verdict, why = "wrong", f"{d['card']} superseded by {r}: {reason}"
        elif action == "archive":
            if card is None or card.kind != "noise" or card.expires_day is None or card.expires_day >= day:
                verdict, why = "wrong", f"archived {d['card']} ({card.kind if card else 'unknown'}): {d['reason']}"
        elif action == "conflict":
            cls = self.conflict_class(card, related)
            verdict, why = ("conflict", cls)
        if verdict == "wrong" and action == "merge" and card and all(t and t.kind == "noise" for t in [card, *related]):
            verdict = "noise merged"  # two different session notes merged: reported, not a target
        self.verdicts.append(
            {
                "day": day,
                "source": source,
                **d,
                "verdict": verdict,
                "why": why,
                "kinds": [card.kind if card else None, *(t.kind if t else None for t in related)],
                "facts": [card.fact if card else None, *(t.fact if t else None for t in related)],
            }
        )

    def fact_of(self, cid: str) -> str:
        t = self.idtruth.get(cid)
        return t.fact if t else "unknown"

    def supersede_ok(self, old: Truth | None, new: Truth | None, day: int) -> tuple[bool, str]:
        if old is None or new is None:
            return False, "card not written by the simulation"
        if old.fact == new.fact:
            return True, "same fact"
        if old.slot and old.slot == new.slot:
            cur = self.current(old.slot, day)
            if old.value == cur and new.value != cur:
                return False, f"the current value {old.slot}={cur} lost to {new.value} ({new.kind})"
            return True, "older value of the rule"
        return False, f"different facts: {old.kind} {old.fact} vs {new.kind} {new.fact}"

    def conflict_class(self, card: Truth | None, related: list[Truth | None]) -> str:
        members = [card, *related]
        if any(m is None for m in members):
            return "unknown card"
        slots = {m.slot for m in members if m}
        if len(slots) == 1 and None not in slots:
            values = {m.value for m in members if m}
            return "rule: same value" if len(values) == 1 else "rule: old vs new value (time could decide)"
        if all(m and m.slot is None for m in members):
            facts = {m.fact for m in members if m}
            return "distractors: same fact" if len(facts) == 1 else "distractors: different facts (false contradiction)"
        return "rule vs distractor (false contradiction)"

    # ------------------------------------------------------------ one day

    def day(self, day: int, changes: list[Change]) -> Record:
        rng = self.rng
        written_before = self.raw
        a = self.args
        if day == 1:
            for slot, value in INITIAL.items():
                self.write_rule(day, slot, value, "rule", 0, keyed=True, via="add")
        for c in changes:
            if c.day != day:
                continue
            kind = "rule-change" if c.current else "rule-backdated"
            via = "add" if c.how.startswith("add") else "file"
            self.write_rule(
                day,
                c.slot,
                c.value,
                kind,
                0,
                keyed=c.how != "add-nokey",
                via=via,
                verified_day=c.verified_day,
                body=c.body,
            )
        # the day's work, in a seeded order
        jobs: list[str] = ["distractor"] * a.distractors_per_day
        if self.facts:
            jobs += ["dup"] * sum(rng.random() < a.dup_rate for _ in range(a.distractors_per_day))
        jobs += ["rule-dup:" + s for s in RULES if day > 1 and rng.random() < a.rule_dup_rate]
        jobs += ["noise"] * rng.randint(0, 2)
        rng.shuffle(jobs)
        for job in jobs:
            if job == "distractor":
                self.write_distractor(day)
            elif job == "dup":
                self.write_distractor_dup(day)
            elif job == "noise":
                self.write_noise(day)
            else:
                slot = job.split(":", 1)[1]
                wording = rng.randrange(1, len(RULES[slot]["wordings"]))
                self.write_rule(
                    day, slot, self.current(slot, day), "rule-dup", wording, keyed=rng.random() < 0.5, via=self.via()
                )

        # the night: consolidate as of today
        if self.reader is None:
            self.reader = Reader(self.vault, self.truth)
        reader = self.reader
        for s in reader.scan():  # ids -> truth for every live card (ids may be reused after archiving)
            if s.truth is not None:
                self.idtruth[s.id] = s.truth
                self.idhist[s.id].add(s.truth.fact)
        t0 = time.perf_counter()
        proc = self.run(day, "consolidate", "--now", date_of(day).isoformat(), "--format", "json")
        took = time.perf_counter() - t0
        self.cons_seconds.append(took)
        out = json.loads(proc.stdout)
        counts = Counter(d["action"] for d in out["decisions"])
        for d in out["decisions"]:
            self.judge(day, d, source="consolidate")
        check = self.run(day, "index", "--check", code=(0, 1))
        stale_index = check.returncode == 1
        if stale_index:
            self.run(day, "index")
        context = None
        if self.context_cmd:
            ctx = self.run(day, "context", "--format", "json", code=(0, 1, 2))
            try:
                context = [c["path"] for item in json.loads(ctx.stdout)["items"] for c in item["cards"]]
            except (ValueError, KeyError, TypeError):
                self.findings.append(
                    f"day {day}: `cards context --format json` gave no readable items "
                    f"(exit {ctx.returncode}): {ctx.stderr.strip()[:200]!r}"
                )
        rec = self.observe(day, reader, written_before, counts, stale_index, took)
        if context is not None:
            self.observe_context(day, rec, context)
        return rec

    def observe_context(self, day: int, rec: Record, paths: list[str]) -> None:
        """`cards context` (informational; INDEX.md is the contract): stale and current rule values it shows."""
        by_path = {s.path: s for s in self.reader.scan()} if self.reader else {}
        values: dict[str, set[str]] = defaultdict(set)
        rec.ctx_cards = len(paths)
        stale = 0
        for p in paths:
            card = by_path.get(p)
            t = card.truth if card else None
            if t is None or not t.slot or t.value is None:
                continue
            if t.value in self.stale(t.slot, day):
                stale += 1
            values[t.slot].add(t.value)
        rec.ctx_stale = stale
        rec.ctx_current = sum(1 for s in RULES if self.current(s, day) in values[s])

    def observe(
        self, day: int, reader: Reader, written_before: int, counts: Counter[str], stale_index: bool, took: float
    ) -> Record:
        live_cards = [s for s in reader.scan() if is_live(s, day)]
        archived = reader.scan(archived=True)
        text = (self.vault / "INDEX.md").read_text(encoding="utf-8")
        lines = text.splitlines()
        entries = []
        for line in lines:
            m = LINK_LINE.match(line)
            if m:
                entries.append(m)
        omitted = 0
        m = re.search(r"… (\d+) more cards? not shown", text)
        if m:
            omitted = int(m.group(1))
        if len(entries) + omitted != len(live_cards):
            self.findings.append(
                f"day {day}: INDEX.md counts {len(entries)} shown + {omitted} omitted, "
                f"the simulation sees {len(live_cards)} live cards"
            )
        rec = Record(
            day,
            date_of(day).isoformat(),
            self.raw,
            self.raw - written_before,
            len(live_cards),
            len(archived),
            len(lines),
            len(text.encode("utf-8")),
            len(entries),
            omitted,
            merges=counts["merge"],
            supersedes=counts["supersede"],
            conflicts=counts["conflict"],
            archives=counts["archive"],
            index_stale_after_consolidate=stale_index,
            consolidate_s=took,
        )
        rec.conflict_cards = sum(1 for s in live_cards if s.meta.get("status") == "conflict")
        by_path = {s.path: s for s in live_cards}
        shown_values: dict[str, set[str]] = defaultdict(set)  # slot -> values shown (line text and linked card agree)
        self.day_leaks: list[str] = []
        for e in entries:
            link = e.group("link")
            card = by_path.get(link)
            t = card.truth if card else None
            rest = e.group("rest")
            if t is not None and t.slot and t.value is not None:
                rec.rule_lines += 1
                in_line = bool(value_pattern(t.slot, t.value).search(rest))
                if t.value in self.stale(t.slot, day):
                    rec.stale_in_index += 1
                    self.day_leaks.append(
                        f"{link} ({t.slot}={t.value}, {t.kind}, "
                        f"{'conflict' if rest.startswith('conflict:') else 'shown as a fact'})"
                    )
                elif t.value == self.current(t.slot, day) and in_line:
                    shown_values[t.slot].add(t.value)
            # a line whose text states an old value, whatever card it links to
            for slot in RULES:
                for v in self.stale(slot, day):
                    if value_pattern(slot, v).search(rest) and not (t and t.slot == slot and t.value == v):
                        rec.stale_in_index += 1
                        self.day_leaks.append(f"{link}: line text states {slot}={v}")
        rec.current_shown = sum(1 for s in RULES if self.current(s, day) in shown_values[s])
        live_values: dict[str, set[str]] = defaultdict(set)
        for s in live_cards:
            t = s.truth
            if t is not None and t.slot and t.value is not None:
                live_values[t.slot].add(t.value)
                if t.value in self.stale(t.slot, day):
                    rec.stale_live += 1
        rec.current_live = sum(1 for s in RULES if self.current(s, day) in live_values[s])
        self.day_missing = [s for s in RULES if self.current(s, day) not in shown_values[s]]
        self.day_missing_live = [s for s in RULES if self.current(s, day) not in live_values[s]]
        return rec

    # ------------------------------------------------------------ the end

    def audit_archive(self, day: int) -> list[str]:
        """Every archived card's superseded_by / merged_into against the ground truth."""
        wrong = []
        reader = Reader(self.vault, self.truth)
        for s in reader.scan(archived=True):
            t = s.truth
            if t is None:
                wrong.append(f"{s.path}: not written by the simulation")
                continue
            for target in ids(s.meta.get("merged_into")):
                facts = self.idhist.get(target, set())
                if t.kind == "noise" and facts and all(f.startswith("noise:") for f in facts):
                    continue  # two session notes merged: reported apart, not a target
                if t.fact not in facts:
                    wrong.append(
                        f"{s.path} ({t.kind} {t.fact}) merged_into {target} ({', '.join(sorted(facts)) or 'unknown'})"
                    )
            for target in ids(s.meta.get("superseded_by")):
                facts = self.idhist.get(target, set())
                slots = {f.split("=", 1)[0][5:] for f in facts if f.startswith("rule:")}
                if t.fact in facts:
                    continue
                if t.slot and t.slot in slots:
                    winner_values = {f.split("=", 1)[1] for f in facts if f.startswith(f"rule:{t.slot}=")}
                    cur = self.current(t.slot, day)
                    if t.value == cur and cur not in winner_values:
                        wrong.append(
                            f"{s.path} ({t.slot}={t.value}, current) superseded_by {target} ({', '.join(sorted(winner_values))})"
                        )
                    continue
                wrong.append(
                    f"{s.path} ({t.kind} {t.fact}) superseded_by {target} ({', '.join(sorted(facts)) or 'unknown'})"
                )
            status = s.meta.get("status")
            if status == "archived" and not s.meta.get("merged_into") and t.kind != "noise":
                wrong.append(f"{s.path} ({t.kind} {t.fact}) archived without merged_into or superseded_by")
            if status == "stale":
                wrong.append(f"{s.path} ({t.kind}) archived as stale")
        return wrong


ALL_CHANGES: list[Change] = []


def load_generator(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location("make_vault", path)
    if spec is None or spec.loader is None:
        raise BenchError(f"cannot import the generator {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fit_slope(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else 0.0


COLUMNS = [
    ("day", "day", 3),
    ("raw", "raw", 4),
    ("+", "written_today", 2),
    ("live", "live", 4),
    ("arch", "archived", 4),
    ("idx lines", "index_lines", 9),
    ("idx bytes", "index_bytes", 9),
    ("shown", "index_cards", 5),
    ("omit", "omitted", 4),
    ("merge", "merges", 5),
    ("supsd", "supersedes", 5),
    ("confl", "conflicts", 5),
    ("expir", "archives", 5),
    ("in confl", "conflict_cards", 8),
    ("rule lines", "rule_lines", 10),
    ("stale idx", "stale_in_index", 9),
    ("stale live", "stale_live", 10),
    ("cur shown", "current_shown", 9),
    ("cons s", "consolidate_s", 6),
]


def print_row(r: Record, head: bool = False) -> None:
    if head:
        ctx = "  ctx stale cur" if r.ctx_cards is not None else ""
        print("  " + " ".join(f"{name:>{w}}" for name, _, w in COLUMNS) + ctx + "  notes")
        print("  " + "-" * (sum(w + 1 for _, _, w in COLUMNS) + len(ctx) + 6))
    cells = []
    for _, attr, w in COLUMNS:
        v = getattr(r, attr)
        if attr == "current_shown":
            cells.append(f"{f'{v}/{len(RULES)}':>{w}}")
        elif isinstance(v, float):
            cells.append(f"{v:>{w}.2f}")
        else:
            cells.append(f"{v:>{w}}")
    if r.ctx_cards is not None:
        cells.append(f"{r.ctx_cards:>4} {r.ctx_stale:>4} {r.ctx_current}/{len(RULES)}")
    notes = []
    if r.index_stale_after_consolidate:
        notes.append("INDEX.md stale after consolidate")
    print("  " + " ".join(cells) + ("  " + "; ".join(notes) if notes else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--days", type=int, default=90, help="simulated days (default: %(default)s)")
    ap.add_argument(
        "--distractors-per-day", type=int, default=4, help="new unrelated facts a day (default: %(default)s)"
    )
    ap.add_argument(
        "--dup-rate",
        type=float,
        default=0.3,
        help="chance, per distractor a day, of also restating an earlier fact in other words (default: %(default)s)",
    )
    ap.add_argument(
        "--rule-dup-rate",
        type=float,
        default=0.1,
        help="chance a day, per rule, that the agent restates it in other words (default: %(default)s)",
    )
    ap.add_argument(
        "--add-share",
        type=float,
        default=0.3,
        help="share of the daily writes that go through `cards add --force`; the rest are files (default: %(default)s)",
    )
    ap.add_argument(
        "--index-budget",
        metavar="LINES,BYTES",
        help="write this index_budget into the vault's .cardindex.yaml (default: cards' own, 200,25000)",
    )
    ap.add_argument(
        "--seed", type=int, default=7, help="seed of the simulation and the generator (default: %(default)s)"
    )
    ap.add_argument(
        "--work",
        type=Path,
        default=Path("/tmp/cardindex-bench-lifecycle"),
        help="the vault is made here, recreated (default: %(default)s)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the vault afterwards")
    ap.add_argument("--generator", type=Path, default=bf.DEFAULT_GENERATOR, help="make_vault.py (its vocabulary)")
    ap.add_argument("--cards", help="the cards command (default: the cards next to this Python)")
    ap.add_argument(
        "--print-every", type=int, default=5, help="print every Nth day (and event days; default: %(default)s)"
    )
    ap.add_argument("--csv", type=Path, metavar="OUT", help="write the per-day table here")
    ap.add_argument("--json", type=Path, metavar="OUT", help="write the per-day table, metrics and decisions here")
    a = ap.parse_args()
    if a.days < 10 or a.distractors_per_day < 0:
        ap.error("--days must be at least 10 (the changes need room) and --distractors-per-day not negative")

    cards = bf.cards_command(ap, a.cards)
    env = bf.bench_env(drop=("CARDS_TODAY",), pycache=bf.DEFAULT_WORK / "pycache")

    ALL_CHANGES[:] = schedule(a.days)
    first_change = min(c.day for c in ALL_CHANGES if c.current)
    assert all(c.verified_day is None or c.verified_day < first_change < c.day for c in ALL_CHANGES)
    gen_mod = load_generator(a.generator)
    gen = gen_mod.Gen(max(1000, a.days * a.distractors_per_day), a.seed)
    vault = a.work / "vault"
    if a.work.exists():
        shutil.rmtree(a.work)
    vault.mkdir(parents=True)
    sources = bf.source_files()
    info = bf.machine_info(cards, env, sources)
    sim = Sim(a, cards, vault, env, gen, random.Random(a.seed))
    sim.run(1, "init")
    if a.index_budget:
        lines_, bytes_ = (int(x) for x in a.index_budget.split(","))
        cfg = vault / ".cardindex.yaml"
        cfg.write_text(cfg.read_text() + f"\nindex_budget:\n  lines: {lines_}\n  bytes: {bytes_}\n")
    help_text = sim.run(1, "--help").stdout
    sim.context_cmd = bool(re.search(r"^\s+context\s", help_text, re.MULTILINE))

    print(f"cardindex lifecycle simulation — {info['date']}")
    print(f"  python {info['python']}; {info['cards_version']} at {info['cards']}")
    print(
        f"  git {info['git_commit']}{' (dirty)' if info['git_dirty'] else ''}, sources {info['source_sha256']}; "
        f"load average {tuple(round(x, 2) for x in info['loadavg_at_start'] or ())}"
    )
    print(
        f"  {a.days} days from {START} (day 1), {a.distractors_per_day} distractors a day, dup rate {a.dup_rate}, "
        f"rule restatement rate {a.rule_dup_rate}, {a.add_share:.0%} of writes via `cards add`, seed {a.seed}"
    )
    print(f"  vault {vault}; cards context: {'checked too' if sim.context_cmd else 'not available, INDEX.md only'}")
    print("  rules: " + ", ".join(f"{s}={v}" for s, v in INITIAL.items()))
    for c in ALL_CHANGES:
        what = (
            f"back-dated (verified day {c.verified_day})"
            if not c.current
            else {"add-key": "cards add --key", "add-nokey": "cards add, no key", "file-key": "file with the key"}[
                c.how
            ]
        )
        print(f"  day {c.day}: {c.slot} -> {c.value} via {what}")

    records: list[Record] = []
    event_days = {1, *(c.day for c in ALL_CHANGES)}
    missing_days: dict[str, list[int]] = defaultdict(list)
    missing_live_days: dict[str, list[int]] = defaultdict(list)
    leaks: list[tuple[int, str]] = []
    t_start = time.perf_counter()
    print()
    for day in range(1, a.days + 1):
        rec = sim.day(day, ALL_CHANGES)
        records.append(rec)
        for s in sim.day_missing:
            missing_days[s].append(day)
        for s in sim.day_missing_live:
            missing_live_days[s].append(day)
        leaks += [(day, x) for x in sim.day_leaks]
        if day % a.print_every == 0 or day in event_days or day == a.days or day == 1:
            print_row(rec, head=day == 1)
    elapsed = time.perf_counter() - t_start

    # ---------------------------------------------------------------- metrics
    last = records[-1]
    span = min(30, max(1, len(records) // 3))
    first = records[-span - 1]

    def growth(attr: str) -> float:
        lo, hi = getattr(first, attr), getattr(last, attr)
        return (hi - lo) / lo if lo else float("inf")

    raw_g, idx_bytes_g, idx_lines_g, live_g = (
        growth("raw"),
        growth("index_bytes"),
        growth("index_lines"),
        growth("live"),
    )
    tail = records[-span - 1 :]
    slope_bytes = fit_slope([r.raw for r in tail], [r.index_bytes for r in tail])
    slope_live = fit_slope([r.raw for r in tail], [r.live for r in tail])
    bytes_per_line = last.index_bytes / max(1, last.index_cards)
    plateau_ratio = idx_bytes_g / raw_g if raw_g else float("inf")
    plateau_ok = plateau_ratio <= PLATEAU_RATIO

    wrong = [v for v in sim.verdicts if v["verdict"] == "wrong"]
    wrong_super = [v for v in wrong if v["action"] == "supersede"]
    wrong_merge = [v for v in wrong if v["action"] == "merge"]
    wrong_archive = [v for v in wrong if v["action"] == "archive"]
    conflict_classes = Counter(v["why"] for v in sim.verdicts if v["verdict"] == "conflict")
    audit = sim.audit_archive(a.days)
    decided = Counter((v["source"], v["action"]) for v in sim.verdicts)

    # what is still live at the end: duplicates left, rule cards per slot
    reader = Reader(vault, sim.truth)
    live_end = [s for s in reader.scan() if is_live(s, a.days)]
    per_fact = Counter(s.truth.fact for s in live_end if s.truth and s.truth.kind.startswith("distractor"))
    dup_facts_live = sum(1 for n in per_fact.values() if n > 1)
    extra_dup_cards = sum(n - 1 for n in per_fact.values() if n > 1)
    dups_written = sum(1 for t in sim.truth.values() if t.kind == "distractor-dup")
    rule_cards_live = Counter(s.truth.slot for s in live_end if s.truth and s.truth.slot)
    rule_conflict_live = [s.path for s in live_end if s.truth and s.truth.slot and s.meta.get("status") == "conflict"]
    noise_live_expired = [
        s.path
        for s in reader.scan()
        if s.truth
        and s.truth.kind == "noise"
        and (s.meta.get("status") or "active") in ("active", "conflict")
        and s.truth.expires_day is not None
        and s.truth.expires_day < a.days
    ]
    stale_idx_days = sorted({d for d, _ in leaks})
    all_missing = sorted({d for days in missing_days.values() for d in days})
    index_stale_days = [r.day for r in records if r.index_stale_after_consolidate]

    print(
        f"\nsimulation took {elapsed:.0f} s ({sim.calls} cards calls); consolidate median "
        f"{statistics.median(sim.cons_seconds):.2f} s (max {max(sim.cons_seconds):.2f} s), cards add median "
        f"{statistics.median(sim.add_seconds) if sim.add_seconds else 0:.2f} s"
    )
    print(
        f"\nwritten: {last.raw} card files ({Counter(t.kind for t in sim.truth.values())}); "
        f"at the end {last.live} live, {last.archived} archived"
    )
    print("decisions: " + ", ".join(f"{src} {act} {n}" for (src, act), n in sorted(decided.items())))
    print(f"\nINDEX.md over the last {span} days (day {first.day} -> {last.day}):")
    print(f"  raw cards   {first.raw:>6} -> {last.raw:>6}  growth {raw_g:+.1%}")
    print(
        f"  live cards  {first.live:>6} -> {last.live:>6}  growth {live_g:+.1%}  (slope {slope_live:.2f} live per raw card)"
    )
    print(f"  index lines {first.index_lines:>6} -> {last.index_lines:>6}  growth {idx_lines_g:+.1%}")
    print(
        f"  index bytes {first.index_bytes:>6} -> {last.index_bytes:>6}  growth {idx_bytes_g:+.1%}  "
        f"(slope {slope_bytes:.1f} bytes per raw card; {bytes_per_line:.0f} bytes per line)"
    )
    print(
        f"  budget: {last.omitted} live cards left out of INDEX.md on day {last.day}"
        + (f"; first day with cards left out: {next((r.day for r in records if r.omitted), '-')}")
    )
    if index_stale_days:
        print(
            f"  INDEX.md was out of date right after `cards consolidate` on {len(index_stale_days)} of {a.days} days "
            f"(first: {index_stale_days[:8]}); `cards index` regenerated it before each check"
        )

    print("\nrules at the end:")
    for s in RULES:
        cur = sim.current(s, a.days)
        print(
            f"  {s:<17} current {cur!r:<11} live cards {rule_cards_live.get(s, 0)}; "
            f"missing from INDEX.md on {len(missing_days.get(s, []))} days"
            + (
                f" (first {missing_days[s][0]}, while live: {len(set(missing_days[s]) - set(missing_live_days.get(s, [])))} days)"
                if missing_days.get(s)
                else ""
            )
            + (
                f"; not live on {len(missing_live_days[s])} days (first {missing_live_days[s][0]})"
                if missing_live_days.get(s)
                else ""
            )
        )
    if rule_conflict_live:
        print(f"  rule cards live with status conflict: {', '.join(rule_conflict_live)}")
    stale_live_days = [r.day for r in records if r.stale_live]
    print(
        f"stale rule values still live in the vault (shown or not): {sum(r.stale_live for r in records)} card-days on "
        f"{len(stale_live_days)} days"
        + (f" (first day {stale_live_days[0]}, last {stale_live_days[-1]})" if stale_live_days else "")
    )
    print(
        f"\nduplicates: {dups_written} distractor restatements written; at the end {dup_facts_live} facts still have "
        f"more than one live card ({extra_dup_cards} extra cards)"
    )
    print(
        "conflicts marked (decisions): " + (", ".join(f"{k} {n}" for k, n in conflict_classes.most_common()) or "none")
    )
    ctx_days = [r for r in records if r.ctx_cards is not None]
    if ctx_days:
        print(
            f"cards context (informational; default budget): {sum(r.ctx_stale or 0 for r in ctx_days)} stale "
            f"rule cards shown over {len(ctx_days)} days; all {len(RULES)} current values shown on "
            f"{sum(1 for r in ctx_days if r.ctx_current == len(RULES))} days; on day {last.day} "
            f"{last.ctx_current}/{len(RULES)} in {last.ctx_cards} cards"
        )
    if noise_live_expired:
        print(f"expired session notes still in the live folders: {len(noise_live_expired)}")

    print("\nrule decisions (every decision that touched a rule card; rule:KEY=VALUE is the simulation's truth)")
    for v in sim.verdicts:
        if any(f and f.startswith("rule:") for f in v["facts"]):
            mark = {"ok": "", "wrong": "  <-- WRONG", "conflict": "  <-- conflict: " + v["why"]}.get(v["verdict"], "")
            print(
                f"  day {v['day']:>2} {v['source']:<11} {v['action']:<9} {v['card']} [{v['facts'][0]}, {v['kinds'][0]}]"
                + "".join(
                    f" <- {r} [{f}, {k}]" for r, f, k in zip(v["related"], v["facts"][1:], v["kinds"][1:], strict=True)
                )
                + mark
            )
    noise_merged = [v for v in sim.verdicts if v["verdict"] == "noise merged"]
    if noise_merged:
        print(f"\ndifferent session notes merged into one (not a target; both expire): {len(noise_merged)}")

    targets = [
        (
            f"INDEX.md plateaus: its byte growth over the last days <= {PLATEAU_RATIO:g} x the raw card growth",
            f"{idx_bytes_g:+.1%} vs raw {raw_g:+.1%} (ratio {plateau_ratio:.2f})",
            plateau_ok,
        ),
        (
            "stale values in INDEX.md after their change was consolidated = 0",
            f"{len(leaks)} line-days on {len(stale_idx_days)} days"
            + (f" (first day {stale_idx_days[0]})" if leaks else ""),
            not leaks,
        ),
        (
            "every current rule value shown in INDEX.md, every day",
            (
                f"{a.days - len(all_missing)}/{a.days} days complete; "
                f"{sum(r.current_shown for r in records)}/{len(RULES) * a.days} rule-days shown"
            ),
            not all_missing,
        ),
        (
            "false supersessions = 0 (decisions and the archive's superseded_by)",
            f"{len(wrong_super)} decisions",
            not wrong_super,
        ),
        (
            "false merges = 0 (decisions and the archive's merged_into)",
            f"{len(wrong_merge)} decisions",
            not wrong_merge,
        ),
        ("nothing but expired session notes archived by time", f"{len(wrong_archive)} decisions", not wrong_archive),
        ("archive audit: every superseded_by / merged_into matches the ground truth", f"{len(audit)} wrong", not audit),
    ]
    print("\ntargets")
    for name, measured, ok in targets:
        print(f"  {'PASS' if ok else 'MISS':<5} {name:<78} {measured}")
    for v in wrong[:20]:
        print(
            f"  wrong, day {v['day']} ({v['source']}): {v['action']} {v['card']} <- {', '.join(v['related'])}: "
            f"{v['why']} [reason given: {v['reason']}]"
        )
    for x in audit[:20]:
        print(f"  archive: {x}")
    for day, x in leaks[:20]:
        print(f"  stale in INDEX.md, day {day}: {x}")
    for x in sim.findings[:10]:
        print(f"  WARNING: {x}")
    now = bf.source_files()
    if now != sources:
        print("  WARNING: cardindex sources changed during the run: the numbers may mix versions")

    if a.csv:
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with a.csv.open("w", newline="") as fh:
            w = csv.writer(fh)
            attrs = list(Record.__dataclass_fields__)
            w.writerow(attrs)
            for r in records:
                w.writerow([getattr(r, x) for x in attrs])
        print(f"\nwrote {a.csv}")
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(
            json.dumps(
                {
                    "machine": info,
                    "args": {k: str(v) for k, v in vars(a).items()},
                    "changes": [c.__dict__ for c in ALL_CHANGES],
                    "days": [r.__dict__ for r in records],
                    "targets": [{"target": n, "measured": m, "pass": ok} for n, m, ok in targets],
                    "leaks": leaks,
                    "missing": missing_days,
                    "wrong": wrong,
                    "audit": audit,
                    "conflicts": [v for v in sim.verdicts if v["verdict"] == "conflict"],
                },
                indent=1,
                default=str,
            )
            + "\n"
        )
        print(f"wrote {a.json}")
    if not a.keep:
        shutil.rmtree(a.work, ignore_errors=True)
    return 0 if all(ok for _, _, ok in targets) else 1


if __name__ == "__main__":
    bf.run_main(main, stopped=2)  # 1 is a missed target
