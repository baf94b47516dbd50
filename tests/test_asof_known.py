"""`context --as-of DATE` leaves out what was first known after DATE (issue 17).

A card with no `created` dates itself by `verified`: confirmed only after the day asked
about, it was not known then. `created` beats `verified` (confirmed again later is still
known), and a card with neither date cannot be placed, so it stays.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from hypothesis import given
from hypothesis import strategies as st

from cardindex.lifecycle.asof import known_by
from cardindex.store.card import Card, parse

Invoke = Callable[..., Result]


def _ids(result: Result) -> set[str]:
    assert result.exit_code == 0, result.stderr
    return {c["id"] for item in json.loads(result.stdout)["items"] for c in item["cards"]}


def test_verified_after_the_day_and_no_created_is_left_out(invoke: Invoke, vault: Path, make_card: Callable[..., str]) -> None:
    (vault / "kiln-temperature.md").write_text(make_card(
        "Firing temperature of the glaze kiln", body="The glaze kiln fires at 1,240 °C.", verified="2026-10-05"))
    (vault / "ferry-times.md").write_text(make_card(
        "When the island ferry leaves", body="The ferry leaves the harbour at 07:10.", verified="2026-09-01"))
    assert _ids(invoke("context", "--as-of", "2026-09-15", "--format", "json")) == {"ferry-times"}
    assert _ids(invoke("context", "--as-of", "2026-10-05", "--format", "json")) == {"ferry-times", "kiln-temperature"}


def test_created_before_the_day_counts_whatever_verified_says(invoke: Invoke, vault: Path,
                                                              make_card: Callable[..., str]) -> None:
    (vault / "choir-rehearsal.md").write_text(make_card(
        "Which evening the choir rehearses", body="The choir rehearses on Wednesday evenings.",
        created="2026-03-02", verified="2026-11-20"))
    (vault / "seed-order.md").write_text(make_card(
        "Who orders seeds for the allotment", body="Marta orders the seeds each January."))
    assert _ids(invoke("context", "--as-of", "2026-06-01", "--format", "json")) == {"choir-rehearsal", "seed-order"}


def test_created_after_the_day_is_left_out_even_when_verified_earlier(invoke: Invoke, vault: Path,
                                                                     make_card: Callable[..., str]) -> None:
    (vault / "odd-dates.md").write_text(make_card(
        "Where the spare bike keys hang", body="The spare bike keys hang in the hallway.",
        created="2026-08-10", verified="2026-07-01"))
    assert _ids(invoke("context", "--as-of", "2026-07-15", "--format", "json")) == set()


DAYS = st.dates(min_value=dt.date(2025, 1, 1), max_value=dt.date(2027, 12, 31))


@given(created=st.none() | DAYS, verified=st.none() | DAYS, day=DAYS)
def test_known_by_is_the_first_of_created_else_verified(created: dt.date | None, verified: dt.date | None,
                                                       day: dt.date) -> None:
    lines = ["---", "description: A fact", "type: project"]
    lines += [f"created: {created.isoformat()}"] if created else []
    lines += [f"verified: {verified.isoformat()}"] if verified else []
    text = "\n".join([*lines, "---", "Body.", ""])
    card = Card("fact.md", text, *parse(text))
    first = created or verified
    assert known_by(card, day) is (first is None or first <= day)


def test_search_as_of_dates_a_card_by_verified_too(invoke, vault) -> None:  # type: ignore[no-untyped-def]
    (vault / "late.md").write_text("---\ndescription: Where the payout job runs\ntype: project\nverified: 2026-11-20\n"
                                   "---\nThe payout job runs on the batch cluster.\n", encoding="utf-8")
    then = invoke("search", "payout job", "--as-of", "2026-11-01", "--format", "json")
    now = invoke("search", "payout job", "--format", "json")
    assert then.exit_code in (0, 1) and "late" not in then.stdout, then.stdout  # 1: no hits, as grep
    assert "late" in now.stdout
