"""`cards consolidate`: each decision, locks, dry run, idempotence, undo, crash safety."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.store.card import Card
from cardindex.store.journal import Journal

Invoke = Callable[..., Result]


def tree(root: Path) -> dict[str, str]:
    """sha256 of every file in the vault outside .cardindex/ (INDEX.md included)."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".cardindex" not in p.relative_to(root).parts
    }


def card(root: Path, rel: str) -> Card:
    return Card.from_text(rel, (root / rel).read_text(encoding="utf-8"))


def put(root: Path, rel: str, description: str, body: str, **fields: object) -> Path:
    lines = ["---", f"description: {description}", f"type: {fields.pop('type', 'project')}"]
    for key, value in fields.items():
        value = ("true" if value else "false") if isinstance(value, bool) else value
        lines.append(f"{key}: {value}")
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, "---", body, ""]), encoding="utf-8")
    return path


def consolidate(invoke: Invoke, *args: str) -> dict[str, object]:
    result = invoke("consolidate", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    out: dict[str, object] = json.loads(result.stdout)
    return out


def decisions(out: dict[str, object]) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(d["action"], d["card"], tuple(d["related"])) for d in out["decisions"]]  # type: ignore[attr-defined,index]


def jobs(invoke: Invoke) -> list[dict[str, object]]:
    listed: list[dict[str, object]] = json.loads(invoke("journal", "--format", "json").stdout)
    return listed


# ------------------------------------------------------------------ supersede by key


def test_newest_evidence_supersedes_older_values_of_a_key(invoke: Invoke, vault: Path) -> None:
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.",
        key="deploy-day", created="2026-01-05", verified="2026-03-01")
    put(vault, "deploy-thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.",
        key="deploy-day", created="2026-09-14", verified="2026-09-14")
    out = consolidate(invoke)
    assert decisions(out) == [("supersede", "deploy-tue", ("deploy-thu",))]
    assert not (vault / "deploy-tue.md").exists()
    old = card(vault, "archive/deploy-tue.md")
    assert old.status == "superseded" and old.meta["superseded_by"] == "deploy-thu"
    assert str(old.created) == "2026-01-05" and str(old.verified) == "2026-03-01"  # keeps its dates
    assert card(vault, "deploy-thu.md").meta["supersedes"] == "deploy-tue"
    index = (vault / "INDEX.md").read_text()
    assert "deploy-thu.md" in index and "deploy-tue" not in index


def test_a_late_card_with_older_evidence_is_superseded_on_arrival(invoke: Invoke, vault: Path) -> None:
    put(vault, "port-new.md", "Port the staging API listens on", "Staging API listens on 8443.",
        key="staging-port", verified="2026-10-01")
    consolidate(invoke)
    # Written today, but about what was true in January: it must never win.
    put(vault, "port-late.md", "Port the staging API listens on", "Staging API listens on 8080.",
        key="staging-port", created="2026-11-30", verified="2026-01-15")
    out = consolidate(invoke)
    assert decisions(out) == [("supersede", "port-late", ("port-new",))]
    assert (vault / "port-new.md").exists() and (vault / "archive/port-late.md").exists()


def test_same_evidence_date_is_a_conflict_not_a_pick(invoke: Invoke, vault: Path) -> None:
    put(vault, "tz-a.md", "Timezone for scheduling", "Schedule in Europe/Berlin.", key="timezone", verified="2026-06-01")
    put(vault, "tz-b.md", "Timezone for scheduling", "Schedule in America/New_York.", key="timezone", verified="2026-06-01")
    out = consolidate(invoke)
    assert [d[0] for d in decisions(out)] == ["conflict"]
    for rel, other in (("tz-a.md", "tz-b"), ("tz-b.md", "tz-a")):
        marked = card(vault, rel)
        assert marked.status == "conflict" and marked.meta["conflicts_with"] == other
    assert (vault / "INDEX.md").read_text().count(") — conflict\n") == 2
    assert not (vault / "archive").exists()


