#!/usr/bin/env python3
"""Score cardindex on scenarios of a memory's life over time: adds, hand edits, nights, questions.

A measurement, not a test: every step drives the real CLI in a subprocess with
`CARDS_TODAY` set to the step's day, on a fresh vault per scenario, and imports nothing
from cardindex.

    python bench/eval_life.py bench/life_dev            # the table
    python bench/eval_life.py bench/life_dev --show     # and each wrong answer (dev sets only)
    python bench/eval_life.py bench/life_sealed --json out.json

A scenario file is `DIR/scenarios.json`: a list of `{"name", "notes", "steps": [...]}`;
the steps are `add` (text, description, type, key, scope, lock, expires, and
`expect_refused` when a careful gate should refuse it), `edit` (`of`: the index of an
earlier add; its new `text`, optionally `description`), `sleep` (`cards consolidate`) and
`ask` (`query`, `expect`: substrings any of which in the best answer means right, `reject`:
substrings that must not be in it, or `expect_none`: the vault does not know).

What is measured:
- **answer**: the top hit of `cards search QUERY` holds an `expect` substring and no `reject`
  one; for `expect_none`, no hit or only weak ones.
- **context**: in `cards context --query QUERY`, the first card holding an `expect` or a
  `reject` substring holds an `expect` one (the current value leads); and, shown apart,
  whether any card shown holds a `reject` substring (for a changed fact, the outdated
  value served beside the current one; for two scopes, the other scope's value, which
  context rightly shows).
- **gate**: refusals of `cards add` against `expect_refused` (precision and recall).
- **kept**: the text of every accepted add (or of its card's last hand edit) is still in
  some card file of the vault (live or archived) at the end: nothing a writer saved is lost.
- **size**: live cards at the end against accepted adds (what the nights folded away).
Exit 0 with a measurement, 2 on bad input or when `cards` fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Json = dict[str, Any]


class EvalError(Exception):
    """The scenarios could not be read, or `cards` failed in a way no step explains."""


def _env(home: Path, day: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDS_")}
    env.update({"HOME": str(home), "CARDS_TODAY": day, "NO_COLOR": "1", "GIT_CONFIG_GLOBAL": os.devnull})
    return env


def _run(cards: Sequence[str], vault: Path, args: Sequence[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*cards, "--quiet", "--vault", str(vault), *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    if done.returncode not in (0, 1):
        raise EvalError(f"`cards {' '.join(args[:2])}` exited {done.returncode}: {done.stderr.strip()[:300]}")
    return done


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _body(text: str) -> str:
    """A card file's body (after its frontmatter), or the whole text."""
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end >= 0:
            return text[text.find("\n", end + 1) + 1:]
    return text


def _edit(path: Path, text: str, description: str | None) -> None:
    """Rewrite a card's body (and description) as a person would in an editor."""
    old = path.read_text(encoding="utf-8")
    front = old[: len(old) - len(_body(old))] if old.startswith("---\n") else "---\n---\n"
    if description is not None:
        lines = front.splitlines(keepends=True)
        for i, line in enumerate(lines):
            stripped = line.lstrip()
            if stripped.startswith("description:"):
                indent = line[: len(line) - len(stripped)]
                lines[i] = f"{indent}description: {json.dumps(description, ensure_ascii=False)}\n"
                break
        front = "".join(lines)
    path.write_text(front + text.rstrip("\n") + "\n", encoding="utf-8")


def _holds(text: str, needles: Sequence[str]) -> bool:
    low = _norm(text)
    return any(_norm(n) in low for n in needles if n.strip())


