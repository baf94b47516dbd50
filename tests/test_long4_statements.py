"""Two long cards (topic notes, dated reports) whose statements give one thing two values
(issue 14: contradictions between topic notes were 0 of 20 on real vaults). Compared
statement by statement: another number or version standing in the same place of two
statements about one thing is a contradiction; the same value, another subject, a date, a
path, a step number or a paragraph of many numbers is not."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.meaning.documents import Documents
from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.meaning.statements import contradicted, said
from cardindex.store.card import Card

FERRY_OPS = """# Harbour ferry operations

- The evening ferry to Skerry Island carries at most {evening} passengers.
- Tickets are sold at the kiosk beside the fish market until departure.
- Bicycles ride free on every crossing; cars need a booking a day ahead.
- In a gale warning the harbour master cancels crossings and posts it on the quay board.
- The crew rotates weekly; the relief skipper lives in the village above the slipway.
- Life jackets are checked by the mate before the first crossing of each day.
"""

FERRY_HANDBOOK = """# Ferry crew handbook

- Fuel is taken on at the north pontoon, never at the fishing berth.
- The evening ferry to Skerry Island carries at most {evening} passengers.
- Mooring lines are replaced after each winter, whatever they look like.
- The crew radio channel is kept open from the first to the last crossing.
- A passenger count is written in the log at every departure.
- Lost property goes to the harbour office, which keeps it for a season.
"""


def card(path: str, description: str, body: str, extra: str = "") -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: reference\n{extra}---\n{body}")


def ops(evening: str = "40", extra: str = "", body: str = FERRY_OPS) -> Card:
    return card("ferry-operations.md", "How the harbour ferries run", body.format(evening=evening), extra)


def handbook(evening: str = "55", extra: str = "", body: str = FERRY_HANDBOOK) -> Card:
    return card("crew-handbook.md", "What the ferry crew must know", body.format(evening=evening), extra)


def contradictions(a: Card, b: Card) -> list[str]:
    """The contradiction details between two cards; lint and the write gate must agree."""
    found = [p.detail for p in find_pairs([a, b]) if p.kind == "contradiction"]
    gate = [p.detail for p in pairs_with(b, [a]) if p.kind == "contradiction"]
    assert bool(found) == bool(gate)  # one model
    return found


def test_another_number_for_one_thing_in_two_topic_notes_is_a_contradiction() -> None:
    found = contradictions(ops("40"), handbook("55"))
    assert len(found) == 1
    assert "'40' vs '55'" in found[0]
    assert "Skerry Island carries at most 40" in found[0] and "at most 55" in found[0]  # both statements quoted


def test_the_same_number_in_both_notes_is_no_contradiction() -> None:
    assert contradictions(ops("40"), handbook("40")) == []


def test_a_number_of_another_thing_is_no_contradiction() -> None:
    other = FERRY_HANDBOOK.replace("The evening ferry to Skerry Island", "The morning ferry to Holm Sound")
    assert contradictions(ops("40"), handbook("55", body=other)) == []


def test_notes_in_other_scopes_are_other_facts() -> None:
    assert contradictions(ops("40", "scope: path:north-harbour\n"), handbook("55", "scope: path:south-harbour\n")) == []


def test_a_version_changed_between_two_reference_notes() -> None:
    body_a = FERRY_OPS + "- The ticket printers run firmware v2.4 from the vendor.\n"
    body_b = FERRY_HANDBOOK + "- The ticket printers run firmware v3.1 from the vendor.\n"
    found = contradictions(ops("40", body=body_a), handbook("40", body=body_b))
    assert len(found) == 1 and "'v2.4' vs 'v3.1'" in found[0]


def test_dates_paths_and_step_numbers_are_no_values() -> None:
    # Two inspections on two days, a file's line that moved, the same step at another place in a list.
    body_a = FERRY_OPS + ("- The hull of the evening ferry was inspected on 2026-04-02 at the yard.\n"
                          "- The fare table is read from fares/table.csv:40 by the kiosk.\n"
                          "1. Unlock the gangway gate with the brass key.\n")
    body_b = FERRY_HANDBOOK + ("- The hull of the evening ferry was inspected on 2026-09-14 at the yard.\n"
                               "- The fare table is read from fares/table.csv:52 by the kiosk.\n"
                               "4. Unlock the gangway gate with the brass key.\n")
    assert contradictions(ops("40", body=body_a), handbook("40", body=body_b)) == []


def test_a_paragraph_of_many_numbers_gives_no_one_value() -> None:
    many = FERRY_HANDBOOK + ("\nThe winter timetable runs 6 crossings on weekdays, 4 on Saturdays and 2 on Sundays, "
                             "with the evening ferry to Skerry Island leaving at 18 past the hour, and 3 spare "
                             "crew on call for the 11 holidays of the season, counted over 52 weeks.\n")
    assert contradictions(ops("40"), handbook("40", body=many)) == []


def test_short_cards_are_left_to_the_statement_model() -> None:
    short = card("evening.md", "Evening ferry capacity", "The evening ferry to Skerry Island carries 55 passengers.")
    docs = Documents([ops("40"), short])
    assert contradicted([ops("40"), short], docs) == []  # one long card: nothing for this module


def test_said_splits_bullets_sentences_rows_and_asides() -> None:
    texts = [s.text for s in said("1. Board at gate 3 today\n\nFirst sentence here now. Second one (an aside of words).\n"
                                  "| Pier | Berths |\n|---|---|\n| North | 4 |\n")]
    assert "Board at gate 3 today" in texts
    assert "First sentence here now." in texts and "an aside of words" in texts
    assert "| North | 4 |" in texts
    assert not any(set(t) <= set("|-: ") for t in texts)  # the rule row of a table says nothing


def test_lint_reports_it_on_both_cards_and_consolidate_marks_the_conflict(
        vault: Path, run_cli: Callable[..., Result]) -> None:
    (vault / "ferry-operations.md").write_text(ops("40").text, encoding="utf-8")
    (vault / "crew-handbook.md").write_text(handbook("55").text, encoding="utf-8")
    done = run_cli("--vault", str(vault), "lint", "--select", "contradiction", "--format", "json")
    assert done.exit_code == 1, done.output
    found = {f["path"]: f for f in json.loads(done.stdout)}
    assert set(found) == {"ferry-operations.md", "crew-handbook.md"}
    assert found["crew-handbook.md"]["related"] == ["ferry-operations.md"]
    assert found["crew-handbook.md"]["code"] == "C103"
    before = {p.name: p.read_bytes() for p in vault.glob("*.md") if p.name != "INDEX.md"}
    plan = run_cli("--vault", str(vault), "consolidate", "--all")
    assert plan.exit_code == 0, plan.output
    # Time cannot decide (no evidence dates): both stay live, marked as a conflict with each
    # other (SPEC 7: never silently pick a side), their bodies as they were; undo restores them.
    after = {p.name: Card.from_text(p.name, p.read_text(encoding="utf-8")) for p in vault.glob("*.md")
             if p.name != "INDEX.md"}
    assert set(after) == set(before)
    assert after["crew-handbook.md"].status == after["ferry-operations.md"].status == "conflict"
    assert after["crew-handbook.md"].fields["conflicts_with"] == "ferry-operations"
    for name, card in after.items():
        assert card.body == Card.from_text(name, before[name].decode("utf-8")).body
    assert run_cli("--vault", str(vault), "undo").exit_code == 0
    assert {p.name: p.read_bytes() for p in vault.glob("*.md") if p.name != "INDEX.md"} == before


def test_a_dated_series_says_which_report_is_newer(vault: Path, run_cli: Callable[..., Result]) -> None:
    body = ("# Kitchen hygiene check\n\n- Fridges were at 4 degrees on every shelf.\n- The pass was clean.\n"
            "- Open findings: {n}\n- The grease trap was emptied by the contractor.\n- Hand basins had soap.\n"
            "- The pest log was signed by the duty manager.\n")
    for day, n in (("2026-03-02", "7"), ("2026-03-09", "3")):
        text = f"---\ndescription: Weekly kitchen hygiene check\ntype: project\n---\n{body.format(n=n)}"
        (vault / f"hygiene_{day}.md").write_text(text, encoding="utf-8")
    done = run_cli("--vault", str(vault), "lint", "--select", "C103", "--format", "json")
    messages = {f["message"] for f in json.loads(done.stdout)}
    assert messages and all("'7' vs '3'" in m and "hygiene_2026-03-09.md is newer" in m for m in messages), messages


# ---------------------------------------------------------------- one identifier, two records

INSPECTION = """# Facilities inspection, {day}

