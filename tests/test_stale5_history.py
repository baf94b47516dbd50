"""Stale from dated evidence, through `cards lint` in a real git repo: T107, T108, T109.

T107: a card says a work item it is about is still to do, and a commit after the line was
written names the item. T108: a card plans work for a day that has passed. T109: a card
calls an item open that its own body, or a newer card, reports done. Each positive has at
least as many hard negatives: durable cards that must stay clean (a pinned old version with
its reason, a plan whose work is not in the history, a historical note, a dated decision,
a recurring date, device names that look like ids). Today is pinned to 2026-11-30.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result


def card(description: str, body: str, **fields: str) -> str:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n"


class Repo:
    """A git repo with a vault at memory/, whose commits get the dates the test gives."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir()
        self.git("init", "-q")
        (root / "src").mkdir()
        (root / "src" / "oven.py").write_text("TEMP = 180\n", encoding="utf-8")

    def git(self, *args: str, date: str = "2026-01-01T10:00:00") -> str:
        env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_NAME": "t",
               "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
        done = subprocess.run(["git", "-C", str(self.root), *args], env=env, capture_output=True, text=True, check=True)
        return done.stdout

    def cards(self, date: str, **cards: str) -> None:
        for name, text in cards.items():
            path = self.root / "memory" / f"{name}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "memory update", date=date)

    def commit(self, date: str, subject: str) -> str:
        with (self.root / "src" / "oven.py").open("a", encoding="utf-8") as handle:
            handle.write(f"# {subject}\n")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", subject, date=date)
        return self.git("rev-parse", "--short=7", "HEAD").strip()


@pytest.fixture
def repo(tmp_path: Path, run_cli: Callable[..., Result]) -> Repo:
    made = Repo(tmp_path / "bakery")
    assert run_cli("init", str(made.root / "memory")).exit_code == 0
    made.git("add", "-A")
    made.git("commit", "-q", "-m", "start", date="2026-01-01T09:00:00")
    return made


def stale(run_cli: Callable[..., Result], repo: Repo, select: str = "T107,T108,T109") -> dict[str, list[str]]:
    done = run_cli("--vault", str(repo.root / "memory"), "lint", "--select", select, "--format", "json")
    assert done.exit_code in (0, 1), done.stderr
    out: dict[str, list[str]] = {}
    for f in json.loads(done.stdout):
        assert f["severity"] == "warning", f  # dated evidence is for a person to confirm
        out.setdefault(f["path"], []).append(f"{f['code']} {f['message']}")
    return out


# --------------------------------------------------------------------------- T107


def test_a_plan_whose_work_a_later_commit_names(run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-03-02T12:00:00", **{
        "oven-plan": card("Oven controller: BK-12 (proofing timer) is next; BK-11 done", "Plan for the proofing work."),
        "starter-plan": card("Sourdough feeding reminders: BK-14 not started", "Waits on the scale driver."),
    })
    sha = repo.commit("2026-03-10T15:00:00", "feat(bk-12): proofing timer drives the oven relay")
    repo.commit("2026-03-11T15:00:00", "fix(bk-15): the fan runs down after the bake")
    got = stale(run_cli, repo, "T107")
    assert got == {"oven-plan.md": [
        f"T107 says BK12 is still to do ('Oven controller: BK-12 (proofing timer) is next'); commit {sha} of 2026-03-10 "
        "'feat(bk-12): proofing timer drives the oven relay' came after this line was written (2026-03-02)"]}
    # starter-plan: BK-14 is in no commit; the work is not in the history, so the plan still holds


def test_the_card_is_named_for_its_phase_and_its_description_says_what_is_left(
        run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-04-01T08:00:00", **{
        "dl7-delivery-routes": card("Delivery routes phase, DL7: the map view is built; only the driver app remains",
                                   "Routes are planned per postcode."),
    })
    repo.commit("2026-04-03T09:00:00", "feat(dl7): driver app shows the day's stops")
    assert list(stale(run_cli, repo, "T107")) == ["dl7-delivery-routes.md"]


def test_what_must_stay_clean_of_t107(run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-05-01T08:00:00", **{
        # a durable card that names an old version for a reason
        "printer-pin": card("Label printer driver pinned to v2", "Keep driver v2: v3 drops the 58 mm roll we print on."),
        # a historical note that says it is history
        "history": card("How the KX-3 recall went", "History: in March KX-3 was pending review; it shipped in April."),
        # a decision record with a date
        "adr": card("ADR-7: orders are kept for seven years", "Decided 2026-02-01 (ADR-7), for the tax office."),
        # an item mentioned in passing, in the body of a card about something else
        "reviews": card("How code review works here", "While a ticket such as OV-3 is in review, do not merge it."),
        # the commit came before the card said "next": time does not say the card is behind
        "late-note": card("Glaze mixer: GZ-2 is next", "Mixer speeds are set per batch."),
    })
    for subject in ("chore: v3 driver evaluated", "docs(kx-3): recall notes", "docs(adr-7): retention wording",
                    "feat(ov-3): oven door sensor"):
        repo.commit("2026-06-01T10:00:00", subject)
    repo.git("commit", "-q", "--allow-empty", "-m", "feat(gz-2): mixer ramp", date="2026-04-15T10:00:00")
    # a later commit that itself calls the item open is no evidence that it was done
    repo.cards("2026-05-02T08:00:00", **{"proof": card("Proofing cabinet: PC-5 (humidity probe) is next", "Probe is 5 V.")})
    repo.commit("2026-05-20T10:00:00", "docs: refresh notes (PC-4 merged; next PC-5 probe)")
    assert stale(run_cli, repo, "T107") == {}


