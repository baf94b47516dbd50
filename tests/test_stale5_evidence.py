"""Units of the dated-evidence model: which ids a text names, the states a card gives them, its dated plans."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.meaning.repo_history import ids_in
from cardindex.meaning.stale_evidence import dated_plans, items, subject_ids, written_on
from cardindex.store.card import Card


def card(description: str, body: str = "Body.", path: str = "c.md", **fields: str) -> Card:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def states(c: Card) -> list[tuple[str, bool]]:
    return [(i.id, i.open) for i in items(c)]


def test_ids_are_normalised_and_units_versions_and_numeronyms_are_not_ids() -> None:
    assert ids_in("AC-070, ac070, P6a, SEV-42 and P17b-0") == ["AC070", "AC070", "P6a", "SEV42", "P17b"]
    assert ids_in("v2, 4K, 2GB, utf-8, sha256, e2e, i18n, p2p, IPv4, H264") == []
    # a card writes ids in capitals; commit subjects in any case
    assert ids_in("feat(p18b): backup", strict=True) == []
    assert ids_in("feat(p18b): backup") == ["P18b"]


def test_a_state_goes_to_the_id_it_stands_beside() -> None:
    c = card("Voting phase: P9a backend merged; P9b UI is next")
    assert states(c) == [("P9a", False), ("P9b", True)]
    assert states(card("Ticket board", "- DL-4: pending\n- DL-5: done")) == [("DL4", True), ("DL5", False)]


def test_a_description_that_names_no_id_speaks_of_the_card_subject() -> None:
    c = card("Resumable plan: design read; build not started", path="rk4-returns-page.md")
    assert subject_ids(c) == ["RK4"]
    assert states(c) == [("RK4", True)]
    # in the body, a clause without an id is not taken to be about the subject
    assert states(card("Returns page design notes", "The build is not started.", path="rk4-notes.md")) == []


def test_states_in_the_past_tense_are_history() -> None:
    assert states(card("How KX-3 went", "KX-3 was pending review for a week.")) == []
    assert states(card("Mixer notes", "Mixer speeds are set per batch; next to the sink.")) == []


def test_written_on_reads_fields_then_the_file_name() -> None:
    assert written_on(card("x", modified="2026-03-04", created="2026-01-01")) == dt.date(2026, 3, 4)
    assert written_on(card("x", path="notes/audit_2026-05-07.md")) == dt.date(2026, 5, 7)
    assert written_on(card("x", path="session_20260408.md")) == dt.date(2026, 4, 8)
    assert written_on(card("x")) is None


def test_dated_plans_and_what_is_not_one() -> None:
    day = dt.date(2026, 5, 1)
    plans = dated_plans(card("Dry store", "Stock-take planned for June 4. Sprint review on May 26."), day)
    assert [p.day for p in plans] == [dt.date(2026, 6, 4), dt.date(2026, 5, 26)]
    for text in ("Filing is due every April 15.", "The swap was scheduled for 2026-01-10.",
                 "Deferred May 21 by the owner.", "Planned layout (decided 2026-02-01): two ovens.",
                 "The cutover shipped on 2026-03-03 as planned for 2026-03-01, done.",
                 "Keep the loop simple until it moves off the shop laptop (2026-04-14)."):
        assert dated_plans(card("Notes", text), day) == [], text


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300))
def test_any_text_gives_items_and_plans_that_it_names(body: str) -> None:
    c = Card.from_text("any.md", "---\ndescription: d\ntype: project\n---\n" + body)
    for item in items(c):
        assert item.id in ids_in(c.text.upper() + " " + c.path.upper()) or not item.named
    for plan in dated_plans(c, dt.date(2026, 1, 1)):
        assert 0 <= plan.offset < len(c.text)
