"""The planner on pair lists it is handed (`lifecycle.decide`): decisions that hold whatever
the detector finds. Chains of reworded copies, pairs the detector should not have given
(another scope, another value of a multi-valued key, another script), changes, locks.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.lifecycle import decide
from cardindex.lifecycle.plan import Plan, plan
from cardindex.meaning.similarity import Pair
from cardindex.store.card import Card, id_list

NOW = dt.date(2026, 11, 30)


def make(name: str, description: str, body: str, **fields: object) -> Card:
    extra = "".join(f"{k}: {('true' if v else 'false') if isinstance(v, bool) else v}\n" for k, v in fields.items())
    return Card.from_text(f"{name}.md", f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def dup(a: Card, b: Card) -> Pair:
    return Pair(a, b, "duplicate", "wording", 80.0, "the same fact in other words")


def contra(a: Card, b: Card, reason: str = "value") -> Pair:
    return Pair(a, b, "contradiction", reason, 100.0, "different value in the same place")


def planned(cards: list[Card], pairs: list[Pair], multi: frozenset[str] = frozenset()) -> Plan:
    return plan(cards, now=NOW, multi_valued=multi, find=lambda live: pairs)


def decisions(p: Plan) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(d.action, d.card, d.related) for d in p.decisions]


def fields(p: Plan, card: str) -> dict[str, object]:
    return {k: v for s in p.steps if s.card.id == card for k, v in s.updates.items()}


# ------------------------------------------------------------------ groups


def test_a_chain_of_reworded_copies_merges_into_the_newest() -> None:
    # a~b and b~c only (a and c share too few words for the detector): one group. No
    # value to compare: the newest text stays, however well the oldest is described.
    a = make("a", "Kiln firing waits for dry glaze", "Fire the kiln after the glaze is dry.\n\n"
             "**Why:** wet glaze cracks.", verified="2026-01-01")
    b = make("b", "Fire the kiln after the glaze dries", "Kiln firing waits for dry glaze.", verified="2026-03-01")
    c = make("c", "Dry glaze before firing the kiln", "Fire the kiln after the glaze dries.", verified="2026-05-01")
    p = planned([a, b, c], [dup(a, b), dup(b, c)])
    assert decisions(p) == [("merge", "c", ("a", "b"))]
    assert fields(p, "c")["merged_from"] == ["a", "b"]
    assert fields(p, "a") == {"status": "archived", "merged_into": "c"}


def test_copies_of_one_value_merge_into_the_best_described() -> None:
    # Every copy names Mondays: each states the newest value, so the one that says why stays.
    a = make("a", "Kiln firing happens on Mondays", "Fire the kiln on Mondays.\n\n**Why:** the studio is shut.",
             verified="2026-01-01")
    b = make("b", "Fire the kiln on Mondays", "Kiln firings are on Mondays.", verified="2026-03-01")
    c = make("c", "Monday is kiln day", "Kiln firings are on Mondays.", verified="2026-05-01")
    assert decide.one_value([a, b, c])
    p = planned([a, b, c], [dup(a, b), dup(b, c)])
    assert decisions(p) == [("merge", "a", ("b", "c"))]
    assert fields(p, "a")["verified"] == dt.date(2026, 5, 1)  # the newest evidence of the group


def test_a_member_that_contradicts_another_stays_out_of_the_group() -> None:
    a = make("a", "Kiln firing happens on Mondays", "Fire the kiln on Mondays.", verified="2026-01-01")
    b = make("b", "Fire the kiln on Mondays", "Kiln firings are on Mondays.", verified="2026-03-01")
    c = make("c", "Kiln day", "Kiln firings are on Mondays.", verified="2026-05-01")
    d = make("d", "Kiln firing happens on Mondays", "Fire the kiln on Mondays.", verified="2026-02-01")
    p = planned([a, b, c, d], [dup(a, b), dup(b, c), dup(a, d), contra(a, c, "polarity")])
    # a and c cannot both hold: neither is merged; b and d, copies of them, merge only
    # with each other's group once a and c are out (b~c, a~d are cut with them).
    assert [x for x in decisions(p) if x[0] == "merge"] == []
    assert ("conflict", "a", ("c",)) in decisions(p)


def test_equal_dates_fall_to_the_best_described_and_a_locked_copy_is_canonical() -> None:
    a = make("a", "Glaze buckets are stored in the shed", "Store glaze buckets in the shed.\n\n**Why:** frost.")
    b = make("b", "Glaze buckets in the shed", "Glaze buckets live in the shed.")
    assert decide.canonical([a, b]) is a
    old_locked = make("l", "Glaze buckets in the shed", "Glaze buckets live in the shed.", lock=True,
                      verified="2025-01-01")
    newer = make("n", "Glaze buckets are stored in the shed", "Store them in the shed.", verified="2026-06-01")
    assert decide.canonical([newer, old_locked]) is old_locked
    p = planned([newer, old_locked], [dup(newer, old_locked)])
    assert decisions(p) == [("merge", "l", ("n",))]
    assert all(s.card.id != "l" for s in p.steps)  # the locked file is not written


def test_components_are_deterministic() -> None:
    cards = [make(n, f"Fact {n}", "Body.") for n in "edcba"]
    edges = [(cards[0], cards[1]), (cards[3], cards[4]), (cards[1], cards[2])]
    assert [[c.id for c in g] for g in decide.components(edges)] == [["a", "b"], ["c", "d", "e"]]


# ------------------------------------------------------------------ what the detector should not have given


def test_pairs_across_scopes_decide_nothing() -> None:
    a = make("a", "Lint before committing", "Run the linter before committing.", scope="path:web")
    b = make("b", "Lint before committing", "Run the linter before committing.", scope="path:api",
             verified="2026-02-01")
    c = make("c", "Lint before committing", "Do not run the linter before committing.", scope="repo:tools",
             verified="2026-03-01")
    assert planned([a, b, c], [dup(a, b), contra(a, c, "polarity"), contra(b, c, "polarity")]).decisions == []


def test_values_of_a_multi_valued_key_decide_nothing() -> None:
    multi = frozenset(["greeter"])
    a = make("a", "Who greets visitors", "Amara Osei greets visitors.", key="greeter", verified="2026-01-01")
    b = make("b", "Who greets visitors", "Lukas Brandt greets visitors.", key="greeter", verified="2026-05-01")
    assert planned([a, b], [contra(a, b)], multi).decisions == []
    assert planned([a, b], [dup(a, b)], multi).decisions == []
    again = make("c", "Who greets visitors", "Amara Osei greets the visitors.", key="greeter", verified="2026-06-01")
    assert decisions(planned([a, again], [dup(a, again)], multi)) == [("merge", "c", ("a",))]


# ------------------------------------------------------------------ changes


def test_a_duplicate_pair_whose_newer_card_says_it_changed_is_a_supersession() -> None:
    old = make("old", "Where volunteers sign in", "Volunteers sign in on the Paper sheet by the door.\n\n"
               "**Why:** the insurer asks for a record.", verified="2026-01-01")
    new = make("new", "Where volunteers sign in", "Volunteers now sign in on the Kiosk tablet.", verified="2026-04-01")
    p = planned([old, new], [dup(old, new)])
    assert decisions(p) == [("supersede", "old", ("new",))]
    assert "says 'now'" in p.decisions[0].reason
    # Reversed dates: the signal is on the older card, so nothing says which holds.
    later = make("old", "Where volunteers sign in", "Volunteers sign in on the Paper sheet by the door.",
                 verified="2026-09-01")
    assert [d[0] for d in planned([later, new], [dup(later, new)]).decisions] == ["conflict"]


@pytest.mark.parametrize(("newer_says", "expected"), [
    ("The rota is now kept by Jonas Berg.", ["supersede"]),
    ("The rota is kept by Jonas Berg.", ["conflict"]),
])
def test_a_keyless_contradiction_is_settled_only_by_a_signal(newer_says: str, expected: list[str]) -> None:
    old = make("old", "Who keeps the rota", "The rota is kept by Meera Iyer.", verified="2026-01-01")
    new = make("new", "Who keeps the rota", newer_says, verified="2026-05-01")
    assert [d[0] for d in planned([old, new], [contra(old, new)]).decisions] == expected


def test_the_signal_must_be_on_the_newer_card() -> None:
    old = make("old", "Who keeps the rota", "The rota is now kept by Jonas Berg.", verified="2026-01-01")
    new = make("new", "Who keeps the rota", "The rota is kept by Meera Iyer.", verified="2026-05-01")
    assert decide.change(old, new) is None
    assert [d[0] for d in planned([old, new], [contra(old, new)]).decisions] == ["conflict"]


def test_on_one_date_only_a_signal_naming_the_other_value_decides() -> None:
    a = make("a", "Who keeps the rota", "The rota is kept by Meera Iyer.", verified="2026-03-01")
    b = make("b", "Who keeps the rota", "Jonas Berg now keeps the rota; Meera Iyer no longer does.", verified="2026-03-01")
    c = make("c", "Who keeps the rota", "Jonas Berg now keeps the rota.", verified="2026-03-01")
    told = decide.change(a, b)
    assert told is not None and told.newer is b and told.older is a
    assert decide.change(a, c) is None  # "now", but it does not say what it replaced


def test_a_signal_in_a_long_cards_history_is_not_a_change() -> None:
    old = make("old", "Reference for the loan desk", "The loan desk lends tools to members.", verified="2026-01-01")
    history = "\n".join(f"Line {i} of the reference." for i in range(8))
    new = make("new", "Reference for the loan desk", f"The loan desk lends kits to members.\n\n{history}\n\n"
               "The desk was renamed in 2024.", verified="2026-05-01")
    assert decide.signal(new, old) is None


def test_a_locked_card_supersedes_an_older_contradiction_and_is_never_written() -> None:
    old = make("old", "Who keeps the rota", "The rota is kept by Meera Iyer.", verified="2026-01-01")
    locked = make("lk", "Who keeps the rota", "The rota is kept by Jonas Berg.", lock=True, verified="2026-05-01")
    p = planned([old, locked], [contra(old, locked)])
    assert decisions(p) == [("supersede", "old", ("lk",))]
    assert [s.card.id for s in p.steps] == ["old"]
    newer = make("new", "Who keeps the rota", "The rota is now kept by Ada Park.", verified="2026-09-01")
    p = planned([locked, newer], [contra(locked, newer)])
    assert [d[0] for d in p.decisions] == ["conflict"] and [s.card.id for s in p.steps] == ["new"]


# ------------------------------------------------------------------ properties


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dates(dt.date(2025, 1, 1), dt.date(2026, 11, 1)) | st.none(), min_size=2, max_size=5),
       st.data())
def test_a_group_of_copies_leaves_one_live_card_with_the_newest_date(dates: list[dt.date | None], data: st.DataObject) -> None:
    cards = [make(f"c{i}", "Glaze buckets are stored in the shed", "Glaze buckets live in the shed.",
                  **({"verified": d.isoformat()} if d else {})) for i, d in enumerate(dates)]
    # A random spanning tree: each card after the first pairs with one before it.
    pairs = [dup(cards[data.draw(st.integers(0, i - 1))], cards[i]) for i in range(1, len(cards))]
    p = planned(cards, pairs)
    archived = {s.card.id for s in p.steps if s.op == "archive"}
    live = [c for c in cards if c.id not in archived]
    assert len(live) == 1
    newest = max((d for d in dates if d), default=None)
    assert live[0].verified == newest
    merged = id_list(fields(p, live[0].id)["merged_from"])
    assert sorted(merged) == sorted(c.id for c in cards if c is not live[0])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["duplicate", "contradiction"]), st.sampled_from(["path:a", "repo:x", "free text"]),
       st.booleans())
def test_nothing_crosses_a_scope(kind: str, scope: str, multi: bool) -> None:
    a = make("a", "Glaze buckets are stored in the shed", "Glaze buckets live in the shed.", verified="2026-01-01",
             **({"key": "glaze"} if multi else {}))
    b = make("b", "Glaze buckets are stored in the shed", "Glaze buckets now live in the Barn.", verified="2026-05-01",
             scope=f'"{scope}"', **({"key": "glaze"} if multi else {}))
    pair = Pair(a, b, kind, "wording" if kind == "duplicate" else "value", 90.0, "x")
    assert planned([a, b], [pair], frozenset(["glaze"]) if multi else frozenset()).steps == []


def test_a_contradiction_between_two_subjects_marks_nothing() -> None:
    # Title Case descriptions make every word look like a value; two notes that differ in
    # most words are two subjects, whatever the detector aligned.
    a = make("a", "Orchard Pruning Calendar And Tool Checklist", "Pruning Calendar For The Orchard.", verified="2026-01-01")
    b = make("b", "Orchard Irrigation Survey Findings", "Irrigation Survey Of The Orchard.", verified="2026-05-01")
    assert not decide.one_place(a, b)
    assert planned([a, b], [contra(a, b)]).decisions == []
    # One word of the slot differs: one place, a conflict (no key, no signal).
    c = make("c", "Who keeps the rota", "The rota is kept by Meera Iyer.", verified="2026-01-01")
    d = make("d", "Who keeps the rota", "The rota is kept by Jonas Berg.", verified="2026-05-01")
    assert decide.one_place(c, d)
    assert [x[0] for x in decisions(planned([c, d], [contra(c, d)]))] == ["conflict"]


def test_copies_that_differ_only_in_capitals_or_in_a_comparison_merge() -> None:
    # "Quillon" capitalized on one side only is still mentioned by the other; a body that
    # says what the value was compared with gives no other value when both descriptions
    # name the same one.
    a = make("a", "always oil the press before a Quillon print run", "Oil the press; see the Handbook.",
             verified="2026-01-01")
    b = make("b", "Always oil the press before a print run in quillon", "Oil the press first.", verified="2026-02-01")
    assert not decide.own_values(a, b)
    c = make("c", "The reading room catalogue runs on Koha 23", "Chosen after comparing it with Evergreen.",
             verified="2026-01-01")
    d = make("d", "Reading room catalogue is built on Koha 23", "Chosen after comparing it with Folio.",
             verified="2026-03-01")
    assert not decide.own_values(c, d)
    assert decisions(planned([c, d], [dup(c, d)])) == [("merge", "d", ("c",))]
    # Two values, each unmentioned by the other: not a merge.
    e = make("e", "Catalogue software of the reading room", "The catalogue runs on Koha.", verified="2026-01-01")
    f = make("f", "Catalogue software of the reading room", "The catalogue runs on Evergreen.", verified="2026-03-01")
    assert decide.own_values(e, f)
    assert [x[0] for x in decisions(planned([e, f], [dup(e, f)]))] == ["conflict"]


def test_a_merged_copy_speaks_for_its_canonical_card_only_in_its_scope() -> None:
    holder = make("b", "The print server listens on port 631 for office clients",
                  "The print server listens on port 631 for clients on the office network.", verified="2026-01-20",
                  merged_from="a")
    copy = Card.from_text("archive/a.md", "---\ndescription: Print server listens on port 631\ntype: reference\n"
                          "status: archived\nmerged_into: b\nverified: 2026-01-05\n---\n"
                          "The print server listens on port 631.\n")
    new = make("n", "Print server listens on port 9100", "The print server listens on port 9100.", verified="2026-03-01")
    p = plan([holder, new], now=NOW, absorbed=[copy])
    assert decisions(p) == [("supersede", "b", ("n",))]
    elsewhere = make("n", "Print server listens on port 9100", "The print server listens on port 9100.",
                     verified="2026-03-01", scope="path:branch-office")
    assert plan([holder, elsewhere], now=NOW, absorbed=[copy]).decisions == []
    assert plan([holder, new], now=NOW).decisions == []  # without the copy, nothing pairs


def test_on_one_date_a_card_that_restates_the_old_fact_and_says_it_changed_wins() -> None:
    old = make("old", "Where volunteer shifts are booked", "Volunteer shifts are booked on the paper rota.",
               verified="2026-03-01")
    new = make("new", "Where volunteer shifts are booked",
               "Volunteer shifts are now booked in the booking app; the paper rota is no longer used.",
               verified="2026-03-01")
    told = decide.change(old, new)
    assert told is not None and told.newer is new
    # "now" and nothing new: the same fact restated, merged.
    same = make("same", "Where volunteer shifts are booked", "Volunteer shifts are now booked on the paper rota.",
                verified="2026-03-01")
    assert decide.change(old, same) is None
    assert [d[0] for d in planned([old, same], [dup(old, same)]).decisions] == ["merge"]
