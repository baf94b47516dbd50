#!/usr/bin/env python3
"""Do the write gate and lint find the same pairs? Each card of a vault offered as the new one, against lint's.

    python bench/gate_agreement.py tests/pairs_dev5/vault tests/lint_corpus/vault
    python bench/gate_agreement.py tests/pairs_dev5/vault --show     # each pair one side finds alone

For every usable card of each vault: the pairs `similarity.pairs_with(card, vault)` gives (what
`cards add`, `cards watch` and the gate ask) against the pairs `similarity.find_pairs(vault)`
holds with that card (what `cards lint` reports). Printed per vault: lint's pairs, the pair
sides only lint finds, those only the gate finds, and those both find with another kind.
Every pair is counted from each of its two cards. A diagnosis, not a test (the tests assert
equality on random vaults: `tests/test_pairs_cli.py`); it imports cardindex from the checkout
it sits in, so a copy of it run in an older checkout measures that one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardindex.meaning.similarity import find_pairs, pairs_with
from cardindex.store.vault import Vault


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("vaults", nargs="+", type=Path)
    parser.add_argument("--show", action="store_true", help="print each pair one side finds alone (dev sets only)")
    args = parser.parse_args()
    for root in args.vaults:
        vault = Vault(root, use_cache=False)
        cards = [c for c in vault.cards if c.usable]
        multi = vault.config.multi_valued_keys
        everything = {frozenset((p.a.path, p.b.path)): p.kind for p in find_pairs(cards, multi)}
        lint_only = gate_only = other_kind = 0
        for card in cards:
            mine = {frozenset((p.a.path, p.b.path)): p.kind for p in pairs_with(card, cards, multi)}
            theirs = {k: kind for k, kind in everything.items() if card.path in k}
            for k in theirs.keys() - mine.keys():
                lint_only += 1
                if args.show:
                    print(f"  lint only, from {card.path}: {' | '.join(sorted(k))} ({theirs[k]})")
            for k in mine.keys() - theirs.keys():
                gate_only += 1
                if args.show:
                    print(f"  gate only, from {card.path}: {' | '.join(sorted(k))} ({mine[k]})")
            other_kind += sum(mine[k] != theirs[k] for k in mine.keys() & theirs.keys())
        print(f"{root}: {len(cards)} cards, {len(everything)} lint pairs; pair sides lint only {lint_only}, "
              f"gate only {gate_only}, another kind {other_kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
