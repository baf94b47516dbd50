"""`cards search` filters (issue 15): scope, type, status, --all, --as-of; history and conflicts marked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result
from test_search_engine import put

Invoke = Callable[..., Result]


def hits(invoke: Invoke, *args: str) -> list[dict[str, Any]]:
    result = invoke("search", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout or "[]")  # type: ignore[no-any-return]


def ids(invoke: Invoke, *args: str) -> list[str]:
    return [h["id"] for h in hits(invoke, *args)]


def studio(vault: Path) -> None:
    put(vault, "mics.md", "Which microphone is used for vocals", "Vocals are recorded on the U87.",
        scope="path:rooms/a")
    put(vault, "mics-b.md", "Which microphone room B uses for drums", "Room B uses SM57s on the snare.",
        scope="path:rooms/b")
    put(vault, "booking.md", "How studio time is booked", "Studio time is booked in the shared calendar.")
    put(vault, "me.md", "Which microphone the user prefers", "The user likes ribbon microphones.", type="user")
    put(vault, "old-rate.md", "Hourly studio rate", "The studio charges 40 EUR per hour.", key="rate",
        status="superseded", superseded_by="rate")
    put(vault, "archive/rate-2024.md", "Hourly studio rate in 2024", "The studio charged 30 EUR per hour.",
        status="archived")
    put(vault, "rate.md", "Hourly studio rate", "The studio charges 55 EUR per hour.", key="rate")
    put(vault, "promo.md", "Summer discount on studio hours", "Studio hours are 20% off in August.",
        expires="2026-09-01")


def test_scope_keeps_its_path_cards_and_global_ones(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    assert set(ids(invoke, "microphone", "--scope", "rooms/a/vocal-booth")) == {"mics", "me"}
    assert set(ids(invoke, "microphone", "--scope", "rooms/b")) == {"mics-b", "me"}
    assert set(ids(invoke, "microphone")) == {"mics", "mics-b", "me"}
    assert ids(invoke, "microphone", "--type", "user") == ["me"]


def test_history_only_when_asked_and_marked(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    live = ids(invoke, "studio hourly rate")
    assert live[0] == "rate" and not {"old-rate", "archive/rate-2024", "promo"} & set(live)
    everything = {h["id"]: h["status"] for h in hits(invoke, "studio hourly rate", "--all")}
    assert {k: everything.get(k) for k in ("rate", "old-rate", "archive/rate-2024", "promo")} == {
        "rate": "active", "old-rate": "superseded", "archive/rate-2024": "archived", "promo": "expired"}
    text = invoke("search", "studio hourly rate", "--all").stdout
    assert "old-rate  Hourly studio rate  [superseded]" in text and "[archived]" in text
    assert "rate  Hourly studio rate\n" in text  # the live one carries no mark
    assert ids(invoke, "studio hourly rate", "--status", "superseded") == ["old-rate"]
    assert ids(invoke, "summer discount") == []
    assert [(h["id"], h["status"]) for h in hits(invoke, "summer discount", "--status", "expired")] == [
        ("promo", "expired")]


def test_a_conflict_comes_back_with_every_side_marked(invoke: Invoke, vault: Path) -> None:
    put(vault, "tuning-a.md", "Reference pitch for tuning instruments", "Instruments tune to A 440 Hz.",
        key="pitch", status="conflict", conflicts_with="tuning-b")
    put(vault, "tuning-b.md", "Reference pitch", "Concert pitch here is 442.", key="pitch", status="conflict",
        conflicts_with="tuning-a")
    put(vault, "strings.md", "When guitar strings are changed", "Strings are changed before every session.")
    found = hits(invoke, "tuning instruments")
    assert [h["id"] for h in found[:2]] == ["tuning-a", "tuning-b"]  # b shares no query word but comes along
    assert [h["status"] for h in found[:2]] == ["conflict", "conflict"]
    assert found[0]["conflict_with"] == ["tuning-b"] and found[1]["conflict_with"] == ["tuning-a"]
    text = invoke("search", "tuning instruments").stdout.splitlines()
    assert text[0].endswith("[conflict]") and text[1].endswith("[conflict]")


def test_as_of_searches_what_the_vault_held_then(invoke: Invoke, vault: Path) -> None:
    put(vault, "mix-old.md", "Which format mixes are delivered in", "Mixes are delivered as 16-bit WAV.",
        key="mix-format", created="2026-01-05", verified="2026-01-05")
    put(vault, "mix-new.md", "Which format mixes are delivered in", "Mixes are delivered as 24-bit WAV.",
        key="mix-format", created="2026-09-14", verified="2026-09-14")
    assert invoke("consolidate", "--now", "2026-10-01").exit_code == 0
    assert ids(invoke, "delivered mixes") == ["mix-new"]
    assert ids(invoke, "delivered mixes", "--as-of", "2026-08-01") == ["mix-old"]
    assert set(ids(invoke, "delivered mixes", "--as-of", "2026-09-20")) == {"mix-old", "mix-new"}
