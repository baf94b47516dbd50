"""Check the dev4 retrieval set: every card's frontmatter parses as YAML and has the
required fields, ids are unique, every relevant path exists, and relevant cards are live
unless the query is marked as history."""
import json
import pathlib
import sys

import yaml

HERE = pathlib.Path(__file__).resolve().parent
VAULT = HERE / "vault"
TYPES = {"user", "feedback", "project", "reference"}


def frontmatter(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), path
    head, _, body = text[4:].partition("\n---\n")
    fm = yaml.safe_load(head)
    assert isinstance(fm, dict), path
    assert body.strip(), f"{path}: empty body"
    return fm


def main():
    errors = []
    cards = {}
    for p in sorted(VAULT.rglob("*.md")):
        rel = p.relative_to(VAULT).as_posix()
        try:
            fm = frontmatter(p)
        except Exception as e:  # noqa: BLE001
            errors.append(f"{rel}: {e}")
            continue
        meta = fm.get("metadata") or {}

        def get(k, fm=fm, meta=meta):
            return fm.get(k, meta.get(k))

        if not fm.get("description"):
            errors.append(f"{rel}: no description")
        if get("type") not in TYPES:
            errors.append(f"{rel}: bad type {get('type')!r}")
        status = get("status") or "active"
        if rel.startswith("archive/") != (status in ("superseded", "archived")):
            errors.append(f"{rel}: status {status} vs folder")
        cards[rel] = {"status": status, "nested": "metadata" in fm, "key": get("key")}
    queries = json.loads((HERE / "queries.json").read_text(encoding="utf-8"))
    ids = [q["id"] for q in queries]
    if len(ids) != len(set(ids)):
        errors.append("duplicate query ids")
    texts = [q["query"].lower() for q in queries]
    if len(texts) != len(set(texts)):
        errors.append("duplicate query texts")
    for q in queries:
        for r in q["relevant"]:
            if r not in cards:
                errors.append(f"{q['id']}: missing {r}")
            elif cards[r]["status"] != "active" and "history" not in q["note"]:
                errors.append(f"{q['id']}: {r} is {cards[r]['status']} but query is not history")
        if len(set(q["relevant"])) != len(q["relevant"]):
            errors.append(f"{q['id']}: duplicate relevant")
    live_keys = {}
    for rel, c in cards.items():
        if c["key"] and c["status"] == "active":
            if c["key"] in live_keys:
                errors.append(f"live key {c['key']} on {rel} and {live_keys[c['key']]}")
            live_keys[c["key"]] = rel
    n_arch = sum(c["status"] != "active" for c in cards.values())
    print(f"cards {len(cards)} (nested {sum(c['nested'] for c in cards.values())}, "
          f"archived/superseded {n_arch}, with key {sum(bool(c['key']) for c in cards.values())}); "
          f"queries {len(queries)} (off-topic {sum(not q['relevant'] for q in queries)}, "
          f"history {sum('history' in q['note'] for q in queries)}, "
          f"multi-card {sum(len(q['relevant']) > 1 for q in queries)})")
    never = set(cards) - {r for q in queries for r in q["relevant"]}
    print(f"cards never relevant: {len(never)}")
    for e in errors:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
