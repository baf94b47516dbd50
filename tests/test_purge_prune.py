"""`cards rm --purge`, `cards journal purge` and `cards journal prune` (issue 11).

Purge: after a card holding a secret was edited, archived, restored and consolidated,
`rm --purge` leaves no byte of the secret anywhere under `.cardindex/`. Prune: dropping
old jobs never changes what `--as-of` answers for a day it still covers, nor what undo
of a kept job can restore (a property over random histories).
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.lifecycle.asof import cards_at
from cardindex.store.journal import DamagedPack, Journal, sha256
from cardindex.lifecycle.undo import undone
from cardindex.store.vault import Vault

Invoke = Callable[..., Result]
SECRET = "Xk9mQ2vL8pW4zR7qTn3s"


def on(day: str) -> dict[str, str | None]:
    return {"CARDS_TODAY": day}


def put(vault: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", "type: project", *(f"{k}: {v}" for k, v in fields.items()),
             "---", body, ""]
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def everything_under(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def holding(root: Path, needle: str) -> list[str]:
    return sorted(rel for rel, data in everything_under(root).items() if needle.encode() in data)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result


def packs_are_consistent(vault: Path) -> None:
    """Every pack is named by its hash, and every job's pack exists."""
    folder = vault / ".cardindex" / "objects" / "pack"
    names = {p.stem for p in folder.glob("*.pack")} if folder.is_dir() else set()
    for path in folder.glob("*.pack") if folder.is_dir() else []:
        assert sha256(path.read_bytes()) == path.stem
    for job in Journal(vault / ".cardindex").jobs():
        assert job.get("pack") is None or job["pack"] in names, job["id"]


# --------------------------------------------------------------------------- purge


@pytest.fixture
def leaky(vault: Path, invoke: Invoke) -> Path:
    """A card with a secret, through many jobs: add, hand edits, archive (a reason quoting it), undo, consolidate."""
    secret_line = f"The staging password: {SECRET} (rotate it monthly)."
    ok(invoke("add", secret_line, "-n", "staging-login", "-d", "How to log in to staging", "--force",
              env=on("2026-10-01")))
    put(vault, "billing-owner.md", "Who owns billing", "The billing team owns invoices.", key="billing-owner")
    put(vault, "billing-owner-2.md", "Who owns billing now", "Now the payments team owns invoices.",
        key="billing-owner", verified="2026-10-05")
    text = (vault / "staging-login.md").read_text(encoding="utf-8")
    (vault / "staging-login.md").write_text(text + f"\nAlso for the VPN: password: {SECRET}\n", encoding="utf-8")
    ok(invoke("archive", "staging-login", "billing-owner", "--reason", f"moved, was {secret_line}",
              env=on("2026-10-10")))
    ok(invoke("undo", env=on("2026-10-11")))
    ok(invoke("consolidate", "--all", env=on("2026-10-12")))
    put(vault, "staging-login-copy.md", "How to log in to staging (copy)", f"The staging password: {SECRET}.")
    ok(invoke("consolidate", "--all", env=on("2026-10-13")))
    assert holding(vault / ".cardindex", SECRET)  # what the purge must remove
    return vault


def secret_cards(vault: Path) -> list[str]:
    """The ids of the cards (live or archived) that hold the secret."""
    return [rel[:-3] for rel in holding(vault, SECRET) if not rel.startswith(".cardindex/")]


def test_rm_purge_leaves_no_copy_of_the_secret(leaky: Path, invoke: Invoke) -> None:
    cards = secret_cards(leaky)
    assert cards == ["archive/staging-login", "staging-login-copy"]  # consolidate merged one into the other
    before = {rel for rel in everything_under(leaky) if not rel.startswith(".cardindex/")}
    result = ok(invoke("rm", *cards, "--purge", env=on("2026-10-14")))
    assert all(f"purged {c} from the journal: " in result.stdout for c in cards)
    assert "purged, so it cannot be undone" in result.stderr
    assert holding(leaky / ".cardindex", SECRET) == []
    assert holding(leaky, SECRET) == []
    assert {rel for rel in everything_under(leaky) if not rel.startswith(".cardindex/")} == before - {
        f"{c}.md" for c in cards}
    packs_are_consistent(leaky)
    # Other cards' history is intact: their job still rewinds with --as-of, and lint and index still work.
    assert ok(invoke("lint", "--exit-zero")).exit_code == 0
    assert ok(invoke("index", "--check")).exit_code == 0


