"""Reworded duplicates, fourth pass (issue 14, class 4): a short card restating another in other
words, with synonyms, abbreviations and numbers written out, is one fact for lint, the write gate
and consolidate alike; the look-alikes (another slot, another value in paraphrase, two scopes, two
values of a multi-valued key, one body under two subjects, a card about more) never are.

The cards are a community orchestra's memory, a domain unlike the corpora's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import restatement
from cardindex.meaning.similarity import find_pairs, pairs_with, weights
from cardindex.meaning.synonyms import synonymous
from cardindex.meaning.values import equivalent
from cardindex.meaning.words import statement, words
from cardindex.store.card import Card

Invoke = Callable[..., Result]

BACKGROUND = [
    ("Which hall the concerts are in", "Concerts are held in the St. Anna church hall."),
    ("Who keeps the attendance list", "The section leaders keep the attendance list."),
    ("Concert dress code", "Concert dress is all black."),
    ("Parking at the church hall", "Park behind the church hall, never in the bus lane."),
    ("Membership fee", "The yearly fee is 60 euros."),
    ("How the timpani are moved", "The timpani travel in the rented van."),
]

BRIEF = [("brief-a.md", "How the conductor wants tempo questions", "Maren wants tempo questions kept short."),
         ("brief-b.md", "Asking Maren about tempo", "Keep questions about tempo brief when you ask Maren.")]

# The fact sentences share one word; the whole cards say the same (WordNet: reply/answer, brief/short).
TONE = [("tone-a.md", "How Ilka wants answers", "Ilka wants short answers. No preamble."),
        ("tone-b.md", "Tone to use with Ilka Brandt",
         "Keep replies to Ilka brief and skip the introductory fluff. Lead with the answer.")]

TRIPLE = [
    ("tune-a.md", "Tuning before concerts", "The oboe gives the tuning A before every concert.", "2026-02-01"),
    ("tune-b.md", "Who gives the A", "Before each concert the tuning note A is given by the oboe.", "2026-05-01"),
    ("tune-c.md", "Concert tuning note",
     "The oboist plays the A the whole orchestra tunes to before a concert starts.", "2026-08-01"),
]

KEYED = [("day-a.md", "Weekly full rehearsal", "Full rehearsals happen on Tuesdays."),
         ("day-b.md", "Night of the full rehearsal", "The whole orchestra rehearses together on Tue nights.")]

# Look-alikes: each pair must never be a duplicate.
NEGATIVES = {
    "another slot": [("who.md", "Who hands out the concert tickets", "The treasurer hands out the concert tickets."),
                     ("when.md", "When the concert tickets are handed out",
                      "The concert tickets are handed out a week before the concert.")],
    "another value in paraphrase": [
        ("pdf.md", "How sheet music reaches the players",
         "The librarian e-mails the parts as PDFs a week before the first rehearsal."),
        ("paper.md", "Distribution of parts",
         "Printed parts are handed out by the librarian one week ahead of the first rehearsal; no PDFs.")],
    "a negation": [("share.md", "Sharing rehearsal recordings", "Rehearsal recordings may be shared with members."),
                   ("never.md", "Recordings of rehearsals", "Never share recordings of rehearsals, not even with members.")],
    "another person": [("ilse.md", "Who leads the second violins", "Ilse leads the second violins."),
                       ("tomas.md", "Second violin section leader", "The second violin section is led by Tomas.")],
    "another tool": [("sheet.md", "How members sign up for concerts",
                      "Members sign up for each concert in the shared Google Sheet."),
                     ("doodle.md", "Concert sign-up",
                      "Sign-ups for every concert happen through the Doodle poll the manager sends.")],
    "one body under two subjects": [
        ("brass.md", "Checklist for the brass section", "Printed by the stage crew, pinned next to the door."),
        ("strings.md", "Checklist for the string section", "Printed by the stage crew, pinned next to the door.")],
    "a card about more": [
        ("venue.md", "Where the orchestra rehearses", "Rehearsals are in the Linden school gym."),
        ("logistics.md", "Rehearsal logistics: venue, parking, keys, heating and the coffee rota",
         "Rehearsals are in the Linden school gym; park behind it, Ansgar has the keys.")],
}


def card(path: str, description: str, body: str, extra: str = "") -> Card:
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def background() -> list[Card]:
    return [card(f"bg{i}.md", d, b) for i, (d, b) in enumerate(BACKGROUND)]


def verdicts(cards: list[Card], multi: frozenset[str] = frozenset()) -> dict[frozenset[str], str]:
    """What lint's pairing calls each pair of `cards` (among a background vault)."""
    paths = {c.path for c in cards}
    return {frozenset((p.a.path, p.b.path)): p.kind for p in find_pairs([*background(), *cards], multi)
            if {p.a.path, p.b.path} <= paths}


