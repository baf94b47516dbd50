"""Long cards saved twice (issue 14, class 4 on real vaults): one document under two names.

Research notes and long how-tos hold many statements; the statement model cannot pair
them, so `meaning.documents` compares them as documents: titles naming one subject, each
card's statement held by a unit of the other, one vocabulary. The pair is reported by
lint and the write gate; consolidation leaves both. Hard negatives: shared boilerplate
under different subjects, one title over two contents, two named things of one kind.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.meaning.documents import document, units
from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.store.card import Card

PILOTAGE_A = """# Harbour pilotage at Tidewater

- Every vessel over 80 metres takes a licensed pilot from the Tidewater station.
- The pilot boards at the outer fairway buoy, two nautical miles off the breakwater.
- Boarding is refused when the swell at the buoy is above 2.5 metres.
- Night transits of the inner channel need two tugs made fast before the swing basin.
- The channel depth is dredged to 11 metres; ships drawing more wait for high water.
- Pilots are booked through the harbour office at least six hours before arrival.
- The swing basin turns ships up to 240 metres; longer ones berth stern first.
"""

PILOTAGE_B = """# Tidewater pilot service notes

- Ships longer than 80 metres must carry a Tidewater licensed pilot.
- The pilot comes aboard at the outer fairway buoy, about two miles off the breakwater.
- With swell above 2.5 metres at the buoy the pilot does not board.
- At night the inner channel transit needs two tugs fast before the swing basin.
- Dredged depth in the channel is 11 metres; deeper drafts wait for the tide.
- Book the pilot with the harbour office six hours ahead of arrival.
- Vessels longer than 240 metres cannot swing in the basin and berth stern first.
"""

A_ABOUT = "Pilotage rules for ships entering Tidewater harbour: boarding, tugs, depth, booking"
B_ABOUT = "Notes on pilots, tugs and channel depth for ships entering Tidewater harbour"

APIARY = """# Tidewater apiary notes

