"""Does the optional embedding (the `[embed]` extra) help? Search and duplicate candidates, with held-out halves.

    python bench/eval_embed.py search                 # retrieval_dev3 and retrieval_set
    python bench/eval_embed.py search --sweep 0.2,0.5,0.8,1.2
    python bench/eval_embed.py pairs                  # pairs_dev3, pairs_dev, pairs_dev2, real vaults

**search**: each set's query ids are split in two halves by a seeded draw (`split`, seed 7)
before anything is tuned; `hybrid.BETA` was chosen on the "tune" half only (`--sweep`
prints that half's scores for other values). Printed per set and half: recall@1,
recall@5, MRR (on-topic queries) and abstention (all), for `find` without and with
`hybrid`, in process (the CLI's `--hybrid` is the same call; `eval_search.py --engines
cards,cards-hybrid` measures it through the CLI, on the whole sets).

**pairs**: whether nearest neighbours could add duplicate pairs. For every labelled pair
the rules miss, it says whether the blocking proposed it and what the value model says when
forced to judge it (`classify_sides`); then the pairs each card's k nearest neighbours by
embedding would add to the blocking's, judged by the value model, against the labels. Dev
corpora only (never a sealed set): it prints card paths.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETS = ("bench/retrieval_dev3", "bench/retrieval_set")
PAIR_CORPORA = ("tests/pairs_dev3", "tests/pairs_dev", "tests/pairs_dev2")
SEED = 7


def split(ids: Sequence[str], seed: int = SEED) -> set[str]:
    """The held-out half of `ids` (sorted first, so the draw does not depend on file order)."""
    ordered = sorted(ids)
    return set(random.Random(seed).sample(ordered, len(ordered) // 2))


# ----------------------------------------------------------------------------- search


def ranked(set_dir: Path, hybrid: bool) -> list[tuple[dict[str, Any], list[str], bool]]:
    from cardindex.agents.search import find
    from cardindex.store.vault import Vault

    vault = Vault(set_dir / "vault", use_cache=False)
    out = []
    for q in json.loads((set_dir / "queries.json").read_text(encoding="utf-8")):
        hits = find(vault, str(q["query"]), everything="history" in str(q.get("note", "")).casefold(), limit=10,
                    hybrid=hybrid)
        out.append((q, [h.card.path for h in hits], bool(hits and hits[0].weak)))
    return out


def metrics(rows: Sequence[tuple[dict[str, Any], list[str], bool]]) -> tuple[float, float, float, float]:
    on = r1 = r5 = abstain = 0
    rr = 0.0
    for q, paths, weak in rows:
        relevant = set(q["relevant"])
        answered = bool(paths) and not weak
        if not relevant:
            abstain += not answered
            continue
        abstain += answered
        on += 1
        rank = next((i + 1 for i, p in enumerate(paths) if p in relevant), None)
        r1 += rank == 1
        r5 += rank is not None and rank <= 5
        rr += 1 / rank if rank else 0.0
    return r1 / max(on, 1), r5 / max(on, 1), rr / max(on, 1), abstain / max(len(rows), 1)


def search(sweep: Sequence[float]) -> None:
    from cardindex.agents import hybrid

    print(f"{'set':16} {'half':5} {'engine':7} {'n':>4} {'r@1':>6} {'r@5':>6} {'MRR':>6} {'abstain':>8}")
    for name in SETS:
        set_dir = ROOT / name
        plain = ranked(set_dir, False)
        held = split([str(q["id"]) for q, _, _ in plain])
        variants = [("cards", plain, hybrid.BETA)]
        for beta in sweep:
            hybrid.BETA = beta
            variants.append((f"b={beta}", ranked(set_dir, True), beta))
        hybrid.BETA = 0.8
        if not sweep:
            variants.append(("hybrid", ranked(set_dir, True), hybrid.BETA))
        for half in ("tune", "held"):
            for label, rows, _ in variants:
                part = [r for r in rows if (str(r[0]["id"]) in held) == (half == "held")]
                on = sum(1 for r in part if r[0]["relevant"])
                print(f"{Path(name).name:16} {half:5} {label:7} {on:4} " + " ".join(f"{x:6.3f}" for x in metrics(part)))
        print(f"  held-out ids ({Path(name).name}): {','.join(sorted(held))}")


# ----------------------------------------------------------------------------- pairs


def corpora() -> list[tuple[str, Path, dict[str, Any]]]:
    out = [(c, ROOT / c / "vault", json.loads((ROOT / c / "labels.json").read_text(encoding="utf-8")))
           for c in PAIR_CORPORA]
    for labels in sorted((ROOT / "bench" / "real_vaults").glob("*.json")):
        data = json.loads(labels.read_text(encoding="utf-8"))
        if Path(data["vault"]).is_dir():
            out.append((labels.stem, Path(data["vault"]), data))
    return out


def _md(path: str) -> str:
    return path if path.endswith(".md") else path + ".md"


def pairs(ks: Sequence[int]) -> None:
    import numpy as np

    from cardindex.meaning import embedding
    from cardindex.meaning.classify import classify_sides, side
    from cardindex.meaning.similarity import candidates, find_pairs, weights
    from cardindex.meaning.words import statement
    from cardindex.store.vault import Vault

    missed = {"blocked, model says no": 0, "not blocked, model says no": 0, "not blocked, model says yes": 0}
    added = {k: {"proposed": 0, "duplicate right": 0, "duplicate wrong": 0, "contradiction right": 0,
                 "contradiction wrong": 0} for k in ks}
    for name, root, labels in corpora():
        vault = Vault(root, use_cache=False)
        cards = [c for c in vault.cards if c.usable]
        multi = vault.config.multi_valued_keys
        sts = [statement(c) for c in cards]
        weight = weights(sts)
        sides = [side(c, st, weight) for c, st in zip(cards, sts, strict=True)]
        at = {c.path: i for i, c in enumerate(cards)}
        blocked = {(i, j) for i, j, _ in candidates(cards, sts, weight, multi)}  # every block
        found = {(p.kind, frozenset((p.a.path, p.b.path))) for p in find_pairs(cards, multi)}
        vecs = embedding.embed([embedding.card_text(c.title, c.description, c.body) for c in cards])
        near = vecs @ vecs.T
        np.fill_diagonal(near, -2.0)
        order = np.argsort(-near, axis=1)
        labelled = {kind: {frozenset(map(_md, p)) for p in labels.get("pairs", {}).get(kind, [])}
                    for kind in ("duplicate", "contradiction")}
        for pair in sorted(labelled["duplicate"], key=sorted):
            a, b = sorted(pair)
            if a not in at or b not in at or ("duplicate", pair) in found:
                continue
            i, j = sorted((at[a], at[b]))
            forced = classify_sides(sides[i], sides[j], weight, multi)
            says = forced is not None and forced.kind == "duplicate"
            rank = min(int(np.where(order[i] == j)[0][0]), int(np.where(order[j] == i)[0][0])) + 1
            key = ("blocked" if (i, j) in blocked else "not blocked") + (", model says yes" if says else
                                                                        ", model says no")
            missed[key] = missed.get(key, 0) + 1
            print(f"  missed duplicate {name}: {a} ~ {b}: {key} (neighbour rank {rank})")
        for k in ks:
            extra = {(min(i, int(j)), max(i, int(j))) for i in range(len(cards)) for j in order[i, :k]} - blocked
            for i, j in sorted(extra):
                added[k]["proposed"] += 1
                pair = classify_sides(sides[i], sides[j], weight, multi)
                if pair is None:
                    continue
                right = frozenset((cards[i].path, cards[j].path)) in labelled[pair.kind]
                added[k][f"{pair.kind} {'right' if right else 'wrong'}"] += 1
    print("labelled duplicate pairs the rules miss:", missed)
    for k in ks:
        print(f"k={k} nearest neighbours, pairs the blocking did not propose, judged by the value model:", added[k])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("search", "pairs"))
    ap.add_argument("--sweep", default="", help="search: BETA values to score instead of the default")
    ap.add_argument("--k", default="1,3,5", help="pairs: numbers of nearest neighbours to try")
    args = ap.parse_args()
    from cardindex.meaning.embedding import check

    check()
    if args.what == "search":
        search([float(b) for b in args.sweep.split(",") if b])
    else:
        pairs([int(k) for k in args.k.split(",")])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
