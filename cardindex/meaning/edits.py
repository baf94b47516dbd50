"""Edit distance with a small bound, for search's typo correction, without importing rapidfuzz.

Search corrects a word the vault lacks to the vault's word forms within one or two edits
(`agents.ranking`). rapidfuzz computes that distance in C, but importing it costs 13-25 ms,
a fifth of a whole warm search, while a query's typo has only the few hundred word forms
of a close length to be compared with. So: a filter that rejects almost every form in C
(`str.__contains__`), then the optimal string alignment distance (Damerau's adjacent swap
counts as one edit, as rapidfuzz's `OSA`) on the survivors, on a band of the table.

The filter is exact: `limit` edits damage at most `2 * limit` of `2 * limit + 1` pieces of
the word (a swap across a boundary damages two), so a form within `limit` holds one piece
unchanged. tests/test_search3_speed.py checks the distance against rapidfuzz's.
"""

from __future__ import annotations


def pieces(word: str, limit: int) -> tuple[str, ...]:
    """`2 * limit + 1` consecutive pieces of `word`, one of which a form within `limit` edits holds."""
    n = 2 * limit + 1
    if len(word) < n:
        return ()
    cuts = [len(word) * i // n for i in range(n + 1)]
    return tuple(word[cuts[i]:cuts[i + 1]] for i in range(n))


def osa_within(a: str, b: str, limit: int, parts: tuple[str, ...] | None = None) -> int | None:
    """The optimal string alignment distance of `a` and `b` when it is at most `limit`, else None.

    `parts` are `pieces(a, limit)`, passed when `a` is compared with many words.
    """
    if abs(len(a) - len(b)) > limit:
        return None
    if a == b:
        return 0
    if parts is None:
        parts = pieces(a, limit)
    if parts and not any(p in b for p in parts):
        return None
    big = limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [big] * len(b)
        lo, hi = max(1, i - limit), min(len(b), i + limit)
        ca = a[i - 1]
        for j in range(lo, hi + 1):
            cb = b[j - 1]
            cost = 0 if ca == cb else 1
            d = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, prev2[j - 2] + 1)
            row[j] = d
        if min(row[lo - 1:hi + 1]) > limit:
            return None
        prev2, prev = prev, row
    return prev[len(b)] if prev[len(b)] <= limit else None
