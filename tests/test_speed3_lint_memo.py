"""The run memo of `cards lint` (lint/memo.py): an unchanged vault is answered without a rule,
and every input the findings depend on invalidates it. Never a stale finding.

A memo is trusted only for files changed two seconds before it was written (racily clean
otherwise), so a test that edits a file right after a run would pass whatever the key
held. Most tests here turn that guard off (`trust_all`): then the key alone has to see
each change, and every run is compared with a run that uses no cache at all.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex import __version__
from cardindex.lint import memo as run_memo
from cardindex.lint import runner

MEMO = Path(".cardindex") / "cache" / f"lint-run-{__version__}-{run_memo.FORMAT}-all.marshal"


def card(description: str, body: str, **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n"


CARDS = {
    "greenhouse/watering.md": card("Seedlings are watered from below", "Seed trays sit in a shallow water bath for ten minutes."),
    "greenhouse/vents.md": card("Roof vents open above 24 C", "The roof vents open when the air passes 24 C."),
    "greenhouse/vents-again.md": card("Roof vents open above 24 C", "The roof vents open when the air passes 24 C."),
    "kitchen/oven.md": card("The bread oven is preheated for an hour", "The stone needs an hour at full heat before loaves go in."),
    "kitchen/sourdough.md": card("The starter is fed twice a day", "Right now I am feeding the starter before the weekend bake."),
}


@pytest.fixture
def trust_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Trust every stat, however recent: only the memo's key can tell a change."""
    monkeypatch.setattr(run_memo, "RACY_NS", -(10**18))