- The hives stand on the south slope behind the harbour office.
- Each colony is inspected every nine days from April to August.
- Queen cells found at inspection mean a split the same week.
- Honey supers go on when the brood box holds eight frames of bees.
- Varroa counts above three mites per hundred bees call for an oxalic treatment.
- The extractor is borrowed from the allotment society in late July.
- Winter feeding uses fondant blocks, never syrup after October.
"""


def _card(path: str, name: str, description: str, body: str) -> Card:
    text = f"---\nname: {name}\ndescription: {description}\ntype: reference\n---\n{body}"
    return Card.from_text(path, text)


def _vault(root: Path, cards: dict[str, tuple[str, str, str]]) -> None:
    for path, (name, description, body) in cards.items():
        (root / path).write_text(f"---\nname: {name}\ndescription: {description}\ntype: reference\n---\n{body}",
                                 encoding="utf-8")


def _duplicates(invoke: Any) -> list[dict[str, Any]]:
    result = invoke("lint", "--select", "duplicate,contradiction", "--format", "json")
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def test_units_are_bullets_paragraphs_rows_and_headings_without_code() -> None:
    body = "# Title here\n\nOne plain line\ncontinued here.\n\n- a bullet\n1. a step\n| a | row |\n```\ncode line\n```\n"
    assert units(body) == ["# Title here", "One plain line continued here.", "- a bullet", "1. a step", "| a | row |"]


def test_two_pilotage_notes_under_two_names_are_one_document() -> None:
    a = _card("pilotage.md", "Tidewater harbour pilotage", A_ABOUT, PILOTAGE_A)
    b = _card("pilot-service.md", "Tidewater harbour pilotage notes", B_ABOUT, PILOTAGE_B)
    assert document(a) is not None and document(b) is not None
    pairs = find_pairs([a, b])
    assert [(p.kind, p.reason) for p in pairs] == [("duplicate", "restated")]
    assert [p.reason for p in pairs_with(b, [a])] == ["restated"]  # the write gate says the same


def test_one_title_over_two_contents_is_no_pair() -> None:
    a = _card("pilotage.md", "Tidewater harbour notes", "Notes on the Tidewater harbour", PILOTAGE_A)
    b = _card("apiary.md", "Tidewater harbour notes", "Notes on the Tidewater harbour", APIARY)
    assert find_pairs([a, b]) == []


def test_shared_boilerplate_under_two_subjects_is_no_pair() -> None:
    template = ("## Overview\n\n- Owner: the platform group, reachable in the team channel.\n"
                "- Review this page every quarter and date the change log.\n"
                "- Links to runbooks sit at the bottom of the page.\n## Details\n\n")
    a = _card("pilotage.md", "Harbour pilotage reference", "Reference for harbour pilotage", template + PILOTAGE_A)
    b = _card("apiary.md", "Apiary keeping reference", "Reference for keeping the apiary", template + APIARY)
    assert find_pairs([a, b]) == []


def test_two_named_things_of_one_kind_are_no_pair() -> None:
    other = PILOTAGE_A.replace("Tidewater", "Saltmarsh")
    a = _card("tidewater.md", "TIDEWATER Pilotage Reference", "Pilotage rules, one harbour", PILOTAGE_A)
    b = _card("saltmarsh.md", "SALTMARSH Pilotage Reference", "Pilotage rules, one harbour", other)
    assert find_pairs([a, b]) == []


def test_a_short_card_is_not_compared_as_a_document() -> None:
    short = _card("pilot-length.md", "Tidewater pilot rule", "Which ships take a Tidewater pilot",
                  "Every vessel over 80 metres takes a licensed pilot from the Tidewater station.\n")
    assert document(short) is None


def test_lint_reports_the_pair_and_consolidate_merges_it_losing_nothing(invoke: Any, vault: Path, snapshot: Any) -> None:
    _vault(vault, {"pilotage.md": ("Tidewater harbour pilotage", A_ABOUT,
                                   PILOTAGE_A),
                   "pilot-service.md": ("Tidewater harbour pilotage notes", B_ABOUT,
                                        PILOTAGE_B),
                   "apiary.md": ("Tidewater apiary", "Keeping the hives by the harbour", APIARY)})
    found = _duplicates(invoke)
    assert sorted((f["path"], f["related"][0]) for f in found) == [("pilot-service.md", "pilotage.md"),
                                                                   ("pilotage.md", "pilot-service.md")]
    assert all(f["category"] == "duplicate" for f in found)
    before = snapshot(vault, state=False)
    plan = invoke("consolidate", "--all")
    assert plan.exit_code == 0, plan.stderr
    # Since the union merge (`meaning.union`): one live card for the two, and every bullet of
    # either is still in a live card; the apiary is untouched; undo gives the vault back.
    live = {p.name: p.read_text(encoding="utf-8") for p in vault.glob("*.md") if p.name != "INDEX.md"}
    assert len(live) == 2 and "apiary.md" in live, sorted(live)
    text = "\n".join(live.values())
    missing = [line for line in (PILOTAGE_A + PILOTAGE_B).splitlines()
               if line.startswith("- ") and line[2:40] not in text]
    said = [line for line in missing if any(w in text for w in line.split()[3:6])]
    assert len(said) == len(missing), missing  # what is not there verbatim is said in other words
    assert invoke("undo").exit_code == 0
    after = snapshot(vault, state=False)
    cards_only = {k: v for k, v in before.items() if k.endswith(".md") and k != "INDEX.md"}
    assert {k: v for k, v in after.items() if k.endswith(".md") and k != "INDEX.md"} == cards_only


def test_a_warm_lint_sees_a_long_card_rewritten_below_its_first_paragraph(invoke: Any, vault: Path) -> None:
    _vault(vault, {"pilotage.md": ("Tidewater harbour pilotage", A_ABOUT,
                                   PILOTAGE_A),
                   "pilot-service.md": ("Tidewater harbour pilotage notes", B_ABOUT,
                                        PILOTAGE_B)})
    assert len(_duplicates(invoke)) == 2
    head, _, _ = PILOTAGE_B.partition("- The pilot comes aboard")
    rewritten = head + APIARY.split("\n", 2)[2]  # the same first bullet, then the apiary's
    _vault(vault, {"pilot-service.md": ("Tidewater harbour pilotage notes", B_ABOUT,
                                        rewritten)})
    assert _duplicates(invoke) == []  # the cached pairs were not reused


def test_the_write_gate_refuses_a_second_copy_of_a_long_note(invoke: Any, vault: Path) -> None:
    _vault(vault, {"pilotage.md": ("Tidewater harbour pilotage", A_ABOUT,
                                   PILOTAGE_A)})
    added = invoke("add", "-", "-d", B_ABOUT, "-n", "Tidewater harbour pilotage notes",
                   "-t", "reference", input=PILOTAGE_B)
    assert added.exit_code == 1 and "pilotage.md" in added.stderr


def test_consolidation_takes_a_document_pair_as_one_fact() -> None:
    from cardindex.lifecycle.decide import apart
    from cardindex.meaning.union import one_fact, pair_refused

    a = _card("pilotage.md", "Tidewater harbour pilotage", A_ABOUT, PILOTAGE_A)
    b = _card("pilot-service.md", "Tidewater harbour pilotage notes", B_ABOUT, PILOTAGE_B)
    (pair,) = find_pairs([a, b])
    assert apart(pair, frozenset()) is None and one_fact(pair) and pair_refused(pair) is None


YARD = """# Container yard operations

