"""Which language a text is written in, as far as the English-only rules need to know.

Some lint rules match English words (session words such as "currently", verbs such as
"returns", negations such as "not"); on a card written in Korean, Czech or Portuguese
they can only misfire. This module answers one question for them: is this text English?

- Script first: letters of Hangul, Han (Chinese characters), kana, Cyrillic, Greek,
  Arabic, Hebrew, Thai, Devanagari… are counted by their Unicode names; text whose
  letters are mostly of a non-Latin script is not English.
- Latin-script text is English unless another language shows itself: more function
  words of German, Czech, Portuguese, Spanish, Italian, French or Dutch (and words with
  diacritics) than English function words (articles, pronouns, prepositions,
  auxiliaries: closed classes, which is why short fixed lists serve). Terse technical
  English with no function word at all stays English.
  Code, inline code, URLs, paths and identifiers are left out before counting, so a
  code-heavy English note stays English.

A text with no words to judge (a table rule, a code line) has no verdict: `None`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from cardindex.lazy import lazy_pattern


# English function words. Ambiguous ones that are also common function words of the
# other languages below ("a", "in", "do", "to", "die", "an", "so", "was") are left out.
def _closed_class(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ENGLISH = _closed_class(
    "the of and is are was were be been being for on with that this these those it its they them their "
    "there here we you your our he she his her him i me my or but if then than when which who whom whose "
    "what where why how not no nor at by from into onto about after before over under between through "
    "should would could can cannot must may might will shall does did doing done has have had having "
    "any all each every some such only also just very more most other own same both either neither "
    "because while until unless whether although though again once always never often ever "
    "up out off down one two first new use used using run runs make makes see get gets"
)
# Function words of other Latin-script languages, each frequent in its language and rare in English.
_OTHER = _closed_class(
    # German
    "der die das und ist nicht ein eine einen dem den des mit auf für von zu im sich auch wird werden "
    "sind wenn oder aber nur noch nach bei aus wie kein keine immer nie dann muss soll ich wir sie es "
    # Czech, Slovak
    "je se na že jako pro jsou být byl není když nebo ale jen také už při podle které který která "
    "aby by od do co tak má mají musí ve ze či jsem jsme "
    # Portuguese, Spanish, Italian
    "que não uma um os as para com por mais como são é está foi ser pelo pela dos das nos nas ao "
    "el la los las del y en es una con por para pero muy sin sobre también cuando donde esto "
    "il lo gli di che è non per con una sono della dei delle anche come "
    # French
    "le les des et est une pour dans qui pas sur avec ce cette sont aux du au mais ou sans être "
    # Dutch
    "het een van en niet op met voor zijn dat er ook bij naar wordt worden maar dan geen"
) - _ENGLISH - _closed_class(
    # spelled the same as English words, so no evidence either way
    "as per met non on do so am an in to a was will be also man hat war over top van mit art fast "
    "die come sin ore lo el ale den de est sans"
)

_CODE_FENCE = lazy_pattern(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_NOISE = lazy_pattern(
    r"`[^`\n]*`"  # inline code
    r"|\b(?:https?|ftp|file)://\S+|\bwww\.\S+"  # URLs
    r"|\S*[/\\]\S*"  # paths
    r"|\S*[_=<>{}()\[\]#@$%^&*|~]\S*"  # identifiers, markup, expressions
)
_WORD = lazy_pattern(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")

FOREIGN_LETTERS = 6  # this many letters of another script make a line foreign, however much Latin it has
FOREIGN_SHARE = 0.15  # (or this share of its Latin letters, for a short line: "Deploy 목요일")
SHORT = 6  # a line of fewer words is foreign on one foreign function word ("Deploy immer am Donnerstag")


class Verdict(NamedTuple):
    """What a text is written in: its main script and whether it reads as English."""

    script: str  # "latin", "hangul", "han", "kana", "cyrillic", …, or "" when it has no letters
    english: bool | None  # None: nothing to judge


@functools.lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    """The script of a letter, from its Unicode name (LATIN, HANGUL, CJK, HIRAGANA, CYRILLIC, …)."""
    if ch.isascii():
        return "latin"
    name = unicodedata.name(ch, "")
    head = name.split(" ", 1)[0]
    if head == "CJK":
        return "han"
    if head in ("HIRAGANA", "KATAKANA"):
        return "kana"
    return head.lower() or "other"


def verdict(text: str) -> Verdict:
    """Judge one text (a line, a description, a whole card)."""
    text = _NOISE.sub(" ", _CODE_FENCE.sub(" ", text).replace("*", " "))  # emphasis marks are prose
    scripts: dict[str, int] = {}
    latin_words: list[str] = []
    for word in _WORD.findall(text):
        if word.isascii():
            scripts["latin"] = scripts.get("latin", 0) + len(word)
            if not (word.isupper() and len(word) > 1):  # acronyms (OS, MET) are names, not function words
                latin_words.append(word.casefold())
            continue
        counted = [_script(ch) for ch in word]
        for s in counted:
            scripts[s] = scripts.get(s, 0) + 1
        if all(s == "latin" for s in counted):
            latin_words.append(word.casefold())
    if not scripts:
        return Verdict("", None)
    script = max(scripts, key=lambda s: scripts[s])
    latin = scripts.get("latin", 0)
    if script != "latin" or sum(scripts.values()) - latin >= min(FOREIGN_LETTERS, latin * FOREIGN_SHARE):
        # An English sentence holds no Hangul or Han; in a Korean or Chinese line the Latin
        # words are names and code (force-push, submit_one), which outweigh it letter for letter.
        return Verdict(script if script != "latin" else max((s for s in scripts if s != "latin"), key=scripts.__getitem__),
                       False)
    # Latin letters: English unless another language shows itself (its function words, or
    # letters with diacritics), so a terse technical English line with no function word
    # at all ("Testcontainers suite: INCLUDED") stays English.
    english = sum(1 for w in latin_words if w in _ENGLISH)
    short = len(latin_words) < SHORT
    # In a short line a one- or two-letter word ("y", "en" of en0, "er") is too weak a sign alone.
    other = sum(1 for w in latin_words if (w in _OTHER and not (short and len(w) < 3)) or not w.isascii())
    return Verdict(script, not (other > english and (other >= 2 or english == 0)))


def is_english(text: str) -> bool | None:
    """True when `text` reads as English, False when not, None when it holds no words to judge."""
    return verdict(text).english


class CardLanguage(NamedTuple):
    """A card's languages, line by line: `foreign` holds the numbers of its lines that are not English."""

    kind: str  # "english", "other" (no English line) or "mixed"
    foreign: frozenset[int]


def card_language(lines: Iterable[tuple[int, str]]) -> CardLanguage:
    """Judge a card from its numbered prose lines (description and body)."""
    english: set[int] = set()
    foreign: set[int] = set()
    for number, line in lines:
        found = is_english(line)
        if found is True:
            english.add(number)
        elif found is False:
            foreign.add(number)
    if not foreign:
        return CardLanguage("english", frozenset())
    return CardLanguage("mixed" if english else "other", frozenset(foreign))
