"""The words of a search query as ranking counts them: clitics dropped, a compound the vault lacks taken apart.

`meaning.terms.words` splits at an apostrophe, so "isn't" gave the word "isn" and "we'll"
the word "ll": content words of the query as far as ranking could tell, the rarest of all
(no card holds them), so they weighed most in how much of the query a card holds. A
contraction's auxiliary ("isn't", "don't", "can't") is a function word with a "not",
and the stop words drop both; a clitic ("'ll", "'ve", "'re", "'d", "'m", "'s") is the
end of a function word or a possessive. Both are dropped before the query is split.

A hyphenated word is one word of the query ("on-call", "e-bike") that the vault may hold
joined ("oncall") or as its parts side by side ("e bike"). When it holds neither, the
word is asked as its parts, each a word of its own, as a query that spelled it with a
space would be: "hand-edit" finds the card that says files are "not edited by hand".
"""

from __future__ import annotations

import re

from cardindex.meaning.edits import osa_within, pieces
from cardindex.meaning.terms import STOP, stem, word_terms, words
from cardindex.store.search_index import SearchIndex

# "isn't", "don't", "can't", "won't": an auxiliary and its "not", both function words
_NOT = re.compile(r"\b[^\W_]+n['\u2019]t\b", re.IGNORECASE)
# "we'll", "they've", "you're", "I'd", "I'm", "the rider's": what follows the apostrophe
Alt = tuple[tuple[str, ...], float]  # a term (or a phrase of terms) and how much it counts
TYPO_FACTOR = 0.7
PREFIX_FACTOR = 0.8
HEAD_FACTOR = 0.5
BASE_FACTOR = 0.5  # a word the vault lacks found as the held word it starts with ("gracefull": "grace")
STEM_LEAST, SUFFIX_MOST = 5, 4  # that word's least length, and the most letters a suffix adds ("-fully")
_CLITIC = re.compile(r"(?<=[^\W_])['\u2019](?:ll|ve|re|d|m|s)\b", re.IGNORECASE)


def without_clitics(query: str) -> str:
    """`query` without its contractions' auxiliaries and clitics ("isn't" and "'ll" go, "user's" is "user")."""
    return _CLITIC.sub(" ", _NOT.sub(" ", query))


def asked(index: SearchIndex, query: str) -> list[str]:
    """The words of `query` that ranking counts, in order (`meaning.terms.words`, lower-cased)."""
    found = words(without_clitics(query))
    compounds = [w for w in found if "-" in w]
    if not compounds:
        return found
    df = index.document_frequency({t for w in compounds for t in word_terms(w)})
    out: list[str] = []
    for w in found:
        parts = [p for p in w.split("-") if p]
        if "-" in w and not _held(index, w, parts, df):
            out.extend(parts)
        else:
            out.append(w)
    return out


def _held(index: SearchIndex, word: str, parts: list[str], df: dict[str, int]) -> bool:
    """Whether the vault holds a hyphenated word joined ("oncall") or as its parts side by side ("on call")."""
    terms = list(word_terms(word))
    if df.get(terms[0]):
        return True
    stems = [stem(p) for p in parts]
    if not all(df.get(t) for t in stems):
        return False
    return bool(index.count(phrase(tuple(stems))))


def phrase(alt: tuple[str, ...]) -> str:
    """The FTS5 phrase of terms side by side."""
    return '"' + " ".join(alt) + '"'


# The function words a compound is made with: "oncall", "setup", "login", "checkout", "rollback". Any other
# ("is", "the", "we") joins nothing: "redis" is no "red is", "itself" no "it self".
PARTICLES = frozenset(["on", "in", "up", "out", "off", "over", "down", "back", "under", "by", "after"])


def compound(first: str, second: str) -> bool:
    """Whether two words may be one compound: at most one a function word, and that one a particle."""
    stops = [w for w in (first, second) if w in STOP]
    return len(stops) < 2 and all(w in PARTICLES for w in stops)


def split(index: SearchIndex, word: str, df: dict[str, int]) -> list[Alt]:
    """A word the vault does not hold, as two words it holds side by side ("oncall": "on call")."""
    if len(word) < 5 or "-" in word:
        return []
    pairs = [(stem(word[:k]), stem(word[k:])) for k in range(2, len(word) - 1) if compound(word[:k], word[k:])]
    df.update(index.document_frequency(t for pair in pairs for t in pair))
    best = [(index.count(phrase(p)), p) for p in pairs if df.get(p[0]) and df.get(p[1])]
    best = [b for b in best if b[0]]
    if best:
        return [(max(best)[1], 1.0)]
    # A compound is about its last part ("microservice" is a service): the longest such head the vault holds.
    # Both parts are content words, and the vault writes the head as a word of its own ("forgotten" is no "gotten").
    tails = [word[k:] for k in range(3, len(word) - 4) if word[:k] not in STOP and word[k:] not in STOP]
    held = index.known_words(tails)
    head = next((t for t in tails if t in held), None)
    return [((stem(head),), HEAD_FACTOR)] if head else []


def typos(index: SearchIndex, word: str) -> list[Alt]:
    """Word forms the vault holds within one edit of `word` (two from 10 letters), or that start with
    it and are at most a third longer, as their terms.

    Words under 5 letters are never corrected: one edit in four letters is another word; and
    under 7 letters only two swapped letters are ("tabel": "table"), since a letter more,
    less or changed there is as often another word ("chart": "cart", "bread": "break").
    """
    if not word.isascii() and len(word) >= 2 and word.isalpha():
        # Scripts the English stemmer leaves alone (Korean particles: "배포" in "배포는"): the
        # word forms that start with the word and add at most two letters.
        return [((t,), PREFIX_FACTOR) for f, t in index.word_forms(len(word) + 1, len(word) + 2) if f.startswith(word)]
    if len(word) < 5 or not word.isalpha():
        return []
    limit = 1 if len(word) < 10 else 2
    longest = max(len(word) + limit, len(word) * 4 // 3)
    parts = pieces(word, limit)
    found: dict[str, float] = {}
    # "gracefull" for "grace", "accidentaly" for "accident": a derived word (misspelt or not) the vault
    # holds only as its base, a word of its own that starts it, the rest a suffix's length
    for base in index.known_words(word[:k] for k in range(max(STEM_LEAST, len(word) - SUFFIX_MOST), len(word))):
        found[stem(base)] = BASE_FACTOR
    for form, term in index.word_forms(len(word) - limit, longest):
        if form.startswith(word):  # "postgres" for "postgresql": most of the longer word
            found[term] = max(found.get(term, 0.0), PREFIX_FACTOR)
            continue
        distance = osa_within(word, form, limit, parts)
        if distance is not None and (len(word) >= 7 or sorted(form) == sorted(word)):
            factor = TYPO_FACTOR if distance <= 1 else TYPO_FACTOR * 0.8
            found[term] = max(found.get(term, 0.0), factor)
    return [((t,), f) for t, f in found.items()]
