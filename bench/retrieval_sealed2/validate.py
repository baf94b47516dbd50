#!/usr/bin/env python3
"""Check the retrieval_sealed2 set: cards parse, fields are valid, queries are consistent.

Standard library only. Exit 0 when everything holds, 1 otherwise.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VAULT = os.path.join(HERE, "vault")
TYPES = {"user", "feedback", "project", "reference"}
STATUSES = {"active", "conflict", "stale", "superseded", "archived"}
NOT_CARDS = {"INDEX.md", "README.md", "MEMORY.md"}


def scalar(value):
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return json.loads(value)
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if value.startswith("[") and value.endswith("]"):
        inner = value[1:-1].strip()
        return [scalar(v) for v in inner.split(",")] if inner else []
    return value


def parse_frontmatter(text):
    """Return (fields, errors). Nested `metadata:` becomes a dict."""
    errors = []
    lines = text.split("\n")
    if not lines or lines[0] != "---":
        return None, ["no opening ---"]
    try:
        end = lines.index("---", 1)
    except ValueError:
        return None, ["no closing ---"]
    fields, current = {}, None
    for n, line in enumerate(lines[1:end], start=2):
        if not line.strip():
            continue
        if any(ord(c) < 32 and c != "\t" for c in line):
            errors.append(f"line {n}: control character")
        indented = line.startswith(" ")
        if ":" not in line:
            errors.append(f"line {n}: not key: value")
            continue
        key, _, value = line.strip().partition(":")
        key = key.strip()
        if indented:
            if current is None:
                errors.append(f"line {n}: indented line outside a mapping")
                continue
            target = fields[current]
        else:
            target = fields
            current = None
        if key in target:
            errors.append(f"line {n}: duplicate key {key}")
        if not indented and value.strip() == "":
            fields[key] = {}
            current = key
            continue
        try:
            target[key] = scalar(value)
        except ValueError as exc:
            errors.append(f"line {n}: bad quoted value ({exc})")
    return fields, errors


def field(fields, name):
    if name in fields:
        return fields[name]
    meta = fields.get("metadata")
    if isinstance(meta, dict):
        return meta.get(name)
    return None


def main():
    problems = []
    cards = {}
    for root, dirs, files in os.walk(VAULT):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.endswith(".md") or name in NOT_CARDS or name.startswith("."):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, VAULT).replace(os.sep, "/")
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            fields, errors = parse_frontmatter(text)
            if fields is None:
                problems.append(f"{rel}: {errors[0]}")
                continue
            for e in errors:
                problems.append(f"{rel}: {e}")
            cards[rel] = fields
            if not field(fields, "description"):
                problems.append(f"{rel}: missing description")
            if field(fields, "type") not in TYPES:
                problems.append(f"{rel}: bad type {field(fields, 'type')!r}")
            status = field(fields, "status") or "active"
            if status not in STATUSES:
                problems.append(f"{rel}: bad status {status!r}")
            archived = rel.startswith("archive/")
            if archived and status not in ("superseded", "archived"):
                problems.append(f"{rel}: in archive/ but status {status}")
            if not archived and status in ("superseded", "archived"):
                problems.append(f"{rel}: status {status} outside archive/")
            if "metadata" in fields and isinstance(fields["metadata"], dict):
                for k in fields["metadata"]:
                    if k in fields:
                        problems.append(f"{rel}: {k} both top level and in metadata")
    keys = {}
    for rel, fields in sorted(cards.items()):
        status = field(fields, "status") or "active"
        key = field(fields, "key")
        if key and status not in ("superseded", "archived"):
            if key in keys:
                problems.append(f"{rel}: key {key} also on {keys[key]}")
            keys[key] = rel
    with open(os.path.join(HERE, "queries.json"), encoding="utf-8") as fh:
        queries = json.load(fh)
    ids, texts = set(), set()
    for q in queries:
        for k in ("id", "query", "relevant", "note"):
            if k not in q:
                problems.append(f"query {q.get('id')}: missing {k}")
        if q["id"] in ids:
            problems.append(f"query {q['id']}: duplicate id")
        ids.add(q["id"])
        norm = " ".join(q["query"].lower().split())
        if norm in texts:
            problems.append(f"query {q['id']}: duplicate text")
        texts.add(norm)
        for r in q["relevant"]:
            if r not in cards:
                problems.append(f"query {q['id']}: relevant {r} does not exist")
            elif r.startswith("archive/") and "history" not in q["note"]:
                problems.append(f"query {q['id']}: archived card {r} in a non-history query")
    for p in problems:
        print(p)
    print(f"{len(cards)} cards, {len(queries)} queries, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
