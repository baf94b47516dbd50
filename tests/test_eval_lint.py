"""bench/eval_lint.py: the numbers it prints for a tiny labelled corpus, an unlabelled vault, bad input.

The script is run as a real process on a corpus made in tmp_path (four cards: one duplicate
pair, one session note, one clean card), so what is checked is what a person running it
reads. The scoring functions are also checked directly, with a property: findings that are
exactly the labels score 1.0 everywhere, and one more finding on a clean card costs exactly
that category's precision and one clean card.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "eval_lint.py"
_spec = importlib.util.spec_from_file_location("eval_lint", SCRIPT)
assert _spec is not None and _spec.loader is not None
ev = importlib.util.module_from_spec(_spec)
sys.modules["eval_lint"] = ev  # NamedTuple needs its module registered
_spec.loader.exec_module(ev)

CARDS = {
    "deploy-day.md": ("Which weekday production deploys happen", "project",
                      "Deploy to production on Thursdays only."),
    "release-weekday.md": ("The weekday on which production releases go out", "project",
                           "Production deploys happen only on Thursdays."),
    "export-progress.md": ("Where the export work stands", "project",
                           "Currently halfway through the export screen; next step is the CSV toggle."),
    "answer-style.md": ("How long the user wants replies", "user", "Keep replies short: a few sentences, no headings."),
}
GOOD_LABELS: dict[str, Any] = {
    "today": "2026-11-30",
    "cards": {"deploy-day.md": ["duplicate"], "release-weekday.md": ["duplicate"],
              "export-progress.md": ["session"], "answer-style.md": []},
    "pairs": {"duplicate": [["deploy-day.md", "release-weekday.md"]], "contradiction": []},
    "tricky_clean": ["answer-style.md"],
}
HISTORY = [{"hash": "", "subject": "Initial commit", "body": "", "author": "Dev <dev@example.invalid>",
            "date": "2026-01-05T10:00:00+00:00", "files": {"README.md": "# demo\n\nA tiny project.\n"}}]


def make_corpus(root: Path, labels: dict[str, Any]) -> Path:
    for name, (description, kind, body) in CARDS.items():
        path = root / "vault" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\ndescription: {description}\ntype: {kind}\n---\n{body}\n", encoding="utf-8")
    (root / "repo").mkdir()
    (root / "repo" / "GIT_HISTORY.json").write_text(json.dumps(HISTORY), encoding="utf-8")
    (root / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return root


def run(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def evaluate(tmp_path: Path, labels: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    corpus = make_corpus(tmp_path / "corpus", labels)
    out = tmp_path / "out.json"
    done = run(str(corpus), "--json", str(out))
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(out.read_text(encoding="utf-8"))


def test_a_tiny_corpus_scores_its_pair_and_its_session_note(tmp_path: Path) -> None:
    text, report = evaluate(tmp_path, GOOD_LABELS)
    assert "| duplicate | 2 | 2 | 2 | 0 | 1.00 | 1.00 | 1 / 1 |" in text
    assert "| session | 1 | 1 | 1 | 0 | 1.00 | 1.00 |  |" in text
    assert "| clean cards flagged | 1 | 0 | | | | 0.0% | |" in text
    assert "  duplicate pairs merged: 1 / 1 (superseded or conflict instead: 0)" in text
    lint, cons = report["lint"], report["consolidate"]
    assert report["cards"] == 4
    assert "index" not in lint["categories"] and lint["unscored_findings"] == 1  # INDEX.md is missing: not scored
    assert lint["unlabelled_paths_flagged"] == 0
    assert lint["categories"]["duplicate"] | {"false_positives_by_label": {}} == {
        "labelled": 2, "found": 2, "correct": 2, "on_clean": 0, "precision": 1.0, "recall": 1.0,
        "pairs": 1, "pairs_found": 1, "false_positives_by_label": {}}
    assert lint["clean"] == {"cards": 1, "flagged": 0, "fraction": 0.0}
    assert lint["tricky_clean"] == {"cards": 1, "flagged": 0, "fraction": 0.0}
    assert cons["duplicate_pairs_merged"] == 1
    assert cons["merge_pairs_not_labelled_duplicate"] == 0


def test_a_finding_that_names_another_card_than_the_labelled_partner_is_wrong(tmp_path: Path) -> None:
    labels = {**GOOD_LABELS,
              "cards": {"deploy-day.md": ["duplicate"], "release-weekday.md": [],
                        "export-progress.md": ["session", "duplicate"], "answer-style.md": []},
              "pairs": {"duplicate": [["deploy-day.md", "export-progress.md"]]}}
    text, report = evaluate(tmp_path, labels)
    dup = report["lint"]["categories"]["duplicate"]
    assert (dup["found"], dup["correct"], dup["on_clean"], dup["precision"], dup["recall"]) == (2, 0, 1, 0.0, 0.0)
    assert dup["false_positives_by_label"] == {"clean": 1, "duplicate": 1}
    assert report["lint"]["clean"] == {"cards": 2, "flagged": 1, "fraction": 0.5}
    assert report["consolidate"]["duplicate_pairs_merged"] == 0
    assert report["consolidate"]["merge_pairs_not_labelled_duplicate"] == 1
    assert "| duplicate | 2 | 2 | 0 | 1 | 0.00 | 0.00 | 0 / 1 |" in text


def test_an_unlabelled_vault_is_surveyed(tmp_path: Path) -> None:
    vault = make_corpus(tmp_path / "corpus", GOOD_LABELS) / "vault"
    out = tmp_path / "survey.json"
    done = run("--vault", str(vault), "--json", str(out), "--today", "2026-11-30")
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["cards"], report["flagged"], report["fraction"]) == (4, 3, 0.75)
    assert report["categories"] == {"duplicate": 2, "session": 1}
    codes = {r["code"]: (r["findings"], r["cards"]) for r in report["codes"]}
    assert codes["U101"] == (2, 2) and codes["S101"] == (1, 1)
    assert "4 cards, 3 flagged (75.0%) by the default rules" in done.stdout
    assert any(line.startswith("export-progress.md:") and " S101 " in line for line in done.stdout.splitlines())
    assert report["consolidate"] == {"merge": 1}


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    missing_card = make_corpus(tmp_path / "corpus", {**GOOD_LABELS, "cards": {**GOOD_LABELS["cards"], "gone.md": []}})
    for args in ([str(empty)], [str(missing_card)], ["--vault", str(tmp_path / "nowhere")]):
        done = run(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stdout == "" and len(done.stderr.splitlines()) == 1 and done.stderr.startswith("eval_lint: ")
    assert "gone.md" in run(str(missing_card)).stderr
    assert run().returncode == 2


def test_merges_are_counted_across_decisions_and_a_merged_contradiction_is_reported() -> None:
    labels = ev.Labels("2026-11-30", {"a.md": ["duplicate"], "b.md": ["duplicate"], "c.md": ["duplicate"],
                                      "x.md": ["contradiction"], "y.md": ["contradiction"]},
                       {"duplicate": [("a.md", "b.md"), ("b.md", "c.md"), ("a.md", "c.md")],
                        "contradiction": [("x.md", "y.md")]}, [])
    plan = {"decisions": [{"action": "merge", "card": "a", "related": ["b"]},
                          {"action": "merge", "card": "c", "related": ["b"]},
                          {"action": "merge", "card": "x", "related": ["y"]}]}
    out = ev.score_consolidate(labels, plan)
    assert out["duplicate_pairs_merged"] == 3
    assert out["contradiction_pairs_merged"] == 1
    assert out["contradiction_pairs_superseded_or_conflict"] == 0
    assert (out["merge_pairs"], out["merge_pairs_not_labelled_duplicate"]) == (3, 1)


CATEGORY = st.sampled_from(["structure", "session", "secret", "duplicate", "contradiction"])


@st.composite
def corpora(draw: st.DrawFn) -> Any:
    n = draw(st.integers(3, 12))
    cards: dict[str, list[str]] = {}
    for i in range(n):
        cats = draw(st.lists(st.sampled_from(["structure", "session", "secret"]), max_size=2, unique=True))
        cards[f"c{i}.md"] = cats
    names = list(cards)
    pairs: dict[str, list[tuple[str, str]]] = {"duplicate": [], "contradiction": []}
    for a, b in draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=3)):
        kind = draw(st.sampled_from(["duplicate", "contradiction"]))
        if a != b and kind not in cards[a] + cards[b] and not any({a, b} & set(p) for k in pairs.values() for p in k):
            pairs[kind].append((a, b))
            cards[a].append(kind)
            cards[b].append(kind)
    clean = [p for p, cats in cards.items() if not cats]
    return ev.Labels("2026-11-30", cards, pairs, clean[:1]), clean


def perfect(labels: Any) -> list[dict[str, Any]]:
    """One finding per labelled category of each card, naming the partner for pairs."""
    findings = []
    for path, cats in labels.cards.items():
        for cat in cats:
            related = [b if a == path else a for a, b in labels.pairs.get(cat, []) if path in (a, b)]
            findings.append({"path": path, "category": cat, "related": related})
    return findings


@settings(max_examples=150, deadline=None)
@given(corpora(), CATEGORY)
def test_perfect_findings_score_one_and_a_finding_on_a_clean_card_costs_precision(drawn: Any, extra: str) -> None:
    labels, clean = drawn
    table = ev.score_lint(labels, perfect(labels))
    for cat, row in table["categories"].items():
        assert row["precision"] in (1.0, None) and row["recall"] in (1.0, None), cat
        assert row["labelled"] == row["found"] == row["correct"]
    assert table["clean"]["flagged"] == 0
    if not clean:
        return
    worse = ev.score_lint(labels, [*perfect(labels), {"path": clean[0], "category": extra, "related": []}])
    row = worse["categories"][extra]
    assert (row["found"], row["correct"], row["on_clean"]) == (table["categories"][extra]["found"] + 1,
                                                               table["categories"][extra]["correct"], 1)
    assert row["precision"] is not None and row["precision"] < 1.0
    assert row["recall"] == table["categories"][extra]["recall"]
    assert worse["clean"]["flagged"] == 1
    assert worse["tricky_clean"]["flagged"] == 1


def test_labelled_real_vaults_are_scored_in_a_copy_and_summed(tmp_path: Path) -> None:
    corpus = make_corpus(tmp_path / "corpus", GOOD_LABELS)
    repo = tmp_path / "clone"
    (repo / "memory").mkdir(parents=True)
    for card in (corpus / "vault").iterdir():
        (repo / "memory" / card.name).write_bytes(card.read_bytes())
    before = sorted(p.name for p in (repo / "memory").iterdir() if p.suffix == ".md")
    labels = {**GOOD_LABELS, "vault": str(repo / "memory"), "repo": str(repo), "config": {}}
    first, second = tmp_path / "a" / "labels.json", tmp_path / "b" / "labels.json"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(json.dumps(labels), encoding="utf-8")
    out = tmp_path / "out.json"
    done = run("--labels", str(first), str(second), "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (repo / "memory").iterdir() if p.suffix == ".md") == before  # no card touched
    reports = json.loads(out.read_text(encoding="utf-8"))["vaults"]
    assert [r["corpus"] for r in reports] == ["a", "b", "all 2 labelled vaults"]
    assert reports[0]["lint"]["categories"]["duplicate"]["correct"] == 2
    summed = reports[-1]["lint"]["categories"]["duplicate"]
    assert (summed["labelled"], summed["correct"], summed["pairs"], summed["pairs_found"]) == (4, 4, 2, 2)
    assert reports[-1]["cards"] == 8 and reports[-1]["flagged"] == 6
    assert "cards flagged by the default rules: 6 / 8 (75.0%)" in done.stdout
    missing = tmp_path / "c" / "labels.json"
    missing.parent.mkdir()
    missing.write_text(json.dumps({**labels, "vault": str(tmp_path / "gone")}), encoding="utf-8")
    bad = run("--labels", str(missing))
    assert bad.returncode == 2 and "must name existing folders" in bad.stderr
