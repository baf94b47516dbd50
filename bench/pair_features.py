#!/usr/bin/env python3
"""Every pair of cards the duplicate model compares in a labelled corpus, with its label, verdict and measures.

    python bench/pair_features.py tests/pairs_dev pairs_dev.jsonl
    python bench/pair_features.py tests/lint_corpus lint.jsonl

`bench/why_pairs.py` explains the labelled pairs; this writes the negatives beside them:
every pair `similarity` proposes (its blocks and `restatement.candidates`) and every
labelled pair, one JSON line each, with the label (`duplicate`, `contradiction` or `none`),
the verdict of `classify_sides`, the slot relation, the `restatement.measures` (slot,
covered, cover_long, anchor) and the conflict they found, rapidfuzz ratios of the
descriptions and bodies, the rarity-weighted word overlap both ways, and the marked values
each card gives and shares (`dfmin`: how many cards of the vault say the rarest shared one),
redacted as all output is (`redaction.shown_data`).
It is the table behind the question "could another signal separate the pairs the rules
miss from the pairs they rightly leave?" (bench/README.md, "What separates a missed
duplicate"). A diagnosis, not a score; reads the corpus and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import sys
from pathlib import Path

from rapidfuzz import fuzz

from cardindex.meaning import restatement, similarity, slots
from cardindex.meaning.classify import classify_sides, side
from cardindex.meaning.words import statement
from cardindex.redaction import shown_data
from cardindex.store.vault import Vault


def main(corpus: Path, out: Path) -> int:
    if not (corpus / "labels.json").is_file() or not (corpus / "vault").is_dir():
        print(f"pair_features: {corpus}: not a labelled corpus (it needs labels.json and vault/)", file=sys.stderr)
        return 2
    labels = json.loads((corpus / "labels.json").read_text())
    today = dt.date.fromisoformat(labels["today"])
    multi = frozenset(labels.get("config", {}).get("multi_valued_keys", []))
    cards = [c for c in Vault(corpus / "vault", use_cache=False).cards if c.usable and c.live(today)]
    statements = [statement(c) for c in cards]
    weight = similarity.weights(statements)
    sides = [side(c, st, weight) for c, st in zip(cards, statements, strict=True)]
    index = {c.path: i for i, c in enumerate(cards)}
    label = {frozenset((index[a], index[b])): kind for kind, pairs in labels.get("pairs", {}).items()
             for a, b in pairs if a in index and b in index}
    proposed = {(i, j) for i, j, _ in similarity.candidates(cards, statements, weight, multi)}  # every block
    with out.open("w") as f:
        for i, j in sorted(proposed | {tuple(sorted(p)) for p in label}):
            f.write(json.dumps(shown_data(_row(corpus, sides[i], sides[j], weight, multi, len(cards),
                                    label.get(frozenset((i, j)), "none"), (i, j) in proposed))) + "\n")
    print(f"{corpus}: {len(cards)} live cards, {len(proposed)} proposed pairs, {len(label)} labelled -> {out}")
    return 0


def _row(corpus: Path, a, b, weight, multi, n: int, label: str, proposed: bool) -> dict:  # type: ignore[no-untyped-def]
    pair = classify_sides(a, b, weight, multi)
    relation = slots.relate(a.scope, b.scope, a.key, b.key,
                            lambda: slots.same_description(a.card, b.card, a.statement, b.statement), multi)
    row = {"corpus": corpus.name, "a": a.card.path, "b": b.card.path, "label": label, "proposed": proposed,
               "verdict": pair.kind if pair else "none", "reason": pair.reason if pair else "", "relation": relation,
               "description_ratio": fuzz.token_set_ratio(a.card.description, b.card.description) / 100,
               "body_ratio": fuzz.token_set_ratio(a.card.body[:600], b.card.body[:600]) / 100}
    shared = sum(weight.get(t, 1.0) for t in a.all & b.all)
    row.update(overlap_of_smaller=shared / max(1e-9, min(a.total, b.total)),
               overlap_of_larger=shared / max(1e-9, max(a.total, b.total)))
    ca, cb = restatement.content(a.card), restatement.content(b.card)
    if ca is not None and cb is not None:
        found, conflict = restatement.measures(ca, cb, weight)
        said_a = restatement._said(frozenset(ca.all.tokens), frozenset(cb.all.tokens), ca.all.tokens, cb.all.tokens, [])
        said_b = restatement._said(frozenset(cb.all.tokens), frozenset(ca.all.tokens), cb.all.tokens, ca.all.tokens, [])
        values_a, values_b = ca.all.values, cb.all.values
        shared_values = (values_a & said_a) | (values_b & said_b)
        said_by = [round((n + 1) / math.exp(weight.get(t, 0.1) - 0.1)) for t in shared_values]
        row.update(measures=[found.slot, found.covered, found.cover_long, found.anchor], conflict=conflict or "",
                   values_a=sorted(values_a), values_b=sorted(values_b), shared_values=sorted(shared_values),
                   dfmin=min(said_by, default=0), swapped=restatement._swapped(ca.all, cb.all, said_a, said_b))
    return row


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
