"""A card's sentences, told apart by role: the claim, or a reason or constraint from outside the code.

The derivable rules ask whether a card's claim is what the repo records. A sentence
under a **Why:** (or Reason, Background, Incident, Evidence) label, or one that says
why ("because", "so that", ", so …"), who decided, or what an outside party requires,
carries something no repo file states, and so does the card that holds it.
"""

from __future__ import annotations

from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.language import is_english
from cardindex.meaning.text import description_line, statements
from cardindex.store.card import Card

_LABEL = lazy_pattern(r"^\s*(?:[-*>]\s*)?(?:#+\s*)?\**\s*([A-Za-z][A-Za-z ]{1,20}?)\s*\**\s*:?\**\s*(?::|$)")
_REASON_LABELS = {"why", "reason", "reasons", "rationale", "because", "background", "context", "incident", "evidence",
                  "source", "history", "origin", "motivation"}
_FACT_LABELS = {"how to apply", "how", "rule", "fact", "what", "apply", "usage", "details"}
# Words that give a why, a who or an outside party's demand: what a repo file does not say of itself.
_OUTSIDE = lazy_pattern(
    r"(?i)\b(?:because|since(?!\s+(?:v?\d|version|release|commit))|so that|otherwise|or else|in order to|"
    r"must|mustn't|never|always|should|shouldn't|don't|do not|legal|law|compliance|contract(?:ual)?|policy|sla|"
    r"regulat\w*|deadline|forbidden|avoid|careful|beware|fragile|flaky|hack|workaround|agreed|decided|"
    r"decision|chose|prefers?|preferred|depends on|relies on|expects?|keep|pinned)\b|,\s*so\b"
)
# Of those, the ones that bring in someone else: a person's wish or decision, a party outside the team, a rule.
_OUTSIDE_PARTY = lazy_pattern(
    r"(?i)\b(?:asked|requested|wants?|prefers?|preferred|decided|decision|agreed|chose|policy|contract(?:ual)?|legal|"
    r"law|compliance|regulat\w*|customers?|partners?|vendors?|clients?|insurer|auditors?|third[- ]party|upstream|"
    r"downstream|depends on|relies on|expects?|keep|pinned|deadline|sla)\b"
)
# Of those, the ones that say why: a rule's reason, which a passage stating the rule itself does not give.
_WHY = lazy_pattern(r"(?i)\b(?:because|since(?!\s+(?:v?\d|version|release|commit))|so that|otherwise|or else|in order to|due to)\b|,\s*so\b")
_SENTENCE_END = lazy_pattern(r"(?<=[.!?;])\s+")
_LINK_TARGET = lazy_pattern(r"\]\([^)\s]*\)|<https?://[^>]*>|\bhttps?://\S+")


class Sentence(NamedTuple):
    line: int
    text: str
    reason: bool  # under a reason label, or giving a why, a who or an outside demand
    description: bool


def _sentences(card: Card) -> tuple[Sentence, ...]:
    out: list[Sentence] = []
    in_reason = False
    described = description_line(card) if card.description else -1
    for number, line in statements(card):
        is_description = number == described and line == card.description
        if not is_description:
            m = _LABEL.match(line)
            label = m.group(1).strip().lower() if m else ""
            if label in _REASON_LABELS:
                in_reason = True
            elif label in _FACT_LABELS or line.lstrip().startswith("#"):
                in_reason = False
        plain = _LINK_TARGET.sub("]", line)
        for part in _SENTENCE_END.split(plain):
            if part.strip():
                reason = (in_reason and not is_description) or _OUTSIDE.search(part) is not None
                out.append(Sentence(number, part, reason, is_description))
    return tuple(out)


_memo: dict[tuple[str, str], tuple[Sentence, ...]] = {}


def sentences(card: Card) -> tuple[Sentence, ...]:
    """The card's description and body sentences (no fenced code), each marked claim or reason."""
    key = (card.path, card.text)
    found = _memo.get(key)
    if found is None:
        if len(_memo) > 4096:
            _memo.clear()
        found = _memo[key] = _sentences(card)
    return found


_INLINE_CODE = lazy_pattern(r"`[^`\n]*`")
_LATIN = lazy_pattern(r"[A-Za-z\u00c0-\u024f]")
_LETTER = lazy_pattern(r"[^\W\d_]")
_CODE_LIKE = lazy_pattern(r"[_/.()\[\]=<>→]|[a-z][A-Z]|\d")  # a word that is a name, a path or an expression


def prose_of(text: str) -> str:
    """`text` without inline code and link targets: the words a person wrote around the names."""
    return _INLINE_CODE.sub(" ", _LINK_TARGET.sub("]", text))


def english_prose(text: str) -> bool:
    """Whether the prose of `text` is English: what the English cue words can read (`meaning.language`, the one judgement).

    A Chinese or Korean sentence that names `store.get` holds the English verb "get" only
    inside the code name; its own verbs, and its reasons, are not in any English list.
    """
    words = [w for w in prose_of(text).split() if not _CODE_LIKE.search(w)]
    return is_english(" ".join(words)) is True


def gives_reason(card: Card) -> bool:
    """Whether any sentence of the card says why, who, or what an outside party requires."""
    return any(s.reason for s in sentences(card))


def brings_in_others(card: Card) -> bool:
    """Whether a reason the card gives is someone else's: a person's wish or decision, an outside party, a contract.

    A technical why ("the root cause was the map's key order") is what the code shows
    too; a decision's why or a partner's demand is not.
    """
    return any(s.reason and _OUTSIDE_PARTY.search(s.text) for s in sentences(card))


def only_rule(sentence: Sentence) -> bool:
    """Whether a reason sentence only states a rule ("must go through the store layer", "never queries Postgres").

    It says no why and brings in no one else: a repo passage that states the same rule
    ("the API never talks to Postgres directly") holds all it says.
    """
    return not _WHY.search(sentence.text) and not _OUTSIDE_PARTY.search(sentence.text)
