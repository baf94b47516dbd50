"""`cardindex.meaning.similarity`: what counts as the same fact, and what as two facts that cannot both hold.

The API consolidation calls (`find_pairs`, `pairs_with`, `statement`, `weights`,
`candidates`, `classify`, `words`), on small made-up cards: none of these sentences
is in the labelled corpus, so they check the mechanism, not the corpus.
"""

from __future__ import annotations

import pytest

from cardindex.store.card import Card
from cardindex.meaning.similarity import candidates, classify, find_pairs, pairs_with, weights
from cardindex.meaning.words import statement, words


def card(path: str, description: str, body: str = "", **fields: str) -> Card:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return Card.from_text(path, f"---\ndescription: {description}\ntype: feedback\n{extra}---\n{body}\n")


def kinds(cards: list[Card]) -> set[tuple[str, str, str, str]]:
    return {(p.a.path, p.b.path, p.kind, p.reason) for p in find_pairs(cards)}


# ------------------------------------------------------------------ normalization


@pytest.mark.parametrize(
    "forms",
    [
        ("writes", "writing", "written", "wrote", "write"),
        ("names", "naming", "named", "name"),
        ("caches", "cached", "caching", "cache"),
        ("policies", "policy"),
        ("committed", "commits", "committing", "commit"),
        ("renames", "renaming", "renamed", "rename"),
    ],
)
def test_the_forms_of_a_word_are_one_token(forms):
    assert len({words(f).tokens for f in forms}) == 1, [words(f).tokens for f in forms]


def test_stemming_never_makes_a_negation_or_a_stop_word():
    assert words("notes").tokens == ("note",)  # ("note" alone is a filler word: "Note: …")
    assert "not" not in words("Release notes are kept in the wiki").tokens
    assert words("uses").tokens == words("using").tokens != words("us").tokens


def test_hyphenated_words_match_their_parts():
    assert words("Run the load-test nightly").tokens == words("Run the load test nightly").tokens


def test_bounds_are_not_negations():
    assert "not" not in words("Reply no later than two days after the request").tokens
    assert words("no more than 20 seats").tokens == words("at most 20 seats").tokens
    assert words("at least 20 seats").tokens != words("at most 20 seats").tokens


def test_values_are_kept_apart_from_words():
    w = words("Staging listens on port 5433 since March")
    assert {"5433", "march"} <= w.values


# ------------------------------------------------------------------ pairs


def test_a_reworded_rule_is_a_duplicate():
    cards = [
        card("a.md", "Name every cron job after the team that owns it", "Cron job names start with the owning team's name."),
        card("b.md", "How cron jobs are named", "Prefix each cron job with the name of the team that owns it."),
        card("c.md", "Backups run nightly at 02:00", "Database backups run every night at 02:00."),
    ]
    assert kinds(cards) == {("a.md", "b.md", "duplicate", "wording")}


def test_a_short_card_is_not_the_duplicate_of_a_card_about_more():
    cards = [
        card("short.md", "Release of the payments worker", "Release steps:\n- [ ] rerun CI"),
        card("long.md", "Payments worker migration",
             "Moving the payments worker to the new queue; the old queue is drained first, then CI runs again."),
    ]
    assert kinds(cards) == set()


def test_a_rule_and_its_negation_with_qualifiers_contradict():
    cards = [
        card("never.md", "Which day schema changes may never run",
             "Never run or schedule a schema change or a data backfill against the ledger database on a Saturday."),
        card("run.md", "Run ledger schema changes on Saturdays, when load is lowest",
             "Run ledger schema changes on Saturdays, when load is lowest."),
    ]
    assert kinds(cards) == {("never.md", "run.md", "contradiction", "polarity")}


def test_a_reason_clause_is_not_part_of_the_rule():
    assert statement(card("x.md", "Deploys", "Deploy on Mondays, because the on-call rota starts then.")).fact.tokens == \
        words("Deploy on Mondays").tokens


def test_skip_and_never_skip_contradict_but_skip_and_do_not_agree():
    skip = card("skip.md", "Skip the smoke tests for docs-only changes", "Skip the smoke tests for docs-only changes.")
    never = card("never.md", "Never skip the smoke tests for docs-only changes", "Never skip the smoke tests for docs-only changes.")
    dont = card("dont.md", "Do not run the smoke tests for docs-only changes", "Do not run the smoke tests for docs-only changes.")
    assert ("skip.md", "never.md", "contradiction", "polarity") in kinds([skip, never])
    assert not {k for k in kinds([skip, dont]) if k[2] == "contradiction"}


def test_a_negation_answered_by_a_negative_word_is_not_opposite():
    cards = [
        card("a.md", "When the finance lead is unavailable", "The finance lead does not work on Fridays."),
        card("b.md", "The finance lead's weekly day off", "Friday is the finance lead's day off."),
    ]
    assert not {k for k in kinds(cards) if k[2] == "contradiction"}