def test_multi_valued_keys_are_never_superseded(invoke: Invoke, vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("multi_valued_keys: [oncall-contact]\n")
    put(vault, "oncall-ana.md", "On-call contact for billing", "Ana Lima is on call for billing.",
        key="oncall-contact", verified="2026-01-01")
    put(vault, "oncall-bo.md", "On-call contact for payments", "Bo Chen is on call for payments.",
        key="oncall-contact", verified="2026-09-01")
    before = tree(vault)
    out = consolidate(invoke)
    assert decisions(out) == []
    assert {k: v for k, v in tree(vault).items() if k != "INDEX.md"} == {k: v for k, v in before.items() if k != "INDEX.md"}


def test_restating_the_same_value_of_a_key_merges(invoke: Invoke, vault: Path) -> None:
    put(vault, "a.md", "Package manager for the web app", "Use pnpm for the web app.", key="pkg-manager",
        verified="2026-02-01", source="chat 2026-02-01")
    put(vault, "b.md", "Package manager for the web app", "Use pnpm for the web app.", key="pkg-manager",
        verified="2026-08-01", source="README review")
    out = consolidate(invoke)
    assert decisions(out) == [("merge", "b", ("a",))]
    kept = card(vault, "b.md")
    assert kept.meta["merged_from"] == "a" and kept.meta["source"] == ["README review", "chat 2026-02-01"]
    assert card(vault, "archive/a.md").meta["merged_into"] == "b"


def test_the_winner_takes_over_the_lineage_of_what_it_replaces(invoke: Invoke, vault: Path) -> None:
    # How often a fact was restated survives a change of value: the new card replaces
    # the old one and, through it, what the old one had absorbed and replaced.
    put(vault, "tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.", key="deploy-day",
        verified="2026-03-01", merged_from="[tue-2, tue-3]", supersedes="mon")
    put(vault, "thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.", key="deploy-day",
        verified="2026-09-14")
    consolidate(invoke)
    assert card(vault, "thu.md").meta["supersedes"] == ["tue", "mon", "tue-2", "tue-3"]


def test_a_merge_keeps_what_the_merged_card_had_replaced(invoke: Invoke, vault: Path) -> None:
    put(vault, "a.md", "Package manager for the web app", "Use pnpm for the web app.", key="pkg-manager",
        verified="2026-02-01", supersedes="[npm-rule, yarn-rule]")
    put(vault, "b.md", "Package manager for the web app", "Use pnpm for the web app.", key="pkg-manager",
        verified="2026-08-01", merged_from="c")
    out = consolidate(invoke)
    assert decisions(out) == [("merge", "b", ("a",))]
    kept = card(vault, "b.md")
    assert kept.meta["merged_from"] == ["c", "a"] and kept.meta["supersedes"] == ["npm-rule", "yarn-rule"]


# ------------------------------------------------------------------ duplicates and contradictions


def test_duplicates_merge_into_the_best_described_card(invoke: Invoke, vault: Path) -> None:
    put(vault, "tz1.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.",
        type="user", created="2026-05-01", verified="2026-05-01", tags="[profile]")
    put(vault, "tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.\n\n"
        "**Why:** meetings before 9:00 Berlin time get declined.", type="user", created="2026-03-01",
        verified="2026-04-01")
    out = consolidate(invoke)
    assert decisions(out) == [("merge", "tz2", ("tz1",))]  # tz2 says why: better described
    kept = card(vault, "tz2.md")
    assert kept.meta["merged_from"] == "tz1"
    assert str(kept.verified) == "2026-05-01"  # the newest evidence of the two
    assert str(kept.created) == "2026-03-01"
    assert kept.meta["tags"] == ["profile"]
    gone = card(vault, "archive/tz1.md")
    assert gone.status == "archived" and gone.meta["merged_into"] == "tz2"


def test_a_rule_and_its_negation_are_marked_never_merged(invoke: Invoke, vault: Path) -> None:
    put(vault, "squash-yes.md", "Always squash-merge pull requests", "Always squash-merge pull requests.", type="feedback")
    put(vault, "squash-no.md", "Never squash-merge pull requests", "Never squash-merge pull requests.", type="feedback")
    out = consolidate(invoke)
    assert [d[0] for d in decisions(out)] == ["conflict"]
    assert card(vault, "squash-yes.md").status == "conflict" and card(vault, "squash-no.md").status == "conflict"
    assert not (vault / "archive").exists()


def test_a_resolved_conflict_becomes_active_again(invoke: Invoke, vault: Path) -> None:
    put(vault, "squash-yes.md", "Always squash-merge pull requests", "Always squash-merge pull requests.", type="feedback")
    put(vault, "squash-no.md", "Never squash-merge pull requests", "Never squash-merge pull requests.", type="feedback")
    consolidate(invoke)
    assert invoke("archive", "squash-no", "--reason", "user: we squash").exit_code == 0
    out = consolidate(invoke)
    assert decisions(out) == [("resolve", "squash-yes", ("squash-no",))]
    kept = card(vault, "squash-yes.md")
    assert kept.status == "active" and "conflicts_with" not in kept.meta


# ------------------------------------------------------------------ locks and time


def test_a_locked_card_is_never_changed_and_what_disagrees_becomes_the_conflict(invoke: Invoke, vault: Path) -> None:
    locked = put(vault, "port-locked.md", "Staging database port", "Staging Postgres listens on 5433.",
                 type="reference", key="staging-port", lock=True, verified="2026-01-01")
    put(vault, "port-new.md", "Staging database port", "Staging Postgres listens on 6543.",
        type="reference", key="staging-port", verified="2026-10-01")
    before = locked.read_bytes()
    out = consolidate(invoke)
    assert decisions(out) == [("conflict", "port-new", ("port-locked",))]
    assert locked.read_bytes() == before  # not superseded although older, not marked
    assert card(vault, "port-new.md").status == "conflict"
    assert card(vault, "port-new.md").meta["conflicts_with"] == "port-locked"
    assert consolidate(invoke, "--all")["changes"] == []
    assert locked.read_bytes() == before


def test_a_locked_card_is_not_archived_when_it_expires(invoke: Invoke, vault: Path) -> None:
    locked = put(vault, "freeze.md", "Code freeze for the release", "No merges to main during the freeze.",
                 lock=True, expires="2026-02-01")
    before = locked.read_bytes()
    out = consolidate(invoke)
    assert decisions(out) == [("keep", "freeze", ())]
    assert "locked; not archived although expired on 2026-02-01" in out["decisions"][0]["reason"]  # type: ignore[index]
    assert out["changes"] == [] and out["job"] is None
    assert locked.read_bytes() == before


def test_expired_and_too_old_cards_are_archived(invoke: Invoke, vault: Path) -> None:
    (vault / ".cardindex.yaml").write_text("max_age:\n  project: 90\n")
    put(vault, "sprint.md", "Sprint 42 goal is the billing export", "Sprint 42: billing export.", expires="2026-10-01")
    put(vault, "old.md", "Which CI runner image builds use", "Builds use the ubuntu-22.04 runner image.", verified="2026-01-01")
    put(vault, "fresh.md", "Where release notes are drafted", "Release notes are drafted in the wiki.", verified="2026-11-01")
    out = consolidate(invoke)
    assert sorted(decisions(out)) == [("archive", "old", ()), ("archive", "sprint", ())]
    assert card(vault, "archive/sprint.md").status == "archived"
    assert card(vault, "archive/old.md").status == "stale"
    assert (vault / "fresh.md").exists()


def test_now_decides_expiry_for_reproducible_runs(invoke: Invoke, vault: Path) -> None:
    put(vault, "freeze.md", "Code freeze for the December release", "No merges to main during the freeze.",
        expires="2026-12-20")
    assert consolidate(invoke, "--dry-run", "--now", "2026-12-01")["decisions"] == []
    assert decisions(consolidate(invoke, "--dry-run", "--now", "2026-12-21")) == [("archive", "freeze", ())]


# ------------------------------------------------------------------ the run itself


@pytest.fixture
def messy(vault: Path) -> Path:
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.",
        key="deploy-day", verified="2026-03-01")
    put(vault, "deploy-thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.",
        key="deploy-day", verified="2026-09-14")
    put(vault, "squash-yes.md", "Always squash-merge pull requests", "Always squash-merge pull requests.", type="feedback")
    put(vault, "squash-no.md", "Never squash-merge pull requests", "Never squash-merge pull requests.", type="feedback")
    put(vault, "tz1.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.", type="user")
    put(vault, "tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.", type="user",
        verified="2026-06-01")
    put(vault, "sprint.md", "Sprint 42 goal is the billing export", "Sprint 42: billing export.", expires="2026-10-01")
    put(vault, "notes/keep.md", "Where the runbooks live", "Runbooks live in ops/runbooks.", type="reference")
    return vault