@pytest.fixture
def no_rules(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """After calling it, a run that gets as far as running rules fails the test."""

    def forbid() -> None:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the rules ran: the memo did not answer")

        monkeypatch.setattr(runner, "lint", fail)

    return forbid


def make_vault(root: Path, cards: dict[str, str], config: str = "repo: false\n") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text(config, encoding="utf-8")
    for rel, text in cards.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def lint(run_cli: Callable[..., Result], root: Path, *args: str, cache: bool = True,
         env: dict[str, str | None] | None = None) -> list[dict[str, Any]]:
    result = run_cli(*([] if cache else ["--no-cache"]), "--vault", str(root), "lint", "--format", "json", *args, env=env)
    assert result.exit_code in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def checked(run_cli: Callable[..., Result], root: Path, *args: str,
            env: dict[str, str | None] | None = None) -> list[dict[str, Any]]:
    """The findings of a run with the caches, asserted equal to those of a run without them."""
    warm = lint(run_cli, root, *args, env=env)
    assert warm == lint(run_cli, root, *args, cache=False, env=env)
    return warm


def codes(found: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(f["path"], f["code"]) for f in found}


def test_an_unchanged_vault_is_answered_without_a_rule(tmp_path, run_cli, trust_all, no_rules):
    root = make_vault(tmp_path / "vault", CARDS)
    first = lint(run_cli, root)
    assert (root / MEMO).is_file()
    assert {("kitchen/sourdough.md", "S101"), ("greenhouse/vents.md", "U101")} <= codes(first)
    no_rules()
    assert lint(run_cli, root) == first


def test_a_recent_change_is_never_trusted_by_stat(tmp_path, run_cli, no_rules):
    """The guard itself: with it on, a vault changed within two seconds is linted again."""
    root = make_vault(tmp_path / "vault", CARDS)
    lint(run_cli, root)
    no_rules()
    with pytest.raises(AssertionError, match="the rules ran"):
        lint(run_cli, root)


def test_an_edited_card_is_linted_again(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    assert not {c for p, c in codes(checked(run_cli, root)) if p == "kitchen/oven.md"}
    (root / "kitchen/oven.md").write_text(card("The bread oven is preheated for an hour",
                                               "Right now I am relining the oven floor."))
    assert {"S101", "S103"} & {c for p, c in codes(checked(run_cli, root)) if p == "kitchen/oven.md"}


def test_an_edit_that_keeps_size_and_mtime_is_seen(tmp_path, run_cli, trust_all):
    """`touch -r` restores an mtime; the ctime still moves, and the memo keys on it."""
    root = make_vault(tmp_path / "vault", CARDS)
    path = root / "greenhouse/vents-again.md"
    first = checked(run_cli, root)
    before = path.stat()
    old_body = "The roof vents open when the air passes 24 C."
    new_body = "Right now I am fixing the roof vent motor."
    path.write_text(CARDS["greenhouse/vents-again.md"].replace(old_body, new_body.ljust(len(old_body))))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    assert checked(run_cli, root) != first


def test_a_removed_card_takes_its_pair_away(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    assert ("greenhouse/vents.md", "U101") in codes(checked(run_cli, root))
    (root / "greenhouse/vents-again.md").unlink()
    assert ("greenhouse/vents.md", "U101") not in codes(checked(run_cli, root))


def test_a_new_file_of_any_kind_changes_the_key(tmp_path, trust_all):
    """INDEX.md links are checked against the vault's files, so a new file that is no card counts too."""
    from cardindex.store.vault import Vault

    root = make_vault(tmp_path / "vault", CARDS)

    def key() -> bytes | None:
        return run_memo.RunMemo(Vault(root), ("codes", ()), today="2026-11-30", repo_root=None, paths=None,
                                universe=None).key

    first = key()
    assert first is not None and key() == first
    (root / "notes").mkdir()
    assert key() != first
    second = key()
    (root / "notes/plan.txt").write_text("soil plan\n")
    assert key() != second
    third = key()
    (root / ".cardindex/cache").mkdir(parents=True, exist_ok=True)
    (root / ".cardindex/cache/other").write_text("ours")  # the state folder is not the vault's content
    assert key() == third


def test_a_changed_config_is_seen(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    assert ("kitchen/sourdough.md", "S101") in codes(checked(run_cli, root))
    (root / ".cardindex.yaml").write_text("repo: false\nlint:\n  ignore: [S101]\n")
    assert ("kitchen/sourdough.md", "S101") not in codes(checked(run_cli, root))


def test_the_selection_and_the_files_are_in_the_key(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    everything = checked(run_cli, root)
    only = checked(run_cli, root, "--select", "S101")
    assert {f["code"] for f in only} == {"S101"} and len(everything) > len(only)
    one = checked(run_cli, root, str(root / "kitchen/oven.md"))
    assert {f["path"] for f in one} <= {"kitchen/oven.md"}
    assert checked(run_cli, root) == everything


def test_the_date_is_in_the_key(tmp_path, run_cli, trust_all):
    cards = {**CARDS, "kitchen/flour.md": card("The rye flour lasts until spring", "Rye flour keeps in the cold room.",
                                               expires="2026-12-15")}
    root = make_vault(tmp_path / "vault", cards)
    assert ("kitchen/flour.md", "T101") not in codes(checked(run_cli, root))
    later = {"CARDS_TODAY": "2027-01-10"}
    assert ("kitchen/flour.md", "T101") in codes(checked(run_cli, root, env=later))


def test_an_archived_card_counts(tmp_path, run_cli, trust_all):
    """Links may name archived cards: the archive folder is part of the key."""
    cards = {**CARDS, "kitchen/proofing.md": card("Loaves proof in the cold room", "See [[retired-proofer]] for the old way.")}
    root = make_vault(tmp_path / "vault", cards)
    first = checked(run_cli, root)
    (root / "archive").mkdir()
    (root / "archive/retired-proofer.md").write_text(card("The old proofer ran at 30 C", "It ran at 30 C."))
    assert checked(run_cli, root) != first


def test_a_symlink_in_the_vault_turns_the_memo_off(tmp_path, run_cli, trust_all, no_rules):
    root = make_vault(tmp_path / "vault", CARDS)
    (root / "linked.md").symlink_to(root / "kitchen/oven.md")
    lint(run_cli, root)
    no_rules()
    with pytest.raises(AssertionError, match="the rules ran"):
        lint(run_cli, root)


def test_a_broken_memo_file_is_ignored(tmp_path, run_cli, trust_all):
    root = make_vault(tmp_path / "vault", CARDS)
    first = lint(run_cli, root)
    (root / MEMO).write_bytes(b"\x00not marshal")
    assert lint(run_cli, root) == first


def test_no_cache_writes_no_memo(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", CARDS)
    lint(run_cli, root, cache=False)
    assert not (root / MEMO).exists()


# ------------------------------------------------------------------ the repo


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def repo_vault(tmp_path: Path) -> Iterator[Path]:
    repo = tmp_path / "repo"
    (repo / "pump").mkdir(parents=True)
    (repo / "pump/schedule.py").write_text("".join(f"step_{i} = {i}\n" for i in range(5)))
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "Pump runs on a five step schedule")
    cards = {
        "pump.md": card("Pump schedule steps", "The pump schedule is kept in pump/schedule.py:4 for now."),
        "valve.md": card("Valve code lives in its own folder", "Valve timings are tuned by hand.",
                         scope="path:valve"),
        "notes.md": card("Irrigation runs at dawn", "Irrigation runs at dawn so leaves dry by noon."),
    }
    yield make_vault(repo / "memory", cards, config="")


def test_a_scope_path_that_appears_is_seen(repo_vault, run_cli, trust_all):
    assert ("valve.md", "T103") in codes(checked(run_cli, repo_vault))
    (repo_vault.parent / "valve").mkdir()  # untracked, empty: git does not list it
    assert ("valve.md", "T103") not in codes(checked(run_cli, repo_vault))


def test_a_named_file_that_shrinks_is_seen(repo_vault, run_cli, trust_all):
    assert ("pump.md", "T105") not in codes(checked(run_cli, repo_vault))
    (repo_vault.parent / "pump/schedule.py").write_text("step_0 = 0\n")
    assert ("pump.md", "T105") in codes(checked(run_cli, repo_vault))


def test_an_ignored_file_a_card_names_is_seen(repo_vault, run_cli, trust_all):
    """A file git ignores is in no repo listing; the memo still keeps what the rules looked up."""
    repo = repo_vault.parent
    (repo / ".gitignore").write_text("build/\n")
    (repo / "build").mkdir()
    (repo / "build/out.txt").write_text("one\ntwo\n")
    (repo_vault / "build.md").write_text(card("Build output", "The build writes build/out.txt:2 each time."))
    assert ("build.md", "T105") not in codes(checked(run_cli, repo_vault))
    (repo / "build/out.txt").write_text("one\n")
    assert ("build.md", "T105") in codes(checked(run_cli, repo_vault))


def test_a_new_commit_is_seen(repo_vault, run_cli, trust_all):
    repo = repo_vault.parent
    (repo_vault / "close.md").write_text(card("Valves close before the pump stops", "Valves close before the pump stops."))
    first = checked(run_cli, repo_vault)
    assert ("close.md", "D104") not in codes(first)
    _git(repo, "commit", "-q", "--allow-empty", "-m", "Valves close before the pump stops")  # no file changes
    assert ("close.md", "D104") in codes(checked(run_cli, repo_vault))
