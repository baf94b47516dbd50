"""Reworded duplicates in a team's own vocabulary (issue 14, class 4): the duplicate judgement reads
the one table of team words search reads (`meaning.team_words`), so "ship" says "deploy", "k8s"
says "Kubernetes" and "sign off" says "approve"; a name with its version written as one word
("pg15") says the name and number written apart ("Postgres 15"). None of it makes two values
one: another weekday, another city, another version stays another value. Lint, the write gate
and consolidate agree.

The cards are a small game studio's memory, a domain unlike the corpora's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import restatement, team_words
from cardindex.meaning.similarity import find_pairs, pairs_with, weights
from cardindex.meaning.words import statement, words
from cardindex.store.card import Card

Invoke = Callable[..., Result]

BACKGROUND = [
    ("Where the sprite sheets live", "Sprite sheets are kept in art/sprites as PNG files."),
    ("Who composes the soundtrack", "Mirela composes the soundtrack in Reaper."),
    ("Engine the game is built on", "The game is built on Godot 4."),
    ("Target frame rate on handhelds", "The game must hold 60 fps on handheld consoles."),
    ("Where playtest notes go", "Playtest notes go into the shared playtest spreadsheet."),
    ("Language of the dialogue scripts", "Dialogue scripts are written in Yarn."),
    ("Who runs the Friday playtest", "Jonas runs the Friday playtest with the community testers."),
    ("How save files are versioned", "Save files carry a schema number bumped on every format change."),
]

LAUNCHER = ("ship-a.md", "Weekday the launcher update goes out", "Launcher deploys happen on Mondays, nowhere near the weekend.")
POSTGRES = ("pg-a.md", "Database engine version", "The leaderboard database runs Postgres 15; do not plan for 14.")
CLUSTER = ("k-a.md", "Where the matchmaker is hosted", "The matchmaker runs on the studio's k8s cluster in Frankfurt.")

DUPLICATES = {
    "ship for deploy": [LAUNCHER, ("ship-b.md", "When we release the launcher",
                                   "We ship launcher builds to the store each Monday.")],
    "pg15 for Postgres 15": [POSTGRES, ("pg-b.md", "pg version for the leaderboard",
                                        "pg15 for the leaderboard, in the cloud and on every laptop.")],
    "k8s for Kubernetes": [CLUSTER, ("k-b.md", "Hosting of matchmaking",
                                     "Matchmaking is hosted on Kubernetes, in the Frankfurt cluster.")],
}

OTHER_VALUES = {
    "another weekday": [LAUNCHER, ("ship-c.md", "When we release the launcher",
                                   "We ship launcher builds to the store each Wednesday.")],
    "another version": [POSTGRES, ("pg-c.md", "pg version for the leaderboard",
                                   "pg14 for the leaderboard, in the cloud and on every laptop.")],
    "another city": [CLUSTER, ("k-c.md", "Hosting of matchmaking",
                               "Matchmaking is hosted on Kubernetes, in the Dublin cluster.")],
}


def card(path: str, description: str, body: str) -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n---\n{body}\n")


def background() -> list[Card]:
    return [card(f"bg{i}.md", d, b) for i, (d, b) in enumerate(BACKGROUND)]


def found(cards: list[Card]) -> dict[frozenset[str], tuple[str, str]]:
    paths = {c.path for c in cards}
    return {frozenset((p.a.path, p.b.path)): (p.kind, p.detail) for p in find_pairs([*background(), *cards])
            if {p.a.path, p.b.path} <= paths}


@pytest.mark.parametrize("name", sorted(DUPLICATES))
def test_a_fact_said_in_team_words_is_a_duplicate(name: str) -> None:
    (kind, detail), = found([card(*c) for c in DUPLICATES[name]]).values()
    assert kind == "duplicate" and "other words" in detail


@pytest.mark.parametrize("name", sorted(OTHER_VALUES))
def test_team_words_never_make_two_values_one(name: str) -> None:
    assert "duplicate" not in {kind for kind, _ in found([card(*c) for c in OTHER_VALUES[name]]).values()}


def test_the_other_weekday_and_city_are_contradictions_once_the_words_are_joined() -> None:
    for name in ("another weekday", "another city"):
        (kind, _), = found([card(*c) for c in OTHER_VALUES[name]]).values()
        assert kind == "contradiction", name


def test_the_team_word_is_what_lifts_coverage() -> None:
    cards = [card(*c) for c in DUPLICATES["ship for deploy"]]
    weight = weights([statement(c) for c in [*background(), *cards]])
    a, b = (restatement.content(c) for c in cards)
    assert a is not None and b is not None
    measured, conflict = restatement.measures(a, b, weight)
    assert conflict is None and measured.covered >= restatement.COVERED
    assert ("deploy", "releas ship") in measured.joined or any(x == "deploy" for x, _ in measured.joined)


def test_a_phrase_matches_whole_and_one_word_may_say_several() -> None:
    joined = team_words.joined_words(words("open a pull request first").tokens, words("PRs come first").tokens)
    assert joined == {"pull": "prs", "request": "prs"}  # the plural of an abbreviation is the abbreviation
    # "turn on" loses its stop word in the model of a card: "turn" alone is never "enable"
    assert team_words.joined_words(words("turn the dial").tokens, words("enable the dial").tokens) == {}


def test_a_stem_cut_past_an_inflection_is_no_table_word() -> None:
    assert team_words._one_word("deploys", "deploy") and team_words._one_word("staging", "stage")
    assert not team_words._one_word("authorization", "author")  # "author" is a person in a book vault
    assert not team_words._one_word("production", "product")
    assert ("author",) not in team_words._word_table() and ("deploy",) in team_words._word_table()


def test_a_version_said_apart_from_its_name_is_another_value() -> None:
    assert restatement._versioned("pg15", ("databas", "postgr", "15"), ("leaderboard", "postgr", "15")) == "postgr 15"
    assert restatement._versioned("15", ("postgr", "15"), ("pg15", "laptop")) == "pg15"
    assert restatement._versioned("pg14", ("pg14",), ("postgr", "15", "not", "14")) is None
    assert restatement._versioned("14", ("postgr", "15", "not", "14"), ("pg14",)) is None


def test_the_gate_agrees_with_lint() -> None:
    for cases in (*DUPLICATES.values(), *OTHER_VALUES.values()):
        cards = [card(*c) for c in cases]
        linted = "duplicate" in {kind for kind, _ in found(cards).values()}
        gated = "duplicate" in {p.kind for p in pairs_with(cards[1], [*background(), cards[0]])
                                if cards[0].path in (p.a.path, p.b.path)}
        assert gated == linted == (cases in DUPLICATES.values()), cases


# ---------------------------------------------------------------- through the CLI


def put(root: Path, rel: str, description: str, body: str) -> None:
    (root / rel).write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n", encoding="utf-8")


def test_lint_reports_the_pair_the_gate_refuses_a_copy_and_consolidate_merges(invoke: Invoke, vault: Path) -> None:
    for i, (d, b) in enumerate(BACKGROUND):
        put(vault, f"bg{i}.md", d, b)
    first, second = DUPLICATES["ship for deploy"]
    put(vault, *first)
    refused = invoke("add", second[2], "-d", second[1], "-n", "ship-b")
    assert refused.exit_code == 1 and "U101" in refused.stderr
    assert not (vault / "ship-b.md").exists()
    put(vault, *second)
    out = invoke("lint", "--select", "duplicate", "--format", "json")
    assert {(f["path"], tuple(f["related"])) for f in json.loads(out.stdout)} == {
        ("ship-a.md", ("ship-b.md",)), ("ship-b.md", ("ship-a.md",))}
    planned = invoke("consolidate", "--dry-run", "--format", "json")
    assert planned.exit_code == 0, planned.stderr
    merges = [d for d in json.loads(planned.stdout)["decisions"] if d["action"] == "merge"]
    assert [{m["card"], *m["related"]} for m in merges] == [{"ship-a", "ship-b"}]


def test_lint_keeps_two_versions_apart(invoke: Invoke, vault: Path) -> None:
    for i, (d, b) in enumerate(BACKGROUND):
        put(vault, f"bg{i}.md", d, b)
    for c in OTHER_VALUES["another version"]:
        put(vault, *c)
    out = invoke("lint", "--select", "duplicate", "--format", "json")
    assert json.loads(out.stdout) == []


def test_a_phrase_said_in_fewer_words_is_worth_one_word() -> None:
    """"due date" said by "deadline" is one concept said, not two words: it cannot carry a pair alone."""
    shares = team_words.phrase_shares(words("the due date of a grant report").tokens, words("deadline for a patch").tokens)
    assert shares == {"due": 0.5, "date": 0.5}
    # two one-word phrases of one group ("release", "ship") are two mentions, not one phrase of two words
    assert team_words.phrase_shares(words("we release and ship weekly").tokens, words("deploys").tokens) == {}


def test_a_deadline_of_another_subject_is_no_fact_of_this_one() -> None:
    cards = [card("grant.md", "Default due date of a grant report", "Grant reports are due 30 days after the quarter closes."),
             card("patch.md", "Deadline for a hotfix after a crash report",
                  "Ship a hotfix for every crash report no later than three working days after it came in.")]
    assert found(cards) == {}
