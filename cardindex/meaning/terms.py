"""The terms search indexes and asks for: Snowball stems, with hyphenated compounds also joined.

`terms("On-call rotations")` is `["oncal", "on", "call", "rotat"]`: every word is lower-cased
and stemmed (`meaning.stem`, the one stemmer), and a hyphenated word gives its parts and
its joined form, so "on-call", "oncall" and (through the query side, which joins adjacent
words) "on call" meet. Irregular past forms are folded first ("sent" is "send"). Stop words stay in the index (a phrase needs them) and are dropped
from queries, unless they are part of a compound.

`FORMAT` names the analysis: an index built with another one is rebuilt.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from cardindex.lazy import lazy_pattern
from cardindex.meaning.stem import stem as _snowball

FORMAT = "terms-6"
# Irregular past forms ("sent": "send") from the one model of what a card states
# (`meaning.words`), which the Snowball stemmer cannot reach. Importing that model costs a
# warm search 2-3 ms, so a search index hands over the table it was analysed with
# (`adopt_irregular`); the table is part of the analysis that FORMAT names.
_irregular: dict[str, str] | None = None
_WORD = lazy_pattern(r"[^\W_]+(?:-[^\W_]+)*")
# Function words that say nothing about what a card is about (the usual English set).
STOP = frozenset(
    ["a", "an", "the", "to", "of", "in", "on", "at", "for", "by", "with", "from", "and", "or", "not", "no", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "which", "what", "who", "whom", "whose", "how", "when", "where", "why", "do", "does", "did", "done", "i", "me", "my", "we", "our", "us", "you", "your", "they", "them", "their", "he", "she", "his", "her", "can", "could", "should", "would", "must", "may", "might", "will", "shall", "use", "used", "using", "there", "here", "about", "as", "if", "then", "than", "so", "any", "all", "some", "into", "onto", "out", "up", "over", "also", "just", "only", "very", "has", "have", "had", "get", "got",
     # closed-class words past the usual set: quantifiers, indefinite pronouns, degree and focus adverbs
     "too", "each", "every", "both", "either", "neither", "such",
     "nobody", "anybody", "anyone", "anything", "someone", "somebody", "something", "everyone", "everybody",
     "everything", "nothing", "none", "again", "still", "yet", "already", "ever", "even", "really", "quite",
     "rather", "whether", "while", "because", "though", "although", "am", "him", "itself",
     "myself", "ourselves", "yourself", "themselves", "ours", "yours", "theirs"]
)


def stem(word: str) -> str:
    """The term of one lower-cased word: an irregular form folded to its base, then Snowball's stem."""
    table = _irregular if _irregular is not None else irregular_forms()
    return _snowball(table.get(word, word))


def irregular_forms() -> dict[str, str]:
    """Irregular past forms and their bases ("sent": "send"), read defensively as `meaning.words` keeps them private."""
    global _irregular
    if _irregular is None:
        from cardindex.meaning import words as statements

        _irregular = dict(getattr(statements, "_IRREGULAR", {}))
    return _irregular


def adopt_irregular(table: Mapping[str, str]) -> None:
    """Fold irregular forms with `table` (what a search index was analysed with) instead of importing it."""
    global _irregular
    if _irregular is None:
        _irregular = dict(table)


def words(text: str) -> list[str]:
    """The lower-cased words of `text`, a hyphenated one as one word ("on-call")."""
    return _WORD.findall(text.casefold())


def word_terms(word: str) -> Iterator[str]:
    """The stems one word gives: for a hyphenated word its joined form first, then its parts.

    The parts come last so that they stay next to the words after them ("on-call grower":
    `oncal on call grower`, where "call grower" is still a phrase).
    """
    parts = word.split("-")
    if len(parts) > 1:
        yield stem("".join(parts))
    for part in parts:
        yield stem(part)


def terms(text: str) -> list[str]:
    """Every term of `text`, in order: what the index holds for a field."""
    return [t for w in words(text) for t in word_terms(w)]


def surface_words(text: str) -> set[str]:
    """The distinct words of `text` as written (parts and joined forms), for typo correction."""
    out = set()
    for w in words(text):
        parts = w.split("-")
        out.update(parts)
        if len(parts) > 1:
            out.add("".join(parts))
    return out
