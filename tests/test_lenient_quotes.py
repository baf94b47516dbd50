"""A description that opens with a quoted phrase and goes on is read as text, as Claude Code reads it (F006, a warning).

Found on a real vault: `description: "안 나옴/안 보임" 같은 …` was an unreadable card (F003) although
Claude Code itself wrote and reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.store.card import Card


@pytest.mark.parametrize("value, expected", [
    ('"No result" is a result too: check the probe first', '"No result" is a result too: check the probe first'),
    ("'It works' on one machine is not a test", "'It works' on one machine is not a test"),
    ('"안 나옴" 같은 관측은 계측기부터 확인한다', '"안 나옴" 같은 관측은 계측기부터 확인한다'),
])
def test_a_quoted_phrase_then_more_text_is_the_description(value: str, expected: str) -> None:
    card = Card.from_text("a.md", f"---\ndescription: {value}\ntype: feedback\n---\nBody.\n")
    assert card.usable and card.description == expected
    assert [(p.severity, p.kind) for p in card.problems] == [("warning", "lenient")]


@pytest.mark.parametrize("value, expected", [('"Quoted whole"', "Quoted whole"), ('"Quoted" # a comment', "Quoted"),
                                             ("'It''s quoted'", "It's quoted")])
def test_proper_yaml_quoting_is_unchanged(value: str, expected: str) -> None:
    card = Card.from_text("a.md", f"---\ndescription: {value}\ntype: feedback\n---\nBody.\n")
    assert card.description == expected and card.problems == ()


def test_through_lint(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / "probe.md").write_text('---\ndescription: "Nothing found" means check the probe first\ntype: feedback\n'
                                    "---\nBefore reporting an absence, show the search could have found it.\n",
                                    encoding="utf-8")
    done = invoke("lint", "--select", "F003,F006")
    assert done.exit_code == 0 and "F006" in done.stdout and "F003" not in done.stdout