def gate_verdict(new: Card, old: list[Card], multi: frozenset[str] = frozenset()) -> dict[str, str]:
    """What the write gate's pairing calls `new` against each of `old`."""
    return {(p.b.path if p.a.path == new.path else p.a.path): p.kind
            for p in pairs_with(new, [*background(), *old], multi) if new.path in (p.a.path, p.b.path)}


# ---------------------------------------------------------------- the model


def test_wordnet_joins_words_of_one_sense_and_nothing_else() -> None:
    def one(word: str) -> str:
        return words(word).tokens[0]

    assert synonymous(one("brief"), one("short"))
    assert synonymous(one("reply"), one("answer"))
    assert not synonymous(one("docker"), one("podman"))
    assert not synonymous(one("monday"), one("tuesday"))
    assert not synonymous(one("short"), one("short"))


def test_a_weekday_written_short_is_that_weekday_and_a_plural_abbreviation_its_singular() -> None:
    assert equivalent({"sun"}, {"sunday"}) == (set(), set())
    assert equivalent({"thur"}, {"thursday"}) == (set(), set())
    assert equivalent({"mon"}, {"tuesday"}) == ({"mon"}, {"tuesday"})
    assert equivalent({"prs"}, {"pr"}) == (set(), set())


def test_numbers_and_signs_written_out_are_compared_as_numbers() -> None:
    short = restatement.content(card("a.md", "Max programme length", "Keep programmes < ~400 bars."))
    long = restatement.content(card("b.md", "Programme length", "A programme stays below about four hundred bars."))
    assert short is not None and long is not None
    assert "400" in short.all.tokens and "400" in long.all.tokens
    assert "below" in short.all.tokens


def test_a_synonym_makes_a_reworded_card_a_duplicate_and_the_message_says_which_words() -> None:
    cards = [card(*c) for c in BRIEF]
    assert verdicts(cards) == {frozenset(("brief-a.md", "brief-b.md")): "duplicate"}
    pair = next(p for p in find_pairs([*background(), *cards]) if p.a.path.startswith("brief"))
    assert "'short' as 'brief'" in pair.detail


def test_cards_whose_fact_sentences_barely_meet_are_compared_whole() -> None:
    assert verdicts([card(*c) for c in TONE]) == {frozenset(("tone-a.md", "tone-b.md")): "duplicate"}
    old = card(*TONE[0])
    assert gate_verdict(card(*TONE[1]), [old]) == {"tone-a.md": "duplicate"}


def test_a_single_valued_keys_two_cards_with_one_value_in_other_words_are_a_duplicate() -> None:
    cards = [card(*c, extra="key: rehearsal-day\n") for c in KEYED]
    assert verdicts(cards) == {frozenset(("day-a.md", "day-b.md")): "duplicate"}


def test_a_keys_value_said_more_precisely_is_one_value_and_a_second_value_of_its_sort_is_not() -> None:
    key = "key: rehearsal-day\n"
    day = card("day.md", "Weekly full rehearsal", "Full rehearsals happen on Tuesdays.", key)
    precise = card("precise.md", "When the orchestra rehearses", "The full rehearsal is on Tue evenings from 19:30 to 22:00 in the school gym.",
                   key)
    two_days = card("two.md", "Rehearsal nights", "Full rehearsals happen on Tuesdays and Thursdays.", key)
    assert verdicts([day, precise]) == {frozenset(("day.md", "precise.md")): "duplicate"}
    assert verdicts([day, two_days]) == {frozenset(("day.md", "two.md")): "contradiction"}


def test_a_single_valued_keys_two_cards_with_two_values_in_other_words_stay_a_contradiction() -> None:
    a = card("pitch-a.md", "Concert pitch", "The orchestra tunes to A = 442 Hz.", "key: concert-pitch\n")
    b = card("pitch-b.md", "Tuning pitch of the orchestra", "We tune at 440 Hz concert pitch.", "key: concert-pitch\n")
    assert verdicts([a, b]) == {frozenset(("pitch-a.md", "pitch-b.md")): "contradiction"}


