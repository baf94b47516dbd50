"""Check the sealed retrieval set: cards parse, queries point at real cards.

Run: python bench/retrieval_sealed/validate.py
"""
import json
import pathlib
import sys

import yaml

HERE = pathlib.Path(__file__).resolve().parent
VAULT = HERE / "vault"
TYPES = {"user", "feedback", "project", "reference"}


def frontmatter(path):
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        raise ValueError("no frontmatter")
    head, _, body = text[4:].partition("\n---\n")
    data = yaml.safe_load(head)
    if not isinstance(data, dict):
        raise ValueError("frontmatter is not a mapping")
    return data, body


def main():
    errors = []
    cards = {}
    for p in sorted(VAULT.rglob("*.md")):
        rel = p.relative_to(VAULT).as_posix()
        try:
            fm, body = frontmatter(p)
        except Exception as e:  # noqa: BLE001
            errors.append(f"{rel}: {e}")
            continue
        meta = fm.get("metadata") or {}
        typ = fm.get("type", meta.get("type"))
        status = fm.get("status", meta.get("status", "active"))
        if not fm.get("name") or not fm.get("description"):
            errors.append(f"{rel}: missing name or description")
        if typ not in TYPES:
            errors.append(f"{rel}: bad type {typ!r}")
        if not body.strip():
            errors.append(f"{rel}: empty body")
        if rel.startswith("archive/") != (status in ("superseded", "archived")):
            errors.append(f"{rel}: status {status!r} does not match its folder")
        cards[rel] = dict(status=status, nested="metadata" in fm, key=fm.get("key", meta.get("key")))
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
                errors.append(f"{q['id']}: {r} does not exist")
            elif cards[r]["status"] != "active" and "history" not in q["note"]:
                errors.append(f"{q['id']}: {r} is archived but the query is not marked history")
        if len(set(q["relevant"])) != len(q["relevant"]):
            errors.append(f"{q['id']}: duplicate relevant path")
    vocab = ["synonym", "question", "task", "inflection", "abbreviation", "two cards",
             "three cards", "off-topic", "short", "hyphenation", "negated", "typo",
             "compound", "comparative", "long", "history"]
    kinds = {v: sum(v in q["note"] for q in queries) for v in vocab}
    print(f"cards {len(cards)}, nested {sum(c['nested'] for c in cards.values())}, "
          f"archived {sum(c['status'] != 'active' for c in cards.values())}, "
          f"with key {sum(bool(c['key']) for c in cards.values())}")
    print(f"queries {len(queries)}, off-topic {sum(not q['relevant'] for q in queries)}, "
          f"multi-card {sum(len(q['relevant']) > 1 for q in queries)}, "
          f"history {sum('history' in q['note'] for q in queries)}")
    print("kinds:", ", ".join(f"{k} {v}" for k, v in kinds.items()))
    for e in errors:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
