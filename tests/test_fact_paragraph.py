"""What `cards context`, `cards search` and MCP show of a card's body: one paragraph that reads
as the body does (a heading over its list, list items kept apart), never the items run together."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.agents.facts import MAX_FACT, fact
from cardindex.store.card import Card


def card(body: str) -> Card:
    return Card.from_text("rules.md", "---\ndescription: Build and push rules\ntype: feedback\n---\n" + body)


def test_a_heading_introduces_its_list_and_items_stay_apart() -> None:
    said = fact(card("## Rules\n\n- build debug and release\n- push after every commit\n"))
    assert said == "Rules: build debug and release; push after every commit"


def test_words_that_open_a_list_take_a_colon_and_numbered_items_are_items() -> None:
    assert fact(card("Two rules\n1. build both\n2. push always\n")) == "Two rules: build both; push always"


def test_a_wrapped_sentence_is_joined_with_a_space_and_closing_marks_are_kept() -> None:
    assert fact(card("The runner is\nslow on Mondays.\n\nIt is fine later.\n")) == \
        "The runner is slow on Mondays. It is fine later."
    assert fact(card("Steps:\n- one,\n- two\n")) == "Steps: one, two"
    assert fact(card("**Done:**\n- parser\n")) == "**Done:** parser"  # a mark inside emphasis closes too


def test_paragraphs_without_a_closing_mark_are_kept_apart() -> None:
    assert fact(card("Keep the pin\n\nCI breaks without it\n")) == "Keep the pin; CI breaks without it"


def test_reason_lines_end_the_fact_and_a_long_body_is_cut() -> None:
    assert fact(card("Use pnpm.\n**Why:** the lockfile\n")) == "Use pnpm."
    long = fact(card("- " + "word " * 200 + "\n- tail\n"))
    assert len(long) <= MAX_FACT + 1 and long.endswith("…")


def test_context_shows_a_listed_body_as_separate_items(vault: Path, invoke: Callable[..., Result]) -> None:
    (vault / "rules.md").write_text("---\ndescription: Build and push rules\ntype: feedback\n---\n"
                                    "Workflow\n\n- build debug and release\n- push after every commit\n",
                                    encoding="utf-8")
    out = invoke("context", "--format", "json")
    text = json.dumps(json.loads(out.stdout), ensure_ascii=False)
    assert "Workflow: build debug and release; push after every commit" in text
