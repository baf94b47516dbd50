#!/usr/bin/env python3
"""Would "one passage written in two cards" find the labelled duplicates of real vaults? Counts, not a rule.

    python bench/passage_overlap.py bench/real_vaults/*.json

For every pair of cards of each labelled real vault (its clone at the labels' `vault`), the
best match between a unit of one and a unit of the other (a bullet, a table row, a paragraph
of at least `--words` words, `documents.units`), by rapidfuzz's `ratio` on lowered text; and
the coverage: the share of one card's units that some unit of the other matches with
`token_set_ratio` >= 80. Printed: how many labelled duplicate pairs, contradiction pairs and
other pairs reach each threshold. Card paths and text are never printed.

Measured in session 19 (nine vaults, 18,342 pairs with units on both sides, 2.5 min): a unit
matched at ratio >= 90 in 3 of the 25 duplicate pairs and in 59 other pairs; a coverage of 0.3
or more in 2 duplicate pairs and 11 others. The real duplicates are one topic written twice in other words, not a copied
passage, and copied lines (cross-reference bullets, a fact repeated in a session log) are
as common between cards that are not duplicates: no rule was made of it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rapidfuzz import fuzz

from cardindex.meaning.documents import units
from cardindex.store.vault import Vault

_MARKUP = re.compile(r"[`*_>#|\[\]()]")
RATIOS = (95, 90, 85, 80, 75, 70)
COVERAGES = (0.8, 0.6, 0.5, 0.4, 0.3)


def _units(text: str, least: int) -> list[str]:
    out = []
    for unit in units(text):
        plain = " ".join(_MARKUP.sub(" ", unit.lower()).split())
        if len(plain.split()) >= least:
            out.append(plain)
    return out


def _coverage(mine: list[str], theirs: list[str]) -> float:
    return sum(max(fuzz.token_set_ratio(u, v) for v in theirs) >= 80 for u in mine) / len(mine)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("labels", nargs="+", type=Path, help="labelled real vaults (bench/real_vaults/*.json)")
    parser.add_argument("--words", type=int, default=5, help="words at least in a unit compared (default: %(default)s)")
    args = parser.parse_args()
    rows: list[tuple[str, float, float]] = []
    for path in args.labels:
        labels = json.loads(path.read_text())
        root = Path(labels["vault"])
        if not root.is_dir():
            print(f"{path}: {root} is not there (clone the repository at the labels' commit)", file=sys.stderr)
            return 2
        cards = {c.path: c for c in Vault(root, use_cache=False).cards if c.path in labels["cards"]}
        said = {p: _units(f"{c.description}\n\n{c.body}", args.words) for p, c in cards.items()}
        kinds = {frozenset(p): kind for kind in ("duplicate", "contradiction")
                 for p in labels["pairs"].get(kind, [])}
        for a, b in itertools.combinations(sorted(cards), 2):
            if not said[a] or not said[b]:
                continue
            best = max(fuzz.ratio(x, y) for x in said[a] for y in said[b])
            cover = max(_coverage(said[a], said[b]), _coverage(said[b], said[a]))
            rows.append((kinds.get(frozenset((a, b)), "other"), best, cover))
    total = {k: sum(r[0] == k for r in rows) for k in ("duplicate", "contradiction", "other")}
    print(f"{len(rows)} pairs with units on both sides: {total}")
    for threshold in RATIOS:
        print(f"  best unit ratio >= {threshold}: "
              f"{ {k: sum(r[0] == k and r[1] >= threshold for r in rows) for k in total} }")
    for threshold in COVERAGES:
        print(f"  coverage >= {threshold}: {  {k: sum(r[0] == k and r[2] >= threshold for r in rows) for k in total} }")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