def test_dry_run_changes_nothing(invoke: Invoke, messy: Path, snapshot: Callable[..., dict[str, bytes]]) -> None:
    assert invoke("index").exit_code == 0
    before = snapshot(messy, state=False)
    result = invoke("consolidate", "--dry-run")
    assert result.exit_code == 0
    assert "supersede" in result.stdout and "merge" in result.stdout and "nothing written" in result.stdout
    assert snapshot(messy, state=False) == before
    assert jobs(invoke) == []


def test_one_job_then_a_second_run_is_a_no_op(invoke: Invoke, messy: Path) -> None:
    out = consolidate(invoke)
    assert out["job"] and len(jobs(invoke)) == 1
    after = tree(messy)
    result = invoke("consolidate")
    assert result.exit_code == 0 and result.stdout.startswith("nothing to do (0 changed")
    assert consolidate(invoke, "--all")["changes"] == []
    assert tree(messy) == after
    assert len(jobs(invoke)) == 1


def test_undo_restores_the_vault_byte_for_byte(invoke: Invoke, messy: Path) -> None:
    assert invoke("index").exit_code == 0
    before = tree(messy)
    out = consolidate(invoke)
    assert tree(messy) != before
    result = invoke("undo")
    assert result.exit_code == 0, result.stderr
    assert out["job"] in result.stdout
    assert tree(messy) == before


