"""The slot/value model of pairs (issue 14, failure classes 1–4): one slot and one value is a
duplicate, one slot and another value a contradiction, different scopes and two values of
a multi-valued key are different facts. Each positive comes with hard negatives: durable
cards that must stay apart. The sentences are written for these tests (other domains than
tests/lint_corpus), not taken from any vault.
"""

from __future__ import annotations

import pytest

from cardindex.meaning import slots
from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.store.card import Card


def card(path: str, description: str, body: str = "", **fields: str) -> Card:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    return Card.from_text(path, f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n")


def kinds(cards: list[Card], multi: frozenset[str] = frozenset()) -> set[tuple[str, str, str]]:
    return {(*sorted((p.a.path, p.b.path)), p.kind) for p in find_pairs(cards, multi)}  # type: ignore[misc]


# ------------------------------------------------------------- 1. one description, two values


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("The payroll batch closes on Mondays.", "The payroll batch closes on Fridays only."),
        ("Publish the SDK to the internal Verdaccio mirror.", "Publish the SDK to the public npm registry."),
        ("Greenhouse sensors report every 30 seconds.", "Greenhouse sensors report every 5 minutes."),
    ],
)
def test_one_description_with_two_values_is_a_contradiction_never_a_duplicate(one: str, other: str) -> None:
    desc = "When and where the thing happens"
    cards = [card("a.md", desc, one), card("b.md", desc, other)]
    assert kinds(cards) == {("a.md", "b.md", "contradiction")}


def test_one_key_with_two_values_names_the_values() -> None:
    cards = [
        card("a.md", "Hour the invoice export runs", "The invoice export runs at 03:00 UTC.", key="invoice-export-hour",
             verified="2026-01-04"),
        card("b.md", "Hour the invoice export runs", "The invoice export runs at 05:30 UTC.", key="invoice-export-hour",
             verified="2026-05-09"),
    ]
    (pair,) = find_pairs(cards)
    assert (pair.kind, pair.reason) == ("contradiction", "same-key")
    assert "03:00" in pair.detail and "05:30" in pair.detail


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("The payroll batch closes on Mondays.", "Every Monday the payroll batch is closed."),
        ("Publish the SDK to the internal Verdaccio mirror.", "The SDK is published to our internal Verdaccio mirror."),
        ("Greenhouse sensors report every 30 seconds.", "Greenhouse sensors report every 30 seconds over LoRa."),
    ],
)
def test_one_description_with_one_value_reworded_is_a_duplicate(one: str, other: str) -> None:
    desc = "When and where the thing happens"
    cards = [card("a.md", desc, one), card("b.md", desc, other)]
    assert kinds(cards) == {("a.md", "b.md", "duplicate")}


def test_words_of_the_description_are_never_the_value() -> None:
    desc = "Runtime of the ledger service in staging"
    cards = [card("a.md", desc, "The ledger service runs Node 22."), card("b.md", desc, "In staging it runs Node 22.")]
    assert kinds(cards) == {("a.md", "b.md", "duplicate")}


def test_a_qualifier_added_is_not_another_value() -> None:
    desc = "Retention of raw sensor readings"
    cards = [card("a.md", desc, "Raw readings are kept for 90 days."),
             card("b.md", desc, "Raw readings are kept for 90 days, then rolled up hourly.")]
    assert not {k for k in kinds(cards) if k[2] == "contradiction"}


# ------------------------------------------------------------- 2. scopes and multi-valued keys


def test_one_rule_for_two_scopes_is_two_facts() -> None:
    desc = "Which formatter the code uses"
    web = card("web.md", desc, "Format with Prettier.", scope="path:apps/web")
    api = card("api.md", desc, "Format with Black.", scope="path:services/api")
    same = card("api2.md", desc, "Format with Prettier.", scope="path:services/api")
    assert kinds([web, api]) == set()
    assert kinds([web, same]) == set()  # the same words in two scopes: two rules, not a duplicate


def test_a_global_rule_meets_a_scoped_one() -> None:
    desc = "Which formatter the code uses"
    scoped = card("web.md", desc, "Format with Prettier.", scope="path:apps/web/")
    everywhere = card("all.md", desc, "Format with Biome.")
    assert kinds([scoped, everywhere]) == {("all.md", "web.md", "contradiction")}
    assert slots.scope_of(scoped) == "path:apps/web"


