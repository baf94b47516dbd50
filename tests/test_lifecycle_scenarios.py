"""Lifecycle scenarios through the real CLI: keyless changes, reworded triples, scopes,
multi-valued keys and locks (issue 14, SPEC §7).

Each scenario writes cards as files (or with `cards add`), runs `cards consolidate
--dry-run --format json`, applies it, and checks the cards, INDEX.md, `cards undo` and a
second run. The cards are the present detector's pairs; `test_consolidate_model.py`
checks the planner on pair lists it constructs (chains, pairs the detector should not
have given).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.store.card import Card

Invoke = Callable[..., Result]
WHY = "\n\n**Why:** the build farm sits on the office network, next to the test devices."


def put(root: Path, rel: str, description: str, body: str, **fields: object) -> Path:
    lines = ["---", f"description: {description}", f"type: {fields.pop('type', 'project')}"]
    for key, value in fields.items():
        lines.append(f"{key}: {('true' if value else 'false') if isinstance(value, bool) else value}")
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, "---", body, ""]), encoding="utf-8")
    return path


def card(root: Path, rel: str) -> Card:
    return Card.from_text(rel, (root / rel).read_text(encoding="utf-8"))


def tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".cardindex" not in p.relative_to(root).parts}


def plan(invoke: Invoke, *args: str) -> list[tuple[str, str, tuple[str, ...]]]:
    result = invoke("consolidate", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    return [(d["action"], d["card"], tuple(d["related"])) for d in json.loads(result.stdout)["decisions"]]


def applied(invoke: Invoke, vault: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    """Dry run, then the run: the same decisions; then undo is exact and redo gives the same vault."""
    assert invoke("index").exit_code == 0
    before = tree(vault)
    dry = plan(invoke, "--dry-run")
    assert tree(vault) == before
    done = plan(invoke)
    assert done == dry
    after = tree(vault)
    assert plan(invoke) == [] and plan(invoke, "--all") == [] and tree(vault) == after  # a second run is a no-op
    if done:
        undo = invoke("undo")
        assert undo.exit_code == 0, undo.stderr
        assert tree(vault) == before  # byte for byte
        assert plan(invoke, "--all") == done and tree(vault) == after
    return done


def index_links(vault: Path) -> str:
    return (vault / "INDEX.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ keyless changes


@pytest.mark.parametrize("described", ["old", "new"])
def test_a_newer_card_saying_it_changed_supersedes_the_older_one(invoke: Invoke, vault: Path, described: str) -> None:
    # Whichever is better described, the newer card that says "now … no longer" is the
    # current rule: the old one is superseded, never the new value merged into it.
    put(vault, "ci-jenkins.md", "Which CI service runs the builds",
        "CI builds run on Jenkins." + (WHY if described == "old" else ""), verified="2026-02-01")
    put(vault, "ci-buildkite.md", "Which CI service runs the builds",
        "CI builds now run on Buildkite; Jenkins is no longer used." + (WHY if described == "new" else ""),
        verified="2026-06-01")
    assert applied(invoke, vault) == [("supersede", "ci-jenkins", ("ci-buildkite",))]
    old = card(vault, "archive/ci-jenkins.md")
    assert old.status == "superseded" and old.meta["superseded_by"] == "ci-buildkite"
    assert card(vault, "ci-buildkite.md").meta["supersedes"] == "ci-jenkins"
    assert "ci-buildkite.md" in index_links(vault) and "ci-jenkins" not in index_links(vault)


def test_a_change_signal_on_the_older_card_decides_nothing(invoke: Invoke, vault: Path) -> None:
    # The card that says "now" is the older one: a later card without a signal states
    # the other value, and nothing says which holds. Both are marked, neither is picked.
    put(vault, "ci-buildkite.md", "Which CI service runs the builds",
        "CI builds now run on Buildkite; Jenkins is no longer used.", verified="2026-02-01")
    put(vault, "ci-jenkins.md", "Which CI service runs the builds", "CI builds run on Jenkins." + WHY,
        verified="2026-06-01")
    assert [d[0] for d in applied(invoke, vault)] == ["conflict"]
    assert card(vault, "ci-buildkite.md").status == "conflict" and card(vault, "ci-jenkins.md").status == "conflict"
    assert not (vault / "archive").exists()


@pytest.mark.parametrize("dates", [("2026-02-01", "2026-06-01"), ("2026-06-01", "2026-02-01"), ("2026-04-01", "2026-04-01")])
def test_two_values_without_a_signal_or_key_are_a_conflict_never_merged(invoke: Invoke, vault: Path,
                                                                      dates: tuple[str, str]) -> None:
    put(vault, "ci-a.md", "CI service for the builds", "Builds run on Jenkins.", verified=dates[0])
    put(vault, "ci-b.md", "CI service for the builds", "Builds run on Buildkite.", verified=dates[1])
    assert [d[0] for d in applied(invoke, vault)] == ["conflict"]
    for rel in ("ci-a.md", "ci-b.md"):
        marked = card(vault, rel)
        assert marked.status == "conflict" and "merged_into" not in marked.meta and "merged_from" not in marked.meta


def test_on_one_date_the_card_that_names_the_old_value_as_replaced_wins(invoke: Invoke, vault: Path) -> None:
    # `cards add` stamps both with today's date; the text says which came second.
    assert invoke("add", "CI builds run on Jenkins.", "-d", "Which CI service runs the builds",
                  "--name", "ci-jenkins").exit_code == 0
    assert invoke("add", "CI builds now run on Buildkite; Jenkins is no longer used.", "-d",
                  "Which CI service runs the builds", "--name", "ci-buildkite").exit_code == 0
    assert applied(invoke, vault) == [("supersede", "ci-jenkins", ("ci-buildkite",))]


def test_a_rule_dropped_in_a_newer_card_supersedes_it(invoke: Invoke, vault: Path) -> None:
    put(vault, "docs-npm.md", "Package manager for the docs site", "The docs site uses npm.", verified="2026-01-01")
    put(vault, "docs-pnpm.md", "Package manager for the docs site", "The docs site now uses pnpm instead of npm.",
        verified="2026-05-01")
    assert applied(invoke, vault) == [("supersede", "docs-npm", ("docs-pnpm",))]


# ------------------------------------------------------------------ reworded copies


def test_three_reworded_copies_become_one_card_with_the_newest_text(invoke: Invoke, vault: Path) -> None:
    put(vault, "notes-1.md", "Release notes are drafted in the team wiki",
        "Draft release notes in the team wiki before tagging.\n\n**Why:** support reads them there first.",
        verified="2026-01-10", source="retro 2026-01")
    put(vault, "notes-2.md", "Draft release notes in the team wiki", "Release notes get drafted in the team wiki.",
        verified="2026-03-10", created="2026-02-01")
    put(vault, "notes-3.md", "Team wiki holds the release notes drafts",
        "The release notes drafts are written in the team wiki before a tag.", verified="2026-05-10")
    before = (vault / "notes-3.md").read_text(encoding="utf-8")
    assert applied(invoke, vault) == [("merge", "notes-3", ("notes-1", "notes-2"))]
    kept = card(vault, "notes-3.md")
    assert kept.meta["merged_from"] == ["notes-1", "notes-2"] and str(kept.created) == "2026-02-01"
    # The newest text, as it was, and what only an older copy said (its reason), under a marked section.
    newest = Card.from_text("x.md", before).body
    assert kept.body.startswith(newest.rstrip("\n") + "\n\n## Merged from notes-1\n"), kept.body
    assert kept.body.endswith("**Why:** support reads them there first.\n") and "notes-2" not in kept.body
    assert kept.meta["source"] == "retro 2026-01"
    for rel in ("archive/notes-1.md", "archive/notes-2.md"):
        assert card(vault, rel).meta["merged_into"] == "notes-3"
    assert index_links(vault).count("](notes-") == 1


# ------------------------------------------------------------------ scopes and multi-valued keys


def test_one_rule_for_two_paths_is_two_facts(invoke: Invoke, vault: Path) -> None:
    put(vault, "lint-web.md", "Run the linter before committing", "Run the linter before committing.",
        type="feedback", scope="path:web")
    put(vault, "lint-api.md", "Run the linter before committing", "Run the linter before committing.",
        type="feedback", scope="path:api", verified="2026-03-01")
    put(vault, "port-web.md", "Dev server port", "The dev server listens on 3000.", key="dev-port", scope="path:web",
        verified="2026-01-01")
    put(vault, "port-api.md", "Dev server port", "The dev server listens on 8000.", key="dev-port", scope="path:api",
        verified="2026-05-01")
    assert applied(invoke, vault) == []
    # One scope written two ways is one scope: the copies merge.
    put(vault, "lint-web-2.md", "Run the linter before committing", "Run the linter before committing.",
        type="feedback", scope="path:web/", verified="2026-04-01")
    assert plan(invoke, "--dry-run") == [("merge", "lint-web-2", ("lint-web",))]


def test_two_values_of_a_multi_valued_key_are_neither_conflict_nor_merge(invoke: Invoke, vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("multi_valued_keys: [mobile-language, migration-reviewer]\n")
    put(vault, "lang-kotlin.md", "Language the mobile team writes in", "The mobile team writes Kotlin.",
        key="mobile-language", verified="2026-01-01")
    put(vault, "lang-swift.md", "Language the mobile team writes in", "The mobile team writes Swift.",
        key="mobile-language", verified="2026-04-01")
    put(vault, "rev-priya.md", "Reviewer for database migrations", "Priya Raman reviews database migrations.",
        key="migration-reviewer")
    put(vault, "rev-tomasz.md", "Reviewer for database migrations", "Tomasz Wirth reviews database migrations.",
        key="migration-reviewer")
    assert applied(invoke, vault) == []
    assert all(card(vault, f"{n}.md").status == "active" for n in ("lang-kotlin", "lang-swift", "rev-priya", "rev-tomasz"))
    # The same value twice is still one fact: merged.
    put(vault, "lang-swift-2.md", "Language the mobile team writes in", "The mobile team writes Swift.",
        key="mobile-language", verified="2026-06-01")
    assert plan(invoke, "--dry-run") == [("merge", "lang-swift-2", ("lang-swift",))]


# ------------------------------------------------------------------ locks


def test_a_locked_card_supersedes_an_older_card_in_its_slot_without_a_key(invoke: Invoke, vault: Path) -> None:
    put(vault, "ci-jenkins.md", "CI service for the builds", "Builds run on Jenkins.", verified="2026-02-01")
    locked = put(vault, "ci-locked.md", "CI service for the builds", "Builds run on Buildkite.", lock=True,
                 verified="2026-06-01")
    before = locked.read_bytes()
    assert applied(invoke, vault) == [("supersede", "ci-jenkins", ("ci-locked",))]
    assert locked.read_bytes() == before  # byte for byte: no `supersedes` written into it
    assert card(vault, "archive/ci-jenkins.md").meta["superseded_by"] == "ci-locked"


def test_a_newer_change_against_a_locked_card_is_a_conflict(invoke: Invoke, vault: Path) -> None:
    locked = put(vault, "ci-locked.md", "Which CI service runs the builds", "CI builds run on Jenkins.", lock=True,
                 verified="2026-02-01")
    put(vault, "ci-buildkite.md", "Which CI service runs the builds",
        "CI builds now run on Buildkite; Jenkins is no longer used.", verified="2026-06-01")
    before = locked.read_bytes()
    assert applied(invoke, vault) == [("conflict", "ci-buildkite", ("ci-locked",))]
    assert locked.read_bytes() == before
    assert card(vault, "ci-buildkite.md").status == "conflict"


def test_a_reworded_copy_of_a_locked_card_merges_into_it_untouched(invoke: Invoke, vault: Path) -> None:
    locked = put(vault, "notes-1.md", "Release notes are drafted in the team wiki",
                 "Draft release notes in the team wiki before tagging.", lock=True, verified="2026-01-10")
    put(vault, "notes-2.md", "Draft release notes in the team wiki", "Release notes get drafted in the team wiki.",
        verified="2026-03-10")
    put(vault, "notes-3.md", "Team wiki holds the release notes drafts",
        "The release notes drafts are written in the team wiki before a tag.", verified="2026-05-10")
    before = locked.read_bytes()
    assert applied(invoke, vault) == [("merge", "notes-1", ("notes-2", "notes-3"))]
    assert locked.read_bytes() == before


def test_a_mixed_vault_undoes_byte_for_byte(invoke: Invoke, vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("multi_valued_keys: [mobile-language]\n")
    put(vault, "ci-jenkins.md", "Which CI service runs the builds", "CI builds run on Jenkins." + WHY,
        verified="2026-02-01")
    put(vault, "ci-buildkite.md", "Which CI service runs the builds",
        "CI builds now run on Buildkite; Jenkins is no longer used.", verified="2026-06-01")
    put(vault, "notes-1.md", "Release notes are drafted in the team wiki",
        "Draft release notes in the team wiki before tagging.", verified="2026-01-10")
    put(vault, "notes-2.md", "Draft release notes in the team wiki", "Release notes get drafted in the team wiki.",
        verified="2026-03-10")
    put(vault, "notes-3.md", "Team wiki holds the release notes drafts",
        "The release notes drafts are written in the team wiki before a tag.", verified="2026-05-10")
    put(vault, "lang-kotlin.md", "Language the mobile team writes in", "The mobile team writes Kotlin.",
        key="mobile-language", verified="2026-01-01")
    put(vault, "lang-swift.md", "Language the mobile team writes in", "The mobile team writes Swift.",
        key="mobile-language", verified="2026-04-01")
    assert sorted(applied(invoke, vault)) == [("merge", "notes-3", ("notes-1", "notes-2")),
                                              ("supersede", "ci-jenkins", ("ci-buildkite",))]


def test_a_new_value_in_the_words_of_a_merged_copy_supersedes_the_card_that_absorbed_it(invoke: Invoke,
                                                                                      vault: Path) -> None:
    # The short copy was merged into the better-described wording; the new value arrives
    # in the short copy's words and pairs only with it, in the archive.
    put(vault, "print-a.md", "Print server listens on port 631", "The print server listens on port 631.",
        type="reference", verified="2026-01-05")
    put(vault, "print-b.md", "The print server listens on port 631 for office clients",
        "The print server listens on port 631 for clients on the office network.\n\n"
        "**Why:** the guest network is blocked.",
        type="reference", verified="2026-01-20")
    assert plan(invoke) == [("merge", "print-b", ("print-a",))]
    put(vault, "print-new.md", "Print server listens on port 9100", "The print server listens on port 9100.",
        type="reference", verified="2026-03-01")
    assert plan(invoke) == [("supersede", "print-b", ("print-new",))]
    assert card(vault, "archive/print-b.md").meta["superseded_by"] == "print-new"
    assert card(vault, "print-new.md").meta["supersedes"] == ["print-b", "print-a"]
    assert "631" not in index_links(vault)


def test_a_keyless_change_as_real_processes(tmp_path: Path) -> None:
    """`cards add` twice, then `consolidate` and `undo`, each a real `python -m cardindex` process."""
    import os
    import subprocess
    import sys

    home = tmp_path / "process-home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH")}
    env.update(HOME=str(home), CARDS_TODAY="2026-11-30")
    root = tmp_path / "vault"

    def cards(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(root), *args],
                              capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        return done

    cards("init")
    cards("add", "Volunteer shifts are booked on the paper rota.", "-d", "Where volunteer shifts are booked",
          "--name", "shifts-paper")
    # --force: the write gate (lint) still takes this change for a duplicate of the old card.
    cards("add", "Volunteer shifts are now booked in the Rotaly app; the paper rota is no longer used.",
          "-d", "Where volunteer shifts are booked", "--name", "shifts-app", "--force")
    before = tree(root)
    dry = json.loads(cards("consolidate", "--dry-run", "--format", "json").stdout)
    assert [(d["action"], d["card"], d["related"]) for d in dry["decisions"]] == [
        ("supersede", "shifts-paper", ["shifts-app"])]
    cards("consolidate")
    assert (root / "archive/shifts-paper.md").exists() and "shifts-paper" not in index_links(root)
    cards("undo")
    assert tree(root) == before
