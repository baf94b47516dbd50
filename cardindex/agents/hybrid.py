"""Hybrid ranking (`cards search --hybrid`, or `embedding: wordllama` in .cardindex.yaml): the
deterministic ranking's best candidates reordered by how close each card's embedding is to the query's.

The deterministic ranking (`ranking`) still finds the candidates and says whether the
answer is weak; the embedding (`meaning.embedding`) only moves the first `RERANK` of
them: each is ordered by its score as a share of the best one's, plus `BETA` times
the cosine between the card's vector and the query's. A paraphrase ("when is the user
off over the holidays" for a card about leave in late December) rises; a card holding
the query's words but about something else sinks. Nothing is added that the ranking
did not find, and no score changes. A query about the past keeps its order: the
ranking placed each retired card above its successor on purpose, and a vector does
not know "before". Several vaults searched together (`--with-vault`) are merged by
score, as without: the reorder holds within one vault's hits.

Measured (bench/eval_embed.py, half of each set's queries held out before tuning): `BETA`
was chosen on the tuned half; see bench/README.md for the numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from cardindex.agents.ranking import Scored
from cardindex.meaning import embedding
from cardindex.store.card import Card
from cardindex.store.search_index import SearchIndex, content_hash

BETA = 0.8  # the cosine's weight against the score's share of the best one's (0-1)
RERANK = 30  # candidates the embedding may reorder; the rest keep their place after them


def rerank(index: SearchIndex, query: str, scored: Sequence[Scored], read: Callable[[str], Card | None],
           cache_dir: Path | None = None) -> list[Scored]:
    """`scored` (best first) with its first `RERANK` reordered by score share and embedding similarity.

    `read(path)` gives a card whose vector is not cached yet; `cache_dir` holds the vectors (None: none kept).
    """
    head, tail = list(scored[:RERANK]), list(scored[RERANK:])
    if len(head) < 2:
        return [*head, *tail]
    held = index.hashes([s.path for s in head])
    cards: dict[str, Card | None] = {}

    def card(path: str) -> Card | None:
        if path not in cards:
            cards[path] = read(path)
        return cards[path]

    keys = []
    for s in head:
        key = held.get(s.path)
        if key is None:
            found = card(s.path)
            key = content_hash(found.text.encode("utf-8", "surrogateescape")) if found is not None else b""
        keys.append(key)

    def text_of(i: int) -> str:
        found = card(head[i].path)
        return embedding.card_text(found.title, found.description, found.body) if found is not None else ""

    vecs = embedding.vectors(keys, text_of, cache_dir)
    asked = embedding.embed([query])[0]
    near = vecs @ asked
    top = max(s.score for s in head) or 1.0
    order = sorted(range(len(head)), key=lambda i: (-(head[i].score / top + BETA * float(near[i])), head[i].path))
    return [*(head[i] for i in order), *tail]
