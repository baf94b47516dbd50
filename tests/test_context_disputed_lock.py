"""`cards context`: a newer note in conflict with a locked card is named under it, not shown as a competing fact."""

from __future__ import annotations

import json


def test_a_note_against_a_locked_card_is_named_not_offered_as_a_value(invoke):
    first = invoke("add", "Release branches are cut every second Tuesday.", "--description",
                   "When release branches are cut", "--key", "release-cut", "--lock", env={"CARDS_TODAY": "2026-03-01"})
    assert first.exit_code == 0, first.output
    second = invoke("add", "Release branches are cut every Friday.", "--description", "Release branch schedule",
                    "--key", "release-cut", env={"CARDS_TODAY": "2026-04-08"})
    assert second.exit_code == 0, second.output
    day = {"CARDS_TODAY": "2026-04-10"}
    out = invoke("context", env=day).stdout
    assert "every second Tuesday" in out
    assert "every Friday" not in out  # the disputing value is not given as a fact
    assert "CONFLICT" not in out
    assert "disputed by" in out and "the locked card holds" in out
    data = json.loads(invoke("context", "--format", "json", env=day).stdout)
    [item] = [i for i in data["items"] if i["cards"][0]["lock"]]
    assert item["conflict"] is False and len(item["disputed_by"]) == 1
    assert "Friday" not in json.dumps([c for i in data["items"] for c in i["cards"]])
    assert data["omitted"] == []  # a disputing card is accounted for, not "left out to fit"


def test_a_locked_card_left_out_by_the_budget_leaves_its_dispute_out_with_it(invoke):
    assert invoke("add", "Release branches are cut every second Tuesday.", "--description",
                  "When release branches are cut", "--key", "release-cut", "--lock",
                  env={"CARDS_TODAY": "2026-03-01"}).exit_code == 0
    assert invoke("add", "Release branches are cut every Friday.", "--description", "Release branch schedule",
                  "--key", "release-cut", env={"CARDS_TODAY": "2026-04-08"}).exit_code == 0
    data = json.loads(invoke("context", "--budget", "200", "--format", "json", env={"CARDS_TODAY": "2026-04-10"}).stdout)
    assert data["items"] == []
    assert len(data["omitted"]) == 2  # counted among what the budget left out, never silently dropped
