"""Lifecycle scenarios of issue 14, third pass, through the real CLI: a reworded triple is one
group for lint and one merge for consolidate; a paraphrase pair merges into the newest
value; a contradiction written in other words is never merged; and lint, the write gate
and consolidate agree on each."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from cardindex.store.card import Card

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", "type: project", *(f"{k}: {v}" for k, v in fields.items()),
             "---", body, ""]
    (root / rel).write_text("\n".join(lines), encoding="utf-8")


def background(root: Path) -> None:
    """Unrelated cards of one vault (a seed bank's cataloguing team), so rarity is as in a real one."""
    put(root, "bg-scanner.md", "Which scanner digitises the seed labels", "Labels are scanned on the Fujitsu fi-8170.")
    put(root, "bg-humidity.md", "Humidity of the cold room", "The cold room is held at 15 percent humidity.")
    put(root, "bg-backup.md", "Backup of the catalogue database", "The catalogue database is backed up nightly.")
    put(root, "bg-review.md", "Who reviews new accession records", "New accession records are reviewed by a curator.")
    put(root, "bg-photos.md", "Where specimen photos are kept", "Specimen photos live on the NAS share photos.")


def lint_pairs(invoke: Invoke) -> set[tuple[str, str, str]]:
    out = invoke("lint", "--select", "duplicate,contradiction", "--format", "json")
    assert out.exit_code in (0, 1), out.stderr
    return {(f["category"], *sorted([f["path"], *f["related"]])) for f in json.loads(out.stdout)}


def plan(invoke: Invoke) -> list[dict[str, object]]:
    out = invoke("consolidate", "--dry-run", "--format", "json")
    assert out.exit_code == 0, out.stderr
    decisions: list[dict[str, object]] = json.loads(out.stdout)["decisions"]
    return decisions


def card(root: Path, rel: str) -> Card:
    return Card.from_text(rel, (root / rel).read_text(encoding="utf-8"))


TRIPLE = [
    ("germ-a.md", "How long seeds soak before a germination test",
     "Seeds soak for 12 hours before a germination test.", "2026-02-01"),
    ("germ-b.md", "Soaking time ahead of germination tests",
     "Before any germination test the seeds are left to soak in water for 12 hours.", "2026-04-01"),
    ("germ-c.md", "Germination test preparation",
     "Seeds are soaked for 12 hours before every germination test; use plain water.", "2026-06-01"),
]


def test_a_reworded_triple_is_one_group_for_lint_and_one_merge(invoke: Invoke, vault: Path) -> None:
    background(vault)
    for rel, description, body, verified in TRIPLE:
        put(vault, rel, description, body, verified=verified)
    found = lint_pairs(invoke)
    members = {rel for rel, *_ in TRIPLE}
    linked = {p for kind, *p in found if kind == "duplicate" for p in p}
    assert linked == members  # every member reported, nothing else
    assert not any(kind == "contradiction" for kind, *_ in found)
    merges = [d for d in plan(invoke) if d["action"] == "merge"]
    assert len(merges) == 1  # one group, one canonical card
    merged = {merges[0]["card"], *merges[0]["related"]}  # type: ignore[misc]
    assert merged == {"germ-a", "germ-b", "germ-c"}
    result = invoke("consolidate", "--format", "json")
    assert result.exit_code == 0, result.stderr
    canonical = str(merges[0]["card"])
    kept = card(vault, f"{canonical}.md")
    assert set(kept.fields["merged_from"]) == merged - {canonical}
    assert str(kept.fields["verified"]) == "2026-06-01"  # the newest evidence of the group
    assert lint_pairs(invoke) == set()  # nothing left to report


def test_a_paraphrase_pair_merges_into_the_newest_value(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "alarm-old.md", "How to page the cold-room technician",
        "`/coldroom` in #vault-ops pages the cold-room technician.", verified="2026-03-01")
    put(vault, "alarm-new.md", "Paging whoever looks after the cold room",
        "Whoever is the cold-room technician that week gets paged when somebody runs the coldroom command "
        "in the vault-ops channel.", verified="2026-09-01")
    assert ("duplicate", "alarm-new.md", "alarm-old.md") in lint_pairs(invoke)
    gate = invoke("add", "The cold-room technician is paged by `/coldroom` in #vault-ops.",
                  "-d", "Paging the cold-room technician", "-n", "alarm-third")
    assert gate.exit_code == 1 and "U101" in gate.stderr  # the gate refuses a third copy
    merges = [d for d in plan(invoke) if d["action"] == "merge"]
    assert [(d["card"], d["related"]) for d in merges] == [("alarm-new", ["alarm-old"])]


def test_a_contradiction_in_other_words_is_never_merged(invoke: Invoke, vault: Path) -> None:
    background(vault)
    description = "Time of the nightly catalogue export"
    put(vault, "export-old.md", description, "The catalogue export runs every night at 02:00.", verified="2026-03-01")
    put(vault, "export-new.md", description, "Each night at 04:30 the export of the catalogue kicks off.",
        verified="2026-08-01")
    put(vault, "tool-a.md", "Spreadsheet tool for accession batches", "Accession batches are prepared in LibreOffice.",
        created="2026-05-01")
    put(vault, "tool-b.md", "Spreadsheet tool for accession batches", "Google Sheets is where batches get prepared.",
        created="2026-05-01")
    found = lint_pairs(invoke)
    assert ("contradiction", "export-new.md", "export-old.md") in found
    assert ("contradiction", "tool-a.md", "tool-b.md") in found
    assert not any(kind == "duplicate" for kind, *_ in found)
    actions = {(d["action"], d["card"]) for d in plan(invoke)}
    assert not any(action == "merge" for action, _ in actions)
    assert ("supersede", "export-old") in actions  # the time was measured again: newer evidence wins
    assert ("conflict", "tool-a") in actions or ("conflict", "tool-b") in actions  # time cannot decide


def test_a_second_value_in_other_words_is_written_but_named_by_the_gate(invoke: Invoke, vault: Path) -> None:
    background(vault)
    description = "Spreadsheet tool for accession batches"
    put(vault, "tool-a.md", description, "Accession batches are prepared in LibreOffice.")
    added = invoke("add", "Google Sheets is where batches get prepared.", "-d", description, "-n", "tool-b")
    assert added.exit_code == 0, added.stderr  # another value is not a duplicate: the gate lets it in
    assert (vault / "tool-b.md").exists()
    assert ("contradiction", "tool-a.md", "tool-b.md") in lint_pairs(invoke)


def test_hard_negatives_of_one_topic_stay_apart(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "day.md", "Which weekday the seed inventory is counted", "The seed inventory is counted on Mondays.")
    put(vault, "tool.md", "What counts the seed inventory", "The seed inventory is counted by the Zebra handheld app.")
    put(vault, "who.md", "Who counts the seed inventory", "The seed inventory is counted by the night curator.")
    put(vault, "dash-a.md", "Dashboard for the germination lab", "Built by the data team, hosted on the lab server.")
    put(vault, "dash-b.md", "Dashboard for the drying room", "Built by the data team, hosted on the lab server.")
    put(vault, "web.md", "Formatter for the catalogue code", "Format with Prettier.", scope="path:apps/web")
    put(vault, "api.md", "Formatter for the catalogue code", "Format with Black.", scope="path:services/api")
    assert lint_pairs(invoke) == set()
    assert not [d for d in plan(invoke) if d["action"] in ("merge", "conflict", "supersede")]
