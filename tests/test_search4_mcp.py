"""The MCP `search` and `context` tools rank and abstain as `cards search` does (issue 15).

An agent asks in a full sentence; the card shares only stems or a concept with it. The
MCP tool must give the hits, the order and the `weak` mark of the CLI, and `context`
with the same question must put the same card first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from search_helpers import Invoke, hits, put

pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="MCP SDK")

QUESTIONS = [
    "when do the kennel runs get disinfected?",  # stems only: "disinfected" / "disinfecting"
    "who looks after the x-rays?",  # a concept said another way: the maintainer
    "how often is more dog food needed?",  # "how often" and "interval"
    "what is the capital of Peru?",  # nothing the clinic knows: weak or nothing
]


def clinic(vault: Path) -> None:
    put(vault, "kennels.md", "Disinfecting the kennel runs", "The runs are disinfected after closing, every evening.")
    put(vault, "xray.md", "Maintainer of the x-ray machine", "Dr Osei books its yearly calibration.")
    put(vault, "xray-safety.md", "X-ray room safety", "Lead aprons hang behind the door.")
    put(vault, "food.md", "Reorder interval for the dog food", "A pallet every three weeks, from the Leith depot.")
    put(vault, "food-brand.md", "Which dog food brand the kennels feed", "The grain-free one; no raw food.")
    put(vault, "cats.md", "Where cats are boarded", "Cats board upstairs, away from the dogs.")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_mcp_tools_rank_and_abstain_as_the_cli(vault: Path, fake_home: Path, invoke: Invoke,
                                                         anyio_backend: str) -> None:
    pytest.importorskip("mcp")
    from test_mcp import data, serve, text

    clinic(vault)
    expected = {q: hits(invoke, q) for q in QUESTIONS}
    assert expected[QUESTIONS[0]][0]["id"] == "kennels" and not expected[QUESTIONS[0]][0]["weak"]
    assert expected[QUESTIONS[1]][0]["id"] == "xray" and not expected[QUESTIONS[1]][0]["weak"]
    assert expected[QUESTIONS[2]][0]["id"] == "food" and not expected[QUESTIONS[2]][0]["weak"]
    assert expected[QUESTIONS[3]] == [] or expected[QUESTIONS[3]][0]["weak"]
    async with serve(vault, fake_home) as session:
        for q in QUESTIONS:
            found = data(await session.call_tool("search", {"query": q}))
            got = [(h["id"], h["weak"]) for h in found["hits"]]
            assert got == [(h["id"], h["weak"]) for h in expected[q]], q
        ctx = text(await session.call_tool("context", {"query": QUESTIONS[1], "budget": 400}))
    first = next(line for line in ctx.splitlines() if line.startswith("- "))
    assert "xray.md" in first and "safety" not in first
