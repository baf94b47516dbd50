#!/usr/bin/env python3
"""Derive cardindex/meaning/data/synonyms.txt from WordNet 3.0 (Debian's `wordnet-base`).

    apt-get install wordnet-base && python scripts/build_synonyms.py

One line per group of single words that WordNet gives one sense to, where that sense is
among the `SENSES` most frequent of each word (WordNet orders a word's senses by frequency),
so "brief" meets "short" and "reply" meets "answer" but a rare sense joins nothing.
Adjective satellites join their head ("brief" is similar to "short"). The table is used
only to pair words when measuring how much of one card another says, never to decide a
value. WordNet's licence is in cardindex/meaning/data/LICENSE-WordNet.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

SENSES = 2  # of each word's most frequent senses
MIN_LENGTH = 3
ROOT = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent.parent / "cardindex" / "meaning" / "data" / "synonyms.txt"


def heads(pos_file: Path) -> dict[str, str]:
    """Adjective satellite synset -> the head synset it is similar to ('&')."""
    out: dict[str, str] = {}
    for line in pos_file.read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        offset, kind = fields[0], fields[2]
        if kind != "s":
            continue
        count = int(fields[3], 16)
        rest = fields[4 + 2 * count:]
        pointers = int(rest[0])
        for p in range(pointers):
            symbol, target, _pos = rest[1 + 4 * p:4 + 4 * p]
            if symbol == "&":
                out[offset] = target
                break
    return out


def main() -> int:
    groups: dict[str, set[str]] = defaultdict(set)
    for pos in ("noun", "verb", "adj", "adv"):
        satellite = heads(ROOT / f"data.{pos}") if pos == "adj" else {}
        for line in (ROOT / f"index.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith(" "):
                continue
            fields = line.split()
            lemma = fields[0]
            if not lemma.isalpha() or not lemma.isascii() or len(lemma) < MIN_LENGTH:
                continue
            senses = int(fields[2])
            offsets = fields[-senses:][:SENSES]
            for offset in offsets:
                groups[f"{pos}:{satellite.get(offset, offset)}"].add(lemma.lower())
    lines = sorted({" ".join(sorted(g)) for g in groups.values() if len(g) > 1})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("# Derived from WordNet 3.0 by scripts/build_synonyms.py; licence: LICENSE-WordNet\n"
                   + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} groups, {OUT.stat().st_size} bytes -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
