"""The union merge (`meaning.union`): two cards of one fact become one that loses nothing.

Through the real CLI: lint says what consolidate will do, consolidate merges so that the
live card says every step and reason either card had, `cards undo` restores every file
byte for byte, and a union too long for one card is left to the user (lint and
consolidate say so alike). Also the slot model's numbered subjects ("tree 17" / "tree 51").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.meaning.union import MAX_ADDED, SECTION, blocks, union
from cardindex.meaning.similarity import find_pairs
from cardindex.meaning.slots import named, named_apart
from cardindex.store.card import Card

Invoke = Callable[..., Result]

KETTLE = """---
name: Descale the office kettle weekly
description: The office kettle gets descaled every Friday afternoon
type: feedback
---
Descale the office kettle every Friday afternoon, after the last tea round.

**Why:** The water here is hard, and a furred element tripped the kitchen breaker twice last winter.

**How to apply:**
1. Fill the kettle halfway with one part vinegar to three parts water
2. Boil it, then leave it to stand for twenty minutes
3. Rinse it out twice with clean water before anyone uses it again
"""

KETTLE_AGAIN = """---
name: Weekly kettle descaling
description: Every Friday afternoon the office kettle is descaled
type: feedback
---
On Friday afternoons, once the last tea round is over, the office kettle is descaled.

**Why:** Our hard water furs the element, and that has already tripped the kitchen breaker twice.