def test_two_values_of_a_multi_valued_key_are_two_facts() -> None:
    multi = frozenset({"maintainer"})
    lena = card("lena.md", "Maintainer of the search index", "Lena Park maintains the search index.", key="maintainer")
    omar = card("omar.md", "Maintainer of the search index", "Omar Haddad maintains the search index.", key="maintainer")
    again = card("lena2.md", "Maintainer of the search index", "The search index is maintained by Lena Park.",
                 key="maintainer")
    assert kinds([lena, omar], multi) == set()
    assert kinds([lena, again], multi) == {("lena.md", "lena2.md", "duplicate")}
    assert kinds([lena, omar]) == {("lena.md", "omar.md", "contradiction")}  # single-valued: one slot


def test_unrelated_keys_never_pair() -> None:
    a = card("a.md", "Port of the staging broker", "The broker listens on port 5672.", key="staging-broker-port")
    b = card("b.md", "Port of the staging broker", "The broker listens on port 5671.", key="prod-broker-port")
    assert kinds([a, b]) == set()


# ------------------------------------------------------------- 3. values of more than one word


@pytest.mark.parametrize(
    ("desc", "one", "other"),
    [
        ("Tool for one-off CLIs", "Run one-off CLIs with pnpm dlx.", "Run one-off CLIs with bunx."),
        ("Where design feedback is collected", "Collect design feedback in the Figma comments (team file).",
         "Collect design feedback in the Miro board (retro space)."),
        ("Who approves vendor contracts", "Vendor contracts are approved by Ingrid Solberg.",
         "Vendor contracts are approved by Kwame Mensah."),
        ("How types are checked in CI", "Type-check with mypy in strict mode.",
         "Type-check with pyright's basic profile."),
    ],
)
def test_values_of_many_words_differ(desc: str, one: str, other: str) -> None:
    cards = [card("a.md", desc, one), card("b.md", desc, other)]
    (pair,) = find_pairs(cards)
    assert pair.kind == "contradiction", pair.detail


@pytest.mark.parametrize(
    ("desc", "one", "other"),
    [
        ("Tool for one-off CLIs", "Run one-off CLIs with pnpm dlx.", "One-off CLIs are run through pnpm dlx."),
        ("Who approves vendor contracts", "Vendor contracts are approved by Ingrid Solberg.",
         "Ingrid Solberg approves every vendor contract."),
    ],
)
def test_one_value_of_many_words_said_twice_is_a_duplicate(desc: str, one: str, other: str) -> None:
    cards = [card("a.md", desc, one), card("b.md", desc, other)]
    assert kinds(cards) == {("a.md", "b.md", "duplicate")}


# A vault around the cards under test, so that words are as common as in a real one.
FILLER = [card(f"f{i}.md", f"Step {i} of the {name} pipeline", f"The {name} pipeline runs step {i} on every push.")
          for i, name in enumerate(["docs", "web", "billing", "search", "admin", "gateway", "ledger"] * 4)]


def test_another_tool_under_two_descriptions_is_no_duplicate() -> None:
    a = card("a.md", "Test runner of the mobile app", "The mobile app's tests run under detox.")
    b = card("b.md", "How mobile app tests are run", "Mobile app tests are run with maestro.")
    assert {k for k in kinds([a, b, *FILLER]) if not k[0].startswith("f")} == {("a.md", "b.md", "contradiction")}


def test_a_rule_reworded_under_two_descriptions_is_no_contradiction() -> None:
    a = card("a.md", "How metrics carry their dimensions", "Emit metrics with label key-value pairs, not values baked into the metric name.")
    b = card("b.md", "Labelled metrics instead of composed names",
             "Pass metric dimensions as label key/value arguments instead of baking the values into the metric name.")
    assert not {k for k in kinds([a, b, *FILLER]) if k[2] == "contradiction" and not k[0].startswith("f")}


# ------------------------------------------------------------- 4. paraphrases and groups


