"""The remembered report of `cards lint` (`RunMemo.output`): a warm run prints what the last run
printed of the same findings, without formatting them again, and never a stale or unredacted report.

As in test_speed3_lint_memo.py, `trust_all` turns the two-second guard off, so the memo's key
alone has to see each change, and every warm report is compared with one printed by a run
that uses no cache at all.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex import __version__
from cardindex.lint import formatters
from cardindex.lint import memo as run_memo

REPORT = Path(".cardindex") / "cache" / f"lint-run-{__version__}-{run_memo.FORMAT}-all-report.marshal"
FORMATS = ("text", "json", "json-lines", "github", "sarif")


def card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{body}\n"


# A beekeeping club's notes, a reworded pair among them, one session note, one secret.
CARDS = {
    "hives/inspection.md": card("Hives are inspected every nine days in swarm season",
                                "Open each brood box every nine days from April to June."),
    "hives/inspection-again.md": card("Hives are inspected every nine days in swarm season",
                                      "Open each brood box every nine days from April to June."),
    "hives/feeding.md": card("Colonies get fondant when the hive weighs under 15 kg",
                             "Heft the hive from the back in November."),
    "club/today.md": card("The extractor is at Mara's place", "Right now I am cleaning the extractor this afternoon."),
    "club/shop.md": card("The club shop's payment key", "Checkout uses sk_live_4eC39HqLyjWDarjtT1zdp7dcQx9fVbR2."),
}


@pytest.fixture
def trust_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_memo, "RACY_NS", -(10**18))


@pytest.fixture
def no_formatting(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """After calling it, a run that formats findings fails the test."""

    def forbid() -> None:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the findings were formatted again: the report was not remembered")

        monkeypatch.setattr(formatters.Formatter, "write_groups", fail)

    return forbid


def make_vault(root: Path, cards: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text("repo: false\n", encoding="utf-8")
    for rel, text in cards.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def report(run_cli: Callable[..., Result], root: Path, *args: str, cache: bool = True) -> str:
    result = run_cli(*([] if cache else ["--no-cache"]), "--vault", str(root), "lint", *args)
    assert result.exit_code in (0, 1), result.stderr
    return result.stdout


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_warm_run_prints_the_remembered_report_without_formatting(tmp_path, run_cli, trust_all, no_formatting, fmt):
    root = make_vault(tmp_path / "vault", CARDS)
    cold = report(run_cli, root, "--format", fmt, cache=False)
    assert report(run_cli, root, "--format", fmt) == cold  # computed, then remembered
    assert (root / REPORT).is_file()
    no_formatting()
    assert report(run_cli, root, "--format", fmt) == cold


def test_the_remembered_report_stays_redacted(tmp_path, run_cli, trust_all, no_formatting):
    root = make_vault(tmp_path / "vault", CARDS)
    first = report(run_cli, root, "--format", "json")
    assert "K10" in first and "sk_live_" not in first
    no_formatting()
    again = report(run_cli, root, "--format", "json")
    assert again == first and "sk_live_" not in again
    assert b"sk_live_" not in (root / REPORT).read_bytes()


def test_an_edited_card_is_reported_anew(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    first = report(run_cli, root)
    assert report(run_cli, root) == first
    (root / "hives/feeding.md").write_text(card("Colonies get fondant when the hive weighs under 15 kg",
                                                "At the moment I am weighing the hives before lunch."))
    edited = report(run_cli, root)
    assert edited != first and "hives/feeding.md" in edited
    assert edited == report(run_cli, root, cache=False)


def test_each_format_and_fix_marking_is_its_own_report(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    reports = {fmt: report(run_cli, root, "--format", fmt) for fmt in FORMATS}
    assert len(set(reports.values())) == len(FORMATS)
    for fmt in FORMATS:  # all of them remembered at once, none printed for another
        assert report(run_cli, root, "--format", fmt) == reports[fmt] == report(run_cli, root, "--format", fmt, cache=False)
    marked = report(run_cli, root, "--unsafe-fixes")
    assert marked == report(run_cli, root, "--unsafe-fixes", cache=False)
    assert report(run_cli, root) == reports["text"]


def test_text_paths_follow_the_current_folder(tmp_path, run_cli, trust_all, monkeypatch):
    """Text names files relative to where `cards` runs: a report made in one folder is not printed in another."""
    root = make_vault(tmp_path / "vault", CARDS)
    monkeypatch.chdir(tmp_path)
    outside = report(run_cli, root)
    assert "vault/hives/inspection.md" in outside
    monkeypatch.chdir(root / "hives")
    inside = report(run_cli, root)
    assert inside == report(run_cli, root, cache=False)
    assert "inspection.md:" in inside and "vault/hives/" not in inside
    monkeypatch.chdir(tmp_path)
    assert report(run_cli, root) == outside


def test_a_report_of_other_findings_is_never_printed(tmp_path, run_cli, trust_all):
    """A report file kept for another key (another vault state) is ignored, and replaced."""
    root = make_vault(tmp_path / "vault", CARDS)
    report(run_cli, root, "--format", "json")
    other = make_vault(tmp_path / "other", {"hives/feeding.md": CARDS["hives/feeding.md"]})
    report(run_cli, other, "--format", "json")
    os.replace(root / REPORT, other / REPORT)  # the first vault's report, under the second's folder
    assert report(run_cli, other, "--format", "json") == report(run_cli, other, "--format", "json", cache=False)


def test_a_fix_run_prints_the_findings_after_the_fix(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    report(run_cli, root, "--format", "json")
    fixed = report(run_cli, root, "--format", "json", "--fix")
    assert fixed == report(run_cli, root, "--format", "json", cache=False)


def _git(repo: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                   check=True, capture_output=True)


def test_reports_of_findings_computed_again_under_one_key_are_dropped(tmp_path, run_cli, trust_all):
    """A folder a card's scope names appears in the repo: the memo's key is the same (its probes
    differ), the findings are computed again, and no format's old report is printed for them."""
    repo = tmp_path / "repo"
    (repo / "hives").mkdir(parents=True)
    (repo / "hives/frames.py").write_text("FRAMES_PER_BOX = 10\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "Ten frames per brood box")
    scoped = "---\ndescription: Queen excluders go above the second box\ntype: project\nscope: path:queens\n---\n" \
             "Excluders sit above the second brood box.\n"
    root = make_vault(repo / "memory", {"excluders.md": scoped, "hives/feeding.md": CARDS["hives/feeding.md"]})
    (root / ".cardindex.yaml").write_text("", encoding="utf-8")
    before = {fmt: report(run_cli, root, "--format", fmt) for fmt in ("json", "text")}
    assert "T103" in before["json"] and "T103" in before["text"]
    (repo / "queens").mkdir()
    for fmt in ("json", "text"):
        now = report(run_cli, root, "--format", fmt)
        assert "T103" not in now and now == report(run_cli, root, "--format", fmt, cache=False)