def test_the_journal_names_every_card_and_reason(invoke: Invoke, messy: Path) -> None:
    consolidate(invoke)
    job = jobs(invoke)[-1]
    assert job["command"] == "consolidate"
    by_card = {a["card"]: a for a in job["actions"]}  # type: ignore[attr-defined]
    assert by_card["deploy-tue"]["action"] == "supersede" and "deploy-thu" in by_card["deploy-tue"]["reason"]
    assert by_card["sprint"]["action"] == "archive" and "expired" in by_card["sprint"]["reason"]
    moved = by_card["deploy-tue"]["files"]
    assert [f["path"] for f in moved] == ["deploy-tue.md", "archive/deploy-tue.md"]
    assert moved[0]["before"] and moved[0]["after"] is None  # prior bytes kept by hash
    assert b"Tuesdays" in Journal(messy / ".cardindex").blob(moved[0]["before"], job["pack"])  # type: ignore[arg-type]


def test_only_changed_cards_start_decisions(invoke: Invoke, messy: Path) -> None:
    consolidate(invoke)
    put(messy, "tz3.md", "The user's timezone: Europe/Berlin", "The user lives in Europe/Berlin.", type="user")
    out = consolidate(invoke)
    assert out["window"] == 1
    assert decisions(out) == [("merge", "tz2", ("tz3",))]


def test_since_widens_the_window(invoke: Invoke, messy: Path) -> None:
    consolidate(invoke)
    assert consolidate(invoke, "--dry-run")["window"] == 0
    assert consolidate(invoke, "--dry-run", "--since", "2026-01-01")["window"] > 0


def test_consolidate_waits_for_the_vault_lock(invoke: Invoke, messy: Path) -> None:
    from cardindex.store.lock import VaultLock

    with VaultLock(messy / ".cardindex", timeout=1):
        result = invoke("consolidate", env={"CARDS_LOCK_TIMEOUT": "0.2"})
    assert result.exit_code == 1
    assert "locked" in result.stderr and "Traceback" not in result.stderr
    assert (messy / "deploy-tue.md").exists()