def test_an_edited_card_dates_each_line_by_blame(run_cli: Callable[..., Result], repo: Repo) -> None:
    """A card edited after the commit keeps its old line's date: the line that says "next" is what is behind."""
    repo.cards("2026-02-01T08:00:00", **{"mill": card("Flour mill phase FM2: calibration is next", "Stones are dressed yearly.")})
    repo.commit("2026-02-10T08:00:00", "feat(fm2): mill calibration routine")
    text = (repo.root / "memory" / "mill.md").read_text(encoding="utf-8")
    repo.cards("2026-03-01T08:00:00", mill=text + "\nThe hopper holds 40 kg.\n")
    assert list(stale(run_cli, repo, "T107")) == ["mill.md"]


# --------------------------------------------------------------------------- T108


def test_a_plan_for_a_day_that_has_passed(run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-05-01T08:00:00", **{
        "stocktake": card("Stock-take of the dry store", "The stock-take is planned for 2026-06-04, after the delivery."),
        "recalibrate": card("Oven recalibration", "Recalibration deferred to June 4 by the owner.", created="2026-05-02"),
    })
    got = stale(run_cli, repo, "T108")
    assert got == {
        "stocktake.md": ["T108 plans 'planned for 2026-06-04' (2026-06-04), a day now past"],
        "recalibrate.md": ["T108 plans 'deferred to June 4' (2026-06-04), a day now past"],
    }


def test_what_must_stay_clean_of_t108(run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-05-01T08:00:00", **{
        "tax": card("When the bakery's tax return is due", "The return is due every April 15; the accountant files it."),
        "history": card("Why the old mixer went", "The swap was scheduled for 2026-01-10 and ran that week."),
        "future": card("Cutover to the new till", "The cutover is planned for 2027-01-05, once stock is counted."),
        "mixed": card("Two dated steps", "Scales ordered, due 2026-06-01; the install is scheduled for 2027-02-01."),
        "decided": card("Why we bake on Sundays", "Planned bake days (decided 2026-02-01 by the owners): Sunday and Wednesday."),
        "put-off": card("What the owner put off", "The menu review was deferred May 21 by the owner."),
        # a card that says when it stops holding is T101's, whatever its text plans
        "freeze": card("No price changes during the audit", "Prices stay until the audit, due on 2026-06-01.",
                       expires="2026-06-01"),
    })
    assert stale(run_cli, repo, "T108") == {}


# --------------------------------------------------------------------------- T109


def test_a_newer_card_reports_the_item_done(run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-04-01T08:00:00", **{
        "audit-april": card("Scale audit, first pass", "QA-31 still open: the scale rounds grams up.", created="2026-04-01"),
    })
    repo.cards("2026-04-20T08:00:00", **{
        "audit-late-april": card("Scale audit, second pass", "QA-31 fixed: the scale rounds half-even.", created="2026-04-20"),
        "release": card("Release R-9: checklist item CHK-4 is next", "Packaging checklist.\n\nCHK-4 done on 2026-04-19."),
    })
    got = stale(run_cli, repo, "T109")
    assert got == {
        "audit-april.md": ["T109 says QA31 is still to do; audit-late-april.md (2026-04-20) says it is done, after this card (2026-04-01)"],
        "release.md": ["T109 says CHK4 is still to do, and line 7 says it is done ('CHK-4 done on 2026-04-19.')"],
    }


def test_what_must_stay_clean_of_t109(run_cli: Callable[..., Result], repo: Repo) -> None:
    repo.cards("2026-04-01T08:00:00", **{
        # device names look like ids: SW1 "open" and SW1 "done" are two things said of a switch
        "switch-old": card("Shop switch ports", "Port 3 on SW1 is open for the till.", created="2026-04-01"),
        "oven-old": card("Oven fault log", "OV-8 still open: the door sensor sticks.", created="2026-04-01"),
        "mixer-old": card("Mixer fault log", "MX-2 pending a new belt.", created="2026-04-01"),
    })
    repo.cards("2026-04-20T08:00:00", **{
        "switch-new": card("Shop switch setup", "SW1 factory reset done; ports set again.", created="2026-04-20"),
        "oven-new": card("Oven fault log, later", "OV-8 still open; the part is on order.", created="2026-04-20"),
        "mixer-same-day": card("Mixer belt", "MX-2 fixed with the new belt.", created="2026-04-01"),
    })
    assert stale(run_cli, repo, "T109") == {}


def test_outside_git_the_rules_that_need_history_are_quiet(run_cli: Callable[..., Result], tmp_path: Path) -> None:
    vault = tmp_path / "loose"
    assert run_cli("init", str(vault)).exit_code == 0
    (vault / "plan.md").write_text(card("Oven plan: BK-12 is next", "Plan."), encoding="utf-8")
    done = run_cli("--vault", str(vault), "lint", "--select", "T107,T109", "--format", "json")
    assert done.exit_code == 0 and json.loads(done.stdout) == []