def test_compounds_written_three_ways_are_one_word() -> None:
    a = card("a.md", "Who gets the sev1 pages", "The oncall engineer gets paged for sev1 incidents.")
    b = card("b.md", "Who is paged for sev1", "The on-call engineer is paged for every sev1 incident.")
    c = card("c.md", "Paging for sev1 incidents", "For sev1 incidents the on call engineer gets paged.")
    assert kinds([a, b, c]) == {("a.md", "b.md", "duplicate"), ("a.md", "c.md", "duplicate"),
                                ("b.md", "c.md", "duplicate")}


def test_reworded_copies_are_all_found_and_neighbours_are_not() -> None:
    copies = [
        card("one.md", "Where build artefacts are kept", "Build artefacts are uploaded to the artefacts bucket in Frankfurt."),
        card("two.md", "Storage for build artefacts", "Build artefacts are stored in the Frankfurt artefacts bucket."),
        card("three.md", "Build artefact storage location", "The Frankfurt bucket for artefacts holds every build artefact."),
    ]
    neighbours = [
        card("rota.md", "Who gets the sev1 pages", "The oncall rotation changes every Monday at 09:00."),
        card("logs.md", "Where build logs are kept", "Build logs stay in the CI provider for 14 days."),
    ]
    # A vault around them, so that "build" is as common as it is in a real one.
    filler = [card(f"f{i}.md", f"Build step {i} of the {name} pipeline", f"The {name} build runs step {i} on every push.")
              for i, name in enumerate(["docs", "mobile", "billing", "search", "admin", "gateway"] * 3)]
    found = {k for k in kinds(copies + neighbours + filler) if not k[0].startswith("f")}
    assert {k[2] for k in found} == {"duplicate"}
    # One group (consolidate joins the pairs into groups): every copy, and nothing else.
    group = {"one.md"}
    for _ in range(3):
        group |= {p for a, b, _kind in found if {a, b} & group for p in (a, b)}
    assert group == {"one.md", "two.md", "three.md"}
    assert len(found) >= 2


def test_a_command_and_its_description_in_other_words_are_one_fact() -> None:
    filler = [card(f"f{i}.md", f"Step {i} of the {name} pipeline", f"The {name} pipeline runs step {i} on every push.")
              for i, name in enumerate(["docs", "mobile", "billing", "search", "admin", "gateway", "ledger"] * 4)]
    a = card("a.md", "How to escalate to the duty manager", "`/escalate` in #support wakes the duty manager.")
    b = card("b.md", "Waking the manager on duty", "Whoever is the manager on duty gets woken when someone runs the "
             "escalate command in the support channel.")
    found = {k for k in kinds([a, b, *filler]) if not k[0].startswith("f")}
    assert found == {("a.md", "b.md", "duplicate")}
    # The longer wording may spend more words on who and how: most of the shorter one is still said.
    c = card("c.md", "How to page the incident commander", "`/page` in #incidents wakes the incident commander.")
    d = card("d.md", "Waking the incident commander", "Whoever is incident commander gets woken when someone runs the "
             "page command in the incidents channel.")
    found = {k for k in kinds([c, d, *filler]) if not k[0].startswith("f")}
    assert found == {("c.md", "d.md", "duplicate")}


def test_two_facts_about_one_topic_are_not_duplicates() -> None:
    cards = [
        card("a.md", "Sev1 paging", "The oncall engineer is paged for sev1 incidents."),
        card("b.md", "Oncall rotation", "The oncall rotation changes every Monday."),
    ]
    assert kinds(cards) == set()


def test_one_body_under_two_summaries_is_one_fact() -> None:
    a = card("a.md", "Survey of the Loki query language: LogQL syntax, labels, parsers, metrics queries",
             "Loki LogQL field guide, compiled 2026-02-11.\n\nLong notes follow.")
    b = card("b.md", "Notes on Loki covering LogQL, alerting rules, retention and the Grafana datasource",
             "Loki LogQL field guide, compiled 2026-02-11.\n\nOther long notes.")
    assert kinds([a, b]) == {("a.md", "b.md", "duplicate")}