def test_text_report(invoke: Invoke, messy: Path) -> None:
    result = invoke("consolidate")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "supersede  deploy-tue → deploy-thu  (key 'deploy-day': newer value in deploy-thu (this one: 2026-03-01))" in lines
    assert lines[-1].startswith("job ") and "cards undo" in lines[-1]


# ------------------------------------------------------------------ crash safety


def _cards_everywhere(root: Path) -> list[str]:
    """Every card's id as found anywhere (live or archive): each original must appear once."""
    return sorted(p.relative_to(root).as_posix().removeprefix("archive/")
                  for p in root.rglob("*.md") if ".cardindex" not in p.parts and p.name != "INDEX.md")


def _run(vault: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args],
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=60)


def test_killed_between_writes_then_run_again_loses_and_duplicates_nothing(messy: Path, tmp_path: Path) -> None:
    assert _run(messy, "index").returncode == 0
    reference = tmp_path / "reference"
    shutil.copytree(messy, reference)
    assert _run(reference, "consolidate").returncode == 0
    expected = tree(reference)
    writes = len(json.loads(_run(reference, "journal", "--format", "json").stdout)[-1]["actions"])
    assert writes >= 6
    originals = _cards_everywhere(messy)
    for kill_after in range(1, writes):
        copy = tmp_path / f"kill-{kill_after}"
        shutil.copytree(messy, copy)
        killed = _run(copy, "consolidate", env={"CARDS_TEST_KILL_AFTER_WRITES": str(kill_after)})
        assert killed.returncode == -9, killed.stderr
        assert sorted(set(_cards_everywhere(copy))) == originals  # a copy too many at worst, never one too few
        again = _run(copy, "consolidate")
        assert again.returncode == 0, again.stderr
        assert "recovered: job" in again.stderr
        assert _cards_everywhere(copy) == originals, kill_after  # each card exactly once
        assert tree(copy) == expected, kill_after
        assert _run(copy, "index", "--check").returncode == 0
        listed = json.loads(_run(copy, "journal", "--format", "json").stdout)
        assert [bool(j.get("rolled_back")) for j in listed] == [True, False]