def test_a_purged_job_says_so_and_is_never_a_traceback(leaky: Path, invoke: Invoke) -> None:
    ok(invoke("rm", *secret_cards(leaky), "--purge"))
    jobs = json.loads(invoke("journal", "--format", "json").stdout)
    marks = {j["command"]: j.get("purged") for j in jobs if j["command"] in ("rm", "archive")}
    assert marks == {"rm": ["archive/staging-login", "staging-login-copy"], "archive": ["archive/staging-login"]}
    listed = invoke("journal").stdout
    assert "  (purged: archive/staging-login, staging-login-copy; cannot be undone)" in listed
    result = invoke("undo")
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.endswith("were purged (archive/staging-login, staging-login-copy; cards rm --purge)\n")
    merge_job = next(j for j in jobs if any(a["action"] == "merge" for a in j["actions"]))
    named = invoke("undo", merge_job["id"])
    assert named.exit_code == 1 and "were purged" in named.stderr and named.stderr.count("\n") == 1


def test_reasons_that_quote_the_card_are_blanked(leaky: Path, invoke: Invoke) -> None:
    ok(invoke("rm", "archive/staging-login", "--purge"))
    reasons = [a["reason"] for j in Journal(leaky / ".cardindex").jobs() for a in j["actions"]]
    assert "(reason purged)" in reasons
    assert not any("staging password" in r for r in reasons)
    assert "(reason purged)" in invoke("journal").stdout


def test_journal_purge_after_a_plain_rm(leaky: Path, invoke: Invoke) -> None:
    cards = secret_cards(leaky)
    ok(invoke("rm", *cards))
    assert holding(leaky / ".cardindex", SECRET)
    result = ok(invoke("journal", "purge", *cards))
    assert result.stdout.count("purged ") == len(cards)
    assert holding(leaky / ".cardindex", SECRET) == []
    again = ok(invoke("journal", "purge", *cards))  # interrupted or not, running it again is safe
    assert "purged staging-login-copy from the journal: 0 kept copies deleted" in again.stdout
    packs_are_consistent(leaky)


def test_journal_purge_refuses_a_live_card_and_an_unknown_one(leaky: Path, invoke: Invoke) -> None:
    live = invoke("journal", "purge", "staging-login-copy")
    assert live.exit_code == 1
    assert live.stderr == ("error: staging-login-copy is still a card; `cards rm staging-login-copy --purge` "
                           "removes it and its history\n")
    unknown = invoke("journal", "purge", "no-such-card")
    assert unknown.exit_code == 1 and unknown.stderr == "error: the journal holds nothing of no-such-card\n"


def test_purging_an_archived_card_follows_it_to_its_first_path(vault: Path, invoke: Invoke) -> None:
    ok(invoke("add", f"Old token: password: {SECRET}", "-n", "old-token", "-d", "The old token", "--force"))
    ok(invoke("archive", "old-token"))
    ok(invoke("rm", "archive/old-token", "--purge"))
    assert holding(vault / ".cardindex", SECRET) == []


def test_a_pack_shared_with_another_card_keeps_its_blob(vault: Path, invoke: Invoke) -> None:
    """A job that archived two cards: the pack is rewritten with the other card's copy only."""
    put(vault, "keeper.md", "A card that stays", "Keep me exactly.")
    put(vault, "leak.md", "A card with a secret", f"password: {SECRET}")
    keeper = (vault / "keeper.md").read_bytes()
    ok(invoke("archive", "keeper", "leak", env=on("2026-10-10")))
    ok(invoke("rm", "archive/leak", "--purge", env=on("2026-10-11")))
    assert holding(vault / ".cardindex", SECRET) == []
    packs_are_consistent(vault)
    rewound = {c.path: c.text for c in cards_at(Vault(vault), dt.date(2026, 10, 9))}
    assert rewound["keeper.md"].encode() == keeper and "leak.md" not in rewound


# --------------------------------------------------------------------------- prune


def history(vault: Path, invoke: Invoke) -> None:
    """Four jobs on four days: supersessions, an archive and an undo."""
    for i, day in enumerate(("2026-01-10", "2026-03-10", "2026-06-10"), 1):
        ok(invoke("add", f"Deploy on weekday {i}.", "-k", "deploy-day", "-n", f"deploy-{i}", env=on(day)))
    ok(invoke("add", "The timezone is Europe/Berlin.", "-n", "tz", env=on("2026-11-01")))
    ok(invoke("archive", "tz", env=on("2026-11-02")))
    ok(invoke("undo", env=on("2026-11-03")))


