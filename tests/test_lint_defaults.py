"""Defaults a careful user keeps on (issue 14): severity, selection, exit codes, the summary line,
F007 (several facts in one card) and I103 (a description too long for its index line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.lint.registry import DEFAULT, RULES, selected

NO_REPO = "repo: false\n"


def make_vault(root: Path, cards: dict[str, str], config: str = NO_REPO) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text(config, encoding="utf-8")
    for rel, text in cards.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def lint(run_cli: Callable[..., Result], root: Path, *args: str, env: dict[str, str | None] | None = None) -> Result:
    return run_cli("--vault", str(root), "lint", *args, env=env)


def found(run_cli: Callable[..., Result], root: Path, *args: str) -> list[tuple[str, str, str]]:
    result = lint(run_cli, root, "--format", "json", *args)
    assert result.exit_code in (0, 1), result.stderr
    return [(f["path"], f["code"], f["severity"]) for f in json.loads(result.stdout)]


LONG = ("Which of the three greenhouse benches gets the seedlings first each spring, who waters them on weekends, "
        "and why the north bench is kept for cuttings only")
assert len(LONG) > 150


# --------------------------------------------------------------------------- the registry


HEURISTIC_WARNINGS = {"T105", "T106", "T107", "T108", "T109"}  # a path of another project, a "fixed" that is history, dated evidence: a person confirms


def test_every_rule_has_a_default_and_content_rules_are_errors():
    content = {"derivable", "session", "duplicate", "contradiction", "stale", "secret"}
    for code, rule in RULES.items():
        assert rule.level in ("error", "warning", "off"), code
        if rule.category in content and code not in HEURISTIC_WARNINGS:
            assert rule.level == "error", code
    breaking = {"F001", "F002", "F003", "F004", "F005", "F010", "F011", "F012"}
    assert {c for c in breaking if RULES[c].level == "error"} == breaking
    assert {c for c, r in RULES.items() if r.level == "off"} == {"F007", "F008", "I103"}
    assert {c for c, r in RULES.items() if r.level == "warning"} == {"F006", "F009", "F013", "I102", "I104", *HEURISTIC_WARNINGS}
    assert {r.code for r in selected()} == DEFAULT


def test_command_line_select_replaces_the_config_extend_select():
    config: dict[str, object] = {"extend_select": ["F008"]}
    assert "F008" in {r.code for r in selected(config=config)}
    assert [r.code for r in selected(select=["S101"], config=config)] == ["S101"]
    assert {r.code for r in selected(extend_select=["I103"])} == DEFAULT | {"I103"}


# --------------------------------------------------------------------------- severity and exit codes


def test_style_findings_are_off_by_default_and_fail_when_selected(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {"benches.md": make_card(LONG, body="North bench: cuttings only.")})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    result = lint(run_cli, root)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "All checks passed! 1 card checked.\n")
    assert found(run_cli, root, "--select", "F008") == [("benches.md", "F008", "error")]
    result = lint(run_cli, root, "--extend-select", "F008,I103")
    assert result.exit_code == 1
    assert [line.split(": ", 1)[1][:4] for line in result.stdout.splitlines()] == ["F008", "I103"]
    assert result.stderr == "Found 2 errors.\n"
    (root / ".cardindex.yaml").write_text(NO_REPO + "lint:\n  extend_select: [F008]\n", encoding="utf-8")
    assert found(run_cli, root) == [("benches.md", "F008", "error")]


def test_warnings_are_shown_and_never_fail(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {
        "kiln.md": make_card("Firing schedule of the pottery kiln", body="Bisque on Tuesdays; see [[glaze-recipes]]."),
        "clay.md": make_card("Which clay body the studio buys", body="Stoneware from the local supplier."),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    result = lint(run_cli, root)
    assert result.exit_code == 0
    assert result.stdout == f"{os.path.relpath(root / 'kiln.md')}:5: F009 [[glaze-recipes]] links to no card\n"
    assert result.stderr == "No errors, 1 warning; 2 cards checked.\n"
    assert found(run_cli, root) == [("kiln.md", "F009", "warning")]
    sarif = json.loads(lint(run_cli, root, "--format", "sarif").stdout)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["warning"]
    github = lint(run_cli, root, "--format", "github")
    assert (github.exit_code, github.stdout.startswith("::warning "), github.stderr) == (0, True, "")


def test_an_error_beside_a_warning_fails_and_the_summary_counts_both(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {
        "kiln.md": make_card("Firing schedule of the pottery kiln", body="Bisque on Tuesdays; see [[glaze-recipes]]."),
        "wip.md": make_card("Glaze test tiles", body="Currently halfway through glazing the test tiles; next step is the kiln."),
    })
    assert run_cli("--vault", str(root), "index").exit_code == 0
    result = lint(run_cli, root)
    assert result.exit_code == 1
    assert result.stderr == "Found 1 error (1 warning).\n"
    assert lint(run_cli, root, "--exit-zero").exit_code == 0
    assert lint(run_cli, root, "--format", "json").stderr == ""  # the summary is text only


def test_a_hand_kept_index_warns_without_failing(tmp_path, make_card, run_cli):
    root = make_vault(tmp_path / "vault", {"clay.md": make_card("Which clay body the studio buys", body="Stoneware.")})
    (root / "INDEX.md").write_text("# Studio\n\n- [Which clay body the studio buys](clay.md)\n"
                                   "- Kiln room key hangs by the sink\n", encoding="utf-8")
    result = lint(run_cli, root)
    assert (result.exit_code, result.stderr) == (0, "No errors, 1 warning; 1 card checked.\n")
    assert "I104" in result.stdout


def cards_process(*args: str, cwd: Path, home: Path, pre_commit: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PYTHONPATH", "PRE_COMMIT")}
    env.update(HOME=str(home), CARDS_TODAY="2026-11-30")
    if pre_commit:
        env["PRE_COMMIT"] = "1"
    return subprocess.run([sys.executable, "-m", "cardindex", *args], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_pre_commit_run_passes_on_warnings_and_style(tmp_path, make_card, run_cli, fake_home):
    # what the cards-lint hook runs: the staged files as arguments, under PRE_COMMIT=1
    root = make_vault(tmp_path / "memory", {
        "benches.md": make_card(LONG, body="North bench: cuttings only."),
        "kiln.md": make_card("Firing schedule of the pottery kiln", body="Bisque on Tuesdays; see [[glaze-recipes]]."),
        "three.md": make_card("Greenhouse chores", body=(
            "Water the seedlings at dawn.\n\n**Why:** midday water scorches leaves.\n\n"
            "Shade cloth goes up in June.\n\n**Why:** the glass panes overheat the benches.\n")),
    })
    done = cards_process("lint", "memory/benches.md", "memory/kiln.md", "memory/three.md", cwd=tmp_path,
                         home=fake_home, pre_commit=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "memory/kiln.md:5: F009 [[glaze-recipes]] links to no card\n"
    assert done.stderr == "No errors, 1 warning; 3 cards checked.\n"
    (root / "wip.md").write_text(make_card("Seed order", body="Today I am ordering the tomato seeds."), encoding="utf-8")
    done = cards_process("lint", "memory/wip.md", cwd=tmp_path, home=fake_home, pre_commit=True)
    assert done.returncode == 1
    assert done.stderr.startswith("Found ") and " error" in done.stderr


def test_the_add_gate_never_refuses_for_an_opt_in_style_rule(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", {}, NO_REPO + "lint:\n  extend_select: [F007, F008, I103]\n")
    result = run_cli("--vault", str(root), "add", "North bench: cuttings only.", "--description", LONG)
    assert result.exit_code == 0, result.stderr


# --------------------------------------------------------------------------- F007


POSITIVES = {
    # two rules, each with its own reason
    "two-reasons.md": ("Lab bench rules", "Label every reagent bottle with the date it was opened.\n\n"
                       "**Why:** peroxide formers go bad within months.\n\n"
                       "Keep the fume hood sash below the yellow arrow.\n\n"
                       "**Why:** above it the airflow no longer protects the face.\n"),
    # two ways to apply: two facts
    "two-applies.md": ("Podcast editing habits", "Cut breaths longer than a second.\n\n"
                       "**How to apply:** use the strip-silence pass before the music bed.\n\n"
                       "Guests approve their own quotes before publishing.\n\n"
                       "**How to apply:** send the transcript excerpt by mail two days ahead.\n"),
    # a fact, then a list of unrelated facts
    "grab-bag.md": ("Sourdough starter feeding", "Feed the starter at a one-to-one ratio every morning.\n\n"
                    "Also worth knowing:\n\n"
                    "- The delivery van for flour arrives on Thursday afternoons.\n"
                    "- Oven thermostats were calibrated by the service company in March.\n"
                    "- Staff lockers need a padlock brought from home.\n"
                    "- The espresso machine descaling happens every fortnight.\n"),
}
NEGATIVES = {
    # one rule, its reason, and the steps of applying it (the steps share few words)
    "steps.md": ("Cold chain for vaccine deliveries", "Vaccine boxes stay between two and eight degrees.\n\n"
                 "**Why:** a single warm hour spoils the batch.\n\n**How to apply:**\n\n"
                 "- Check the logger display when the courier hands the box over.\n"
                 "- Move the vials into the pharmacy fridge within ten minutes.\n"
                 "- Photograph the temperature trace and attach it to the delivery note.\n"
                 "- Refuse any parcel whose indicator strip has turned red.\n"),
    # a rule followed by its examples
    "examples.md": ("Headline capitalization for the newsletter", "Headlines use sentence case.\n\n"
                    "Examples:\n\n"
                    "- Volunteers repaint the harbour railings this weekend\n"
                    "- Library extends opening hours during exam season\n"
                    "- Ferry timetable shifts when winter arrives early\n"
                    "- Choir concert raises funds for a new piano\n"),
    # a list of the items of one fact, introduced by its lead
    "items.md": ("Regions where the courier delivers", "The courier delivers to these regions of the island:\n\n"
                 "- The northern coast villages get deliveries on Mondays.\n"
                 "- Hill farms above the reservoir need a phone call first.\n"
                 "- Harbour businesses receive parcels before nine.\n"
                 "- Campsites are served only between May and September.\n"),
    # a numbered procedure: the steps of one thing, however different their words
    "numbered.md": ("Closing the darkroom at night", "The last person out closes the darkroom.\n\n"
                    "1. Pour the fixer back into its labelled bottle.\n"
                    "2. Switch off the enlarger timers at the wall socket.\n"
                    "3. Hang damp prints on the drying line by the window.\n"
                    "4. Lock the door and return the key to reception.\n"),
    # a table
    "table.md": ("Tide heights that close the slipway", "| tide | slipway |\n| --- | --- |\n| above 4.2 m | closed |\n"
                 "| 3.5-4.2 m | trailers only |\n| below 3.5 m | open |\n"),
    # a reference card with many sections about one thing, and one reason
    "sections.md": ("How the community fridge is run", "## Stocking\n\nDonations go on the top shelf.\n\n"
                    "## Cleaning\n\nWiped every evening by the closing volunteer.\n\n## Labels\n\n"
                    "Every item carries the date it was donated.\n\n## Rules\n\nNo raw meat or fish.\n\n"
                    "**Why:** nobody can check how it was kept.\n"),
    # one fact in Korean with four bullets: the word-overlap sign is English-only
    "korean.md": ("정원 물주기 규칙", "아침에만 물을 준다.\n\n- 오후에는 잎이 타기 쉽다 정말 그렇다 항상\n"
                  "- 주말에는 자원봉사자가 물을 준다 반드시 기록한다\n- 빗물 통은 금요일마다 비운다 그리고 씻는다\n"
                  "- 새 모종은 그늘 선반에 둔다 두 주 동안 계속\n"),
}


def test_f007_flags_several_facts_and_keeps_one_fact_with_its_parts_clean(tmp_path, make_card, run_cli):
    cards = {path: make_card(desc, body=body) for path, (desc, body) in {**POSITIVES, **NEGATIVES}.items()}
    root = make_vault(tmp_path / "vault", cards)
    flagged = {path for path, code, _ in found(run_cli, root, "--select", "F007")}
    assert flagged == set(POSITIVES)
    assert all(code != "F007" for _, code, _ in found(run_cli, root))  # off by default


# --------------------------------------------------------------------------- I103


def test_i103_judges_the_description_not_the_file_name(tmp_path, make_card, run_cli):
    short = "Which weekday the allotment committee meets"
    wordy = ("Which weekday the allotment committee meets, where the minutes are kept, who brings the key to the "
             "tool shed, and who locks the gate each night")
    assert 136 < len(wordy) < 150  # "- [](wordy.md)" leaves 136 for the description as link text
    cards = {
        # a long file name and title make a long line, but the description is short: not reported
        "committees/allotment-association-monthly-meeting-weekday-and-venue.md":
            make_card(short, name="Allotment association monthly meeting weekday and venue", body="Second Tuesday."),
        "wordy.md": make_card(wordy, body="Second Tuesday, in the library."),
    }
    root = make_vault(tmp_path / "vault", cards)
    assert run_cli("--vault", str(root), "index").exit_code == 0
    lines = (root / "INDEX.md").read_text(encoding="utf-8").splitlines()
    assert max(len(line) for line in lines) > 150
    assert found(run_cli, root) == []
    assert found(run_cli, root, "--extend-select", "I103") == [("wordy.md", "I103", "error")]


def test_i103_never_reports_cards_the_budget_leaves_out(tmp_path, make_card, run_cli):
    wordy = ("Who keeps the key to the shed at plot {n}, when it is handed over, and what happens when it is lost "
             "for good by a tenant who moves away in the winter")
    cards = {f"plot{n}.md": make_card(wordy.format(n=n), body=f"Plot {n}.", created=f"2026-0{n}-01") for n in range(1, 6)}
    root = make_vault(tmp_path / "vault", cards, NO_REPO + "index_budget:\n  lines: 8\n")
    assert run_cli("--vault", str(root), "index").exit_code == 0
    index = (root / "INDEX.md").read_text(encoding="utf-8")
    shown = {p for p in cards if f"({p})" in index}
    assert len(shown) == 2  # the newest two; three are left out by the budget
    reported = {path for path, code, _ in found(run_cli, root, "--select", "I103")}
    assert reported == shown


def test_summary_of_an_empty_vault(tmp_path, run_cli):
    root = make_vault(tmp_path / "vault", {})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    result = lint(run_cli, root)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "All checks passed! 0 cards checked.\n")
