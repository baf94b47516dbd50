"""Words that mean the same in a team's talk (`meaning.team_words`), as search uses them (issue 15).

Positives: an abbreviation or a team synonym finds the card that spells it out. Hard
negatives: a card that says the asked word itself ranks above one that only says an
equivalent; words outside the table, and words that merely look alike, join nothing;
a vault that knows nothing of what was asked still answers nothing (or weakly).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.team_words import GROUPS, equivalents
from cardindex.meaning.terms import terms

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")


def search(invoke: Invoke, query: str) -> list[dict[str, object]]:
    result = invoke("search", query, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return list(json.loads(result.stdout or "[]"))


@pytest.fixture
def library(vault: Path) -> Path:
    """A library-catalogue team's memory, in its own words."""
    put(vault, "reviews.md", "How big a pull request may get", "Keep each pull request under 400 changed lines.")
    put(vault, "cluster.md", "Where the catalogue runs", "The catalogue runs on a Kubernetes cluster in Frankfurt.")
    put(vault, "rollout.md", "How the catalogue goes out", "We deploy to production on weekday mornings only.")
    put(vault, "laptops.md", "How a new laptop is prepared", "Run the provisioning script before the first login.")
    put(vault, "barcodes.md", "Which barcode format the loans desk scans", "The loans desk scans Codabar labels.")
    put(vault, "roadmap.md", "Where the product roadmap is kept", "The product roadmap lives in the planning wiki.")
    put(vault, "tickets.md", "Where defects are filed", "File defects in the tracker under the Catalogue project.")
    return vault


@pytest.mark.parametrize(("query", "expected"), [
    ("PR size limit", "reviews"),
    ("which k8s cluster", "cluster"),
    ("when can we ship to prod", "rollout"),
    ("spin up a dev machine", "laptops"),
    ("where do bugs go", "tickets"),
])
def test_a_team_word_finds_the_card_that_spells_it_out(library: Path, invoke: Invoke, query: str,
                                                        expected: str) -> None:
    found = search(invoke, query)
    assert found and found[0]["id"] == expected


def test_a_query_whose_words_all_have_equivalents_is_not_weak(library: Path, invoke: Invoke) -> None:
    found = search(invoke, "prod deploy")
    assert found[0]["id"] == "rollout" and not found[0]["weak"]
    found = search(invoke, "k8s")
    assert found[0]["id"] == "cluster" and not found[0]["weak"]


def test_the_word_itself_ranks_above_its_equivalent(vault: Path, invoke: Invoke) -> None:
    put(vault, "release.md", "How the mobile app is released", "The mobile app is released every other Friday.")
    put(vault, "deploy.md", "How the API is deployed", "The API is deployed by the pipeline after review.")
    assert [h["id"] for h in search(invoke, "release cadence")][:2] == ["release", "deploy"]
    assert [h["id"] for h in search(invoke, "deploy cadence")][:2] == ["deploy", "release"]


def test_words_outside_the_table_or_alike_in_spelling_join_nothing(library: Path, invoke: Invoke) -> None:
    put(library, "printing.md", "Where the print queue is", "Print jobs go to the press room printer.")
    assert "printing" not in [h["id"] for h in search(invoke, "PR review")]  # "pr" is a pull request only
    assert search(invoke, "codabar")[0]["id"] == "barcodes"
    assert search(invoke, "message broker") == []  # a broker is not a queue, nor anything here


def test_an_abbreviation_the_vault_knows_nothing_of_finds_nothing(vault: Path, invoke: Invoke) -> None:
    put(vault, "hours.md", "When the reading room opens", "The reading room opens at 09:00 on weekdays.")
    found = search(invoke, "k8s ttl for sso tokens")
    assert found == [] or found[0]["weak"]


def test_every_group_is_symmetric_and_analysed() -> None:
    for line in GROUPS:
        phrases = [tuple(terms(p)) for p in line.split("|")]
        assert all(phrases) and len(set(phrases)) == len(phrases), line
        for p in phrases:
            assert set(equivalents(p)) >= set(phrases) - {p}, line
    assert ("pull", "request") in equivalents(("pr",))
    assert equivalents(("queue",)) == ()