def test_a_failed_write_rolls_the_job_back(messy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import errno

    from cardindex.store import atomic, jobs as lifecycle
    from cardindex.cli import consolidate as command
    from cardindex.errors import Refused
    from cardindex.store.vault import Vault

    assert _run(messy, "index").returncode == 0
    before = tree(messy)
    real = atomic.create_new
    calls = {"n": 0}

    def full_disk(target: Path, data: bytes | str) -> bool:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(target, data)

    monkeypatch.setattr(lifecycle, "move_new", lambda s, t, d: full_disk(t, d) and (os.unlink(s) or True))
    with pytest.raises(Refused, match="No space left on device.*rolled back"):
        command.run(vault=Vault(messy))
    monkeypatch.undo()
    assert tree(messy) == {k: v for k, v in before.items()}
    assert not (messy / ".cardindex/pending").exists()


def test_a_card_edited_while_planning_stops_the_job(messy: Path) -> None:
    from cardindex.lifecycle.plan import plan
    from cardindex.errors import Refused
    from cardindex.store.jobs import apply
    from cardindex.store.vault import Vault

    vault = Vault(messy)
    steps = plan(vault.cards, now=__import__("datetime").date(2026, 11, 30)).steps
    before = tree(messy)
    (messy / "deploy-tue.md").write_text((messy / "deploy-tue.md").read_text() + "\nEdited meanwhile.\n")
    edited = tree(messy)
    with vault.lock(), pytest.raises(Refused, match="deploy-tue.md changed while the job was planned"):
        apply(vault, steps, command="consolidate")
    assert tree(messy) == edited != before


# ------------------------------------------------------------------ the optional llm command


def trust_vault(invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A vault's llm command runs only once the user trusted it (`cards trust`; state under tmp_path)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert invoke("trust").exit_code == 0


def test_llm_command_rewrites_the_merged_card(invoke: Invoke, vault: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "fake-llm.py"
    script.write_text(textwrap.dedent("""\
        import sys
        prompt = sys.stdin.read()
        assert "## Duplicate: tz1" in prompt, prompt
        print("The user lives and works in Europe/Berlin (CET/CEST).")
    """))
    (vault / ".cardindex.yaml").write_text(f"llm: {sys.executable} {script}\n")
    trust_vault(invoke, tmp_path, monkeypatch)
    put(vault, "tz1.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.", type="user")
    put(vault, "tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.", type="user",
        verified="2026-06-01")
    out = consolidate(invoke)
    assert decisions(out) == [("merge", "tz2", ("tz1",))]
    kept = card(vault, "tz2.md")
    assert kept.body == "The user lives and works in Europe/Berlin (CET/CEST).\n"
    assert kept.meta["merged_from"] == "tz1" and kept.description == "User timezone is Europe/Berlin"
    assert invoke("undo").exit_code == 0
    assert card(vault, "tz2.md").body == "User is in the Europe/Berlin timezone.\n"


def test_a_failing_llm_command_leaves_the_merge_deterministic(invoke: Invoke, vault: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (vault / ".cardindex.yaml").write_text(f"llm: {sys.executable} -c 'import sys; sys.exit(3)'\n")
    trust_vault(invoke, tmp_path, monkeypatch)
    put(vault, "tz1.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.", type="user")
    put(vault, "tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.", type="user",
        verified="2026-06-01")
    result = invoke("consolidate")
    assert result.exit_code == 0
    assert "warning: llm command for tz2: exit 3" in result.stderr
    assert card(vault, "tz2.md").body == "User is in the Europe/Berlin timezone.\n"
    assert card(vault, "tz2.md").meta["merged_from"] == "tz1"


# ------------------------------------------------------------------ found by the lifecycle benchmark


def test_cards_for_different_scopes_are_never_merged_or_superseded(invoke: Invoke, vault: Path) -> None:
    put(vault, "jilis.md", "Jilis: avoid having to force push before merging", "It applies to every environment.",
        type="feedback", scope='"project:jilis"', verified="2026-01-25")
    put(vault, "milonis.md", "Milonis: avoid having to force push before opening a pull request",
        "Confirmed during the August review.", type="feedback", scope='"project:milonis"', verified="2026-03-18")
    put(vault, "yodunar.md", "Link to the dashboard for Yodunar: https://intranet.example.com/yodunar/dashboard-766",
        "See the link.", type="reference", key="reference.yodunar.dashboard", scope='"project:yodunar"',
        verified="2026-02-08")
    put(vault, "gumelon.md", "Link to the dashboard for Gumelon: https://intranet.example.com/gumelon/dashboard-256",
        "See the link.", type="reference", scope='"project:gumelon"', verified="2026-03-05")
    put(vault, "deploy-api.md", "Deploy weekday", "Deploy the API on Thursdays.", key="deploy-day",
        scope="path:api", verified="2026-01-01")
    put(vault, "deploy-web.md", "Deploy weekday", "Deploy the web app on Tuesdays.", key="deploy-day",
        scope="path:web", verified="2026-06-01")
    assert decisions(consolidate(invoke)) == []


def test_a_changed_value_without_a_key_is_settled_by_date(invoke: Invoke, vault: Path) -> None:
    put(vault, "node-18.md", "The edge worker runtime is Node.js 18", "Edge workers use the Node.js 18 runtime.",
        verified="2026-01-20")
    put(vault, "node-22.md", "The edge worker runtime is Node.js 22", "Edge workers use the Node.js 22 runtime.",
        verified="2026-02-15")
    assert [(a, c, r) for a, c, r in decisions(consolidate(invoke))] == [("supersede", "node-18", ("node-22",))]
    assert card(vault, "archive/node-18.md").meta["superseded_by"] == "node-22"


def test_another_name_without_a_key_is_a_conflict_not_settled_by_date(invoke: Invoke, vault: Path) -> None:
    # A different name may be another subject ("in Rakinus" / "in Komelar"), not a new
    # value: time does not decide it, so both stay live, marked (SPEC §7).
    put(vault, "rakinus.md", "For code review in Rakinus, the user wants bullet lists",
        "For code review in Rakinus, the user wants bullet lists.", type="user", verified="2026-03-01")
    put(vault, "komelar.md", "For code review in Komelar, the user wants bullet lists",
        "For code review in Komelar, the user wants bullet lists.", type="user", verified="2026-06-01")
    assert decisions(consolidate(invoke)) == [("conflict", "komelar", ("rakinus",))]
    assert card(vault, "rakinus.md").status == "conflict" and card(vault, "komelar.md").status == "conflict"


def test_a_key_on_one_side_does_not_settle_another_name_by_date(invoke: Invoke, vault: Path) -> None:
    put(vault, "helquenia.md", "For code review in Helquenia, the user wants bullet lists",
        "For code review in Helquenia, the user wants bullet lists.", type="user", key="verbosity.helquenia",
        verified="2026-03-11")
    put(vault, "rakinus.md", "For code review in Rakinus, the user wants bullet lists",
        "For code review in Rakinus, the user wants bullet lists.", type="user", verified="2026-05-04")
    assert [d[0] for d in decisions(consolidate(invoke))] == ["conflict"]
    # A number is another value of the keyed card's slot, with or without the key: by date.
    put(vault, "port-a.md", "Staging Postgres listens on port 5433", "Staging Postgres listens on port 5433.",
        key="staging-db-port", verified="2026-01-05")
    put(vault, "port-b.md", "Staging Postgres listens on port 6432", "Staging Postgres listens on port 6432.",
        verified="2026-02-20")
    assert decisions(consolidate(invoke)) == [("supersede", "port-a", ("port-b",))]


def test_the_same_verified_date_is_a_conflict_whatever_created_says(invoke: Invoke, vault: Path) -> None:
    put(vault, "auth-a.md", "Auth provider of the notification service", "Notifications authenticate with Okta.",
        key="notification-auth", created="2024-01-09", verified="2024-04-23")
    put(vault, "auth-b.md", "Auth provider of the notification service", "Notifications authenticate with Auth0.",
        key="notification-auth", created="2023-10-13", verified="2024-04-23")
    assert [d[0] for d in decisions(consolidate(invoke))] == ["conflict"]


def test_consolidate_leaves_the_index_current_even_when_it_decides_nothing(invoke: Invoke, vault: Path) -> None:
    put(vault, "one.md", "Where release notes are drafted", "Release notes are drafted in the wiki.")
    assert invoke("consolidate").stdout.startswith("nothing to do")
    assert invoke("index", "--check").exit_code == 0


def test_a_negated_twin_under_one_key_is_superseded_never_merged(invoke: Invoke, vault: Path) -> None:
    put(vault, "never.md", "Never add a regression test before the nightly build in Ramoria",
        "Never add a regression test before the nightly build in Ramoria.", type="feedback",
        key="ramoria-regression-tests", verified="2023-09-25")
    put(vault, "always.md", "Always add a regression test before the nightly build in Ramoria",
        "Always add a regression test before the nightly build in Ramoria.", type="feedback",
        key="ramoria-regression-tests", verified="2025-02-26")
    assert decisions(consolidate(invoke)) == [("supersede", "never", ("always",))]
    assert "merged_into" not in card(vault, "archive/never.md").meta


def test_a_lowercase_value_changed_under_one_key_is_superseded_not_merged(invoke: Invoke, vault: Path) -> None:
    put(vault, "old.md", "For running tests, Orostus notification service runs on vitest",
        "For running tests, Orostus notification service runs on vitest.", key="orostus-tests", verified="2024-09-26")
    put(vault, "new.md", "For running tests, Orostus notification service runs on unittest",
        "For running tests, Orostus notification service runs on unittest.", key="orostus-tests", verified="2026-06-02")
    assert decisions(consolidate(invoke)) == [("supersede", "old", ("new",))]


def _planned_with_pair(monkeypatch: pytest.MonkeyPatch, texts: dict[str, tuple[str, str]], key: str = "") -> list[str]:
    """Plan over cards that the similarity module (as in a large vault, where the shared
    component words are common and weigh little) reports as one duplicate pair."""
    import datetime as dt

    from cardindex.lifecycle import plan as planner
    from cardindex.meaning.similarity import Pair

    extra = f"key: {key}\n" if key else ""
    cards = [Card.from_text(f"{name}.md", f"---\ndescription: {d}\ntype: project\n{extra}verified: 2026-0{n + 1}-01\n---\n{b}\n")
             for n, (name, (d, b)) in enumerate(texts.items())]
    monkeypatch.setattr(planner, "find_pairs", lambda live, multi: [
        Pair(cards[0], cards[1], "duplicate", "same-key" if key else "wording", 80.0, "the same fact in other words")])
    return [d.action for d in planner.plan(cards, now=dt.date(2026, 11, 30)).decisions]


def test_another_subject_in_the_same_sentence_is_not_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {"cache": ("Tretanon cache layer uses ap-southeast-2 for hosting region",
                       "The Tretanon cache layer is hosted in ap-southeast-2."),
             "billing": ("Tretanon billing service uses ap-southeast-2 for hosting region",
                         "The Tretanon billing service is hosted in ap-southeast-2.")}
    assert _planned_with_pair(monkeypatch, texts) == []


def test_another_subject_in_other_words_is_not_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each description names a component the other card never mentions: two facts.
    texts = {"billing": ("Trevelex billing service uses Rust for implementation language",
                         "Related cards cover the job queue of trevelex."),
             "scheduler": ("For implementation language, Trevelex scheduler runs on Rust",
                           "It applies to every environment, including staging.")}
    assert _planned_with_pair(monkeypatch, texts) == []
    # The same frame with one subject is one fact reworded ("runs on" / "uses"): merged.
    texts["scheduler"] = ("For implementation language, Trevelex billing service runs on Rust", "Confirmed with the team.")
    assert _planned_with_pair(monkeypatch, texts) == ["merge"]


def test_another_lowercase_value_under_one_key_in_other_words_is_not_merged(monkeypatch: pytest.MonkeyPatch) -> None:
    # "yapf" and "gofmt" are not capitalized, so they are not told apart as values; each
    # description still names a tool the other card never mentions: superseded, not merged.
    texts = {"gofmt": ("For code formatting, Vevelia python sdk runs on gofmt",
                       "It applies to every environment, including staging."),
             "yapf": ("Code formatting in the Vevelia python sdk is handled by yapf",
                      "It applies to every environment, including staging.")}
    assert _planned_with_pair(monkeypatch, texts, key="vevelia.format") == ["supersede"]


def test_a_reworded_copy_of_a_replaced_value_is_superseded_with_it(invoke: Invoke, vault: Path) -> None:
    put(vault, "port.md", "Staging Postgres listens on port 5433", "Staging Postgres listens on port 5433.",
        type="reference", key="staging-db-port", verified="2026-01-05")
    put(vault, "port-copy.md", "Staging Postgres is reachable on port 5433",
        "You reach the staging Postgres database on port 5433.", type="reference", verified="2026-01-20")
    put(vault, "redis.md", "Staging Redis listens on port 6380", "Staging Redis listens on port 6380.",
        type="reference", verified="2026-01-20")
    consolidate(invoke)
    put(vault, "port-new.md", "Staging Postgres listens on port 6432", "Staging Postgres listens on port 6432.",
        type="reference", verified="2026-02-15")
    found = decisions(consolidate(invoke))
    assert ("supersede", "port", ("port-new",)) in found
    assert ("supersede", "port-copy", ("port-new",)) in found
    assert (vault / "redis.md").exists() and not (vault / "port-copy.md").exists()
    assert "5433" not in (vault / "INDEX.md").read_text()