@pytest.mark.parametrize("name", sorted(NEGATIVES))
def test_look_alikes_are_never_duplicates(name: str) -> None:
    cards = [card(*c) for c in NEGATIVES[name]]
    assert "duplicate" not in verdicts(cards).values()


def test_two_scopes_and_two_values_of_a_multi_valued_key_are_never_duplicates() -> None:
    scoped = [card(*BRIEF[0], extra="scope: path:winter\n"), card(*BRIEF[1], extra="scope: path:summer\n")]
    assert verdicts(scoped) == {}
    contacts = [card("c-a.md", "Rehearsal venue contact", "Call Ansgar at the Linden school about the gym.",
                     "key: venue-contact\n"),
                card("c-b.md", "Who to call about the rehearsal venue", "Phone Birte at the Linden school about the gym.",
                     "key: venue-contact\n")]
    assert verdicts(contacts, frozenset({"venue-contact"})) == {}


def test_lint_and_the_gate_agree_on_every_case() -> None:
    cases = [BRIEF, TONE, [c[:3] for c in TRIPLE[:2]], *NEGATIVES.values()]
    for cards_of in cases:
        cards = [card(*c) for c in cards_of]
        linted = verdicts(cards).get(frozenset((cards[0].path, cards[1].path)))
        assert gate_verdict(cards[1], [cards[0]]).get(cards[0].path) == linted, cards_of


def test_a_long_card_is_never_compared_on_its_content() -> None:
    body = "\n".join(f"- Step {i}: tune the section and play the scale." for i in range(8))
    assert restatement.content(card("long.md", "Warm-up routine", body)) is None


def test_content_stops_at_the_reasons() -> None:
    found = restatement.content(card("r.md", "Parts by e-mail", "Parts go out by e-mail.\n\n**Why:** paper got lost."))
    assert found is not None and "paper" not in found.all.tokens


def test_restatement_weights_come_from_the_vault() -> None:
    cards = [*background(), *(card(*c) for c in BRIEF)]
    weight = weights([statement(c) for c in cards])
    a, b = (restatement.content(c) for c in cards[-2:])
    assert a is not None and b is not None
    found, conflict = restatement.measures(a, b, weight)
    assert conflict is None and found.covered >= restatement.COVERED and ("short", "brief") in found.joined


# ---------------------------------------------------------------- through the CLI


def put(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", "type: project", *(f"{k}: {v}" for k, v in fields.items()),
             "---", body, ""]
    (root / rel).write_text("\n".join(lines), encoding="utf-8")


def put_background(root: Path) -> None:
    for i, (d, b) in enumerate(BACKGROUND):
        put(root, f"bg{i}.md", d, b)


def lint_pairs(invoke: Invoke) -> dict[str, set[str]]:
    out = invoke("lint", "--select", "duplicate,contradiction", "--format", "json")
    assert out.exit_code in (0, 1), out.stderr
    found: dict[str, set[str]] = {}
    for f in json.loads(out.stdout):
        found.setdefault(f["path"], set()).update(f"{f['category']}:{r}" for r in f["related"])
    return found


def test_lint_reports_a_reworded_pair_and_the_gate_refuses_a_third_copy(invoke: Invoke, vault: Path) -> None:
    put_background(vault)
    for rel, description, body in BRIEF:
        put(vault, rel, description, body)
    assert lint_pairs(invoke) == {"brief-a.md": {"duplicate:brief-b.md"}, "brief-b.md": {"duplicate:brief-a.md"}}
    refused = invoke("add", "Keep tempo questions to Maren brief.", "-d", "Tempo questions for Maren", "-n", "brief-c")
    assert refused.exit_code == 1 and "U101" in refused.stderr
    assert not (vault / "brief-c.md").exists()


def test_the_gate_lets_in_another_value_said_in_other_words(invoke: Invoke, vault: Path) -> None:
    put_background(vault)
    put(vault, "sheet.md", "How members sign up for concerts", "Members sign up for each concert in the shared Google Sheet.")
    added = invoke("add", "Sign-ups for every concert happen through the Doodle poll the manager sends.",
                   "-d", "Concert sign-up", "-n", "doodle")
    assert added.exit_code == 0, added.stderr
    assert (vault / "doodle.md").exists()


