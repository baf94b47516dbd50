"""Every group of `meaning.team_words`, as search uses it: the phrase asked beats its equivalents.

For each group, a vault holds one card per phrase, alike but for that phrase. Asking for a
phrase must rank its own card first (or level with a card that says the same words
joined or split, "log in" and "login"), and every other card of the group must still be
found, below it: the table adds meaning, never a better match than the word itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from search_helpers import put

from cardindex.agents import ranking
from cardindex.agents.search import open_index
from cardindex.meaning.team_words import GROUPS
from cardindex.store.vault import Vault


def _joined(phrase: str) -> str:
    """A phrase as one word: "time zone" and "timezone" are said alike."""
    return "".join(phrase.replace("-", " ").split()).casefold()


FILLER = [("kettle.md", "How the office kettle is descaled", "Vinegar, once a month."),
          ("plants.md", "Who waters the plants", "Whoever is in first on Monday.")]


@pytest.mark.parametrize("line", GROUPS)
def test_the_phrase_asked_ranks_its_own_card_first(tmp_path: Path, line: str) -> None:
    phrases = [p.strip() for p in line.split("|")]
    root = tmp_path / "v"
    for name, desc, body in FILLER:
        put(root, name, desc, body)
    for i, phrase in enumerate(phrases):
        put(root, f"c{i}.md", f"Notes on {phrase}", f"The team agreed on {phrase} last spring.")
    index = open_index(Vault(root))
    try:
        for i, phrase in enumerate(phrases):
            scored = ranking.rank(index, ranking.plan(index, phrase))
            found = {s.path: s.raw for s in scored}
            assert f"c{i}.md" in found, (line, phrase)
            own = found[f"c{i}.md"]
            same = {f"c{j}.md" for j, q in enumerate(phrases) if _joined(q) == _joined(phrase)}
            assert all(raw <= own * 1.0001 for path, raw in found.items() if path not in same), (line, phrase, found)
            assert all(f"c{j}.md" in found for j in range(len(phrases))), (line, phrase, found)
            assert not {"kettle.md", "plants.md"} & set(found), (line, phrase)
    finally:
        index.close()
