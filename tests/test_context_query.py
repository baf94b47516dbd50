"""`cards context --query TEXT` and the MCP `search`/`context` tools with a question (issue 15)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from click.testing import Result
from test_search_engine import put

Invoke = Callable[..., Result]


def garden(vault: Path) -> None:
    put(vault, "frost.md", "What protects seedlings from frost", "Fleece covers go on the seedlings below 2 C.")
    put(vault, "bees.md", "When the hives are inspected", "Hives are inspected every Saturday morning.")
    put(vault, "tools.md", "Where the hand tools are kept", "Hand tools hang in the blue shed.")
    put(vault, "rule.md", "Never spray during flowering", "No pesticide spraying while fruit trees flower.",
        type="feedback", lock="true")
    put(vault, "pay.md", "When payouts are sent", "Payouts are sent by the finance job at 06:00 UTC.")
    put(vault, "water-a.md", "How often the orchard is watered", "The orchard is watered twice a week.",
        key="orchard-water", status="conflict", conflicts_with="water-b")
    put(vault, "water-b.md", "How often the orchard is watered", "The orchard is watered every day in July.",
        key="orchard-water", status="conflict", conflicts_with="water-a")
    put(vault, "old.md", "Where the hand tools were kept", "Hand tools were in the barn.", status="superseded")


def entries(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_context_query_puts_the_task_first_within_the_budget(invoke: Invoke, vault: Path) -> None:
    garden(vault)
    plain = invoke("context").stdout
    assert entries(plain)[0].startswith("- Never spray")  # locked first without a query
    ranked = invoke("context", "--query", "where do the hand tools go", "--budget", "400")
    assert ranked.exit_code == 0, ranked.stderr
    assert ranked.stdout.splitlines()[0].endswith("ranked for: where do the hand tools go)")
    assert entries(ranked.stdout)[0] == "- Where the hand tools are kept (project: tools.md)"
    assert "barn" not in ranked.stdout  # superseded: never in context
    assert len(ranked.stdout) <= 400 and "left out to fit 400 characters" in ranked.stdout
    frost = invoke("context", "--query", "protecting seedlings against frosts").stdout
    assert entries(frost)[0].startswith("- What protects seedlings")
    assert "Never spray" in frost  # the rest still follows while the budget lasts


def test_context_query_marks_a_conflict_with_both_sides(invoke: Invoke, vault: Path) -> None:
    garden(vault)
    out = invoke("context", "--query", "watering the orchard").stdout
    first = out.split("\n- ")[1]
    assert first.startswith("CONFLICT, verify before acting (2 sides)")
    assert "twice a week" in first and "every day in July" in first


def test_context_query_json_and_an_off_topic_task(invoke: Invoke, vault: Path) -> None:
    garden(vault)
    data = json.loads(invoke("context", "--query", "hive inspection day", "--format", "json").stdout)
    assert data["items"][0]["cards"][0]["id"] == "bees"
    off = invoke("context", "--query", "kubernetes ingress controller")
    assert off.exit_code == 0 and entries(off.stdout)[0].startswith("- Never spray")  # the usual order


pytestmark_mcp = pytest.mark.skipif(sys.version_info < (3, 10), reason="MCP SDK")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_mcp_finds_a_card_by_a_question_sharing_only_stems(vault: Path, fake_home: Path,
                                                                 anyio_backend: str) -> None:
    pytest.importorskip("mcp")
    from test_mcp import data, serve, text

    garden(vault)
    async with serve(vault, fake_home) as session:
        found = data(await session.call_tool("search", {"query": "payout sending time"}))
        assert found["hits"][0]["id"] == "pay" and found["hits"][0]["weak"] is False
        history = data(await session.call_tool("search", {"query": "hand tools barn", "archived": True}))
        assert {h["id"]: h["status"] for h in history["hits"]}["old"] == "superseded"
        ctx = text(await session.call_tool("context", {"query": "payout sending time", "budget": 600}))
        assert entries(ctx)[0] == "- When payouts are sent (project: pay.md)"
    with anyio.fail_after(1):
        pass