def test_a_reworded_triple_is_one_group_and_one_merge_into_the_newest(invoke: Invoke, vault: Path) -> None:
    put_background(vault)
    for rel, description, body, verified in TRIPLE:
        put(vault, rel, description, body, verified=verified)
    found = lint_pairs(invoke)
    members = {rel for rel, *_ in TRIPLE}
    assert set(found) == members and all(k.startswith("duplicate:") for v in found.values() for k in v)
    out = invoke("consolidate", "--dry-run", "--format", "json")
    assert out.exit_code == 0, out.stderr
    merges = [d for d in json.loads(out.stdout)["decisions"] if d["action"] == "merge"]
    assert len(merges) == 1
    assert {merges[0]["card"], *merges[0]["related"]} == {"tune-a", "tune-b", "tune-c"}
    applied = invoke("consolidate", "--format", "json")
    assert applied.exit_code == 0, applied.stderr
    canonical = str(merges[0]["card"])
    kept = Card.from_text(f"{canonical}.md", (vault / f"{canonical}.md").read_text(encoding="utf-8"))
    assert set(kept.fields["merged_from"]) == {"tune-a", "tune-b", "tune-c"} - {canonical}
    assert str(kept.fields["verified"]) == "2026-08-01"
    assert lint_pairs(invoke) == {}


def test_each_member_of_a_triple_is_reported_once_with_both_others(invoke: Invoke, vault: Path) -> None:
    put_background(vault)
    for rel, description, body, verified in TRIPLE:
        put(vault, rel, description, body, verified=verified)
    out = invoke("lint", "--select", "duplicate", "--format", "json")
    found = [(f["path"], f["related"]) for f in json.loads(out.stdout)]
    members = sorted(rel for rel, *_ in TRIPLE)
    assert sorted(found) == [(m, [o for o in members if o != m]) for m in members]
    text = invoke("lint", "--select", "duplicate")
    assert "one of 3 copies" in text.stdout


def test_a_long_page_restating_two_short_cards_joins_them_into_no_group(invoke: Invoke, vault: Path) -> None:
    put_background(vault)
    put(vault, "stands.md", "Who repairs broken music stands", "Broken music stands are repaired by the stage crew.")
    put(vault, "chairs.md", "Who stacks the chairs after rehearsal", "The percussion section stacks the chairs after rehearsal.")
    duties = ["Broken music stands are repaired by the stage crew.",
              "The percussion section stacks the chairs after rehearsal.",
              "The librarian lays out the folders an hour before rehearsal starts.",
              "The concertmaster opens the hall and switches the heating on.",
              "Coffee is made by whoever arrives first, the rota is on the fridge.",
              "Lost property goes into the box under the piano until the season ends.",
              "The treasurer collects the yearly fee at the first rehearsal in September."]
    put(vault, "handbook.md", "Orchestra handbook: rehearsal duties", "\n".join(f"- {d}" for d in duties))
    found = lint_pairs(invoke)
    assert found["stands.md"] == {"duplicate:handbook.md"}
    assert found["chairs.md"] == {"duplicate:handbook.md"}


def test_consolidate_never_merges_the_look_alikes(invoke: Invoke, vault: Path) -> None:
    put_background(vault)
    for cards_of in NEGATIVES.values():
        for rel, description, body in cards_of:
            put(vault, rel, description, body)
    assert not any(k.startswith("duplicate:") for v in lint_pairs(invoke).values() for k in v)
    out = invoke("consolidate", "--dry-run", "--format", "json")
    assert out.exit_code == 0, out.stderr
    assert not [d for d in json.loads(out.stdout)["decisions"] if d["action"] == "merge"]




def test_two_abbreviations_may_share_their_words_and_a_word_is_no_initialism() -> None:
    short = restatement.content(card("a.md", "PR size", "Keep PRs under 400 lines."))
    long = restatement.content(card("b.md", "Pull request size", "A pull request stays under 400 lines of code."))
    assert short is not None and long is not None
    said = restatement._said(set(short.all.tokens), frozenset(long.all.tokens), short.all.tokens, long.all.tokens, [])
    assert {"pr", "prs"} <= said
    # "has" is a word, not the initials of "hostname staging"
    assert equivalent({"hostnam", "stage"}, {"has"}, ("hostnam", "stage"), ("has",)) == ({"hostnam", "stage"}, {"has"})