def test_one_provenance_sentence_under_two_subjects_is_two_facts() -> None:
    c = card("c.md", "User's review style for documentation", "Confirmed during the April review with the team.")
    d = card("d.md", "For code review in Tarvos, the user wants mornings", "Confirmed during the April review with the team.")
    e = card("e.md", "Runbook for the billing outage", "Written after the March incident, kept in Confluence.")
    f = card("f.md", "Runbook for the search outage", "Written after the March incident, kept in Confluence.")
    assert not {k for k in kinds([c, d, e, f]) if k[2] == "duplicate"}


# ------------------------------------------------------------- languages


def test_english_word_lists_never_judge_other_languages() -> None:
    # Czech "on" is "he" and "no" is "well": no polarity from English lists.
    cz_a = card("cz-a.md", "Kdo schvaluje faktury", "Faktury schvaluje Petr, on to dělá každý den.")
    cz_b = card("cz-b.md", "Kdo schvaluje faktury", "No, faktury schvaluje Petr každý den.")
    # German capitalizes nouns: a capital is no name, so swapping nouns is no value.
    de_a = card("de-a.md", "Sicherung der Datenbank", "Die Datenbank wird jeden Sonntag gesichert.")
    de_b = card("de-b.md", "Sicherung der Datenbank", "Die Sicherung der Datenbank erfolgt jeden Sonntag.")
    assert not slots.english(cz_a) and not slots.english(de_a)
    assert not {k for k in kinds([cz_a, cz_b]) if k[2] == "contradiction"}
    assert not {k for k in kinds([de_a, de_b]) if k[2] == "contradiction"}


def test_numbers_decide_in_every_language() -> None:
    zh_a = card("zh-a.md", "备份保留天数", "数据库备份保留 30 天。")
    zh_b = card("zh-b.md", "备份保留天数", "数据库备份保留 90 天。")
    ko_a = card("ko-a.md", "배포 요일", "배포는 목요일에만 합니다.")
    ko_b = card("ko-b.md", "로그 보관", "로그는 14일 동안 보관합니다.")
    assert kinds([zh_a, zh_b]) == {("zh-a.md", "zh-b.md", "contradiction")}
    assert kinds([ko_a, ko_b]) == set()


def test_unspaced_text_is_compared_by_character_pairs() -> None:
    a = card("a.md", "数据库备份策略", "每天凌晨备份数据库，保留三十天。")
    b = card("b.md", "数据库备份的策略", "数据库每天凌晨备份，保留三十天。")
    other = card("c.md", "前端构建工具", "前端项目使用打包工具构建。")
    assert kinds([a, b, other]) == {("a.md", "b.md", "duplicate")}


# ------------------------------------------------------------- the gate's question is lint's


def test_pairs_with_agrees_with_find_pairs() -> None:
    desc = "Which formatter the code uses"
    vault = [card("web.md", desc, "Format with Prettier.", scope="path:apps/web"),
             card("lena.md", "Maintainer of the search index", "Lena Park maintains the search index.", key="maintainer")]
    multi = frozenset({"maintainer"})
    for new in (card("api.md", desc, "Format with Black.", scope="path:services/api"),
                card("omar.md", "Maintainer of the search index", "Omar Haddad maintains the search index.",
                     key="maintainer"),
                card("web2.md", desc, "Code under apps/web is formatted by Prettier.", scope="path:apps/web")):
        assert {(p.kind) for p in pairs_with(new, vault, multi)} == {p.kind for p in find_pairs([*vault, new], multi)}


def test_units_paths_and_compounds_as_values_see_them() -> None:
    from cardindex.meaning.values import changed, equivalent
    from cardindex.meaning.words import words

    assert {"30", "second"} <= words("Sensors report every 30 seconds").values
    assert changed(words("The invoice export runs on Mondays"), words("The invoice export runs every 30 seconds"))
    assert equivalent({"acme/handbook"}, {"handbook"}) == (set(), set())
    assert equivalent({"oncal"}, {"call"}, ("oncal",), ("call",)) == (set(), set())
    # Negating prefixes are no compounds: "inactive" is not "active", "async" not "sync".
    assert equivalent({"inact"}, {"activ"}, ("inact",), ("activ",)) == ({"inact"}, {"activ"})
    assert equivalent({"async"}, {"sync"}, ("async",), ("sync",)) == ({"async"}, {"sync"})
