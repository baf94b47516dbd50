"""`cards import` skips the link lines of a hand-kept index behind their marks.

Hand-kept MEMORY.md files decorate the lines that point at cards: `★★`, `⚠`, an emoji
first, the link text in bold. Such a line still only points at a card; importing it
would write the card's hook as a second card.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.agents.importer import split_markdown


@pytest.mark.parametrize("line", [
    "- ★★ [**Ferries close early**](ferry-cutoff.md) — bookings stop 90 minutes before",
    "- ⚠⚠ [Refund rule](ferry-refunds.md): only the desk lead",
    "- ⭐ **[Deck limit](ferry-deck.md)** — 42 cars",
    "- [Plain line](ferry-tides.md) — the tide feed",
])
def test_a_decorated_index_line_is_skipped(line: str) -> None:
    candidates, skipped = split_markdown(f"# Memory\n\n{line}\n", "MEMORY.md")
    assert candidates == []
    assert [s.reason.split(":")[0] for s in skipped] == [f"an index line pointing to {line.split('](')[1].split(')')[0]}"]


@pytest.mark.parametrize("line", [
    "- ⚠ Bookings close 90 minutes before departure; see [the cutoff card](ferry-cutoff.md).",
    "- ★ Use [the tide feed](https://tides.example.org/feed.md) for the timetable",
])
def test_a_fact_with_a_link_in_it_is_still_a_candidate(line: str) -> None:
    candidates, _ = split_markdown(f"# Memory\n\n{line}\n", "MEMORY.md")
    assert [c.text for c in candidates] == [line[2:]]


def test_import_through_the_cli_skips_them(tmp_path: Path, invoke: Callable[..., Result]) -> None:
    source = tmp_path / "OLD.md"
    source.write_text("# Memory\n\n- ★★ [**Ferries close early**](ferry-cutoff.md) — bookings stop at T-90\n"
                      "- Pets travel in the kennel room on the night ferry, never in cabins.\n", encoding="utf-8")
    result = invoke("import", str(source))
    assert "skip an index line pointing to ferry-cutoff.md" in result.stdout
    assert result.stdout.count("accept ") == 1
