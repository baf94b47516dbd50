"""`cards state`: the working memory that replaces itself, within its budget, journalled.

The ten-day scenario is the tier's contract (issue 16): entries logged every day, some
durable, some progress; a rule changed midway; a nightly consolidate and state. The
working memory never exceeds its budget, holds the newest open work and not the work
finished days ago, the logs stay exactly what was appended, and every state written
can be brought back from the journal.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.agents import state
from cardindex.store import daily_log
from cardindex.store.journal import Journal, sha256

T0 = dt.datetime(2026, 11, 20, 9, 0, tzinfo=dt.timezone.utc)


def entry(text: str, minutes: int = 0) -> daily_log.Entry:
    when = T0 + dt.timedelta(minutes=minutes)
    return daily_log.Entry(when, text, Path(f"log/{when.date()}.md"), minutes + 3)


def test_entries_are_done_next_or_open() -> None:
    assert state.kind_of("Finished the invoice export: streaming rows now") == "done"
    assert state.kind_of("[x] rotate the staging certificate") == "done"
    assert state.kind_of("The flaky upload test is fixed") == "done"
    assert state.kind_of("next: wire the CSV toggle to the API") == "next"
    assert state.kind_of("Tomorrow: ask Lena about the rate limits") == "next"
    assert state.kind_of("- [ ] rename the billing queue") == "next"
    assert state.kind_of("Halfway through the export screen; the empty state works") == "open"
    assert state.kind_of("환율 캐시 작업 중, 테스트 두 개 남음") == "open"  # other languages: kept as open work


def test_a_done_entry_closes_the_open_work_it_names_and_only_that() -> None:
    opened, planned = state.recent_notes([
        entry("Working on the CSV export toggle in the settings screen"),
        entry("Paused the auth cleanup after the session store", 5),
        entry("next: the rate limit headers on the public API", 6),
        entry("The CSV export toggle is done and wired to the settings screen", 10),
    ])
    assert [n.entry.text for n in opened] == ["Paused the auth cleanup after the session store"]
    assert [n.entry.text for n in planned] == ["next: the rate limit headers on the public API"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=300).filter(str.strip), max_size=30),
       st.integers(min_value=200, max_value=2000))
def test_the_state_never_exceeds_its_budget(texts: list[str], budget: int) -> None:
    log = [entry(t, i) for i, t in enumerate(texts)]
    built = state.build(log=log, cards=[], ranked=[], changed_since=None, mtimes={}, now=T0 + dt.timedelta(days=1),
                        budget=budget)
    assert len(built.text) <= budget
    assert built.text.startswith(state.TITLE)


def _day(n: int) -> dt.datetime:
    return T0 + dt.timedelta(days=n)


def test_ten_days_of_logs_consolidation_and_state(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = tmp_path / "vault"
    assert run_cli("init", str(vault)).exit_code == 0

    def cards(*args: str, when: dt.datetime) -> Result:
        env = {"CARDS_NOW": when.isoformat(), "CARDS_TODAY": when.date().isoformat()}
        done = run_cli("--vault", str(vault), *args, env=env)
        assert "Traceback" not in done.stderr
        return done

    appended: dict[str, str] = {}
    states: list[bytes] = []
    budget = 600
    (vault / ".cardindex.yaml").write_text(f"state_budget: {budget}\n", encoding="utf-8")
    for n in range(10):
        morning, evening = _day(n) + dt.timedelta(hours=1), _day(n) + dt.timedelta(hours=20)
        notes = [f"Working on feature {n}: the form validates, the save button is next",
                 f"next: write the migration for feature {n}"]
        if n >= 1:
            notes.append(f"Finished feature {n - 1}: the form, the save button and the migration are done")
        if n % 3 == 1:  # now and then a durable decision, which the nightly pass makes a card
            notes.append("Decided: " + {
                1: "the payroll summary is exported as CSV with semicolons, because finance opens it in Excel.",
                4: "staging is reset every Sunday night, so nobody keeps test data there over a weekend.",
                7: "the mobile app supports only the two latest iOS major versions.",
            }[n])
        for i, text in enumerate(notes):
            at = morning + dt.timedelta(minutes=i)
            assert cards("log", "--at", at.isoformat(), text, when=at).exit_code == 0
            name = f"log/{at.date()}.md"
            appended[name] = appended.get(name, f"# Log {at.date()}\n\n") + daily_log.format_entry(text, at)
        if n == 0:
            added = cards("add", "--description", "Which weekday production deploys go out", "--type", "project",
                          "--key", "deploy-day", "Production deploys go out on Tuesdays.", when=morning)
            assert added.exit_code == 0, added.stderr
        if n == 5:  # the rule changes midway: the same key, a newer value
            changed = cards("add", "--description", "Which weekday production deploys go out", "--type", "project",
                            "--key", "deploy-day", "Production deploys go out on Thursdays.", when=morning)
            assert changed.exit_code == 0, changed.stderr
        consolidated = cards("consolidate", "--now", evening.date().isoformat(), when=evening)
        assert consolidated.exit_code == 0, consolidated.stderr
        listed = json.loads(cards("list", "--format", "json", when=evening).stdout)
        decided = sorted(str(c["path"]) for c in listed
                         if "source: log/" in (vault / str(c["path"])).read_text(encoding="utf-8"))
        assert len(decided) == len([d for d in range(n + 1) if d % 3 == 1]), (decided, consolidated.stdout)  # through the gate, once each
        written = cards("state", "--at", evening.isoformat(), when=evening)
        assert written.exit_code == 0, written.stderr
        text = (vault / "CURRENT_STATE.md").read_text(encoding="utf-8")
        states.append(text.encode("utf-8"))
        assert len(text) <= budget
        assert f"Working on feature {n}:" in text  # the newest open work
        assert f"feature {n - 1}: the form validates" not in text  # finished yesterday: gone
        assert "feature 0: the form validates" not in text or n == 0
        if n >= 5:  # the changed rule is what the working memory holds
            assert "Thursdays" in text and "Tuesdays" not in text, text
    for name, expected in appended.items():
        assert (vault / name).read_text(encoding="utf-8") == expected  # logs: exactly what was appended
    journal = Journal(vault / ".cardindex")
    jobs = [j for j in journal.jobs() if j.get("command") == "state"]
    kept = set()
    for job in jobs:
        for action in job["actions"]:
            for change in action["files"]:
                if change.get("after"):
                    kept.add(change["after"])
    assert {sha256(s) for s in states} <= kept | {sha256(states[-1])}
    # each earlier state is a prior version some later job kept: undo brings it back
    for job in jobs[1:]:
        befores = [c["before"] for a in job["actions"] for c in a["files"] if c.get("before")]
        assert all(journal.blob(b, job.get("pack")) for b in befores)
    undone = run_cli("--vault", str(vault), "undo")
    assert undone.exit_code == 0, undone.stderr
    assert (vault / "CURRENT_STATE.md").read_bytes() == states[-2]
    listed = json.loads(run_cli("--vault", str(vault), "list", "--format", "json").stdout)
    assert all(not str(c["path"]).startswith(("log/", "CURRENT_STATE")) for c in listed)


def test_cli_dry_run_budget_secrets_and_up_to_date(invoke: Callable[..., Result], vault: Path) -> None:
    token = "ghp_" + "Q4z" * 12
    (vault / "ci-token.md").write_text(
        f"---\ndescription: The CI token\ntype: reference\n---\nThe token is {token}.\n", encoding="utf-8")
    invoke("add", "--description", "How the user wants replies", "--type", "user", "Short replies, no headings.")
    invoke("log", "Halfway through the export screen", env={"CARDS_NOW": "2026-11-30T10:00:00Z"})
    dry = invoke("state", "--dry-run", "--at", "2026-11-30T12:00:00Z")
    assert dry.exit_code == 0 and "Halfway through the export screen" in dry.stdout
    assert not (vault / "CURRENT_STATE.md").exists()
    assert token not in dry.stdout
    done = invoke("state", "--at", "2026-11-30T12:00:00Z", "--budget", "300", "--format", "json")
    report = json.loads(done.stdout)
    assert report["characters"] <= 300 and report["job"] and report["open"] == 1
    assert "ci-token" not in report["learned"] + report["key"]
    text = (vault / "CURRENT_STATE.md").read_text(encoding="utf-8")
    assert token not in text and "CI token" not in text
    again = invoke("state", "--at", "2026-11-30T12:30:00Z", "--budget", "300")
    assert again.exit_code == 0 and "up to date" in again.stdout
    bad = invoke("state", "--at", "soon")
    assert bad.exit_code == 2 and "--at must be an ISO date" in bad.stderr


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\ncat > /dev/null\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def test_an_llm_command_may_rewrite_it_within_the_budget(invoke: Callable[..., Result], vault: Path,
                                                         tmp_path: Path) -> None:
    invoke("log", "Halfway through the export screen", env={"CARDS_NOW": "2026-11-30T10:00:00Z"})
    good = _script(tmp_path, "good.sh", "printf '## Focus\\n- Finish the export screen.\\n'")
    done = invoke("state", "--at", "2026-11-30T12:00:00Z", "--llm", good)
    assert done.exit_code == 0, done.stderr
    text = (vault / "CURRENT_STATE.md").read_text(encoding="utf-8")
    assert text.startswith(state.TITLE + "\n<!-- `cards state` 2026-11-30T12:00:00Z")
    assert "- Finish the export screen." in text and "Halfway" not in text
    assert state.written_at(text) is not None
    too_long = _script(tmp_path, "long.sh", "head -c 3000 /dev/zero | tr '\\0' x")
    failing = _script(tmp_path, "fail.sh", "echo broken >&2; exit 3")
    for command, why in ((too_long, "over the budget"), (failing, "exit 3")):
        kept = invoke("state", "--at", "2026-11-30T13:00:00Z", "--llm", command)
        assert kept.exit_code == 0 and why in kept.stderr and "kept the deterministic one" in kept.stderr
        assert "Halfway through the export screen" in (vault / "CURRENT_STATE.md").read_text(encoding="utf-8")


def test_an_untrusted_vault_llm_never_writes_it(invoke: Callable[..., Result], vault: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    evil = _script(tmp_path, "evil.sh", f"touch {marker}; printf 'owned\\n'")
    (vault / ".cardindex.yaml").write_text(f"llm: {evil}\n", encoding="utf-8")
    invoke("log", "Halfway through the export screen", env={"CARDS_NOW": "2026-11-30T10:00:00Z"})
    done = invoke("state", "--at", "2026-11-30T12:00:00Z", "--with-llm")
    assert done.exit_code == 0 and not marker.exists()
    assert "not trusted" in done.stderr
    assert "owned" not in (vault / "CURRENT_STATE.md").read_text(encoding="utf-8")


def test_a_state_file_that_is_a_symlink_is_refused(invoke: Callable[..., Result], vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text("not yours\n", encoding="utf-8")
    (vault / "CURRENT_STATE.md").symlink_to(outside)
    done = invoke("state")
    assert done.exit_code == 1 and "is a symlink" in done.stderr
    assert outside.read_text(encoding="utf-8") == "not yours\n" and (vault / "CURRENT_STATE.md").is_symlink()
