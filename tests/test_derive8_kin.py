"""A sentence that says with a verb what a docs passage says with its noun meets it (D105).

Snowball stems a verb and the noun made from it apart ("departs" and "departure"): a card
that rewords the docs that way lost the word's weight and was not covered. A stem the
passages never use is read as the stem of its word family they do use, when one begins
the other and they differ by a short suffix. A stem the passages use is never changed.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_facts import Unit
from cardindex.meaning.repo_match import UnitIndex, claim_stems

README = """# lockkeeper

The lock controller opens the lower gates only after the chamber level matches the river within two centimetres.

Each departure of a barge is logged with its registration and draught by the harbour office.
"""


def _index(*texts: str) -> UnitIndex:
    return UnitIndex([Unit("README.md", n, " ".join(dict.fromkeys(content_stems(t))), "") for n, t in enumerate(texts, 1)])


def test_a_stem_the_passages_lack_is_read_as_its_family_member() -> None:
    index = _index("Each departure of a barge is logged with its registration.")
    assert content_stems("departs") != content_stems("departure")  # the stemmer keeps them apart
    assert index.kin(content_stems("departs")[0]) == content_stems("departure")[0]
    # A stem the passages use is itself; one with no relative stays as it is.
    assert index.kin(content_stems("barge")[0]) == content_stems("barge")[0]
    assert index.kin(content_stems("seagulls")[0]) == content_stems("seagulls")[0]


def test_the_verb_meets_the_noun_but_other_words_do_not() -> None:
    index = _index("Each departure of a barge is logged with its registration and draught by the harbour office.")
    said = index.best(sorted(claim_stems("The harbour office logs the registration and draught of every barge that departs.")))
    assert said is not None and said.coverage >= 0.8
    other = index.best(sorted(claim_stems("The harbour office paints every barge that departs with a registration stripe.")))
    assert other is None or other.coverage < 0.8


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def lockkeeper(tmp_path: Path) -> Path:
    root = tmp_path / "lockkeeper"
    root.mkdir()
    (root / "README.md").write_text(README, encoding="utf-8")
    (root / "lock.py").write_text("def open_lower() -> None:\n    pass\n", encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Open the gates")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    cards = {
        "barges": ("Barge log", "The harbour office logs the registration and draught of every barge that departs."),
        "barges-why": ("Why barges are logged", ("Every barge that departs is logged because the river authority "
                                                 "bills the port by draught each quarter.")),
    }
    for name, (description, body) in cards.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")
    return vault


def test_lint_reports_the_reworded_card_and_not_the_one_with_a_reason(lockkeeper: Path,
                                                                   run_cli: Callable[..., Result]) -> None:
    result = run_cli("--vault", str(lockkeeper), "lint", "--select", "derivable", "--format", "json")
    found = {f["path"]: f["code"] for f in json.loads(result.stdout)}
    assert found == {"barges.md": "D105"}, result.stdout
