"""Check the sealed retrieval set: every card parses, queries point at real cards.

Run: python3 bench/retrieval_set/validate.py
"""
import json
import pathlib
import sys
from collections import Counter

import yaml

HERE = pathlib.Path(__file__).resolve().parent
VAULT = HERE / "vault"
TYPES = {"user", "feedback", "project", "reference"}
problems = []


def frontmatter(path):
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ValueError("no frontmatter")
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        raise ValueError("unterminated frontmatter")
    data = yaml.safe_load(head)
    if not isinstance(data, dict):
        raise ValueError("frontmatter is not a mapping")
    if not body.strip():
        raise ValueError("empty body")
    return data


cards = {}
for path in sorted(VAULT.rglob("*.md")):
    rel = path.relative_to(VAULT).as_posix()
    try:
        fm = frontmatter(path)
    except Exception as exc:  # noqa: BLE001
        problems.append(f"{rel}: {exc}")
        continue
    meta = fm.get("metadata") or {}
    field = lambda k: fm.get(k, meta.get(k))  # noqa: E731
    if not fm.get("description"):
        problems.append(f"{rel}: no description")
    if field("type") not in TYPES:
        problems.append(f"{rel}: bad type {field('type')!r}")
    for k in fm:
        if k in meta:
            problems.append(f"{rel}: {k} both top level and in metadata")
    status = field("status") or "active"
    archived = rel.startswith("archive/")
    if archived != (status in {"superseded", "archived"}):
        problems.append(f"{rel}: status {status} vs folder")
    cards[rel] = {"status": status, "nested": "metadata" in fm, "key": field("key")}

live_keys = Counter(c["key"] for c in cards.values() if c["key"] and c["status"] == "active")
for k, n in live_keys.items():
    if n > 1:
        problems.append(f"key {k} on {n} live cards")

queries = json.loads((HERE / "queries.json").read_text(encoding="utf-8"))
ids = Counter(q["id"] for q in queries)
problems += [f"duplicate id {i}" for i, n in ids.items() if n > 1]
kinds = Counter()
for q in queries:
    assert set(q) == {"id", "query", "relevant", "note"}, q
    kind = q["note"].split(":")[0].split(",")[0].strip()
    kinds[kind] += 1
    history = "history" in q["note"]
    if len(set(q["relevant"])) != len(q["relevant"]):
        problems.append(f"{q['id']}: repeated relevant path")
    for rel in q["relevant"]:
        if rel not in cards:
            problems.append(f"{q['id']}: no card {rel}")
        elif (cards[rel]["status"] != "active") != history:
            problems.append(f"{q['id']}: {rel} status {cards[rel]['status']} (history={history})")
    if history and not q["relevant"]:
        problems.append(f"{q['id']}: history query without a card")

off_topic = sum(1 for q in queries if not q["relevant"])
print(f"cards: {len(cards)} (live {sum(c['status'] == 'active' for c in cards.values())}, "
      f"archived/superseded {sum(c['status'] != 'active' for c in cards.values())}, "
      f"nested {sum(c['nested'] for c in cards.values())}, "
      f"with key {sum(bool(c['key']) for c in cards.values())})")
print(f"queries: {len(queries)}, off-topic: {off_topic}")
for kind, n in sorted(kinds.items()):
    print(f"  {kind}: {n}")
print(f"cards named by some query: {len({r for q in queries for r in q['relevant']})}")
for p in problems:
    print("PROBLEM", p)
sys.exit(1 if problems else 0)