def run_scenario(scenario: Json, cards: Sequence[str], base: Path) -> Json:
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    vault = base / "vault"
    steps = scenario["steps"]
    first_day = steps[0]["day"] if steps else "2026-01-01"
    done = subprocess.run([*cards, "init", str(vault)], capture_output=True, text=True,
                          env=_env(home, first_day), check=False)
    if done.returncode != 0:
        raise EvalError(f"`cards init` failed: {done.stderr.strip()[:300]}")
    written: dict[int, Path] = {}  # add step -> the file it wrote
    saved: dict[int, str] = {}  # add step -> the text its card holds now (its add's, or its last edit's)
    out: Json = {"asks": [], "gate": [], "accepted": 0, "errors": []}
    for number, step in enumerate(steps):
        env = _env(home, step["day"])
        kind = step["do"]
        if kind == "add":
            args = ["add", step["text"], "--description", step.get("description") or step["text"].split("\n")[0][:100],
                    "--type", step.get("type") or "project", "--format", "json"]
            for flag in ("key", "scope", "expires"):
                if step.get(flag):
                    args += [f"--{flag}", str(step[flag])]
            if step.get("lock"):
                args.append("--lock")
            result = _run(cards, vault, args, env)
            refused = result.returncode == 1
            out["gate"].append({"step": number, "refused": refused, "expected": bool(step.get("expect_refused"))})
            if not refused:
                out["accepted"] += 1
                saved[number] = step["text"]
                try:
                    written[number] = Path(json.loads(result.stdout)["path"])
                except (ValueError, KeyError):
                    out["errors"].append(f"step {number}: add printed no path")
        elif kind == "edit":
            target = written.get(step["of"])
            if target is None:
                continue  # its add was refused: nothing to edit
            if not target.exists():
                moved = vault / "archive" / target.name
                out["errors"].append(f"step {number}: the card to edit is {'archived' if moved.exists() else 'gone'}")
                continue
            _edit(target, step["text"], step.get("description"))
            saved[step["of"]] = step["text"]
        elif kind == "sleep":
            _run(cards, vault, ["consolidate"], env)
        elif kind == "ask":
            out["asks"].append(_ask(cards, vault, step, env, number))
        else:
            raise EvalError(f"{scenario.get('name')}: step {number}: unknown step {kind!r}")
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in vault.rglob("*.md")
             if ".cardindex" not in p.parts and p.name != "INDEX.md"]
    everything = _norm("\n".join(_body(t) for t in texts))
    out["lost"] = [t[:60] for t in saved.values() if _norm(t) not in everything]
    listed = _run(cards, vault, ["list", "--format", "json"], _env(home, steps[-1]["day"] if steps else first_day))
    try:
        out["live"] = len(json.loads(listed.stdout))
    except ValueError:
        out["live"] = None
    return out


def _ask(cards: Sequence[str], vault: Path, step: Json, env: dict[str, str], number: int) -> Json:
    query = step["query"]
    hits = json.loads(_run(cards, vault, ["search", query, "--format", "json"], env).stdout or "[]")
    strong = [h for h in hits if not h.get("weak")]
    top = ""
    if hits:
        path = vault / hits[0]["path"]
        top = f"{hits[0].get('description') or ''}\n{_body(path.read_text(encoding='utf-8')) if path.exists() else ''}"
    if step.get("expect_none"):
        right = not strong
    else:
        right = bool(hits) and _holds(top, step.get("expect", [])) and not _holds(top, step.get("reject", []))
    context = json.loads(_run(cards, vault, ["context", "--query", query, "--format", "json"], env).stdout)
    cards_shown = [c for item in context.get("items", []) for c in item.get("cards", [])]
    shown = [f"{c.get('description') or ''}\n{c.get('fact') or ''}" for c in cards_shown]
    expect, reject = step.get("expect", []), step.get("reject", [])
    first = next((text for text in shown if _holds(text, expect) or _holds(text, reject)), None)
    leads = first is not None and _holds(first, expect) and not _holds(first, reject)
    return {"step": number, "right": right, "context_leads": leads, "none": bool(step.get("expect_none")),
            "stale_in_context": any(_holds(text, reject) for text in shown), "query": query, "top": top.strip()[:160],
            "stale_shown": [f"{c.get('path')} ({c.get('status')}): {(c.get('fact') or '').strip()[:100]}"
                            for c, text in zip(cards_shown, shown, strict=True) if _holds(text, reject)]}


