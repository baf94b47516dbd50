"""Two cards of one multi-valued key whose words differ are two of its values, never a duplicate,
even when no word of either is marked as a value (a name at the start of a sentence is not)."""

from __future__ import annotations

from pathlib import Path

from helpers import pair_findings

from cardindex.meaning.similarity import find_pairs
from cardindex.store.vault import Vault

PAIRS_DEV5 = Path(__file__).parent / "pairs_dev5" / "vault"


def _card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: project\nkey: release-owner\ncreated: 2026-03-01\n---\n{body}\n"


def test_two_owners_of_a_multi_valued_key_are_two_facts(vault, invoke):
    (vault / ".cardindex.yaml").write_text("multi_valued_keys: [release-owner]\n", encoding="utf-8")
    (vault / "owner-mobile.md").write_text(_card("Release owner for the mobile apps",
                                                 "Ines signs the release notes for the mobile apps."))
    (vault / "owner-desktop.md").write_text(_card("Release owner for the desktop client",
                                                  "Marek signs the release notes for the desktop client."))
    assert pair_findings(invoke) == []


def test_one_owner_written_twice_under_a_multi_valued_key_is_still_a_duplicate(vault, invoke):
    (vault / ".cardindex.yaml").write_text("multi_valued_keys: [release-owner]\n", encoding="utf-8")
    (vault / "owner-a.md").write_text(_card("Release owner for the mobile apps",
                                            "Ines signs the release notes for the mobile apps."))
    (vault / "owner-b.md").write_text(_card("Who owns mobile releases",
                                            "Ines signs the release notes for the mobile apps, every release."))
    found = {(f["path"], f["code"]) for f in pair_findings(invoke)}
    assert ("owner-a.md", "U101") in found


def test_the_blind_corpus_reviewers_of_two_areas_are_no_pair(tmp_path):
    """pairs_dev5 (a dev set written blind): two reviewers of the multi-valued `code-reviewer` key, each
    named at the start of the sentence, were reported as one fact in other words."""
    import shutil

    shutil.copytree(PAIRS_DEV5, tmp_path / "vault")  # a copy: the vault's cache must not be written into the corpus
    vault = Vault(tmp_path / "vault")
    cards = [c for c in vault.cards if c.usable]
    pairs = {frozenset((p.a.path, p.b.path)) for p in find_pairs(cards, frozenset(vault.config.multi_valued_keys))}
    assert frozenset(("team/reviewer-web.md", "team/reviewer-worker.md")) not in pairs
