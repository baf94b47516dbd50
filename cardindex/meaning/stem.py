"""Snowball stemming (PyStemmer): the one stemmer behind statements and search.

`stem("payouts")` and `stem("payout")` are one token; "sending" and "send" too. The
Snowball algorithms are maintained upstream for many languages, so no suffix list is
kept here. Irregular forms ("sent", "woken") are not stems of each other; callers that
need them fold them first.
"""

from __future__ import annotations

import functools
from typing import Any

DEFAULT_LANGUAGE = "english"


@functools.lru_cache(maxsize=8)
def stemmer(language: str = DEFAULT_LANGUAGE) -> Any:
    """The Snowball stemmer for `language` (one of `Stemmer.algorithms()`), made once."""
    import Stemmer  # a C extension, imported when first needed: `cards --help` never pays for it

    return Stemmer.Stemmer(language)


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The Snowball stem of one lower-cased word."""
    return str(stemmer(language).stemWord(word))


def stems(words: list[str], language: str = DEFAULT_LANGUAGE) -> list[str]:
    """The stems of many words at once (one call into the C stemmer)."""
    return [str(s) for s in stemmer(language).stemWords(words)]
