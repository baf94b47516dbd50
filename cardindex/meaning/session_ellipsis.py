"""A diary's grammar: sentences about one's own work with the subject left out, and a piece of work given its state.

Notes written during a session drop the "I" ("Tried three fixes for the flaky test",
"Picked up the ranking ticket", "Paused the webhook work to fix the outage", "Didn't get
to the docs") and give a piece of work its state ("PR #482 is up for review", "the
branch has uncommitted changes", "root cause not found yet", "23 warnings remain",
"Current focus: the onboarding emails"). Durable English does not open a sentence
with a bare past tense and an object: a participle that starts a rule describes a class
("Deprecated endpoints return 410", "Signed URLs expire"), and is followed by a noun,
not a determiner. Pure functions of one English sentence; `session_words` decides with
them what a card is.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern
from cardindex.meaning.session_dates import DATE

_IRREGULAR = (
    # Not those spelled as their own imperative (put, set, cut, split, read, hit): "Set the timeout to 30 s" is a rule.
    "built|wrote|ran|made|got|shipped|rebuilt|rewrote|took|began|broke|caught|did|drew|lost|sent|spent|threw|undid|"
    "redid|tried|left|gave|swapped|dropped|bumped|wired|moved"
)
# A sentence that opens with a past tense of work, then (a particle and) its object.
_ELIDED = lazy_pattern(
    rf"^\W*(?P<verb>(?:{_IRREGULAR})|[A-Za-z][a-z]+ed)\b"
    # ("Left on the export screen" is a pause, S101's to report.)
    r"(?:\s+(?:up|back|off|out|over|through|down|away)(?=\s+(?:the|a|an|my|our|this)\b))?"
    r"\s+(?:(?:(?<=started )|(?<=stopped )|(?<=finished )|(?<=resumed )|(?<=paused )|(?<=tried ))[a-z]+ing\b|(?:the|a|an|my|our|this|these|those|two|three|four|five|several|some|both|all|most|half|(?!(?:19|20)\d\d)\d+)\b|#\d+|`)",
    re.IGNORECASE,
)
# Past tenses that tell a state of mind or a standing fact, not work done in the sitting.
_NOT_WORK = frozenset({
    "decided", "agreed", "learned", "noticed", "realized", "realised", "wanted", "needed", "preferred", "used", "called",
    "named", "liked", "believed", "assumed", "expected", "chose", "opted", "discovered", "considered", "required",
    "allowed", "owned", "based", "designed", "intended", "limited", "reserved", "shared", "scoped", "gated", "keyed",
    "found", "kept",
})
_NOT_DONE = lazy_pattern(r"^\W*(?:didn't|did not|couldn't|could not|haven't|have not)\s+(?:get|got|manage|finish|start|reach|touch)\b",
                       re.IGNORECASE)
_COUNT = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# A piece of work given its state: a review that waits, changes not yet kept, a count of what remains.
_WORK_STATE = lazy_pattern(
    r"(?<!that )(?<!which )\b(?:is|are) (?:now )?up for review\b|\b(?:has|have|with|left) (?:\w+ ){0,2}(?:uncommitted|unpushed|unmerged) (?:changes|work|commits?|edits)\b"
    r"|\bnot (?:[a-z]+ed|found|done|seen|run|built|written) yet\b"
    # a definite piece of work given what it still needs ("The form needs its labels translated")
    r"|^\W*(?:(?:the|this|our|my)\s+(?:[\w-]+\s+){0,3})?needs? (?:[\w-]+ ){1,4}(?:added|updated|fixed|wired|written|removed|migrated|renamed|merged|reviewed|tested|ported|translated)\b"
    # commits or changes kept only here ("two local commits that are not pushed")
    r"|\b(?:has|have|with) (?:\w+ ){0,3}(?:commits?|changes|edits) (?:that|which) (?:are|is) not (?:yet )?(?:pushed|merged|committed)\b"
    r"|\b\d+ (?:[a-z]+ ){0,2}(?:remain|are left|left to (?:fix|do|go|port|migrate)|left(?=\s*[,.;:]|\s*$))"
    r"|\b\d+ (?:[a-z]+ ){0,3}still (?:exists?|remains?|open|fail(?:s|ing)?|pending|unmerged)\b"  # a count as it stands
    # a tracker item and its state ("DEF-103 Fixed; DEF-104 Open"): the tracker keeps that
    r"|(?-i:\b[A-Z][A-Z0-9]{1,9}-\d{1,5}\b)[`*_\s]{0,4}(?:is |was |now )?(?:fixed|open|closed|merged|shipped|resolved|reopened)\b"
    r"(?=[`*_]*\s*(?:[;,.(]|$))"
    rf"|\b{_COUNT} of {_COUNT} (?:[a-z]+ ){{0,2}}(?:moved|migrated|ported|converted|fixed|passing|green|done|left)\b"
    r"|^\W*(?:current (?:focus|task|priority)|today'?s (?:progress|work|focus|plan|changes|fixes)|session (?:summary|recap|notes?|log)"
    r"|quick status|status update|progress update|where (?:I|we) got to|(?:note|reminder) to (?:self|myself)|next\s*:)",
    re.IGNORECASE,
)
# "…, will check after the standup": the writer's own next step, its subject left out.
_ELIDED_PLAN = lazy_pattern(r"(?:^|[,;]\s*)will (?:check|look|try|finish|fix|test|ask|revisit|come back|pick)\b", re.IGNORECASE)
# A reason or a consequence ("…; it covers EU data only, so US customers need …"), or the year or month it
# happened: a decision told as history, not the diary of a sitting.
_REASON = lazy_pattern(r"\b(?:because|since|so that|due to|to avoid|in order to)\b|,\s+so\b|;\s+so\b", re.IGNORECASE)
_WHEN = lazy_pattern(r"\b(?:in|since|until|during)\s+(?:(?:early|late|mid-?)\s*)?(?:(?:19|20)\d\d|jan(?:uary)?|feb(?:ruary)?|march|"
                   r"april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|q[1-4])\b",
                   re.IGNORECASE)


def elided(sentence: str) -> str | None:
    """The opening of a sentence that tells one's own work with the subject left out ("Tried three fixes"), or None."""
    m = _ELIDED.match(sentence)
    if m is not None:
        verb = m.group("verb").lower()
        # Not "Need the…" nor "Embed the…" (no past tense), nor a decision told with its why or its date.
        if verb in _NOT_WORK or verb.endswith(("eed", "bed")) or _REASON.search(sentence) or _WHEN.search(sentence) \
                or DATE.search(sentence):
            return None
        return m.group().strip(" `#")
    n = _NOT_DONE.match(sentence)
    return n.group().strip() if n is not None else None


def work_state(sentence: str) -> str | None:
    """What gives a piece of work its state in one sitting ("is up for review", "23 warnings remain"), or None."""
    m = _WORK_STATE.search(sentence) or _ELIDED_PLAN.search(sentence)
    return m.group().strip(" ,;") if m is not None else None
