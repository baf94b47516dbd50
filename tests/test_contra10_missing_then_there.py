"""Two long cards, one saying a named piece of code is missing and the other that it is
there now (issue 14: a review note that went stale when a later note wired the missing
hooks). A contradiction only when the second statement says it arrived (a change signal
or a word of arrival, no negation of its own) and names every name the first says is
missing; a card that says both, a plain mention, a negated arrival or another name is not."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.meaning.statements import _missing, _there
from cardindex.store.card import Card

REVIEW = """# Sync worker review

Reviewed the sync worker after three weeks of dropped uploads.

- Uploads retry three times with a growing pause between tries.
- {gap}
- The worker logs every failed upload with its file size.
- The queue is kept on disk so a restart loses nothing.
- Large files are split into parts of eight megabytes each.
- The review found no leak in the connection pool.
"""

CHANGES = """# Sync worker changes of the spring release

Work merged on the sync worker branch before the spring release.

- {arrival}
- Upload parts now carry a checksum that the server verifies.
- The settings page shows how many uploads wait in the queue.
- A slow network no longer blocks the user interface thread.
- Old log files are compressed once a week by the cleaner job.
- The installer asks before it replaces an existing settings file.
"""

GAP = "No `on_reconnect` / `on_timeout` hook → a dropped link leaves the queue paused until restart."
ARRIVAL = "`uploader.rs` now calls `on_reconnect` and `on_timeout` from the link watcher."


def card(path: str, description: str, body: str) -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n---\n{body}")


def review(gap: str = GAP) -> Card:
    return card("sync-review.md", "Review of the sync worker and its dropped uploads", REVIEW.format(gap=gap))


def changes(arrival: str = ARRIVAL) -> Card:
    return card("sync-changes.md", "What the spring release changed in the sync worker",
                CHANGES.format(arrival=arrival))


def contradictions(a: Card, b: Card) -> list[str]:
    """The contradiction details between two cards; lint and the write gate must agree."""
    found = [p.detail for p in find_pairs([a, b]) if p.kind == "contradiction"]
    gate = [p.detail for p in pairs_with(b, [a]) if p.kind == "contradiction"]
    assert bool(found) == bool(gate)  # one model
    return found


def test_code_said_missing_in_one_note_and_there_now_in_another_is_a_contradiction() -> None:
    found = contradictions(review(), changes())
    assert len(found) == 1, found
    assert "missing: on_reconnect, on_timeout" in found[0] and "there now" in found[0]
    assert "No `on_reconnect`" in found[0] and "now calls `on_reconnect`" in found[0]  # both statements quoted


def test_a_word_of_arrival_says_it_is_there_too() -> None:
    found = contradictions(review(), changes("The `on_reconnect` and `on_timeout` hooks were added to the link watcher."))
    assert len(found) == 1, found


def test_arrival_of_only_some_of_the_missing_names_is_no_contradiction() -> None:
    assert contradictions(review(), changes("`uploader.rs` now calls `on_reconnect` from the link watcher.")) == []


def test_an_arrival_that_is_negated_or_still_pending_is_no_contradiction() -> None:
    assert contradictions(review(), changes("`on_reconnect` and `on_timeout` are still not wired to the watcher.")) == []
    assert contradictions(review(), changes("Nothing calls `on_reconnect` or `on_timeout` now, as before.")) == []
    assert contradictions(review(), changes("The `on_reconnect` and `on_timeout` hooks were dropped, added back later.")) == []


def test_a_plain_mention_without_a_change_is_no_contradiction() -> None:
    # It names the hooks but does not say they arrived: a description of something else.
    assert contradictions(review(), changes("The link watcher is documented beside `on_reconnect` and `on_timeout`.")) == []


def test_another_name_is_no_contradiction() -> None:
    assert contradictions(review(), changes("`uploader.rs` now calls `on_resume` and `on_timeout` from the watcher.")) == []


def test_a_note_that_says_both_itself_disagrees_with_nothing() -> None:
    update = REVIEW.replace("- The review found no leak", f"- Update: {ARRIVAL}\n- The review found no leak")
    both = card("sync-review.md", "Review of the sync worker and its dropped uploads", update.format(gap=GAP))
    assert contradictions(both, changes()) == []


def test_missing_reads_the_shapes_of_absence() -> None:
    assert _missing(GAP) == {"on_reconnect", "on_timeout"}
    assert _missing("`flushQueue()` is never called by the worker loop.") == {"flushqueue"}
    assert _missing("The scheduler has no retry_budget setting yet.") == {"retry_budget"}
    assert _missing("Call `flushQueue()` before the worker exits.") == set()
    assert _missing("`flushQueue()` empties the queue; do not call it twice.") == set()  # a rule, not an absence


def test_there_wants_an_arrival_and_no_negation() -> None:
    assert _there(ARRIVAL)
    assert _there("The `retry_budget` setting was added to the scheduler.")
    assert not _there("`retry_budget` is read by the scheduler.")
    assert not _there("`retry_budget` was never added to the scheduler.")


def test_lint_reports_it_on_both_cards_and_consolidate_picks_no_side(vault: Path, run_cli: Callable[..., Result]) -> None:
    (vault / "sync-review.md").write_text(review().text, encoding="utf-8")
    (vault / "sync-changes.md").write_text(changes().text, encoding="utf-8")
    done = run_cli("--vault", str(vault), "lint", "--select", "contradiction", "--format", "json")
    assert done.exit_code == 1, done.output
    found = {f["path"]: f for f in json.loads(done.stdout)}
    assert set(found) == {"sync-review.md", "sync-changes.md"}
    assert {f["code"] for f in found.values()} == {"C103"}
    assert found["sync-review.md"]["related"] == ["sync-changes.md"]
    before = {p.name: p.read_bytes() for p in vault.glob("*.md") if p.name != "INDEX.md"}
    plan = run_cli("--vault", str(vault), "consolidate", "--all")
    assert plan.exit_code == 0, plan.output
    # No evidence dates: one stale statement inside a long note never supersedes or archives either card.
    after = {p.name: Card.from_text(p.name, p.read_text(encoding="utf-8")) for p in vault.glob("*.md")
             if p.name != "INDEX.md"}
    assert set(after) == set(before)
    for name, c in after.items():
        assert c.status != "superseded" and c.body == Card.from_text(name, before[name].decode("utf-8")).body


# ---------------------------------------------------------------- a card that gives both values

OVEN_GUIDE = """# Bakery oven guide

