"""Session rules: what is true only inside one session (progress, plans, to-do lists).

Word lists alone flag durable sentences ("today's date must never be hard-coded", "the
user's current role"), so each pattern names the context that makes it temporal, and a
sentence that states a standing rule ("always", "every time", "whenever") is durable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cardindex.lint.context import Hit, LintContext
from cardindex.meaning.text import body_lines, prose
from cardindex.store.card import Card

_ING = r"[a-z]+ing\b"

# Each pattern: (compiled regex, what to say). Compiled once, word-bounded, case-blind.
_TEMPORAL = [
    (rf"\bcurrently\s+(?:(?:still|also|busy|just)\s+)?(?:{_ING}|on\b|in the middle\b|blocked\b|stuck\b|halfway\b)", "'currently …ing' is progress, not a fact"),
    (r"\b(?:right now|at the moment(?! (?:a|an|when|that|of|it|they)\b)|as of (?:now|writing|this writing)|for the time being)\b", "dates the sentence to this moment"),
    (r"\bfor now\b", "'for now' is a plan for this session"),
    (r"\b(?:work in progress|in progress|WIP|not (?:finished|done|pushed|merged) yet|half-?way(?: through| done)?)\b", "work in progress is session state"),
    (r"\bnext steps?\b(?:\s*(?::|is|are|will be|would be|was|to)\b|\s*:)", "a next step is a plan for this session"),
    (r"\b(?:in|during|for|from|of) (?:this|the current|today'?s) session\b|\bthis session\b", "true only inside this session"),
    (r"\b(?:today|tonight|this (?:morning|afternoon|evening))\s*,?\s+(?:I|we|I'm|we're|I've|we've|I'll|we'll)\b", "a diary entry for today"),
    (r"\b(?:earlier|later) today\b|\btoday\b(?!'s|\s*\()|\byesterday\b|\btomorrow\b|\bend of (?:the )?day\b|\bby (?:EOD|tonight)\b|\b(?:before|after) lunch\b|\brest of the day\b|\bthis (?:morning|afternoon|evening|week)'s\b", "dated to one day"),
    (r"\b(?:left off|where I (?:stopped|left it)|pick (?:this|it|that) (?:back )?up|come back to)\b", "where this session stopped"),
    (r"\b(?:still (?:need|have) to|need to finish|haven't (?:\w+ ){0,3}yet|haven't (?:yet )?(?:finished|started|pushed)|so far|half-?finished|half[- ]done|not (?:yet )?committed)\b", "unfinished work"),
    (r"\bblocked(?: (?:until|on|by)\b|\s*[:—-])|\bwaiting (?:for|on) (?:\S+ ){0,5}?(?:to )?(?:reply|replies|answer|respond|response|review|approval|get back|finish|merge)\b", "a blocker of the current task"),
    (r"\bjust (?:pushed|merged|finished|started|opened|deployed|fixed|ran|added|created)\b|\bin (?:about |around )?(?:a few|\d+|ten|five|fifteen|twenty|thirty) (?:minutes|hours)\b|\bCI is (?:still )?running\b", "what is happening right now"),
    (r"\bTODO\b|\bFIXME\b", "a to-do note"),
]
_NARRATIVE = [
    (r"\b(?:I|[Ww]e)(?:'m| am| are|'re)\s+(?:(?:now|currently|still|just)\s+)?(?:in the middle of|halfway|about to|trying to|going to|working on|busy)\b", "first-person narrative of work in progress"),
    (r"\b(?:I|[Ww]e)(?:'ve| have) (?:been|just|now|started|begun|finished)\b", "first-person narrative of this session"),
    (r"\b(?:I|[Ww]e)(?:'m| am| are|'re) (?!(?:not )?(?:allowed|required|supposed|expected|told)\b)[a-z]+ing\b", "first-person narrative of work in progress"),
    (r"\b(?:I|[Ww]e)(?:'ll| will) (?:continue|finish|resume|look|try|come back|pick)\b", "a plan for later in this session"),
    (r"(?:^|[.;:]\s+)(?:Working on|Still working|Need to (?:confirm|check|finish|ask|verify|follow up)|Plan for (?:today|the day|tomorrow))\b", "a diary entry of this session"),
    (r"(?:^|[.;]\s+)(?:[Ww]riting|[Dd]ebugging|[Ii]nvestigating|[Ff]ixing|[Rr]efactoring|[Mm]igrating|[Tt]esting) (?:the |a |an )?(?:patch|fix|bug|issue|outage|ticket|branch|PR|pull request|[A-Z]+-\d+)\b", "a diary entry of this session"),
    (r"\b(?:I|[Ww]e) (?:got|found|fixed|tried|started|pushed|finished|added|broke)\b", "first-person narrative of this session"),
    (r"\bon my (?:laptop|machine|branch)\b|\bHanding (?:\S+ ){1,6}over to\b", "first-person narrative of this session"),
]
_CHECKBOX = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[[ xX]\]\s")

# A sentence that states a standing rule or a definition is durable even with such words.
_DURABLE = re.compile(
    r"\b(?:always|every|each time|whenever|never|must|must not|do not|don't|should|"
    r"checklist|runbook|procedure|policy|convention|by default|as a rule)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")

_TEMPORAL_RE = [(re.compile(p, re.IGNORECASE), m) for p, m in _TEMPORAL]
_NARRATIVE_RE = [(re.compile(p), m) for p, m in _NARRATIVE]  # case matters: I, We
# Words one of a rule's patterns needs: cards (most) with none of them are skipped cheaply.
_TEMPORAL_ANCHORS = (
    "current", "right now", "moment", "as of", "time being", "for now", "progress", "wip", " yet", "half",
    "next step", "session", "today", "tonight", "this morning", "this afternoon", "this evening", "earlier",
    "later", "yesterday", "tomorrow", "end of", "eod", "left off", "pick ", "come back", "still ", "need to finish",
    "haven't", "so far", "blocked", "waiting", "todo", "fixme", "lunch", "rest of the day", "uncommitted",
    "committed", "just ", " minutes", " hours", "ci is", "where i",
)
_NARRATIVE_ANCHORS = (
    "i'", "i am", "we'", "we are", "we have", "i have", "we will", "i will", "i got", "we got", "i found", "we found",
    "i fixed", "we fixed", "i tried", "we tried", "i started", "we started", "i pushed", "we pushed", "i finished",
    "we finished", "i added", "we added", "i broke", "we broke", "working on", "need to", "plan for", "writing",
    "debugging", "investigating", "fixing", "refactoring", "migrating", "testing", "on my ", "handing",
)


def _sentences(line: str) -> Iterator[str]:
    for m in _SENTENCE.finditer(line):
        if m.group().strip():
            yield m.group()


def _first_match(card: Card, patterns: list[tuple[re.Pattern[str], str]], anchors: tuple[str, ...]) -> Iterator[Hit]:
    lowered = card.description.lower() + "\n" + card.body.lower()
    if not any(anchor in lowered for anchor in anchors):
        return
    for number, line in prose(card):
        for sentence in _sentences(line):
            for pattern, why in patterns:
                m = pattern.search(sentence)
                if m is None:
                    continue
                if _DURABLE.search(sentence) and not _strong(m.group()):
                    continue
                yield Hit(number, f"session-only: {m.group().strip()!r}: {why}", fix="archive")
                return


_STRONG = re.compile(
    r"(?i)(?:WIP|TODO|FIXME|work in progress|in this session|this session|left off|halfway|half-way|"
    r"right now|just (?:pushed|merged|finished|started|opened|deployed|fixed|ran|added|created)|CI is|"
    r"(?:I|we)(?:'m| am| are|'re) (?:\w+ )?in the middle of|(?:before|after) lunch|rest of the day|"
    r"(?:I|we)(?:'ve| have) been|on my (?:laptop|machine|branch))"
)


def _strong(matched: str) -> bool:
    """Markers that stay temporal even inside a rule-like sentence ("WIP, don't merge")."""
    return bool(_STRONG.match(matched.strip(" .;:")))


def temporal(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Progress and plan words that date a card to one session.

    "currently fixing", "right now", "for now", "WIP", "next step is", "in this session",
    "today I", "tomorrow", "left off", "TODO". Such a note reads as standing knowledge six
    weeks later, when it is false. Durable sentences that merely contain such words
    ("today's date must never be hard-coded", "the user's current role") are not flagged.
    The fix is to delete the card (archive it); keep only what will still hold next week.
    """
    yield from _first_match(card, _TEMPORAL_RE, _TEMPORAL_ANCHORS)


def todo_list(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A to-do list (`- [ ]` checkboxes): tasks of a session, not facts.

    Track tasks in the issue tracker or the session; a card holds what stays true.
    """
    for number, line in body_lines(card):
        if _CHECKBOX.match(line):
            yield Hit(number, "session-only: a to-do checkbox; tasks belong in the tracker, not in memory", fix="archive")
            return


def narrative(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """First-person narrative of work in progress ("I've been refactoring…", "we're in the middle of…").

    It describes what an agent or person was doing, which stops being true when the
    session ends.
    """
    yield from _first_match(card, _NARRATIVE_RE, _NARRATIVE_ANCHORS)
