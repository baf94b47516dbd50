"""T105 on a file named without its folder (issue 14, stale on real vaults): audit and review
notes cite `name.ext:LINE`; when exactly one repo file has that name and the line is past
its end, the code the card describes has changed. Another project's file, a name two repo
files share, a line that is there, a host and port, and a URL are left alone."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


def card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{body}\n"


@pytest.fixture
def repo(tmp_path: Path, run_cli: Callable[..., Result]) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "loans").mkdir(parents=True)
    (root / "src" / "loans" / "ledger.py").write_text("".join(f"line_{n} = {n}\n" for n in range(30)), encoding="utf-8")
    for folder in ("catalogue", "members"):  # one name, two files: a card naming it does not say which
        (root / "src" / folder).mkdir()
        (root / "src" / folder / "models.py").write_text("x = 1\n", encoding="utf-8")
    assert run_cli("init", str(root / "memory")).exit_code == 0
    return root


def findings(run_cli: Callable[..., Result], repo: Path, cards: dict[str, str]) -> dict[str, list[str]]:
    for name, text in cards.items():
        (repo / "memory" / name).write_text(text, encoding="utf-8")
    done = run_cli("--vault", str(repo / "memory"), "lint", "--select", "T105", "--format", "json")
    out: dict[str, list[str]] = {}
    for f in json.loads(done.stdout):
        out.setdefault(f["path"], []).append(f"{f['code']} {f['message']}")
    return out


def test_a_named_file_line_past_the_end_of_the_one_file_of_that_name(
        run_cli: Callable[..., Result], repo: Path) -> None:
    got = findings(run_cli, repo, {
        "overdue.md": card("Where overdue fines are added", "Fines are added in `ledger.py:412` after the grace days."),
        "range.md": card("How renewals are counted", "- LOAN-07 HIGH: ledger.py:212-230 counts a renewal twice."),
    })
    assert got == {
        "overdue.md": ["T105 names line 412 of ledger.py (src/loans/ledger.py), which has 30 lines"],
        "range.md": ["T105 names line 212 of ledger.py (src/loans/ledger.py), which has 30 lines"],
    }


def test_names_that_do_not_decide_are_left_alone(run_cli: Callable[..., Result], repo: Path) -> None:
    got = findings(run_cli, repo, {
        "there.md": card("Where loan periods are set", "Loan periods are set at ledger.py:12."),
        "ambiguous.md": card("Where member records are defined", "Members are defined in models.py:300."),
        "elsewhere.md": card("How the vendor's scanner reports", "The scanner SDK fails in scanner.c:980 on wet labels."),
        "host.md": card("Where the catalogue database listens", "The catalogue database is db.catalogue.internal:5432."),
        "url.md": card("The upstream ledger discussion", "See https://example.org/ledger.py:412 for the history."),
        "placeholder.md": card("How to cite code in reviews", "Cite code as file.py:123 with the line it starts on."),
    })
    assert got == {}


def test_a_path_inside_a_sub_project_is_not_gone(run_cli: Callable[..., Result], repo: Path) -> None:
    (repo / "apps" / "kiosk" / "src" / "loans").mkdir(parents=True)
    (repo / "apps" / "kiosk" / "src" / "loans" / "renew.tsx").write_text("export {}\n", encoding="utf-8")
    got = findings(run_cli, repo, {
        "kiosk.md": card("Where the kiosk renews loans", "The kiosk renews loans in `src/loans/renew.tsx`."),
        "gone.md": card("Where the kiosk prints receipts", "Receipts are printed by `src/loans/receipt.tsx`."),
    })
    assert got == {"gone.md": ["T105 names src/loans/receipt.tsx, which the repo no longer has"]}
