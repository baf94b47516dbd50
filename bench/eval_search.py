"""Score `cards search` on a labelled retrieval set, against a plain BM25 and grep, in one run.

A retrieval set is a folder with `vault/` (the cards) and `queries.json`:
`[{"id": "q001", "query": "...", "relevant": ["path/in/vault.md", ...], "note": "kind"}]`.
`relevant: []` marks an off-topic query (the right answer is nothing); a query whose note
is "history" targets archived cards, so every engine searches the archive for it
(`cards search --all`).

Printed for each engine: recall@1, recall@5 and MRR over the on-topic queries, and
abstention accuracy over all of them (an off-topic query is answered right with no hit,
or with a best hit marked weak; an on-topic one with a hit not marked weak); then
recall@5 per kind of query.

    python bench/eval_search.py bench/retrieval_dev
    python bench/eval_search.py bench/retrieval_dev --json out.json --show-misses
    python bench/eval_search.py bench/retrieval_dev4 --half tune   # or held: SET/held_out.json's ids

For a sealed set, leave out --show-misses: the scores, and recall by kind of query (the
note's first words before any ':' or ';', without parentheses), are printed; no query text is.

The engines:
  cards     `cards --vault V search QUERY --format json -n 10` through the real CLI
  cards-hybrid  the same with `--hybrid` (an embedding reorders the best candidates; needs the
            [embed] extra)
  bm25      BM25 (k1 1.2, b 0.75) over title, description and body, written here with the
            standard library and a tiny suffix stemmer; no cut-off
  grep      cards holding any query word of 3+ letters, most distinct words first
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

WORD = re.compile(r"[^\W_]+")
Ranked = tuple[list[str], bool]  # paths best first, and whether the best is marked weak


def cards_engine(vault: Path, cards_cmd: Sequence[str], extra: Sequence[str] = ()) -> Callable[[str, bool], Ranked]:
    def run(query: str, history: bool) -> Ranked:
        args = [*cards_cmd, "--vault", str(vault), "search", query, "--format", "json", "-n", "10", *extra]
        if history:
            args.append("--all")
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        if done.returncode == 2 and history:  # a cards without --all
            done = subprocess.run([*args[:-1], "--status", "any"], capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):
            sys.exit(f"cards failed ({done.returncode}) on {query!r}: {done.stderr.strip()}")
        hits = json.loads(done.stdout or "[]")
        return [h["path"] for h in hits], bool(hits and hits[0].get("weak"))

    return run


# ----------------------------------------------------------------------------- the baseline


def suffix_stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def read_cards(vault: Path) -> dict[str, tuple[str, bool]]:
    """path -> (title, description and body as one text, archived)."""
    out = {}
    for path in sorted(vault.rglob("*.md")):
        rel = path.relative_to(vault).as_posix()
        if any(part.startswith(".") for part in rel.split("/")) or path.name in ("INDEX.md", "MEMORY.md", "README.md"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        out[rel] = (text, rel.startswith("archive/"))
    return out


def bm25_engine(vault: Path) -> Callable[[str, bool], Ranked]:
    cards = read_cards(vault)
    docs = {p: Counter(suffix_stem(w) for w in WORD.findall(t.casefold())) for p, (t, _) in cards.items()}
    lengths = {p: sum(c.values()) for p, c in docs.items()}
    df: Counter[str] = Counter()
    for c in docs.values():
        df.update(c.keys())

    def run(query: str, history: bool) -> Ranked:
        pool = [p for p in docs if history or not cards[p][1]]
        n = len(pool)
        avg = sum(lengths[p] for p in pool) / max(n, 1)
        terms = {suffix_stem(w) for w in WORD.findall(query.casefold())}
        scores = {}
        for p in pool:
            s = 0.0
            for t in terms:
                tf = docs[p].get(t, 0)
                if tf:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    s += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * lengths[p] / avg))
            if s > 0:
                scores[p] = s
        return sorted(scores, key=lambda p: (-scores[p], p))[:10], False

    return run


def grep_engine(vault: Path) -> Callable[[str, bool], Ranked]:
    cards = read_cards(vault)
    lowered = {p: t.casefold() for p, (t, _) in cards.items()}

    def run(query: str, history: bool) -> Ranked:
        words = {w for w in WORD.findall(query.casefold()) if len(w) >= 3}
        found = {p: sum(1 for w in words if w in t) for p, t in lowered.items() if history or not cards[p][1]}
        return sorted((p for p in found if found[p]), key=lambda p: (-found[p], p))[:10], False

    return run


# ----------------------------------------------------------------------------- scoring


def score(queries: list[dict[str, object]], engine: Callable[[str, bool], Ranked]) -> dict[str, object]:
    on = r1 = r5 = 0
    rr = 0.0
    abstain_ok = 0
    kinds: dict[str, list[int]] = {}
    misses = []
    started = time.perf_counter()
    for q in queries:
        relevant = set(q["relevant"])  # type: ignore[arg-type]
        note = str(q.get("note", ""))
        ranked, weak = engine(str(q["query"]), "history" in note.casefold())
        answered = bool(ranked) and not weak
        if not relevant:
            abstain_ok += not answered
            if answered:
                misses.append((q["id"], q["query"], "answered", ranked[:3]))
            continue
        abstain_ok += answered
        on += 1
        rank = next((i + 1 for i, p in enumerate(ranked) if p in relevant), None)
        r1 += rank == 1
        r5 += rank is not None and rank <= 5
        rr += 1 / rank if rank else 0.0
        # the kind only, the first named: a note's detail (after ':' or ';', or in parentheses) may name
        # the card or the query's words
        kind = re.sub(r"\s*\([^)]*\)", "", re.split(r"[:;]", note, maxsplit=1)[0]).strip() or "other"
        kinds.setdefault(kind, [0, 0])
        kinds[kind][0] += rank is not None and rank <= 5
        kinds[kind][1] += 1
        if rank != 1:
            misses.append((q["id"], q["query"], f"rank {rank}", ranked[:3]))
    return {
        "recall@1": r1 / max(on, 1),
        "recall@5": r5 / max(on, 1),
        "MRR": rr / max(on, 1),
        "abstention": abstain_ok / max(len(queries), 1),
        "kinds": {k: v[0] / v[1] for k, v in sorted(kinds.items())},
        "seconds": time.perf_counter() - started,
        "misses": misses,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", type=Path, help="the retrieval set folder (vault/ and queries.json)")
    ap.add_argument("--cards", help="the cards command (default: the `cards` next to this Python)")
    ap.add_argument("--engines", default="cards,bm25,grep")
    ap.add_argument("--json", type=Path, help="write every number here")
    ap.add_argument("--show-misses", action="store_true", help="list the queries each engine did not rank first")
    ap.add_argument("--half", choices=["tune", "held"],
                    help="score only the tuned or only the held-out queries (ids listed in SET/held_out.json)")
    args = ap.parse_args()
    vault = args.set / "vault"
    queries = json.loads((args.set / "queries.json").read_text(encoding="utf-8"))
    if args.half:
        held = set(json.loads((args.set / "held_out.json").read_text(encoding="utf-8")))
        queries = [q for q in queries if (q["id"] in held) == (args.half == "held")]
    cards_cmd = shlex.split(args.cards) if args.cards else [os.path.join(os.path.dirname(sys.executable), "cards")]
    engines = {
        "cards": lambda: cards_engine(vault, cards_cmd),
        "cards-hybrid": lambda: cards_engine(vault, cards_cmd, ["--hybrid"]),
        "bm25": lambda: bm25_engine(vault),
        "grep": lambda: grep_engine(vault),
    }
    results = {name: score(queries, engines[name]()) for name in args.engines.split(",")}
    off = sum(1 for q in queries if not q["relevant"])
    print(f"{args.set}: {len(queries)} queries ({len(queries) - off} on-topic, {off} off-topic)")
    print(f"{'engine':12} {'recall@1':>9} {'recall@5':>9} {'MRR':>6} {'abstain':>8} {'seconds':>8}")
    for name, r in results.items():
        print(f"{name:12} {r['recall@1']:9.3f} {r['recall@5']:9.3f} {r['MRR']:6.3f} {r['abstention']:8.3f} "
              f"{r['seconds']:8.2f}")
    kinds = sorted({k for r in results.values() for k in r["kinds"]})  # type: ignore[attr-defined]
    print("\nrecall@5 by kind: " + " ".join(f"{name}" for name in results))
    for k in kinds:
        print(f"  {k:14} " + " ".join(f"{r['kinds'].get(k, float('nan')):6.2f}" for r in results.values()))  # type: ignore[attr-defined]
    if args.show_misses:
        for name, r in results.items():
            print(f"\n{name} misses:")
            for m in r["misses"]:  # type: ignore[attr-defined]
                print("  ", *m)
    if args.json:
        if not args.show_misses:  # a sealed set's queries stay sealed: the misses name them
            results = {name: {k: v for k, v in r.items() if k != "misses"} for name, r in results.items()}
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