def test_prune_drops_old_jobs_and_keeps_what_as_of_needs(vault: Path, invoke: Invoke) -> None:
    history(vault, invoke)
    days = [dt.date(2026, 1, 1) + dt.timedelta(days=n) for n in range(0, 340, 3)]
    rewound = {d: {c.path: c.text for c in cards_at(Vault(vault), d)} for d in days}
    result = ok(invoke("journal", "prune", "--before", "2026-06-01", env=on("2026-11-30")))
    assert result.stdout.startswith("dropped 2 job(s) from before 2026-06-01 (4 kept) and ")
    assert "note: `cards context --as-of` now goes back to 2026-05-31 at the earliest" in result.stderr
    assert len(Journal(vault / ".cardindex").jobs()) == 4
    for d in days:
        if d >= dt.date(2026, 5, 31):
            assert {c.path: c.text for c in cards_at(Vault(vault), d)} == rewound[d], d
    refused = invoke("context", "--as-of", "2026-05-30")
    assert refused.exit_code == 1
    assert refused.stderr == "error: the journal was pruned: --as-of can go back to 2026-05-31 at the earliest\n"
    ok(invoke("context", "--as-of", "2026-05-31"))
    packs_are_consistent(vault)


def test_prune_keeps_90_days_by_default_and_a_dry_run_changes_nothing(vault: Path, invoke: Invoke) -> None:
    history(vault, invoke)
    before = everything_under(vault)
    dry = ok(invoke("journal", "prune", "--dry-run", "--format", "json", env=on("2026-11-30")))
    report = json.loads(dry.stdout)
    assert (report["cut"], report["jobs"], report["kept_jobs"], report["dry_run"]) == ("2026-09-01", 3, 3, True)
    assert report["freed"] > 0
    assert everything_under(vault) == before
    done = json.loads(ok(invoke("journal", "prune", "--format", "json", env=on("2026-11-30"))).stdout)
    assert (done["jobs"], done["blobs"], done["bytes_after"]) == (3, report["blobs"], report["bytes_after"])


def test_kept_jobs_stay_undoable_byte_for_byte(vault: Path, invoke: Invoke, tmp_path: Path) -> None:
    history(vault, invoke)
    ok(invoke("archive", "deploy-3", env=on("2026-11-20")))
    twin = tmp_path / "twin"
    shutil.copytree(vault, twin)
    ok(invoke("journal", "prune", "--keep-days", "30", env=on("2026-11-30")))
    ok(invoke("undo", env=on("2026-11-30")))
    ok(invoke("--vault", str(twin), "undo", env=on("2026-11-30")))
    mine = {k: v for k, v in everything_under(vault).items() if not k.startswith(".cardindex/")}
    theirs = {k: v for k, v in everything_under(twin).items() if not k.startswith(".cardindex/")}
    assert mine == theirs


def test_a_consolidate_and_its_undo_on_one_day_shrink_without_dropping_a_job(vault: Path, invoke: Invoke) -> None:
    """The undo's copies of what consolidate wrote are read by nothing (no day lies between the two)."""
    for i in range(6):
        put(vault, f"tz{i}.md", f"The user's timezone is Europe/Berlin ({i})", "The user works in Berlin time.",
            verified=f"2026-06-0{i + 1}")
    ok(invoke("consolidate", env=on("2026-11-30")))
    ok(invoke("undo", env=on("2026-11-30")))
    result = json.loads(ok(invoke("journal", "prune", "--format", "json", env=on("2026-11-30"))).stdout)
    assert result["jobs"] == 0 and result["blobs"] > 0 and result["freed"] > 0
    assert invoke("undo").exit_code == 1  # nothing left to undo, as before
    assert {c.path for c in cards_at(Vault(vault), dt.date(2026, 11, 29))} == {f"tz{i}.md" for i in range(6)}


def test_prune_options_are_checked(vault: Path, invoke: Invoke) -> None:
    both = invoke("journal", "prune", "--keep-days", "3", "--before", "2026-01-01")
    assert both.exit_code == 2 and "--keep-days and --before do not go together" in both.stderr
    assert invoke("journal", "prune", "--keep-days", "-1").exit_code == 2
    empty = ok(invoke("journal", "prune"))
    assert empty.stdout.startswith("dropped 0 job(s)")


OPS = st.lists(st.tuples(st.sampled_from(["add", "edit", "archive", "rm", "undo", "supersede"]),
                         st.integers(0, 3), st.integers(0, 2)), min_size=2, max_size=9)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, cut_at=st.integers(0, 12))
