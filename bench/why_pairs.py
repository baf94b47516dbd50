#!/usr/bin/env python3
"""Why each labelled pair of a corpus is found or missed: which block proposed it, what the model computed.

    python bench/why_pairs.py tests/pairs_dev                 # duplicate pairs, one block each
    python bench/why_pairs.py tests/pairs_dev --kind contradiction
    python bench/why_pairs.py tests/pairs_dev --missed        # only the pairs not found
    python bench/why_pairs.py tests/pairs_dev --summary       # one line per pair, then misses by cause
    python bench/why_pairs.py bench/real_vaults/acmp.json     # a labelled real vault (its clone, see there)

For every labelled pair (labels.json `pairs`): whether `similarity` proposed it and by which
block (same key, same description, two rare description words, two rare statement words),
the slot relation, each card's statement (description and fact words), the coverage and
paraphrase measures, the verdict of `classify_sides`, and the first step that said no.
A diagnosis, not a score: `bench/eval_lint.py` scores through the CLI. Reads the corpus
(`vault/`, `labels.json`), changes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardindex.meaning import blocking, restatement, similarity, slots
from cardindex.meaning.classify import (
    Side,
    _anchored,
    _coverage,
    _other_questions,
    _reworded,
    _same_statement,
    classify_sides,
    side,
)
from cardindex.meaning.documents import Documents
from cardindex.meaning.paraphrase import restated
from cardindex.meaning.words import statement
from cardindex.store.vault import Vault


def blocks(cards_keys: list[str | None], sides: Sequence[Side], weight: dict[str, float],
           multi: frozenset[str]) -> dict[tuple[int, int], list[str]]:
    """Which block proposed each candidate pair (the calls of `blocking._shared_two`, in order, are named)."""
    named = iter(["description-words", "statement-words", "content-words"])
    found: dict[tuple[int, int], list[str]] = {}
    original = blocking._shared_two

    def traced(pairs: set[tuple[int, int]], chosen: Any, limit: int) -> None:
        name = next(named, "more")
        before = set(pairs)
        mine: set[tuple[int, int]] = set()
        original(mine, chosen, limit)
        for p in mine:
            found.setdefault(p, []).append(name)
        pairs.update(mine | before)

    blocking._shared_two = traced  # type: ignore[assignment]
    try:
        statements = [s.statement for s in sides]
        for i, j, same_key in similarity.candidates([s.card for s in sides], statements, weight, multi):
            reasons = found.setdefault((i, j), [])
            if same_key:
                reasons.insert(0, "same-key")
            if statements[i].description.text == statements[j].description.text:
                reasons.insert(0, "same-description")
            if not reasons:
                reasons.append("short-statement")
    finally:
        blocking._shared_two = original
    return found


def diagnose(a: Side, b: Side, weight: dict[str, float], multi: frozenset[str]) -> dict[str, Any]:
    """The measures the model computes for one pair, and its verdict."""
    sa, sb = a.statement, b.statement
    relation = slots.relate(a.scope, b.scope, a.key, b.key, lambda: slots.same_description(a.card, b.card, sa, sb), multi)
    if relation == slots.OPEN and _reworded(sa.description, sb.description, a.description, b.description) \
            and not _other_questions(a.card.description, b.card.description):
        relation = slots.DESCRIBED + " (reworded)"
    smaller, larger = _coverage(a, b, weight)
    r = restated(sa.all, sb.all, weight)
    pair = classify_sides(a, b, weight, multi)
    ca, cb = restatement.content(a.card), restatement.content(b.card)
    if ca is None or cb is None:
        content: Any = "long card: not compared on content"
    else:
        m, conflict = restatement.measures(ca, cb, weight)
        slot = frozenset(ca.description.tokens) | frozenset(cb.description.tokens)
        content = {"slot": m.slot, "anchor": m.anchor, "covered": m.covered, "cover_long": m.cover_long, "joined": m.joined,
                   "conflict": conflict,
                   # the typed values of each (`restatement.typed`), and whether they settle one fact
                   "typed": ({k: sorted(v) for k, v in restatement.typed(ca, slot).items()},
                             {k: sorted(v) for k, v in restatement.typed(cb, slot).items()}),
                   "one_typed_value": restatement.one_typed_value(ca, cb, weight),
                   "typed_apart": restatement.typed_apart(ca, cb)}
    return {
        "relation": relation,
        "english": a.english and b.english,
        "anchored": _anchored(a, b),
        "same_statement": _same_statement(a, b),
        "coverage": (round(smaller, 2), round(larger, 2)),
        "restated": {"covered": round(r.covered, 2), "shared": r.shared, "missing": r.missing,
                     "added": sorted(r.added_values), "lost": sorted(r.lost_values)},
        "content": content,
        "verdict": None if pair is None else f"{pair.kind}/{pair.reason}: {pair.detail}",
    }


def cause(d: dict[str, Any], proposed: bool, kind: str) -> str:
    """The first step that said no, in general terms."""
    if d["verdict"] and d["verdict"].startswith(kind):
        return "found"
    if not proposed:
        return "not a candidate"
    if d["relation"] == slots.APART:
        return "slots apart (scope or key)"
    if not d["english"]:
        return "not both English"
    if d["verdict"]:
        return "classified as " + d["verdict"].split("/")[0]
    if d["relation"] != slots.OPEN:
        return "same slot, value not shown to agree"
    c = d["content"]
    if isinstance(c, dict):
        if c["typed_apart"]:
            return f"content: typed values apart ({c['typed_apart'][:30]})"
        if c["conflict"]:
            return f"content: values conflict ({str(c['conflict'])[:30]})"
        for name, low in (("slot", restatement.SLOT), ("anchor", restatement.ANCHOR), ("covered", restatement.COVERED),
                          ("cover_long", restatement.COVER_LONG)):
            if c[name] < low:
                return f"content: {name} {c[name]} < {low}"
    r = d["restated"]
    if r["added"] or r["lost"]:
        return "open slot: a marked value on one side only"
    if r["covered"] < 0.65:
        return "open slot: shorter statement not covered by the longer"
    return "open slot: paraphrase test failed (shared/missing words)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--kind", default="duplicate", choices=["duplicate", "contradiction"])
    parser.add_argument("--missed", action="store_true", help="only the pairs not found")
    parser.add_argument("--summary", action="store_true", help="one line per pair and the misses by cause")
    args = parser.parse_args(argv)
    if args.corpus.suffix == ".json":  # a labelled real vault (bench/real_vaults/*.json): it names its vault
        labels = json.loads(args.corpus.read_text())
        vault = Vault(Path(labels["vault"]), use_cache=False)
    else:
        labels = json.loads((args.corpus / "labels.json").read_text())
        vault = Vault(args.corpus / "vault", use_cache=False)
    multi = vault.config.multi_valued_keys
    cards = [c for c in vault.cards if c.usable]
    by_path = {c.path: i for i, c in enumerate(cards)}
    statements = [statement(c) for c in cards]
    weight = similarity.weights(statements)
    sides = [side(c, st, weight) for c, st in zip(cards, statements, strict=True)]
    found_blocks = blocks([s.key for s in sides], sides, weight, multi)
    docs = Documents(cards)
    found_pairs = {(p.a.path, p.b.path): p for p in similarity.find_pairs(cards, multi)}
    causes: Counter[str] = Counter()
    for a_path, b_path in labels["pairs"][args.kind]:
        if a_path not in by_path or b_path not in by_path:
            print(f"{a_path} | {b_path}: not both loaded as usable cards")
            causes["not loaded"] += 1
            continue
        i, j = sorted((by_path[a_path], by_path[b_path]))
        d = diagnose(sides[i], sides[j], weight, multi)
        proposed = (i, j) in found_blocks
        final = found_pairs.get((cards[i].path, cards[j].path)) or found_pairs.get((cards[j].path, cards[i].path))
        why = "found" if final is not None and final.kind == args.kind else cause(d, proposed, args.kind)
        if final is not None and final.kind != args.kind:
            why = f"reported as {final.kind}"
        causes[why] += 1
        if args.missed and why == "found":
            continue
        if args.summary:
            print(f"{why:55} {a_path} | {b_path}")
            continue
        print(f"===== {a_path} | {b_path}: {why}")
        print(f"  blocks: {found_blocks.get((i, j), ['none'])}; documents: {document_note(docs, i, j)}")
        for s in (sides[i], sides[j]):
            print(f"  {s.card.path}: desc={list(s.statement.description.tokens)} fact={list(s.statement.fact.tokens)}"
                  f" values={sorted(s.statement.all.values)}")
        for k, v in d.items():
            print(f"  {k}: {v}")
    print()
    for why, n in causes.most_common():
        print(f"{n:3}  {why}")
    return 0


def document_note(docs: Documents, i: int, j: int) -> str:
    return "overrules" if docs.overrules(i, j) else "-"


if __name__ == "__main__":
    sys.exit(main())
