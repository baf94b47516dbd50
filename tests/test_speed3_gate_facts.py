"""The write gate reads the repo's facts from what `cards lint` remembered, when the repo is unchanged.

Reading a repo's files, symbols and commits is most of what `cards add` cost in a code
repo. The facts are kept in a file of their own (`lint/cache.py`, `remembered_facts`)
under the repo's stamp: the gate finds them without loading every card's cached
results, and refuses exactly what it refused when it read the repo itself.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cardindex import __version__
from cardindex.lint import cache as lint_cache
from cardindex.lint.gate import Gate
from cardindex.meaning import repo_facts
from cardindex.store.card import Card
from cardindex.store.vault import Vault

FACTS = Path(".cardindex") / "cache" / f"facts-{__version__}-{lint_cache.FORMAT}.marshal"


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\n---\n{body}\n"


@pytest.fixture
def repo_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # The repo is written a moment before it is stamped. A file changed in the last two seconds
    # is stamped by its content, an older one by its stat (git's racily-clean rule), so a stamp
    # taken either side of that boundary differs and the facts would be read once more; that
    # is right for a repo that may still be changing, and only timing here. No file is racy:
    monkeypatch.setattr(repo_facts, "RACY_NS", 0)
    repo = tmp_path / "orchard"
    (repo / "harvest").mkdir(parents=True)
    (repo / "harvest/grading.py").write_text(
        "def grade_apple(weight, blemishes):\n    \"\"\"Grade one apple by weight and blemishes.\"\"\"\n"
        "    return 'A' if weight > 150 and blemishes == 0 else 'B'\n")
    (repo / "README.md").write_text("# Orchard\n\nApples are graded by weight at the packing shed.\n")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "Grade apples by weight and blemishes")
    vault = repo / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("")
    (vault / "pickers.md").write_text(card("Pickers start at the north rows", "Pickers start at the north rows."))
    return vault


CANDIDATES = [
    card("grade_apple", "`grade_apple` grades one apple by weight and blemishes: A above 150 g with no blemish."),
    card("Cider apples", "Windfalls go to the cider press, never to the packing shed."),
    card("Grading commit", "Grade apples by weight and blemishes"),
]


def review_all(vault: Path) -> list[list[tuple[Any, ...]]]:
    gate = Gate(Vault(vault))
    return [[tuple(f) for f in gate.review(Card.from_text(f"new-{i}.md", text))] for i, text in enumerate(CANDIDATES)]


def test_remembered_facts_refuse_what_read_facts_refuse(repo_vault, run_cli, monkeypatch):
    assert run_cli("--vault", str(repo_vault), "index").exit_code == 0
    read = review_all(repo_vault)  # no lint yet: the gate reads the repo, and remembers its facts
    assert read[0] and not read[1]  # the code records the first; the second is a fact of its own
    assert (repo_vault / FACTS).is_file()

    def no_reading(*args: Any) -> Any:
        raise AssertionError("the repo was read again")

    monkeypatch.setattr(repo_facts, "load_repo_facts", no_reading)
    assert review_all(repo_vault) == read


def test_lint_remembers_the_facts_for_the_gate(repo_vault, run_cli, monkeypatch):
    assert run_cli("--vault", str(repo_vault), "lint", "--exit-zero").exit_code == 0
    assert (repo_vault / FACTS).is_file()
    monkeypatch.setattr(repo_facts, "load_repo_facts", lambda *a: (_ for _ in ()).throw(AssertionError("read")))
    assert review_all(repo_vault)[0]


def test_a_changed_repo_is_read_again(repo_vault, run_cli):
    repo = repo_vault.parent
    review_all(repo_vault)
    (repo / "harvest/grading.py").write_text("def sort_crates(crates):\n    return sorted(crates)\n")
    _git(repo, "commit", "-q", "-am", "Crates are sorted")
    after = review_all(repo_vault)
    assert not after[0] or all("grade_apple" not in f[5] for f in after[0] if f[2] == "D102")


def test_no_cache_neither_reads_nor_writes_remembered_facts(repo_vault, monkeypatch):
    gate = Gate(Vault(repo_vault, use_cache=False))
    gate.review(Card.from_text("new.md", CANDIDATES[0]))
    assert not (repo_vault / FACTS).exists()
