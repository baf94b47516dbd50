"""The writer's now: English words that count from the moment a note was written, or point at its sitting.

A durable fact holds whenever it is read; these words only make sense at the moment the
note was written, so they date it to one sitting without any progress word:

- a span counted back or ahead from that moment, short enough to be the sitting's own
  ("restored an hour ago", "two more days", "ETA: Friday");
- the latest of an act that repeats ("Last command: `make seed`", "Latest run: …");
- the sitting's own things ("for this task", "in my terminal", "open tabs");
- one numbered instance of a repeated act and what happened to it ("Deploy #482 went out
  at 14:10", "Run 3 of 5: median 212 ms"), or the place reached in a numbered sequence
  ("Step 4 of 7 is done").

A span of a rule ("tokens expire an hour after login", "retry for two more minutes before
giving up") has no "ago" and no label, and the caller (`session_words`) passes over
sentences that state a rule. Pure functions of one English sentence.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern
from cardindex.meaning.session_moment import finite

_COUNT = r"(?:an?|one|two|three|four|five|six|ten|twenty|thirty|a few|a couple of|several|\d+|half an?)"
# "an hour ago", "20 minutes ago": the distance from the writer's moment. Days and years ago tell history.
_AGO = lazy_pattern(rf"\b{_COUNT}\s+(?:minutes?|mins?|hours?|hrs?)\s+ago\b", re.IGNORECASE)
# "two more days", "another hour": what remains, counted from the writer's moment; "ETA: …" says when it ends.
_MORE = lazy_pattern(
    rf"(?:^|[:;,]\s*)\W*(?:about\s+|roughly\s+|maybe\s+)?(?:{_COUNT}\s+more|another)\s+(?:minutes?|hours?|days?)\W*$"
    r"|(?-i:\bETA)\s*(?:[:=\u2014\u2013]|is\b|for\b)",
    re.IGNORECASE,
)
# "Last command: `make seed`", "Latest run —": the most recent of an act that repeats. "Last step:" is a how-to's.
_LATEST = lazy_pattern(
    r"^\W*(?:last|latest|most recent)\s+(?:command|run|build|attempt|try|error|output|result|deploy(?:ment)?|test run|"
    r"pipeline|job|benchmark)s?\s*(?:\*\*|__)?\s*[:=\u2014\u2013]",
    re.IGNORECASE,
)
# "for this task", "in this run", "in my terminal", "Open tabs:": the sitting's own things.
_SITTING = lazy_pattern(
    r"\b(?:for|in|during|of)\s+this\s+(?:task|run|sitting|ticket|attempt)\b(?!\s+(?:type|kind|class)s?\b)"
    r"|\b(?:in|from|on)\s+my\s+(?:terminal|shell|tab|tabs|screen|console)\b|^\W*open\s+(?:tabs|windows)\s*:",
    re.IGNORECASE,
)
# "Deploy #482 went out", "Build 1234 failed", "Run 3 of 5: …": one numbered instance of a repeated act.
_INSTANCE = lazy_pattern(
    r"^\W*(?:[\w-]+\s+)?(?:deploy(?:ment)?|build|run|release candidate|rc|job|pipeline|attempt|try)\s+"
    r"(?:#\d+|\d+\s+of\s+\d+)\b"
    r"(?=\s*(?:[:=\u2014\u2013]|(?:went|is|was|has|had|got|came|failed|passed|succeeded|finished|broke|timed)\b))",
    re.IGNORECASE,
)
# "Step 4 of 7 in the upgrade guide is done": the place reached in a numbered sequence.
_REACHED = lazy_pattern(
    r"\b(?:step|part|phase|stage|chapter|batch|page)\s+\d+\s+of\s+\d+\b[^.;:]{0,50}?\b(?:is|are|was)\s+"
    r"(?:now\s+)?(?:done|finished|complete|completed|through)\b",
    re.IGNORECASE,
)
# "Rerunning the e2e job to see whether it's the runner": the sitting's experiment, its subject left out.
_TRYING = lazy_pattern(
    r"^\W*(?-i:[A-Z])[a-z]+ing\b(?P<act>[^.;:,]{0,80}?)\bto (?:see|check|find out|confirm|test|learn) (?:whether|if)\b",
    re.IGNORECASE)
# "Call with the vendor moved to Friday 10:00": one appointment moved to a near day ("moved to Tuesdays" is a habit).
_MOVED = lazy_pattern(
    r"\b(?:moved|pushed|postponed|rescheduled|bumped)\s+(?:back\s+)?to\s+(?:(?:this|next)\s+)?"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week)\b(?!s)",
    re.IGNORECASE)
_SIGNS = (
    (_AGO, "a span counted back from the moment of writing"),
    (_MORE, "a span counted ahead from the moment of writing"),
    (_LATEST, "the latest of an act that repeats: the sitting's last step"),
    (_SITTING, "the sitting's own task, run or screen"),
    (_INSTANCE, "one numbered run of a repeated act, as it went"),
    (_REACHED, "the place reached in a numbered sequence of steps"),
    (_MOVED, "one appointment moved to a near day"),
)
_HINTS = (" ago", "more ", "another ", "ETA", "last", "latest", "recent", "this ", " my ", "open ", "#", " of ", " to ")


def now_sign(sentence: str) -> tuple[str, str] | None:
    """The words of `sentence` that count from the writer's moment, and why; None when there are none."""
    if not any(h in sentence or h.lower() in sentence.lower() for h in _HINTS):
        return None
    for pattern, why in _SIGNS:
        m = pattern.search(sentence)
        if m is not None:
            return m.group().strip(" :;,\u2014\u2013"), why
    m = _TRYING.search(sentence)
    if m is not None and not finite(m.group("act")) and not _KIND.search(_OWN_VERB.sub("", sentence[m.end():], count=1)):
        return m.group().strip(), "the sitting's own experiment, its subject left out"
    return None


# "Testing a migration to see whether it is reversible is part of the review": a kind of act named as a subject.
# The whether-clause has its own verb ("whether it is reversible"); a verb after it is the gerund subject's.
_KIND = lazy_pattern(r"\b(?:is|are|was|should|must|helps?|means|takes|costs?|wastes?)\b", re.IGNORECASE)
_OWN_VERB = lazy_pattern(r"^[^.;]*?(?:\b(?:is|are|was|were|has|does|fails?|works?|passes)\b|'s\b)", re.IGNORECASE)