def test_prune_never_changes_what_it_keeps(tmp_path_factory: pytest.TempPathFactory, run_cli: Callable[..., Result],
                                           ops: list[tuple[str, int, int]], cut_at: int) -> None:
    root = tmp_path_factory.mktemp("prop") / "v"
    ok(run_cli("init", str(root)))
    day = dt.date(2026, 1, 1)
    for n, (op, card, step) in enumerate(ops):
        day += dt.timedelta(days=step)
        env = on(day.isoformat())
        name = f"c{card}"
        if op == "add":
            run_cli("--vault", str(root), "add", f"Fact {n} about thing {card}.", "-n", f"{name}-{n}",
                    "-k", f"k{card % 2}", "--force", env=env)
        elif op == "edit" and (root / f"{name}-0.md").exists():
            (root / f"{name}-0.md").write_text((root / f"{name}-0.md").read_text() + f"more {n}\n")
        else:
            live = sorted(p.stem for p in root.glob("c*.md"))
            if op == "undo":
                run_cli("--vault", str(root), "undo", env=env)
            elif live and op in ("archive", "rm"):
                run_cli("--vault", str(root), op, live[card % len(live)], env=env)
            elif len(live) > 1 and op == "supersede":
                run_cli("--vault", str(root), "supersede", live[0], live[-1], env=env)
    vault = Vault(root)
    first = dt.date(2026, 1, 1)
    cut = first + dt.timedelta(days=cut_at)
    covered = [cut - dt.timedelta(days=1) + dt.timedelta(days=i) for i in range((day - cut).days + 3)]
    rewound = {d: [(c.path, c.text) for c in cards_at(vault, d)] for d in covered}
    journal = Journal(root / ".cardindex")
    jobs = journal.jobs()
    undoable = [j["id"] for j in jobs if not j.get("undoes") and j["id"] not in undone(jobs)]
    ok(run_cli("--vault", str(root), "journal", "prune", "--before", cut.isoformat(), env=on(day.isoformat())))
    after = Journal(root / ".cardindex")
    for d in covered:
        assert [(c.path, c.text) for c in cards_at(Vault(root), d)] == rewound[d], d
    for job in after.jobs():
        if job["id"] in undoable:
            for action in job["actions"]:
                for change in action["files"]:
                    if change["before"]:
                        try:
                            after.blob(change["before"], job.get("pack"))
                        except (OSError, DamagedPack):
                            pytest.fail(f"job {job['id']} lost the copy of {change['path']}")
    packs_are_consistent(root)


@pytest.mark.parametrize("sub", ["prune", "purge"])
def test_the_journal_subcommands_have_help_with_examples(run_cli: Callable[..., Result], sub: str) -> None:
    result = ok(run_cli("journal", sub, "--help"))
    assert result.stdout.startswith(f"Usage: cards journal {sub} ")
    examples = result.stdout.split("\n  Examples:\n", 1)[1]
    assert f"cards journal {sub}" in examples


def test_cards_journal_still_lists_with_its_options(vault: Path, invoke: Invoke) -> None:
    ok(invoke("add", "Deploy on Thursdays.", "-n", "deploy"))
    listed = ok(invoke("journal", "-n", "1"))
    assert listed.stdout.splitlines()[1] == "    add        deploy  (cards add)"
    assert json.loads(ok(invoke("journal", "--format", "json")).stdout)[0]["command"] == "add"


class Killed(BaseException):
    """Stands in for kill -9 part way (a BaseException: no handler of ours catches it)."""


@pytest.mark.parametrize("stop_in", ["_save_entry", "_delete", "clear_caches"])
def test_an_interrupted_purge_finishes_when_run_again(leaky: Path, invoke: Invoke, monkeypatch: pytest.MonkeyPatch,
                                                      stop_in: str) -> None:
    import cardindex.lifecycle.prune as jp

    cards = secret_cards(leaky)
    ok(invoke("rm", *cards))
    real = getattr(jp, stop_in)
    calls = []

    def dies(*args: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) == 2 or stop_in != "_save_entry":
            raise Killed
        real(*args, **kwargs)

    monkeypatch.setattr(jp, stop_in, dies)
    with pytest.raises(Killed):
        jp.purge(Vault(leaky), cards[0])
    monkeypatch.setattr(jp, stop_in, real)
    packs_are_consistent(leaky)  # part way, every job still finds its pack
    ok(invoke("journal", "purge", *cards))
    assert holding(leaky / ".cardindex", SECRET) == []
    packs_are_consistent(leaky)


def test_purge_names_another_card_that_still_holds_the_secret(leaky: Path, invoke: Invoke) -> None:
    result = ok(invoke("rm", "staging-login-copy", "--purge"))
    assert ("note: archive/staging-login.md still hold(s) a secret of staging-login-copy: remove it too "
            "(`cards rm ID --purge`), or edit it out\n") in result.stderr
    assert SECRET not in result.stderr
    done = ok(invoke("rm", "archive/staging-login", "--purge"))
    assert "still hold" not in done.stderr
    assert holding(leaky, SECRET) == []
