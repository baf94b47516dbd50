#!/usr/bin/env python3
"""Score `cards lint` and `cards consolidate` on a labelled corpus, or survey an unlabelled vault.

A measurement, not a test: it drives the real CLI in subprocesses (`cards lint --format json`,
`cards consolidate --dry-run --all --format json`) and imports nothing from cardindex, so it
reads the same whatever the package's layout.

    python bench/eval_lint.py tests/lint_corpus                    # per-category table
    python bench/eval_lint.py tests/sealed_corpus --json out.json  # and the numbers for machines
    python bench/eval_lint.py --vault /tmp/realvaults/x/.claude/memory
    python bench/eval_lint.py --labels /work/labels/*/labels.json    # hand-labelled real vaults

A labelled real vault is one labels.json that also names its `vault` (the memory folder of
a clone), its `repo` (the clone, compared against with `--repo`) and optionally `config`
(`{"index_file": "MEMORY.md"}` is what the vault finds by itself; anything else must be in
its own `.cardindex.yaml`). The vault is linted in place (a copy elsewhere would leave the
original in the repo, as a doc every card repeats) and no card changes (checked); the
scores of several are also summed into one table. Only the default rules are scored; a finding counts against
precision by its severity only when `--errors-only` is given.

A labelled corpus is the format of tests/lint_corpus/README.md: `vault/`, `labels.json`
(`today`, `cards`, `pairs`, `tricky_clean`) and `repo/GIT_HISTORY.json`, which is replayed
into a fresh git repo in a temporary folder with the vault copied to its `memory/`, so the
derivable rules see the repo as the corpus means them to. The corpus itself is not touched.

Scoring, per category: a card is *found* when a finding of that category is on it, and
*correct* when the card is labelled with the category (for duplicate and contradiction: when
the finding's `related` also names the card's labelled partner). A finding on a clean card
is a false positive of its category. Index findings are not scored (corpora ship no INDEX.md).
Exit 0 with a measurement, 2 on bad input or when `cards` itself fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

ORDER = ("structure", "derivable", "session", "duplicate", "contradiction", "stale", "secret")
PAIRED = ("duplicate", "contradiction")
UNSCORED = frozenset({"index"})
SHOW = 40

Json = dict[str, Any]


class EvalError(Exception):
    """The corpus, the vault or a `cards` run could not be measured."""


class Labels(NamedTuple):
    today: str
    cards: dict[str, list[str]]
    pairs: dict[str, list[tuple[str, str]]]
    tricky_clean: list[str]


# --- running the CLI -----------------------------------------------------------------


def cards_env(state: Path, today: str | None) -> dict[str, str]:
    """The environment for `cards`: no ambient vault, no user config or trust, a pinned today."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(state / "config"), "XDG_STATE_HOME": str(state / "state")}
    env.pop("CARDS_VAULT", None)
    env.pop("PRE_COMMIT", None)
    if today:
        env["CARDS_TODAY"] = today
    return env


def run_json(cards: Sequence[str], vault: Path, args: Sequence[str], env: dict[str, str]) -> tuple[Any, float]:
    """Run `cards --vault VAULT ARGS` and return its parsed JSON output and wall time."""
    command = [*cards, "--vault", str(vault), *args]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    except OSError as error:
        raise EvalError(f"cannot run {shlex.join(cards)}: {error.strerror}") from None
    seconds = time.perf_counter() - start
    what = f"cards {' '.join(args[:1])}"
    if done.returncode not in (0, 1) or "Traceback" in done.stderr:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise EvalError(f"{what} exited {done.returncode}: {last}")
    try:
        return json.loads(done.stdout), seconds
    except json.JSONDecodeError:
        raise EvalError(f"{what} printed no JSON") from None


# --- the labelled corpus -------------------------------------------------------------


def _pairs(raw: object, kind: str) -> list[tuple[str, str]]:
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in raw
    ):
        raise EvalError(f"labels.json: pairs.{kind} must be a list of [card, card]")
    return [(a, b) for a, b in raw]


def read_json(path: Path) -> Json:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EvalError(f"{path}: cannot read: {error}") from None
    if not isinstance(data, dict):
        raise EvalError(f"{path}: not a JSON object")
    return data