def evaluate(folder: Path, cards: Sequence[str]) -> Json:
    path = folder / "scenarios.json"
    try:
        scenarios = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise EvalError(f"{path}: {e}") from e
    results = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="eval-life-") as tmp:
        for i, scenario in enumerate(scenarios):
            base = Path(tmp) / str(i)
            base.mkdir()
            result = run_scenario(scenario, cards, base)
            result["name"] = scenario.get("name", f"scenario {i}")
            results.append(result)
    return {"scenarios": results, "seconds": round(time.perf_counter() - started, 1)}


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.2f} ({part}/{whole})" if whole else "—"


def summary(report: Json) -> Json:
    asks = [a for s in report["scenarios"] for a in s["asks"]]
    known = [a for a in asks if not a["none"]]
    unknown = [a for a in asks if a["none"]]
    gate = [g for s in report["scenarios"] for g in s["gate"]]
    refused = [g for g in gate if g["refused"]]
    expected = [g for g in gate if g["expected"]]
    return {
        "scenarios": len(report["scenarios"]),
        "answers right": (sum(a["right"] for a in asks), len(asks)),
        "  of known facts": (sum(a["right"] for a in known), len(known)),
        "  of unknown (no answer)": (sum(a["right"] for a in unknown), len(unknown)),
        "context leads with the right value": (sum(a["context_leads"] for a in known), len(known)),
        "context shows no rejected value": (sum(not a["stale_in_context"] for a in known), len(known)),
        "gate refusals expected (precision)": (sum(g["expected"] for g in refused), len(refused)),
        "expected refusals made (recall)": (sum(g["refused"] for g in expected), len(expected)),
        "saved texts kept": (sum(s["accepted"] - len(s["lost"]) for s in report["scenarios"]),
                             sum(s["accepted"] for s in report["scenarios"])),
        "live cards / accepted adds": (sum(s["live"] or 0 for s in report["scenarios"]),
                                       sum(s["accepted"] for s in report["scenarios"])),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder with scenarios.json")
    parser.add_argument("--cards", default=f"{shlex.quote(sys.executable)} -m cardindex",
                        help="the cards command to run (default: this Python's -m cardindex)")
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--show", action="store_true", help="print each wrong answer (development sets only)")
    args = parser.parse_args(argv)
    try:
        report = evaluate(args.folder, shlex.split(args.cards))
    except EvalError as e:
        print(f"eval_life: {e}", file=sys.stderr)
        return 2
    table = summary(report)
    print(f"{args.folder}: {table['scenarios']} scenarios ({report['seconds']} s)")
    for name, value in table.items():
        if name != "scenarios":
            shown = f"{value[0]} / {value[1]}" if name == "live cards / accepted adds" else _ratio(*value)
            print(f"  {name:<40} {shown}")
    errors = [f"{s['name']}: {e}" for s in report["scenarios"] for e in s["errors"]]
    lost = [f"{s['name']}: {t}" for s in report["scenarios"] for t in s["lost"]]
    if errors:
        print(f"  steps that could not run: {len(errors)}")
    if args.show:
        for s in report["scenarios"]:
            for a in s["asks"]:
                if a["stale_in_context"]:
                    print(f"- {s['name']} / step {a['step']}: {a['query']!r}: context shows a rejected value in "
                          + "; ".join(a["stale_shown"]))
                if not a["right"] or (not a["none"] and not a["context_leads"]):
                    print(f"- {s['name']} / step {a['step']}: {a['query']!r}: "
                          f"{'right' if a['right'] else 'WRONG'}"
                          f"{'' if a['none'] or a['context_leads'] else ', context leads with another value'}"
                          f"\n    top: {a['top']!r}")
            for g in s["gate"]:
                if g["refused"] != g["expected"]:
                    print(f"- {s['name']} / step {g['step']}: {'refused' if g['refused'] else 'accepted'} "
                          f"(expected {'refused' if g['expected'] else 'accepted'})")
        for line in errors + [f"lost: {x}" for x in lost]:
            print(f"- {line}")
    if args.json:
        args.json.write_text(json.dumps({"summary": table, **report}, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
