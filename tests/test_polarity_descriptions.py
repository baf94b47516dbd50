"""A denial stated in the description, with a body that only gives background, still stands.

Many cards state their rule in the one-line description and keep the body for where it
came from ("Agreed at the March review; owners were consulted"). A negation on one side
only is a contradiction when it denies the predicate the other side affirms; when that
denial is in the descriptions, the bodies (background only) cannot show it, so it is read
where it was found. A helping verb between the negator and the verb ("avoid having to
rebase", "don't need to restart") is not what is denied.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.meaning.polarity import denied_against, polarity

BACKGROUND_A = "Agreed at the March platform review. Owners of the service were consulted and agreed.\n"
BACKGROUND_B = "Raised again in the October retro; the notes are in the team wiki.\n"


def _card(description: str, body: str) -> str:
    return f"---\ndescription: {description}\ntype: feedback\n---\n{body}"


def _pair_codes(invoke: Callable[..., Result]) -> set[str]:
    done = invoke("lint", "--format", "json")
    return {f["code"] for f in json.loads(done.stdout) if f.get("related")}


def test_a_helping_verb_is_not_what_is_denied() -> None:
    assert polarity("Avoid having to rebase on main before a schema change").denied[0][0] == "rebase"
    assert polarity("You don't need to restart the worker after a deploy").denied[0][0] == "restart"
    assert denied_against("Avoid having to rebase on main before a schema change",
                          "Rebase on main every time before a schema change") == ["rebase"]


def test_a_denial_in_the_descriptions_is_a_contradiction(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / "rebase-schema.md").write_text(
        _card("Rebase on main every time before a schema change", BACKGROUND_A), encoding="utf-8")
    (vault / "rebase-schema-2.md").write_text(
        _card("Avoid having to rebase on main before a schema change", BACKGROUND_B), encoding="utf-8")
    assert _pair_codes(invoke) & {"C102", "C103"}


def test_a_ban_said_two_ways_in_the_descriptions_is_no_contradiction(invoke: Callable[..., Result],
                                                                      vault: Path) -> None:
    (vault / "friday-deploys.md").write_text(
        _card("Never deploy the billing service on Fridays", BACKGROUND_A), encoding="utf-8")
    (vault / "friday-freeze.md").write_text(
        _card("Billing service deploys are frozen on Fridays", BACKGROUND_B), encoding="utf-8")
    assert not _pair_codes(invoke) & {"C101", "C102", "C103"}