- Reefer containers are plugged in within thirty minutes of landing.
- Straddle carriers keep to the painted lanes; pedestrians use the fenced walkway.
- {crane}
- Empty boxes are stacked five high at most, loaded ones three.
- Customs holds are parked in block F until the release is stamped.
- Night shifts change over at 22:00 at the gatehouse.
- The yard planner publishes the berth schedule every morning by seven.
"""
CRANE_RULE = "The quay crane stops lifting when the wind is above 40 knots."


def _crane_cards(bullet: str) -> list[Card]:
    short = _card("crane-wind.md", "Quay crane wind limit", "The quay crane stops lifting in winds above 40 knots",
                  CRANE_RULE + "\n\n**Why:** a gust swung a loaded spreader into the stack in 2024.\n")
    long = _card("yard.md", "Container yard operations", "How the container yard runs day to day",
                 YARD.format(crane=bullet))
    return [short, long]


def test_a_short_card_restated_in_one_bullet_of_a_long_card_is_a_duplicate() -> None:
    cards = _crane_cards("The quay crane stops lifting once the wind goes above 40 knots.")
    pairs = find_pairs(cards)
    assert [(p.a.path, p.b.path, p.reason) for p in pairs] == [("crane-wind.md", "yard.md", "restated")]
    assert "one part of yard.md" in pairs[0].detail
    assert [p.reason for p in pairs_with(cards[0], cards[1:])] == ["restated"]  # the gate agrees


def test_a_bullet_naming_the_subject_but_saying_something_else_is_no_duplicate() -> None:
    assert find_pairs(_crane_cards("The quay crane gets a new spreader and fresh cables every spring.")) == []


def test_a_bullet_sharing_only_the_number_is_no_duplicate() -> None:
    assert find_pairs(_crane_cards("Trucks wait at most 40 minutes at the gate before they are called.")) == []


def test_consolidate_merges_a_restated_short_card_into_its_long_card(invoke: Any, vault: Path) -> None:
    for card in _crane_cards("The quay crane stops lifting once the wind goes above 40 knots."):
        (vault / card.path).write_text(card.text, encoding="utf-8")
    assert len(_duplicates(invoke)) == 2
    plan = invoke("consolidate", "--dry-run", "--all")
    assert plan.exit_code == 0 and "merge      yard ← crane-wind" in plan.stdout, plan.stdout
    assert invoke("consolidate", "--all").exit_code == 0
    yard = (vault / "yard.md").read_text(encoding="utf-8")
    assert "## Merged from crane-wind" in yard and "a gust swung a loaded spreader" in yard  # its reason kept
    assert not (vault / "crane-wind.md").exists()


def test_consolidation_acts_on_two_long_cards_as_the_detector_pairs_them() -> None:
    # The detector overrules a verdict read off two notes' descriptions (`documents.overrules`);
    # what reaches the planner about two long cards is one fact, or two statements giving one
    # thing two values (`meaning.statements`): a merge by union, or a conflict.
    from cardindex.lifecycle.decide import apart
    from cardindex.meaning.similarity import Pair

    a = _card("pilotage.md", "Tidewater harbour pilotage", A_ABOUT, PILOTAGE_A)
    b = _card("pilot-service.md", "Tidewater harbour pilotage notes", B_ABOUT, PILOTAGE_B)
    for kind, reason in (("duplicate", "wording"), ("contradiction", "value"), ("contradiction", "same-key")):
        assert apart(Pair(a, b, kind, reason, 100.0, "as the detector said"), frozenset()) is None
    assert apart(Pair(a, Card.from_text(b.path, b.text.replace("type:", "scope: path:docs\ntype:")), "duplicate",
                      "wording", 100.0, "two scopes"), frozenset()) is not None  # other scopes stay apart


_BULLETS = [line for line in (PILOTAGE_A + APIARY + PILOTAGE_B).splitlines() if line.startswith("- ")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_BULLETS), min_size=6, max_size=9, unique=True),
       st.lists(st.sampled_from(_BULLETS), min_size=6, max_size=9, unique=True))
def test_document_pairs_do_not_depend_on_the_order_of_cards(left: list[str], right: list[str]) -> None:
    a = _card("a.md", "Tidewater harbour notes", A_ABOUT, "\n".join(left) + "\n")
    b = _card("b.md", "Tidewater harbour notes, second copy", B_ABOUT, "\n".join(right) + "\n")
    forward = {(frozenset((p.a.path, p.b.path)), p.kind, p.reason) for p in find_pairs([a, b])}
    backward = {(frozenset((p.a.path, p.b.path)), p.kind, p.reason) for p in find_pairs([b, a])}
    assert forward == backward