Walked every floor of the east wing with the caretaker.

- {record}
- WO-102 MEDIUM: the loading bay door sticks halfway in cold weather.
- The fire doors on floors two and three close fully and latch.
- Emergency lighting in the stairwell passed its monthly test.
- The roof drains were cleared of leaves before the storm season.
- Visitor badges are kept in the locked drawer at reception.
"""


def inspection(day: str, record: str) -> Card:
    return card(f"inspection_{day}.md", f"Facilities inspection of the east wing on {day}",
                INSPECTION.format(day=day, record=record))


def test_one_identifier_given_to_two_records_is_a_contradiction() -> None:
    older = inspection("2026-02-03", "WO-118 LOW: a dripping tap in the second floor kitchenette.")
    newer = inspection("2026-02-10", "WO-118 HIGH: the boiler pressure valve vents onto the corridor.")
    found = contradictions(older, newer)
    assert len(found) == 1 and found[0].startswith("WO-118 names two records: "), found
    assert "'low' vs 'high'" in found[0] and "inspection_2026-02-10.md is newer" in found[0]


def test_one_record_rated_again_or_given_a_status_is_left_alone() -> None:
    # The same work order, its status in one report and its severity in the other: two attributes.
    older = inspection("2026-02-03", "WO-118 OPEN: the boiler pressure valve vents onto the corridor.")
    newer = inspection("2026-02-10", "WO-118 HIGH: boiler pressure valve still vents onto the corridor.")
    assert contradictions(older, newer) == []


def test_lists_bare_labels_and_plain_words_are_no_records() -> None:
    older = inspection("2026-02-03", "WO-118, WO-102 and WO-131 were raised with the landlord.")
    newer = inspection("2026-02-10", "WO-118 CLOSED")
    assert contradictions(older, newer) == []
    older = inspection("2026-02-03", "WO-118 was about a dripping tap in the second floor kitchenette.")
    newer = inspection("2026-02-10", "WO-118 is the boiler pressure valve venting onto the corridor.")
    assert contradictions(older, newer) == []  # no label in capitals: the identifier is all the record says


def test_the_same_label_is_no_contradiction() -> None:
    older = inspection("2026-02-03", "WO-118 HIGH: a dripping tap in the second floor kitchenette.")
    newer = inspection("2026-02-10", "WO-118 HIGH: the boiler pressure valve vents onto the corridor.")
    assert contradictions(older, newer) == []


# ---------------------------------------------------------------- properties

_LINES = st.lists(st.tuples(st.sampled_from(["ferry", "pier", "crew", "fare", "kiosk", "berth", "tide", "gate"]),
                            st.sampled_from(["opens", "holds", "takes", "needs", "costs"]),
                            st.integers(min_value=1, max_value=99),
                            st.sampled_from(["passengers", "euros", "minutes", "cars", "berths"])),
                  min_size=6, max_size=12)


def _note(path: str, lines: list[tuple[str, str, int, str]]) -> Card:
    body = "".join(f"- The {a} at Skerry Island {b} {n} {c} on the evening crossing.\n" for a, b, n, c in lines)
    return card(path, "How the Skerry Island ferry runs", "# Skerry ferry\n\n" + body)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LINES, _LINES)
def test_the_verdict_is_symmetric_and_a_copy_never_contradicts(first: list[tuple[str, str, int, str]],
                                                                second: list[tuple[str, str, int, str]]) -> None:
    a, b = _note("a.md", first), _note("b.md", second)
    one = [(i, j) for i, j, _ in contradicted([a, b], Documents([a, b]))]
    other = [(j, i) for i, j, _ in contradicted([b, a], Documents([b, a]))]
    assert sorted((min(p), max(p)) for p in one) == sorted((min(p), max(p)) for p in other)
    copy = _note("copy.md", first)
    assert contradicted([a, copy], Documents([a, copy])) == []