def load_labels(corpus: Path) -> Labels:
    """Read and check labels.json (`corpus` is the corpus folder, or the labels file itself)."""
    path = corpus if corpus.suffix == ".json" else corpus / "labels.json"
    if not path.is_file():
        raise EvalError(f"{path}: no such file (a labelled corpus has labels.json, vault/, repo/)")
    data = read_json(path)
    cards, pairs, tricky = data.get("cards"), data.get("pairs", {}), data.get("tricky_clean", [])
    if not isinstance(data.get("today"), str):
        raise EvalError(f"{path}: `today` must be an ISO date string")
    if not isinstance(cards, dict) or not all(
        isinstance(v, list) and all(isinstance(c, str) for c in v) for v in cards.values()
    ):
        raise EvalError(f"{path}: `cards` must map each card path to a list of categories")
    if not isinstance(pairs, dict):
        raise EvalError(f"{path}: `pairs` must be an object")
    if not isinstance(tricky, list) or not all(isinstance(t, str) for t in tricky):
        raise EvalError(f"{path}: `tricky_clean` must be a list of card paths")
    labels = Labels(data["today"], cards, {k: _pairs(v, k) for k, v in pairs.items()}, tricky)
    named = [p for kind in labels.pairs.values() for pair in kind for p in pair] + labels.tricky_clean
    unknown = sorted(set(named) - set(cards))
    if unknown:
        raise EvalError(f"{path}: {unknown[0]} is named in pairs or tricky_clean but not in cards")
    return labels


def build_corpus(corpus: Path, labels: Labels, base: Path) -> Path:
    """Replay repo/GIT_HISTORY.json into base/repo, copy vault/ to base/repo/memory; return the vault."""
    source = corpus / "vault"
    if not source.is_dir():
        raise EvalError(f"{source}: no such folder")
    missing = sorted(p for p in labels.cards if not (source / p).is_file())
    if missing:
        raise EvalError(f"labels.json names {missing[0]}, which is not a file in {source} ({len(missing)} missing)")
    repo = base / "repo"
    repo.mkdir()
    history_path = corpus / "repo" / "GIT_HISTORY.json"
    if history_path.is_file():
        replay(history_path, repo, base)
    vault = repo / "memory"
    shutil.copytree(source, vault, symlinks=True)
    return vault


def replay(history_path: Path, repo: Path, home: Path) -> None:
    """Write each commit's files and commit them, as tests/lint_corpus/README.md says."""
    try:
        history = json.loads(history_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EvalError(f"{history_path}: cannot read: {error}") from None
    if not isinstance(history, list):
        raise EvalError(f"{history_path}: not a list of commits")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(home)}

    def git(*args: str, extra: dict[str, str] | None = None) -> None:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                              env={**env, **(extra or {})}, check=False)
        if done.returncode:
            raise EvalError(f"git {args[0]} failed replaying {history_path}: {done.stderr.strip()}")

    git("init", "-q", "-b", "main")
    for number, commit in enumerate(history, 1):
        if not isinstance(commit, dict) or not isinstance(commit.get("files"), dict) or "subject" not in commit:
            raise EvalError(f"{history_path}: commit {number} needs `subject` and `files`")
        for rel, content in commit["files"].items():
            target = (repo / rel).resolve()
            if not target.is_relative_to(repo.resolve()):
                raise EvalError(f"{history_path}: commit {number} writes outside the repo: {rel}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(str(content), encoding="utf-8")
        git("add", "-A")
        name, _, email = str(commit.get("author") or "Corpus <corpus@example.invalid>").partition(" <")
        who = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">"),
               "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email.rstrip(">")}
        if commit.get("date"):
            who |= {"GIT_AUTHOR_DATE": str(commit["date"]), "GIT_COMMITTER_DATE": str(commit["date"])}
        message = ["-m", str(commit["subject"])] + (["-m", str(commit["body"])] if commit.get("body") else [])
        git("-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", *message, extra=who)