- The stone oven in the back room bakes rye loaves at {heat} degrees for the first hour.
- Flour sacks are kept off the floor on the slatted shelf by the door.
- The night baker lights the oven at three so it is hot by five.
- Trays are washed by hand; the dishwasher warps the thin ones.
- The sourdough starter is fed twice a day with equal flour and water.
- Delivery vans leave from the side lane, never from the shop front.
"""

SHIFT_NOTES = """# Morning shift notes

- Open the shutters at six and switch on the display fridge.
- The stone oven in the back room bakes rye loaves at {heat} degrees for the first hour.
- Count the till float before the first customer arrives.
- Fresh rolls go in the left basket, yesterday's in the discount box.
- Wipe the counter glass after the breakfast rush.
- Lock the flour store when the shift ends.
{extra}"""


def oven(heat: str) -> Card:
    return card("oven-guide.md", "How the bakery oven is run", OVEN_GUIDE.format(heat=heat))


def shift(heat: str, extra: str = "") -> Card:
    return card("shift-notes.md", "Notes for the morning shift at the bakery", SHIFT_NOTES.format(heat=heat, extra=extra))


def test_a_card_that_gives_both_numbers_itself_disagrees_with_nothing() -> None:
    assert contradictions(oven("230"), shift("250")) != []  # the pair alone contradicts
    both = "- An older sheet by the door says the stone oven in the back room bakes rye loaves at 230 degrees for the first hour.\n"
    assert contradictions(oven("230"), shift("250", both)) == []


def test_the_write_gate_finds_it_from_either_side() -> None:
    for new, old in ((review(), changes()), (changes(), review())):
        found = [p for p in pairs_with(new, [old]) if p.kind == "contradiction"]
        assert len(found) == 1 and "missing: on_reconnect, on_timeout" in found[0].detail, (new.path, found)


def test_a_name_in_many_long_cards_is_no_identifier_of_one_thing() -> None:
    from cardindex.meaning.statements import RARE_DOCS
    # `on_timeout` alone is said missing; it appears in more long cards than an identifier of one thing does.
    gap = "No `on_timeout` hook → a dropped link leaves the queue paused until restart."
    arrival = "`uploader.rs` now calls `on_timeout` from the link watcher."
    others = [card(f"note-{n}.md", f"Worker note number {n} on a topic", CHANGES.format(
        arrival=f"The `on_timeout` hook is documented in section {n}.")) for n in range(RARE_DOCS + 1)]
    assert [p for p in find_pairs([review(gap), changes(arrival)]) if p.kind == "contradiction"]
    pairs = find_pairs([review(gap), changes(arrival), *others])
    assert not [p for p in pairs if p.kind == "contradiction" and "missing:" in p.detail]
