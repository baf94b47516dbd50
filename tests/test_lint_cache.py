"""The lint cache: a warm `cards lint` says exactly what a run without the cache says.

Cached hits are keyed on a card's path and text, a repo rule's hits also on the part of
the repo it reads, and the duplicate and contradiction pairs on every live card. Each
test changes one input between two runs and checks that the second run sees it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex import __version__
from cardindex.store.card import Card
from cardindex.lint import cache as lint_cache
from cardindex.lint.context import Hit, LintContext
from cardindex.lint.finding import Finding
from cardindex.lint.formatters import Json
from cardindex.lint.registry import RULES
from cardindex.store.vault import Vault

NO_REPO = "repo: false\n"
CACHE = Path(".cardindex") / "cache" / f"lint-{__version__}-{lint_cache.FORMAT}.marshal"


def card(description: str, body: str, **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n"


CARDS = {
    "wip.md": card("Billing worker queue", "Currently migrating the billing worker to the new queue."),
    "key.md": card("CI account key id", "The CI deploy user key id is AKIAQ3EGRTYUIOPASDFG here."),
    "thursday.md": card("Deploys happen on Thursdays", "Deploys happen on Thursdays."),
    "tuesday.md": card("Deploys happen on Tuesdays", "Deploys happen on Tuesdays."),
    "python.md": card("The billing service runs on Python 3.11 in production", "The billing service runs on Python 3.11."),
    "python-again.md": card("In production the billing service runs Python 3.11", "In production, it runs Python 3.11."),
    "ignored.md": card("Staging worker queue", "Currently draining the staging worker queue.", **{"lint-ignore": "[S101]"}),
    "colon.md": card("Release notes: written by the release manager", "Release notes are written by the release manager."),
    "plain.md": card("Invoices are numbered per year", "Invoice numbers restart at 1 every January."),
}


def make_vault(root: Path, cards: dict[str, str], config: str = NO_REPO) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text(config, encoding="utf-8")
    for rel, text in cards.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def lint_json(run_cli: Callable[..., Result], root: Path, *, cache: bool = True) -> list[dict[str, Any]]:
    result = run_cli(*([] if cache else ["--no-cache"]), "--vault", str(root), "lint", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    findings: list[dict[str, Any]] = json.loads(result.stdout)
    return findings


def triples(findings: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(f["path"], f["code"]) for f in findings}


def test_a_warm_run_says_what_an_uncached_run_says(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", CARDS)
    cold = lint_json(run_cli, root)
    assert (root / CACHE).is_file()
    warm = lint_json(run_cli, root)
    uncached = lint_json(run_cli, root, cache=False)
    assert cold == warm == uncached
    assert {"S101", "K101", "C103", "U101", "F006"} <= {f["code"] for f in cold}
    assert ("ignored.md", "S101") not in triples(cold)


def test_no_cache_writes_no_lint_cache(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", CARDS)
    lint_json(run_cli, root, cache=False)
    assert not (root / CACHE).exists()


def test_an_edited_card_is_linted_again(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", CARDS)
    assert ("plain.md", "S101") not in triples(lint_json(run_cli, root))
    (root / "plain.md").write_text(card("Invoices are numbered per year", "Currently renumbering the invoices."))
    assert ("plain.md", "S101") in triples(lint_json(run_cli, root))
    (root / "plain.md").write_text(CARDS["plain.md"])
    assert ("plain.md", "S101") not in triples(lint_json(run_cli, root))


def test_pairs_follow_an_edit(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", CARDS)
    assert ("plain.md", "U101") not in triples(lint_json(run_cli, root))
    (root / "plain.md").write_text(card("Invoice numbers restart every January", "Invoice numbers restart at 1 each January."))
    (root / "numbering.md").write_text(card("Invoices are numbered per year", "Invoice numbers restart at 1 every January."))
    found = lint_json(run_cli, root)
    assert {("plain.md", "U101"), ("numbering.md", "U101")} <= triples(found)
    assert found == lint_json(run_cli, root, cache=False)


def test_suppression_is_applied_to_cached_hits(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", CARDS)
    lint_json(run_cli, root)
    (root / "wip.md").write_text(CARDS["wip.md"].replace("---\nCurrently", "---\n<!-- cards: ignore S101 -->\nCurrently"))
    assert ("wip.md", "S101") not in triples(lint_json(run_cli, root))


def test_changed_rule_code_drops_the_cache(tmp_path, run_cli, monkeypatch):
    root = make_vault(tmp_path / "vault", CARDS)
    lint_json(run_cli, root)
    ran: list[str] = []
    original = RULES["S101"].check
    assert original is not None

    def spy(c: Card, ctx: Any) -> Any:
        ran.append(c.path)
        return original(c, ctx)

    monkeypatch.setitem(RULES, "S101", RULES["S101"]._replace(check=spy))
    lint_json(run_cli, root)
    assert ran == []  # answered from the cache
    monkeypatch.setattr(lint_cache, "sources_digest", lambda: b"other sources")
    lint_json(run_cli, root)
    assert sorted(ran) == sorted(set(CARDS) - {"ignored.md"})  # lint-ignore: [S101]


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo_vault(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text('def compute_total(items):\n    return sum(items)\n', encoding="utf-8")
    (repo / "README.md").write_text("# Ledger\n\nA small ledger for invoices.\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Add the invoice total")
    return make_vault(repo / "memory", {
        "export.md": card("Where exports go", "Monthly exports are written as CSV files into the shared finance drive."),
        "rounding.md": card("Rounding of totals", "`round_total` rounds every invoice total half up to whole cents."),
        "plain.md": card("Invoices are numbered per year", "Invoice numbers restart at 1 every January."),
    }, config="")


def test_repo_changes_reach_the_derivable_rules(repo_vault, run_cli):
    repo = repo_vault.parent
    assert not {c for _, c in triples(lint_json(run_cli, repo_vault))} & {"D102", "D105"}
    # The docs now say what export.md says; the code now defines what rounding.md describes.
    (repo / "README.md").write_text("# Ledger\n\nMonthly exports are written as CSV files into the shared finance drive.\n")
    with (repo / "src" / "app.py").open("a", encoding="utf-8") as fh:
        fh.write("\n\ndef round_total(total):\n    return round(total, 2)\n")
    found = lint_json(run_cli, repo_vault)
    assert {("export.md", "D105"), ("rounding.md", "D102")} <= triples(found)
    assert found == lint_json(run_cli, repo_vault, cache=False)
    # A commit whose subject the card repeats.
    (repo / "notes.txt").write_text("x\n")
    _git(repo, "add", "-A")
    _git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Restart invoice numbers at 1 every January")
    assert ("plain.md", "D104") in triples(lint_json(run_cli, repo_vault))


class _Reads:
    """A context that lets a rule read only what its `reads` declares."""

    def __init__(self, allowed: set[str], real: Any) -> None:
        self._allowed, self._real = allowed, real

    def __getattr__(self, name: str) -> Any:
        if name not in self._allowed:
            raise AssertionError(f"a rule declared not to read ctx.{name} read it")
        return getattr(self._real, name)


@pytest.mark.parametrize("code", sorted(c for c, r in RULES.items() if r.check is not None and r.reads != "vault"))
def test_cached_rules_read_only_what_they_declare(tmp_path, code):
    """A cached rule that starts reading other inputs must say so in the registry, or it goes stale."""
    rule = RULES[code]
    root = make_vault(tmp_path / "vault", CARDS)
    vault = Vault(root)
    real = LintContext(vault, dt.date(2026, 11, 30), None, vault.cards)
    allowed = {"repo": {"repo", "said"}, "live": {"today"}, "": set()}[rule.reads.split(":")[0]]
    assert rule.reads in ("", "live", "repo:files", "repo:symbols", "repo:docs", "repo:commits")
    ctx = _Reads(allowed, real)
    for c in vault.cards:
        list(rule.check(c, ctx))  # type: ignore[misc, arg-type]


@pytest.mark.parametrize("related", [(), ("a.md",), ("a b/é.md", 'q"uote\\.md')])
def test_json_output_is_what_json_dump_writes(related):
    import io

    findings = [
        Finding("x/ü.md", 3, "U101", "duplicate", "error", 'the "same" fact\n in\tother words…', related, "archive"),
        Finding("y.md", 1, "F001", "structure", "warning", "", (), None),
    ]
    out = io.StringIO()
    Json(out, Path(".")).write(findings)
    expected = json.dumps([{**f.as_json(), "vault": str(Path(".").resolve())} for f in findings], indent=1,
                          ensure_ascii=False) + "\n"
    assert out.getvalue() == expected
    empty = io.StringIO()
    Json(empty, Path(".")).write([])
    assert empty.getvalue() == json.dumps([], indent=1) + "\n"


def test_cached_hits_keep_the_fields_of_a_hit():
    """The cache stores hits as plain tuples and the runner unpacks them in this order."""
    assert Hit._fields == ("line", "message", "related", "fix", "path")


def test_the_repo_stamp_changes_with_what_the_derivable_rules_read(repo_vault, monkeypatch):
    from cardindex.meaning import repo_facts

    repo = repo_vault.parent
    # Files changed in the last two seconds count by content: a change within the mtime's
    # resolution is still seen.
    racy = repo_facts.repo_stamp(repo, repo_vault)
    assert racy == repo_facts.repo_stamp(repo, repo_vault)
    readme = (repo / "README.md").read_bytes()
    (repo / "README.md").write_bytes(readme.replace(b"small", b"tiny!"))  # same size
    assert repo_facts.repo_stamp(repo, repo_vault) != racy
    (repo / "README.md").write_bytes(readme)
    monkeypatch.setattr(repo_facts, "RACY_NS", 0)
    stamp = repo_facts.repo_stamp(repo, repo_vault)
    assert stamp == repo_facts.repo_stamp(repo, repo_vault) != racy
    (repo_vault / "plain.md").write_text(card("Invoices", "Edited."))  # the vault is not part of the repo's facts
    assert repo_facts.repo_stamp(repo, repo_vault) == stamp
    seen = {stamp}
    for change in (
        lambda: (repo / "README.md").write_text("# Ledger\n\nA ledger.\n"),
        lambda: (repo / "docs").mkdir() or (repo / "docs" / "guide.md").write_text("Guide.\n"),
        lambda: (repo / "data.csv").write_text("a,b\n"),
        lambda: _git(repo, "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "Empty"),
    ):
        change()
        now = repo_facts.repo_stamp(repo, repo_vault)
        assert now not in seen
        seen.add(now)


def test_an_unchanged_repo_is_not_read_again(repo_vault, run_cli, monkeypatch):
    from cardindex.meaning import repo_facts

    monkeypatch.setattr(repo_facts, "RACY_NS", 0)
    loads: list[Path] = []
    real = repo_facts.load_repo_facts
    monkeypatch.setattr(repo_facts, "load_repo_facts", lambda root, vault: loads.append(root) or real(root, vault))
    first = lint_json(run_cli, repo_vault)
    assert len(loads) == 1
    assert lint_json(run_cli, repo_vault) == first
    assert len(loads) == 1  # the stamp matched: neither the repo nor a derivable rule was read
    # A new card is checked against the repo's facts as cached under the stamp.
    (repo_vault / "total.md").write_text(card("Invoice totals", "`compute_total` returns the sum of the items."))
    assert ("total.md", "D102") in triples(lint_json(run_cli, repo_vault))
    assert len(loads) == 1
    (repo_vault.parent / "README.md").write_text("# Ledger\n\nMonthly exports are written as CSV files into the shared finance drive.\n")
    assert ("export.md", "D105") in triples(lint_json(run_cli, repo_vault))
    assert len(loads) == 2


@pytest.mark.parametrize("data", [b"", b"not marshal", b"\xe9\x00\x00"])
def test_a_broken_cache_file_is_ignored_and_replaced(tmp_path, run_cli, data):
    import marshal

    root = make_vault(tmp_path / "vault", CARDS)
    expected = lint_json(run_cli, root)
    (root / CACHE).write_bytes(data)
    assert lint_json(run_cli, root) == expected
    (root / CACHE).write_bytes(marshal.dumps((lint_cache.sources_digest(), None, {}, ["not", "a", "dict"], None, None)))
    assert lint_json(run_cli, root) == expected
    assert marshal.loads((root / CACHE).read_bytes())[0] == lint_cache.sources_digest()


def test_pairs_are_compared_again_only_when_a_statement_changes(tmp_path, run_cli, monkeypatch):
    from cardindex.meaning import similarity

    root = make_vault(tmp_path / "vault", CARDS)
    calls: list[int] = []
    real = similarity.find_pairs
    monkeypatch.setattr(similarity, "find_pairs", lambda cards, *a: calls.append(len(cards)) or real(cards, *a))
    first = lint_json(run_cli, root)
    assert len(calls) == 1
    (root / "plain.md").write_text(CARDS["plain.md"] + "\nWhy: auditors read invoices by year.\n")
    assert lint_json(run_cli, root) == first  # a reason added: the statement is the same
    assert len(calls) == 1
    (root / "plain.md").write_text(card("Invoices are numbered per year", "Invoice numbers never restart."))
    lint_json(run_cli, root)
    assert len(calls) == 2
