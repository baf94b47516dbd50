"""Precision and recall of `cards lint` per category on the hand-labelled corpus.

The corpus (tests/lint_corpus/) is a vault of 263 hand-written cards of a fictional team,
a small fake repo rebuilt into real git history, and labels. This runs the real CLI on
it and scores every category. `python tests/test_lint_corpus.py` prints the table.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "lint_corpus"
CATEGORIES = ("structure", "derivable", "session", "duplicate", "contradiction", "stale", "secret")
MIN_RECALL = 0.9  # the target, for every category
MIN_PRECISION = 0.9
MAX_CLEAN_FLAGGED = 0.05


def build(base: Path) -> Path:
    """Replay the fake repo's history into a real git repo and put the vault in it; return the vault."""
    repo = base / "ledgerline"
    repo.mkdir()
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(base)}

    def git(*args: str, extra: dict[str, str] | None = None) -> None:
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env={**env, **(extra or {})})

    git("init", "-q", "-b", "main")
    for commit in json.loads((CORPUS / "repo" / "GIT_HISTORY.json").read_text(encoding="utf-8")):
        for rel, content in commit["files"].items():
            target = repo / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
        git("add", "-A")
        name, email = commit["author"].rsplit(" <", 1)
        who = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email.rstrip(">"), "GIT_AUTHOR_DATE": commit["date"],
               "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email.rstrip(">"), "GIT_COMMITTER_DATE": commit["date"]}
        message = ["-m", commit["subject"]] + (["-m", commit["body"]] if commit.get("body") else [])
        git("-c", "commit.gpgsign=false", "commit", "-q", *message, extra=who)
    vault = repo / "memory"
    shutil.copytree(CORPUS / "vault", vault)
    return vault


def run_lint(vault: Path) -> list[dict[str, object]]:
    env = {**os.environ, "CARDS_TODAY": json.loads((CORPUS / "labels.json").read_text())["today"]}
    env.pop("CARDS_VAULT", None)
    done = subprocess.run(
        # every rule, the opt-in style ones too (F007, F008): the corpus scores the rules, not the defaults
        [sys.executable, "-m", "cardindex", "--vault", str(vault), "lint", "--select", "ALL", "--ignore", "index",
         "--format", "json"],
        capture_output=True, text=True, env=env, check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr
    findings: list[dict[str, object]] = json.loads(done.stdout)
    return findings


def score(findings: list[dict[str, object]]) -> dict[str, dict[str, float]]:
    """Per category: cards labelled, flagged, true positives, precision, recall.

    A card counts as flagged for a category when any finding of that category is on
    it; for duplicates and contradictions the finding must also name the labelled
    partner in `related`.
    """
    labels = json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))
    partners: dict[str, dict[str, set[str]]] = {c: {} for c in ("duplicate", "contradiction")}
    for kind, pairs in labels["pairs"].items():
        for a, b in pairs:
            partners[kind].setdefault(a, set()).add(b)
            partners[kind].setdefault(b, set()).add(a)
    flagged: dict[str, set[str]] = {c: set() for c in CATEGORIES}
    correct: dict[str, set[str]] = {c: set() for c in CATEGORIES}
    for f in findings:
        category, path = str(f["category"]), str(f["path"])
        if category not in flagged:
            continue
        flagged[category].add(path)
        if category in partners:
            if set(f["related"]) & partners[category].get(path, set()):  # type: ignore[arg-type]
                correct[category].add(path)
        elif category in labels["cards"].get(path, []):
            correct[category].add(path)
    table: dict[str, dict[str, float]] = {}
    for category in CATEGORIES:
        truth = {p for p, cats in labels["cards"].items() if category in cats}
        tp = len(correct[category] & truth)
        table[category] = {
            "labelled": len(truth),
            "flagged": len(flagged[category]),
            "true_positives": tp,
            "precision": tp / len(flagged[category]) if flagged[category] else 1.0,
            "recall": tp / len(truth) if truth else 1.0,
        }
    clean = [p for p, cats in labels["cards"].items() if not cats]
    with_findings = {str(f["path"]) for f in findings}
    table["clean"] = {"labelled": len(clean), "flagged": len(with_findings & set(clean)),
                      "rate": len(with_findings & set(clean)) / len(clean)}
    return table


def format_table(table: dict[str, dict[str, float]]) -> str:
    lines = ["| category | labelled | flagged | precision | recall |", "| --- | ---: | ---: | ---: | ---: |"]
    for category in CATEGORIES:
        row = table[category]
        lines.append(f"| {category} | {row['labelled']:.0f} | {row['flagged']:.0f} | {row['precision']:.2f} | {row['recall']:.2f} |")
    clean = table["clean"]
    lines.append(f"| clean cards with any finding | {clean['labelled']:.0f} | {clean['flagged']:.0f} | | {clean['rate']:.1%} |")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, float]]:
    vault = build(tmp_path_factory.mktemp("corpus"))
    return score(run_lint(vault))


def test_corpus_is_big_enough() -> None:
    labels = json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))
    assert len(labels["cards"]) >= 150
    on_disk = {p.relative_to(CORPUS / "vault").as_posix() for p in (CORPUS / "vault").rglob("*.md")}
    assert on_disk == set(labels["cards"])


@pytest.mark.parametrize("category", CATEGORIES)
def test_recall(table: dict[str, dict[str, float]], category: str) -> None:
    assert table[category]["recall"] >= MIN_RECALL, format_table(table)


@pytest.mark.parametrize("category", CATEGORIES)
def test_precision(table: dict[str, dict[str, float]], category: str) -> None:
    assert table[category]["precision"] >= MIN_PRECISION, format_table(table)


def test_clean_cards_are_rarely_flagged(table: dict[str, dict[str, float]]) -> None:
    assert table["clean"]["rate"] <= MAX_CLEAN_FLAGGED, format_table(table)


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        print(format_table(score(run_lint(build(Path(tmp))))))