**How to apply:**
- Use one part vinegar to three parts water, filling the kettle halfway
- Boil, and let it stand for twenty minutes
- Rinse twice with clean water before the next use
- Write the date on the sticker under the kettle so the next person knows it was done
"""

STICKER = "Write the date on the sticker under the kettle"


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".cardindex" not in p.relative_to(root).parts}


def _cards(root: Path) -> list[Card]:
    return [Card.from_text(p.name, p.read_text(encoding="utf-8")) for p in sorted(root.glob("*.md"))
            if p.name != "INDEX.md"]


def _write(vault: Path, **texts: str) -> None:
    for name, text in texts.items():
        (vault / f"{name}.md").write_text(text, encoding="utf-8")


def test_two_copies_that_each_say_more_merge_into_one_that_says_everything(invoke: Invoke, vault: Path) -> None:
    _write(vault, kettle=KETTLE, **{"kettle-again": KETTLE_AGAIN})
    lint = invoke("lint", "--format", "json")
    found = [f for f in json.loads(lint.stdout) if f["code"] == "U101"]
    assert found, lint.stdout
    assert all("consolidate merges them into one card" in f["message"] for f in found), found
    planned = json.loads(invoke("consolidate", "--dry-run", "--all", "--format", "json").stdout)["decisions"]
    assert [d["action"] for d in planned] == ["merge"], planned
    canonical = planned[0]["card"]
    assert invoke("index").exit_code == 0
    before = {p: (vault / p).read_bytes() for p in _tree(vault)}
    done = invoke("consolidate", "--all")
    assert done.exit_code == 0, done.output
    live = _cards(vault)
    assert [c.id for c in live] == [canonical]
    text = live[0].body
    # Every step, the reason and the extra step of either card are in the one live card.
    for said in ("twenty minutes", "kitchen breaker", STICKER, "vinegar"):
        assert said in text, text
    other = "kettle" if canonical == "kettle-again" else "kettle-again"
    assert live[0].meta["merged_from"] == other
    archived = [p for p in (vault / ".archive").rglob(f"{other}.md")] if (vault / ".archive").exists() else []
    assert archived or any(p.name == f"{other}.md" for p in vault.rglob("*.md") if p.parent != vault)
    # The canonical card's own text comes first, as it was.
    own = Card.from_text("x.md", KETTLE if canonical == "kettle" else KETTLE_AGAIN).body
    assert text.startswith(own.rstrip("\n"))
    if canonical == "kettle":
        assert f"{SECTION}kettle-again" in text
    undo = invoke("undo")
    assert undo.exit_code == 0, undo.output
    after = {p: (vault / p).read_bytes() for p in _tree(vault)}
    assert after == before  # byte for byte, every file (INDEX.md too), and nothing else left over


def test_undo_of_a_union_merge_restores_both_cards_through_the_journal(invoke: Invoke, vault: Path) -> None:
    _write(vault, kettle=KETTLE, **{"kettle-again": KETTLE_AGAIN})
    assert invoke("consolidate", "--all").exit_code == 0
    journal = invoke("journal", "--format", "json")
    assert journal.exit_code == 0 and "merge" in journal.stdout, journal.stdout
    assert invoke("undo").exit_code == 0
    assert (vault / "kettle.md").read_text(encoding="utf-8") == KETTLE
    assert (vault / "kettle-again.md").read_text(encoding="utf-8") == KETTLE_AGAIN


def _long(name: str, topic: str, n: int) -> str:
    rows = "\n".join(f"- {topic} note {i}: the {word} step keeps its own detail about item {i} and {word} handling"
                     for i, word in zip(range(n), ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
                                                   "theta", "iota", "kappa", "lambda", "mu"] * 9, strict=False))
    return f"---\nname: {name}\ndescription: Research notes on {topic}\ntype: reference\n---\n# {topic}\n\n{rows}\n"


def test_a_union_past_the_limit_is_no_merge_and_both_say_so() -> None:
    base = Card.from_text("a.md", _long("A", "kiln glazes", 8))
    glazes = ["celadon", "tenmoku", "shino", "ash", "salt", "raku", "crawl", "crackle", "matte", "satin", "copper",
              "chrome", "rutile", "iron", "cobalt", "manganese", "nickel", "tin", "zinc", "barium"]
    other = Card.from_text("b.md", _long("B", "kiln glazes", 8) + "\n".join(
        f"- The {g} glaze wants cone {i + 4}, a {g}-specific slow cool and its own shelf near the {glazes[i - 1]} pots"
        for i, g in enumerate(glazes)) + "\n")
    joined = union(base, [other])
    assert joined.body is None and joined.refused and str(MAX_ADDED) in joined.refused


def test_blocks_keep_items_with_their_code_and_tables_whole() -> None:
    body = "Lead in:\n\n1. Step one\n   ```\n   make it\n   ```\n2. Step two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n## Later\ntext\n"
    kinds = [b.kind for b in blocks(body)]
    assert kinds == ["paragraph", "item", "item", "table", "heading", "paragraph"]
    assert "make it" in blocks(body)[1].text


def test_what_the_canonical_says_already_is_not_added_twice() -> None:
    a = Card.from_text("a.md", KETTLE)
    b = Card.from_text("b.md", KETTLE_AGAIN)
    joined = union(a, [b])
    assert joined.body is not None
    added = joined.body.split(SECTION, 1)[1]
    assert STICKER in added and "twenty minutes" not in added and "vinegar" not in added
    assert union(a, [a._replace(path="c.md")]).body is None  # an exact copy adds nothing


def _tree_card(n: int, row: int) -> Card:
    return Card.from_text(f"tree-{n}.md", f"---\ndescription: Which rootstock tree {n} in row {row} grows on\n"
                                          f"type: reference\n---\nTree {n} grows on rootstock M{n % 9 + 1}.\n")


def test_a_number_that_names_which_thing_is_part_of_the_slot() -> None:
    assert named("Which rootstock tree 17 in row 0 grows on") == (("tree", "17"), ("row", "0"))
    assert named("Service interval for pump 3") == (("pump", "3"),)
    assert named("Staging Postgres listens on port 5433") == ()  # a value the description states
    assert named("Upgrade to Python 3.12") == ()
    assert named_apart(_tree_card(17, 0), _tree_card(51, 0))
    assert not named_apart(_tree_card(17, 0), _tree_card(17, 0)._replace(path="copy.md"))
    cards = [_tree_card(n, n % 3) for n in range(30)]
    assert [p for p in find_pairs(cards) if p.kind == "contradiction"] == []


def test_one_numbered_thing_with_two_values_is_still_a_contradiction() -> None:
    a = _tree_card(17, 0)
    b = Card.from_text("tree-17-again.md", "---\ndescription: Which rootstock tree 17 in row 0 grows on\n"
                                          "type: reference\n---\nTree 17 grows on rootstock M26.\n")
    found = find_pairs([a, b])
    assert [p.kind for p in found] == ["contradiction"], found


def test_numbered_subjects_get_no_conflicts_from_consolidate(invoke: Invoke, vault: Path) -> None:
    for n in range(40):
        (vault / f"tree-{n:02}.md").write_text(
            f"---\ndescription: Which rootstock tree {n} in row {n % 7} grows on\ntype: reference\n---\n"
            f"Tree {n} grows on rootstock M{n % 11 + 1} and was grafted in spring.\n", encoding="utf-8")
    planned = json.loads(invoke("consolidate", "--dry-run", "--all", "--format", "json").stdout)["decisions"]
    assert planned == []
    lint = json.loads(invoke("lint", "--format", "json").stdout)
    assert not [f for f in lint if f["code"].startswith(("C10", "U101"))]
