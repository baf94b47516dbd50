"""Dates, and work placed in time: an item marked done on a day, a card titled as one numbered sprint's plan or report.

"Phase 1 | Done May 12", "BUILT — DONE (2026-07-09)": the state and the day it was
reached are a progress record, which the next day's work makes incomplete. A release
history ("v2.0 | Released 2024-03-01") and an event told as history ("the migration
completed on 2024-03-01, so older dumps use latin1") are durable, so only the workflow
states that close a piece of work count (done, complete, finished, merged), capitalized
as a board marks them. A title such as "Sprint 2 — implementation plan" or "Iteration 4
review" names one numbered period of work and what it planned or did. Pure functions.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
DATE = lazy_pattern(
    r"(?<![\d])(?:"
    r"(?:19|20)\d\d[-_./]?(?:0[1-9]|1[0-2])[-_./]?(?:0[1-9]|[12]\d|3[01])"  # 2026-05-07, 20260507
    r"|(?:19|20)\d\d\s*[年년]\s*\d{1,2}\s*[月월](?:\s*\d{1,2}\s*[日일])?"  # 2026年5月7日, 2026년 5월 7일
    rf"|(?<![a-z]){_MONTH}[ _-]?(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?![\d])(?:,?[ _-](?:19|20)\d\d)?"  # May 7 2026
    rf"|(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?[ _-]{_MONTH}(?![a-z])(?:,?[ _-](?:19|20)\d\d)?"  # 7 May 2026
    r")(?![\d])",
    re.IGNORECASE,
)


_DATED_DONE = lazy_pattern(
    rf"(?:^|[|:\u2014\u2013]\s*|\*\*\s*|\s-\s)(?-i:DONE|Done|COMPLETED?|Complete[d]?|FINISHED|Finished|MERGED|Merged)"
    rf"\s*(?:[(,:]\s*)?(?:on\s+)?(?:{DATE.pattern})",
    re.IGNORECASE,
)
_PERIOD = r"\b(?:sprint|iteration)\s*\d+[a-z]?\b"
_PERIOD_WORK = r"\b(?:plan|planning|review|retro|retrospective|recap|summary|fixes|changes|status|progress|update|notes|log|results)\b"
_PERIOD_TITLE = lazy_pattern(rf"{_PERIOD}.*{_PERIOD_WORK}|{_PERIOD_WORK}.*{_PERIOD}", re.IGNORECASE)


def dated_state(line: str) -> str | None:
    """The mark of an item done on a day ("Done May 12", "DONE (2026-07-09"), or None."""
    m = _DATED_DONE.search(line)
    return m.group().strip(" |:*\u2014\u2013-") if m is not None else None


def period_title(title: str) -> str | None:
    """What names one numbered sprint's plan or report in a title ("Sprint 2 — Sequenced Implementation Plan"), or None."""
    m = _PERIOD_TITLE.search(title)
    return m.group() if m is not None else None