def test_a_phrasal_off_is_not_a_negation():
    cards = [
        card("a.md", "Who cuts releases", "Releases are cut by Sam on the platform team."),
        card("b.md", "Release sign-off", "Kim signs off every release before it ships.", key="release-owner"),
    ]
    assert not {k for k in kinds(cards) if k[3] == "polarity"}


def test_keys_that_only_share_a_prefix_fill_different_slots():
    cards = [
        card("a.md", "Python 3.11 for the api service", "The api service uses Python 3.11.", key="runtime.api"),
        card("b.md", "Python 3.12 for the apiv2 service", "The apiv2 service uses Python 3.12.", key="runtime.apiv2"),
    ]
    assert kinds(cards) == set()


def test_reworded_descriptions_sharing_one_rare_word_are_compared():
    """Blocking proposes two cards whose descriptions share two of their rarest words, however common."""
    filler = [card(f"f{i}.md", f"Always run the linter before merging in project{i % 40}") for i in range(200)]
    a = card("a.md", "Always run the linter before merging in Zorblax", "Source: the Zorblax channel on 2025-01-02.")
    b = card("b.md", "Make sure to run the linter prior to merging in Zorblax", "Owners were consulted.")
    found = [p for p in find_pairs([*filler, a, b]) if {p.a.path, p.b.path} == {"a.md", "b.md"}]
    assert [(p.kind, p.reason) for p in found] == [("duplicate", "wording")]


def test_find_pairs_with_given_statements_is_find_pairs():
    cards = [
        card("a.md", "Deploys happen on Thursdays", "Deploys happen on Thursdays."),
        card("b.md", "Deploys happen on Tuesdays", "Deploys happen on Tuesdays."),
        card("c.md", "Deploys go out on Thursdays", "Deploys go out on Thursdays."),
    ]
    assert find_pairs(cards) == find_pairs(cards, frozenset(), [statement(c) for c in cards])


def test_classify_and_candidates_agree_with_find_pairs():
    cards = [
        card("a.md", "Always squash-merge pull requests", "Always squash-merge pull requests."),
        card("b.md", "Never squash-merge pull requests", "Never squash-merge pull requests."),
    ]
    sts = [statement(c) for c in cards]
    w = weights(sts)
    (i, j, same_key), = candidates(cards, sts, w, frozenset())
    pair = classify(cards[i], cards[j], sts[i], sts[j], w, same_key=same_key)
    assert pair is not None and (pair.kind, pair.reason) == ("contradiction", "polarity")
    assert find_pairs(cards) == [pair]


def test_pairs_with_finds_a_reworded_new_card():
    vault = [
        card("old.md", "Name every cron job after the team that owns it", "Cron job names start with the owning team's name."),
        card("other.md", "Backups run nightly at 02:00", "Database backups run every night at 02:00."),
    ]
    new = card("new.md", "How cron jobs are named", "Prefix each cron job with the name of the team that owns it.")
    assert [(p.b.path, p.kind) for p in pairs_with(new, vault)] == [("old.md", "duplicate")]


def test_a_shared_provenance_sentence_is_not_a_value_contradiction():
    # The body clause sharing one word ("review") with the description is no statement
    # of the fact: two unrelated cards confirmed in different months do not contradict.
    review = card("review.md", "User's review style preference for documentation is stacked pull requests",
                  "Confirmed during the April review with the team.")
    hours = card("hours.md", "For code review in Mitania, the user wants Pacific mornings",
                 "Confirmed during the January review with the team.")
    assert kinds([review, hours]) == set()
    # A body that does state the fact still contradicts across paraphrased descriptions.
    deploy = card("deploy.md", "Which weekday production deploys happen", "Production deploys happen on Thursdays.")
    release = card("release.md", "The day of the week for production releases", "Production deploys happen on Tuesdays.")
    assert kinds([deploy, release]) == {("deploy.md", "release.md", "contradiction", "value")}


def test_one_order_said_both_ways_is_no_contradiction():
    after = card("after.md", "Merging a pull request takes 2 approvals", "A pull request is merged only after 2 approvals.")
    before = card("before.md", "Pull requests require 2 approvals before merging",
                  "Wait for 2 approvals before merging a pull request.")
    assert not any(kind == "contradiction" for *_, kind, _reason in kinds([after, before]))
    first = card("first.md", "When to deploy relative to the migration", "Deploy before the migration runs.")
    then = card("then.md", "When to deploy relative to the migration", "Deploy after the migration runs.")
    assert kinds([first, then]) == {("first.md", "then.md", "contradiction", "polarity")}
