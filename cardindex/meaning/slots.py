"""Slots: what a card's fact is about, and in which language it can be judged.

A fact fills a **slot**: a single-valued `key` is the slot outright; otherwise the slot is
the card's scope plus what its description (and its statement's subject) names. Two cards
are compared only within one slot, so this module says, for two cards, how their slots
relate (`relation`): apart (different scopes, unrelated keys: different facts, never a
pair), one single-valued key, one multi-valued key (two values are two facts), one
description written twice, or open (the wording has to tell).

A number in a description that names *which thing* the fact is about ("Which rootstock
tree 17 grows on", "Pump 3: its service interval") is part of the slot, not a value:
two cards that name one noun with different numbers are about two things (`named_apart`).

English word lists (negators, antonyms, synonyms, stop words) only judge English text:
`english(card)` says whether a card is written in it. Other cards are compared by what
is language-neutral (numbers, versions, dates, code, paths, names) and by word overlap.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from cardindex.lazy import lazy_pattern
from cardindex.meaning.language import is_english
from cardindex.meaning.words import ANTONYMS, NEGATORS, QUESTION, STOP, Statement, words
from cardindex.store.card import Card

APART = "apart"  # different facts: never a pair
KEY = "key"  # one single-valued key: one slot
MULTI = "multi"  # one multi-valued key: each value is its own fact
DESCRIBED = "described"  # one description written twice: one slot
OPEN = "open"  # nothing structural: the wording decides

_WORD = lazy_pattern(r"[^\W\d_]+")
_ENGLISH = STOP | NEGATORS | frozenset(ANTONYMS)  # words that say a text is English
_PUNCTUATION = ".,;:!?()[]{}\"'`*_-—"
_NOT_ASCII_LETTER = lazy_pattern(r"[^\W\d_a-zA-Z]")
# A word, then a whole number that names one of its kind: "tree 17", "row 0", "pump #3" (not "v1.2", "17:30", "3.5").
_NAMED_NUMBER = lazy_pattern(r"(?<![\w.#-])([^\W\d_]{2,})\s+#?(\d+)(?![\w.:/,-]?\d)(?![\w%])")
_OF_FOR = lazy_pattern(r"(?i)\b(?:of|for)\s+(?:the\s+|each\s+)?$")  # "… of tree ", "… for pump "


def scope_of(card: Card) -> str:
    """The card's scope, normalized: `global` when unset; `path:` scopes without a trailing slash."""
    scope = " ".join(card.scope.split()).casefold() or "global"
    kind, sep, rest = scope.partition(":")
    if sep and kind == "path":
        rest = rest.strip().strip("/").removeprefix("./")
        return f"path:{rest}" if rest else "global"
    return scope


def same_scope(a: Card, b: Card) -> bool:
    """Whether two cards' facts can meet: one scope, or one of them global (it holds everywhere).

    A rule for `path:apps/web` and one for `path:services/api` are two facts, never a pair.
    """
    sa, sb = scope_of(a), scope_of(b)
    return sa == sb or "global" in (sa, sb)


def keys_compatible(key_a: str | None, key_b: str | None) -> bool:
    """Cards with unrelated keys fill different slots (deploy-day and deploy-day-2 are one)."""
    if not key_a or not key_b or key_a == key_b:
        return True
    short, long = sorted((key_a, key_b), key=len)
    return long.startswith(short) and not long[len(short)].isalnum()


@functools.lru_cache(maxsize=50_000)
def english_text(text: str) -> bool:
    """Whether `text` is English enough for English word lists to judge it (`meaning.language`, the one judgement).

    A text with nothing to judge (no words) counts as English: no word list finds anything in it.
    """
    return is_english(text) is not False


def english(card: Card) -> bool:
    """Whether the card's description and first paragraph are English."""
    return english_text(f"{card.description}\n{card.body.split(chr(10) + chr(10), 1)[0][:600]}")


def same_description(a: Card, b: Card, sa: Statement, sb: Statement) -> bool:
    """Whether two cards carry one description (the common real case: one slot written twice)."""
    da, db = sa.description, sb.description
    if da.tokens and set(da.tokens) == set(db.tokens):
        return True
    return " ".join(a.description.casefold().split()) == " ".join(b.description.casefold().split())


def relation(a: Card, b: Card, sa: Statement, sb: Statement, multi_valued: frozenset[str]) -> str:
    """How the slots of two cards relate: APART, KEY, MULTI, DESCRIBED or OPEN."""
    return relate(scope_of(a), scope_of(b), a.key, b.key, lambda: same_description(a, b, sa, sb), multi_valued)


def relate(scope_a: str, scope_b: str, key_a: str | None, key_b: str | None, described: Callable[[], bool],
           multi_valued: frozenset[str]) -> str:
    """`relation`, from the scopes (as `scope_of` gives them) and keys already read; `described` asked last."""
    if scope_a != scope_b and "global" not in (scope_a, scope_b):
        return APART
    if key_a and key_a == key_b:
        return MULTI if key_a in multi_valued else KEY
    if not keys_compatible(key_a, key_b):
        return APART
    return DESCRIBED if described() else OPEN


@functools.lru_cache(maxsize=50_000)
def named(description: str) -> tuple[tuple[str, str], ...]:
    """The (word, number) pairs of a description whose number names which thing it is about.

    A description that asks ("Which …", "What …?") names the slot and holds no value, so
    each of its numbers names a thing ("Which rootstock tree 17 grows on"); so does one
    after "of" or "for" ("Service interval for pump 3"). A number a description states
    ("Staging Postgres listens on port 5433", "Port 5433 for staging") is a value.
    """
    found = [(m.group(1).casefold(), m.group(2).lstrip("0") or "0", m.start()) for m in _NAMED_NUMBER.finditer(description)]
    if not found:
        return ()
    asks = bool(QUESTION.match(description)) or description.rstrip().endswith("?")
    return tuple((word, number) for word, number, at in found
                 if word not in STOP and (asks or _OF_FOR.search(description[:at])))


def named_apart(a: Card, b: Card) -> bool:
    """Whether two cards name one kind of thing by different numbers: tree 17 and tree 51 are two slots."""
    na, nb = named(a.description), named(b.description)
    if not na or not nb:
        return False
    numbers_a: dict[str, set[str]] = {}
    for word, number in na:
        numbers_a.setdefault(word, set()).add(number)
    return any(word in numbers_a and number not in numbers_a[word] for word, number in nb)


def slot(card: Card, multi_valued: frozenset[str] = frozenset()) -> str:
    """A name for the slot `card` fills: `key:K`, else its scope and its description's words.

    Two cards with one slot name are about one thing (consolidate groups by it); cards
    with a multi-valued key name the key and their description, since each value is a fact.
    """
    if card.key and card.key not in multi_valued:
        return f"key:{card.key}"
    named = " ".join(sorted(set(words(card.description).tokens)))
    if card.key:
        return f"{scope_of(card)}|key:{card.key}|{named}"
    return f"{scope_of(card)}|{named}"
