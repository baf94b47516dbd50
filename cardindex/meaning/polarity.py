"""Polarity clause by clause: which words a text affirms and which predicates it denies.

A negation stands against another card only when it denies what that card affirms: "The
kiosk no longer uses Flash" against "The kiosk uses Flash" (the same predicate, said
plainly), "always squash" against "never squash". A negation on one side of a paraphrase
is no conflict when the other side says its predicate in a negative clause too, or with a
word that says "not" by itself: "never deploy on Fridays" / "Friday deploys are frozen";
"no trucks on weekends" / "weekends = no deliveries".

So each text is cut into clauses (at sentence and clause punctuation and at "but",
"except", "unless", "while") and each clause is read once: a clause with a negator or a
denying word (`DENYING`: "frozen", "banned", "blocked", "off") is negative; the word a
negator stands before is what it **denies**; the words of a clause with neither are what
the text **affirms**. English only, as the words are.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.stem import stem
from cardindex.meaning.words import CALENDAR, NEGATIVE, NEGATORS, words

# Words that say "not" of what their clause names, as stems of `words` (lexical negation:
# a ban, a freeze, a block, a rule that keeps something out).
DENYING = frozenset(NEGATIVE | {stem(w) for w in (
    "freeze", "frozen", "ban", "banned", "block", "blocked", "prohibit", "prohibited", "forbid", "forbidden",
    "refuse", "refused", "deny", "denied", "disallow", "disallowed", "exclude", "excluded", "reject", "rejected",
    "disable", "disabled", "halt", "pause", "paused", "stop", "stopped", "none", "nothing", "nowhere", "nobody",
    "out", "off", "outside")} | {"froze", "freez", "out", "off"})

_CLAUSE = lazy_pattern(r"(?i)[.;!?,()\[\]{}\n\u2014\u2013|]+|\s-\s|\b(?:but|except|while|whereas|however)\b|"
                     r"\b(if|when|unless|as\s+long\s+as|provided|in\s+case|whenever|once)\b")
# "instead of Y" and "rather than Y" deny Y; "do X instead" affirms X (`words` reads both words as "not").
_INSTEAD = lazy_pattern(r"(?i)\b(?:instead\s+of|rather\s+than)\b|\b(instead|rather)\b")
_STILL_NEGATING = frozenset({"longer", "more", "ever", "again", "even"})  # "no longer uses", "never again"
# Helping verbs (as `words` gives them) a negator can stand before while it denies the verb
# after them: "avoid having to rebase", "not be deployed", "don't need to restart".
_HELPING = frozenset({"have", "be", "do", "get", "need"})


class Polarity(NamedTuple):
    """A text's clauses: the words of each clause with no negation, and each denied word with its clause's other words."""

    affirmed: tuple[frozenset[str], ...]
    denied: tuple[tuple[str, frozenset[str]], ...]


@functools.lru_cache(maxsize=20_000)
def polarity(text: str) -> Polarity:
    """What `text` affirms and denies, clause by clause."""
    affirmed: list[frozenset[str]] = []
    denied: list[tuple[str, frozenset[str]]] = []
    # "X instead of Y" is two clauses: X affirmed, Y denied (with nothing else of the clause: the alternative)
    text = _INSTEAD.sub(lambda m: "" if m.group(1) else ", not ", text)
    condition = False
    for n, part in enumerate(_CLAUSE.split(text)):
        if n % 2:  # the separator captured: a condition opens ("if", "unless"), or None
            condition = part is not None
            continue
        if condition:  # "If the skipper does not answer …": a condition asserts nothing
            condition = False
            continue
        tokens = words(part).tokens
        if not tokens:
            continue
        negators = [i for i, t in enumerate(tokens) if t in NEGATORS]
        # Two negators in a row cancel: "never skip review" affirms the review.
        cancelled: set[int] = set()
        for i in negators:
            if i not in cancelled and i + 1 in negators:
                cancelled.update((i, i + 1))
        negators = [i for i in negators if i not in cancelled]
        if negators:
            rest = frozenset(tokens) - NEGATORS - _STILL_NEGATING
            for i in negators:
                head = next((t for t in tokens[i + 1:] if t not in _STILL_NEGATING and t not in _HELPING), None)
                if head is not None and head not in NEGATORS:
                    denied.append((head, rest - {head}))
        elif DENYING.isdisjoint(tokens):
            affirmed.append(frozenset(tokens) - NEGATORS)
    return Polarity(tuple(affirmed), tuple(denied))


_DAY_WORDS = frozenset({"weekday", "weekend", "weekdays", "weekends"})


def _valued(token: str) -> bool:
    """A word that gives a value (a number, a time, a day): what qualifies a predicate."""
    return token[:1].isdigit() or token in CALENDAR or token in _DAY_WORDS


AFFIRMED_SHARE = 1 / 3  # of the negated clause's other words the affirming clause says too: one predicate


def denied_against(mine: str, theirs: str) -> list[str]:
    """The words `mine` denies that `theirs` affirms, in a clause that says the same predicate, and never denies.

    The same predicate: the denied word, and a third at least of the other words of the
    negated clause, in one clause of the other text ("no trucks on weekends" is not denied
    by "trucks come every weekday": the clause that affirms "trucks" says nothing of
    weekends). A negation the other text answers with one of its own (it denies my word or
    a word of my negated clause, or its negated clause holds my word: "never on weekends" /
    "weekends: no deliveries") is one rule said two ways.
    """
    a, b = polarity(mine), polarity(theirs)
    out = set()
    for head, rest in a.denied:
        if any(head == h or head in r or h in rest for h, r in b.denied):
            continue  # they deny my word, or a word of my negated clause: the negation is answered
        mine_values = {t for t in rest if _valued(t)}
        for clause in b.affirmed:
            if head not in clause or (rest and len(rest & clause) < AFFIRMED_SHARE * len(rest)):
                continue
            their_values = {t for t in clause if _valued(t)}
            if mine_values and their_values and not mine_values & their_values:
                continue  # "never on weekends" / "on weekdays": the negation is of another value than theirs
            out.add(head)
            break
    return sorted(out)