def partners(labels: Labels, kind: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, b in labels.pairs.get(kind, []):
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def score_lint(labels: Labels, findings: list[Json]) -> Json:
    """Per category: labelled, found, correct, precision, recall; clean and tricky flagged fractions."""
    scored = [f for f in findings if str(f.get("category")) not in UNSCORED]
    present = {c for cats in labels.cards.values() for c in cats} | {str(f["category"]) for f in scored}
    categories = [*ORDER, *sorted(present - set(ORDER))]  # every row always, so tables line up across corpora
    clean = {p for p, cats in labels.cards.items() if not cats}
    found: dict[str, set[str]] = {c: set() for c in categories}
    correct: dict[str, set[str]] = {c: set() for c in categories}
    named: dict[str, set[frozenset[str]]] = {k: set() for k in PAIRED}
    partner_of = {k: partners(labels, k) for k in PAIRED}
    for f in scored:
        category, path = str(f["category"]), str(f["path"])
        found[category].add(path)
        if category not in labels.cards.get(path, []):
            continue
        if category in PAIRED:
            hits = {str(r) for r in f.get("related") or []} & partner_of[category].get(path, set())
            named[category] |= {frozenset((path, h)) for h in hits}
            if hits:
                correct[category].add(path)
        else:
            correct[category].add(path)
    rows: Json = {}
    for category in categories:
        truth = {p for p, cats in labels.cards.items() if category in cats}
        row: Json = {"labelled": len(truth), "found": len(found[category]),
                     "correct": len(correct[category] & truth),
                     "on_clean": len(found[category] & clean)}
        wrong = found[category] - (correct[category] & truth)
        row["false_positives_by_label"] = dict(sorted(Counter(
            "+".join(labels.cards[p]) if labels.cards.get(p) else ("clean" if p in labels.cards else "unlabelled")
            for p in wrong).items()))
        row["precision"] = ratio(row["correct"], row["found"])
        row["recall"] = ratio(row["correct"], row["labelled"])
        if category in PAIRED:
            row["pairs"] = len(labels.pairs.get(category, []))
            row["pairs_found"] = len(named[category])
        rows[category] = row
    flagged = {str(f["path"]) for f in scored}
    tricky = set(labels.tricky_clean)
    return {
        "categories": rows,
        "clean": {"cards": len(clean), "flagged": len(clean & flagged), "fraction": ratio(len(clean & flagged), len(clean))},
        "tricky_clean": {"cards": len(tricky), "flagged": len(tricky & flagged),
                         "fraction": ratio(len(tricky & flagged), len(tricky))},
        "unlabelled_paths_flagged": len(flagged - set(labels.cards)),
        "unscored_findings": len(findings) - len(scored),
    }


def components(groups: Iterable[Sequence[str]]) -> dict[str, str]:
    """Union-find over the cards each decision names together: card -> its group's root."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for group in groups:
        for other in group[1:]:
            parent[root(other)] = root(group[0])
    return {x: root(x) for x in parent}


def as_path(card_id: str) -> str:
    """A plan names cards by id; labels name them by path."""
    return card_id if card_id.endswith(".md") else f"{card_id}.md"


def score_consolidate(labels: Labels, plan: Json) -> Json:
    """How the labelled pairs fare in the consolidation plan, and what it merges that is not labelled."""
    decisions: list[Json] = list(plan.get("decisions") or [])
    by_action: dict[str, list[list[str]]] = {}
    for d in decisions:
        group = [as_path(str(d["card"]))] + [as_path(str(r)) for r in d.get("related") or []]
        by_action.setdefault(str(d["action"]), []).append(group)
    merged = components(by_action.get("merge", []))
    replaced = components(by_action.get("supersede", []) + by_action.get("conflict", []))

    def together(groups: dict[str, str], pair: tuple[str, str]) -> bool:
        a, b = pair
        return a in groups and b in groups and groups[a] == groups[b]

    dup, con = labels.pairs.get("duplicate", []), labels.pairs.get("contradiction", [])
    dup_set = {frozenset(p) for p in dup}
    con_set = {frozenset(p) for p in con}
    merge_pairs = {frozenset((g[0], r)) for g in by_action.get("merge", []) for r in g[1:]}
    other_pairs = {frozenset((g[0], r)) for a in ("supersede", "conflict") for g in by_action.get(a, []) for r in g[1:]}
    stale = {p for p, cats in labels.cards.items() if "stale" in cats}
    archived = {g[0] for g in by_action.get("archive", [])}
    return {
        "live": plan.get("live"), "window": plan.get("window"),
        "actions": dict(sorted(Counter(str(d["action"]) for d in decisions).items())),
        "duplicate_pairs": len(dup),
        "duplicate_pairs_merged": sum(together(merged, p) for p in dup),
        "duplicate_pairs_superseded_or_conflict": sum(together(replaced, p) for p in dup),
        "contradiction_pairs": len(con),
        "contradiction_pairs_superseded_or_conflict": sum(together(replaced, p) for p in con),
        "contradiction_pairs_merged": sum(together(merged, p) for p in con),
        "merge_pairs": len(merge_pairs),
        "merge_pairs_not_labelled_duplicate": len(merge_pairs - dup_set),
        "supersede_conflict_pairs": len(other_pairs),
        "supersede_conflict_pairs_not_labelled_contradiction": len(other_pairs - con_set),
        "archived": len(archived),
        "archived_labelled_stale": len(archived & stale),
        "stale_cards": len(stale),
    }


def evaluate_corpus(corpus: Path, cards: Sequence[str], today: str | None) -> Json:
    labels = load_labels(corpus)
    with tempfile.TemporaryDirectory(prefix="eval-lint-") as tmp:
        base = Path(tmp)
        vault = build_corpus(corpus, labels, base)
        env = cards_env(base, today or labels.today)
        findings, lint_seconds = run_json(cards, vault, ["lint", "--format", "json"], env)
        plan, cons_seconds = run_json(
            cards, vault, ["consolidate", "--dry-run", "--all", "--now", today or labels.today, "--format", "json"], env)
    if not isinstance(findings, list) or not isinstance(plan, dict):
        raise EvalError("cards printed JSON of an unexpected shape")
    return {"corpus": str(corpus), "today": today or labels.today, "cards": len(labels.cards),
            "findings": len(findings), "lint": score_lint(labels, findings),
            "consolidate": score_consolidate(labels, plan),
            "seconds": {"lint": round(lint_seconds, 2), "consolidate": round(cons_seconds, 2)}}


def evaluate_labelled_vault(labels_path: Path, cards: Sequence[str], today: str | None,
                            errors_only: bool = False) -> Json:
    """Score a hand-labelled real vault: a copy of its memory folder, linted against its clone."""
    labels = load_labels(labels_path)
    data = read_json(labels_path)
    vault_source, repo = Path(str(data.get("vault", ""))), Path(str(data.get("repo", "")))
    if not vault_source.is_dir() or not repo.is_dir():
        raise EvalError(f"{labels_path}: `vault` and `repo` must name existing folders (fetch the clone first)")
    config = data.get("config") or {}
    unusual = {k: v for k, v in config.items() if not (k == "index_file" and (vault_source / str(v)).is_file())}
    if unusual and not (vault_source / ".cardindex.yaml").is_file():
        raise EvalError(f"{labels_path}: `config` {unusual} needs a .cardindex.yaml in {vault_source}; write it there")
    # Linted in place: a copy elsewhere would leave the original folder in the repo, where
    # the derivable rules would read every card as a doc the card repeats. `lint` and
    # `consolidate --dry-run` change no card (they may write the vault's .cardindex/ cache).
    with tempfile.TemporaryDirectory(prefix="eval-lint-") as tmp:
        base = Path(tmp)
        vault = vault_source
        before = {p: p.read_bytes() for p in vault.rglob("*.md") if ".cardindex" not in p.parts}
        env = cards_env(base, today or labels.today)
        findings, lint_seconds = run_json(cards, vault, ["lint", "--format", "json", "--repo", str(repo)], env)
        plan, cons_seconds = run_json(
            cards, vault, ["consolidate", "--dry-run", "--all", "--now", today or labels.today, "--format", "json"], env)
        after = {p: p.read_bytes() for p in vault.rglob("*.md") if ".cardindex" not in p.parts}
        if after != before:
            raise EvalError(f"{vault}: a card changed while it was measured")
    if not isinstance(findings, list) or not isinstance(plan, dict):
        raise EvalError("cards printed JSON of an unexpected shape")
    if errors_only:
        findings = [f for f in findings if f.get("severity") != "warning"]
    on_cards = [f for f in findings if str(f["path"]) in labels.cards and str(f.get("category")) not in UNSCORED]
    flagged = {str(f["path"]) for f in on_cards}
    failing = {str(f["path"]) for f in on_cards if f.get("severity") != "warning"}
    name = labels_path.parent.name if labels_path.name == "labels.json" else labels_path.stem
    return {"corpus": name, "today": today or labels.today, "cards": len(labels.cards),
            "findings": len(findings), "lint": score_lint(labels, findings),
            "consolidate": score_consolidate(labels, plan),
            "flagged": len(flagged), "flagged_by_errors": len(failing),
            "seconds": {"lint": round(lint_seconds, 2), "consolidate": round(cons_seconds, 2)}}


def total(reports: Sequence[Json]) -> Json:
    """The per-category counts of several labelled vaults summed, precision and recall recomputed."""
    rows: Json = {}
    for report in reports:
        for category, row in report["lint"]["categories"].items():
            into = rows.setdefault(category, {"labelled": 0, "found": 0, "correct": 0, "on_clean": 0,
                                              "false_positives_by_label": {}})
            for key in ("labelled", "found", "correct", "on_clean", "pairs", "pairs_found"):
                if key in row:
                    into[key] = into.get(key, 0) + row[key]
            for label, n in row["false_positives_by_label"].items():
                into["false_positives_by_label"][label] = into["false_positives_by_label"].get(label, 0) + n
    for row in rows.values():
        row["precision"], row["recall"] = ratio(row["correct"], row["found"]), ratio(row["correct"], row["labelled"])
    lint: Json = {"categories": rows, "unlabelled_paths_flagged": 0, "unscored_findings": 0}
    for key in ("clean", "tricky_clean"):
        cards = sum(r["lint"][key]["cards"] for r in reports)
        flagged = sum(r["lint"][key]["flagged"] for r in reports)
        lint[key] = {"cards": cards, "flagged": flagged, "fraction": ratio(flagged, cards)}
    cons: Json = {"actions": {}}
    for report in reports:
        for key, value in report["consolidate"].items():
            if key == "actions":
                for action, n in value.items():
                    cons["actions"][action] = cons["actions"].get(action, 0) + n
            elif isinstance(value, int):
                cons[key] = cons.get(key, 0) + value
    return {"corpus": f"all {len(reports)} labelled vaults", "today": reports[0]["today"],
            "cards": sum(r["cards"] for r in reports), "findings": sum(r["findings"] for r in reports),
            "flagged": sum(r["flagged"] for r in reports),
            "flagged_by_errors": sum(r["flagged_by_errors"] for r in reports),
            "lint": lint, "consolidate": cons,
            "seconds": {k: round(sum(r["seconds"][k] for r in reports), 2) for k in ("lint", "consolidate")}}


def format_labelled(report: Json) -> str:
    cards = report["cards"] or 1
    head = (f"cards flagged by the default rules: {report['flagged']} / {report['cards']} "
            f"({report['flagged'] / cards:.1%}); by errors: {report['flagged_by_errors']} "
            f"({report['flagged_by_errors'] / cards:.1%})")
    return format_corpus(report) + "\n" + head


# --- an unlabelled vault -------------------------------------------------------------


def printable(text: str) -> str:
    """Escape control characters so a message cannot drive the terminal."""
    return "".join(c if c.isprintable() or c == " " else f"\\x{ord(c):02x}" for c in text)


def survey_vault(vault: Path, cards: Sequence[str], today: str | None, show: int) -> Json:
    """Cards, the fraction flagged by the default rules, findings per code and category, the first findings."""
    if not vault.is_dir():
        raise EvalError(f"{vault}: not a folder")
    with tempfile.TemporaryDirectory(prefix="eval-lint-") as tmp:
        env = cards_env(Path(tmp), today)
        listed, _ = run_json(cards, vault, ["list", "--all", "--format", "json"], env)
        findings, seconds = run_json(cards, vault, ["lint", "--format", "json"], env)
        try:
            plan, _ = run_json(cards, vault, ["consolidate", "--dry-run", "--all", "--format", "json"], env)
            actions: Json = dict(sorted(Counter(str(d["action"]) for d in plan.get("decisions") or []).items()))
        except EvalError as error:
            actions = {"error": str(error)}
    card_paths = {str(c["path"]) for c in listed if c.get("status") != "archived"}
    on_cards = [f for f in findings if str(f["path"]) in card_paths]
    others = {str(f["path"]) for f in findings} - card_paths
    per_code: Counter[tuple[str, str, str]] = Counter(
        (str(f["code"]), str(f["category"]), str(f.get("severity"))) for f in findings)
    cards_per_code = {k: len({str(f["path"]) for f in findings if (f["code"], f["category"], str(f.get("severity"))) == k})
                      for k in per_code}
    per_category: dict[str, set[str]] = {}
    for f in on_cards:
        per_category.setdefault(str(f["category"]), set()).add(str(f["path"]))
    first = sorted(findings, key=lambda f: (str(f["path"]), int(f.get("line") or 0), str(f["code"])))[:show]
    flagged = {str(f["path"]) for f in on_cards}
    failing = {str(f["path"]) for f in on_cards if f.get("severity") == "error"}
    return {
        "vault": str(vault), "cards": len(card_paths), "flagged": len(flagged),
        "fraction": ratio(len(flagged), len(card_paths)), "findings": len(findings),
        "flagged_by_errors": len(failing), "fraction_by_errors": ratio(len(failing), len(card_paths)),
        "findings_not_on_cards": sorted(others),
        "codes": [{"code": code, "category": cat, "severity": sev, "findings": n, "cards": cards_per_code[(code, cat, sev)]}
                  for (code, cat, sev), n in sorted(per_code.items(), key=lambda kv: (-kv[1], kv[0]))],
        "categories": {c: len(p) for c, p in sorted(per_category.items())},
        "consolidate": actions, "lint_seconds": round(seconds, 2),
        "first": [{"path": f["path"], "line": f.get("line"), "code": f["code"], "message": printable(str(f["message"]))}
                  for f in first],
    }


# --- output --------------------------------------------------------------------------


def num(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def format_corpus(report: Json) -> str:
    lint, cons = report["lint"], report["consolidate"]
    lines = [(f"{report['corpus']}: {report['cards']} cards, today {report['today']}, {report['findings']} findings "
             f"(lint {report['seconds']['lint']} s, consolidate {report['seconds']['consolidate']} s)"), "",
             "| category | labelled | found | correct | on clean | precision | recall | pairs found |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for category, row in lint["categories"].items():
        pairs = f"{row['pairs_found']} / {row['pairs']}" if "pairs" in row else ""
        lines.append(f"| {category} | {row['labelled']} | {row['found']} | {row['correct']} | {row['on_clean']} "
                     f"| {num(row['precision'])} | {num(row['recall'])} | {pairs} |")
    for key, label in (("clean", "clean cards flagged"), ("tricky_clean", "tricky clean cards flagged")):
        part = lint[key]
        share = "—" if part["fraction"] is None else f"{part['fraction']:.1%}"
        lines.append(f"| {label} | {part['cards']} | {part['flagged']} | | | | {share} | |")
    lines.append("")
    for category, row in lint["categories"].items():
        if row["false_positives_by_label"]:
            where = ", ".join(f"{n} labelled {label}" for label, n in row["false_positives_by_label"].items())
            lines.append(f"false {category} findings: {where}")
    if lint["unlabelled_paths_flagged"] or lint["unscored_findings"]:
        lines.append(f"not scored: {lint['unscored_findings']} index findings; "
                     f"{lint['unlabelled_paths_flagged']} flagged paths not in labels.json")
    actions = ", ".join(f"{k} {v}" for k, v in cons["actions"].items()) or "nothing"
    lines += [
        f"consolidate --dry-run --all: {actions} (window {cons['window']} of {cons['live']} live)",
        (f"  duplicate pairs merged: {cons['duplicate_pairs_merged']} / {cons['duplicate_pairs']}"
         f" (superseded or conflict instead: {cons['duplicate_pairs_superseded_or_conflict']})"),
        (f"  contradiction pairs superseded or conflict: {cons['contradiction_pairs_superseded_or_conflict']}"
         f" / {cons['contradiction_pairs']} (merged instead: {cons['contradiction_pairs_merged']})"),
        f"  merged pairs not labelled duplicate: {cons['merge_pairs_not_labelled_duplicate']} / {cons['merge_pairs']}",
        (f"  supersede/conflict pairs not labelled contradiction: "
         f"{cons['supersede_conflict_pairs_not_labelled_contradiction']} / {cons['supersede_conflict_pairs']}"),
        f"  archived: {cons['archived']} ({cons['archived_labelled_stale']} of {cons['stale_cards']} stale cards)",
    ]
    return "\n".join(lines)


def format_vault(report: Json) -> str:
    share, errors = (("—" if x is None else f"{x:.1%}") for x in (report["fraction"], report["fraction_by_errors"]))
    actions = report["consolidate"]
    plan = actions.get("error") or ", ".join(f"{k} {v}" for k, v in actions.items()) or "nothing to do"
    lines = [(f"{report['vault']}: {report['cards']} cards, {report['flagged']} flagged ({share}) by the default rules, "
             f"{report['flagged_by_errors']} ({errors}) by errors, {report['findings']} findings "
             f"(lint {report['lint_seconds']} s)"),
             "cards flagged per category: " + (", ".join(f"{c} {n}" for c, n in report["categories"].items()) or "none"),
             f"consolidate --dry-run --all: {plan}", "",
             "| code | category | severity | findings | cards |", "| --- | --- | --- | ---: | ---: |"]
    lines += [f"| {r['code']} | {r['category']} | {r['severity']} | {r['findings']} | {r['cards']} |"
              for r in report["codes"]]
    if report["findings_not_on_cards"]:
        lines.append(f"findings on files that are not cards: {', '.join(report['findings_not_on_cards'])}")
    lines += ["", f"first {len(report['first'])} findings:"]
    lines += [f"{printable(str(f['path']))}:{f['line']}: {f['code']} {f['message']}" for f in report["first"]]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("corpus", nargs="?", type=Path, help="a labelled corpus folder (labels.json, vault/, repo/)")
    parser.add_argument("--vault", type=Path, help="survey an unlabelled vault instead")
    parser.add_argument("--labels", type=Path, nargs="+", metavar="LABELS_JSON",
                        help="score hand-labelled real vaults (labels.json naming `vault` and `repo`)")
    parser.add_argument("--errors-only", action="store_true",
                        help="with --labels: score only error findings (what fails pre-commit)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the numbers as JSON to OUT")
    parser.add_argument("--today", help="pin today (default: the labels' today; for --vault, the real date)")
    parser.add_argument("--show", type=int, default=SHOW, help=f"findings listed for --vault (default {SHOW})")
    parser.add_argument("--cards", default=f"{shlex.quote(sys.executable)} -m cardindex",
                        help="the cards command to run (default: this Python's -m cardindex)")
    args = parser.parse_args(argv)
    if sum(x is not None for x in (args.corpus, args.vault, args.labels)) != 1:
        parser.error("give a CORPUS_DIR, --vault PATH or --labels FILE... (one of them)")
    cards = shlex.split(args.cards)
    try:
        if args.labels is not None:
            reports = [evaluate_labelled_vault(p, cards, args.today, args.errors_only) for p in args.labels]
            parts = [format_labelled(r) for r in reports]
            if len(reports) > 1:
                reports.append(total(reports))
                parts.append(format_labelled(reports[-1]))
            report = {"vaults": reports}
            text = "\n\n".join(parts)
        elif args.vault is not None:
            report = survey_vault(args.vault, cards, args.today, max(args.show, 0))
            text = format_vault(report)
        else:
            report = evaluate_corpus(args.corpus, cards, args.today)
            text = format_corpus(report)
        if args.json:
            args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except (EvalError, OSError) as error:
        print(f"eval_lint: {error}", file=sys.stderr)
        return 2
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
