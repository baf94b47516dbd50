"""Days a card gives its own facts: an expiry written in the text, and a snapshot's "as of" day.

Two kinds of dated statement say by themselves when they stop holding:

- an **expiry** in the body ("token expires 2026-05-22", "토큰 만료: 2026-05-22",
  "有效期至 2026-05-22", "gültig bis 22.05.2026"): after that day the fact is false, as with
  the `expires` field (T101), but written where T101 cannot read it;
- a **snapshot**: a state label that carries its day ("Current state (2026-05-28)", "Status as of
  May 28, 2026", "当前状态(2026-05-28)", "(2026-06 状态)", "현재 상태 (2026-05-28)",
  "Stand: 28.05.2026", "stav k 28. 5. 2026"). It said how things stood that day; long after
  it, the things have moved.

Each language's words are its own short list, read only beside a date (a date is written
in digits in every one of them), so no English word judges another language. A date is
read in the forms of `DATES`; a month without a day ("2026-06") is its last day. Pure
functions of the card's text.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.store.card import Card


class Dated(NamedTuple):
    """A dated statement: where it starts in the card's text, the day it names, the words that date it."""

    offset: int
    day: dt.date
    phrase: str


_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
          r"nov(?:ember)?|dec(?:ember)?)")
_MONTHS = {m: i for i, names in enumerate(
    ("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august",
     "sep sept september", "oct october", "nov november", "dec december"), 1) for m in names.split()}
# A date with its year: 2026-05-22, 2026/05/22, 2026.05.22, 2026-06 (a month), 2026年5月22日, 2026년 5월 22일,
# 22.05.2026 / 22. 5. 2026 (German, Czech), May 22, 2026 / 22 May 2026.
DATES = lazy_pattern(
    r"(?<![\d.-])(?:(?P<y>20\d\d)[-/.](?P<m>0?[1-9]|1[0-2])(?:[-/.](?P<d>0?[1-9]|[12]\d|3[01]))?(?![\d])"
    r"|(?P<cy>20\d\d)\s*[年년]\s*(?P<cm>0?[1-9]|1[0-2])\s*[月월](?:\s*(?P<cd>0?[1-9]|[12]\d|3[01])\s*[日일])?"
    r"|(?P<ed>0?[1-9]|[12]\d|3[01])\.\s?(?P<em>0?[1-9]|1[0-2])\.\s?(?P<ey>20\d\d)(?!\d)"
    rf"|(?P<nm>{_MONTH})\.?\s+(?P<nd>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?,?\s+(?P<ny>20\d\d)(?!\d)"
    rf"|(?P<dd>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s+(?P<dm>{_MONTH})\.?,?\s+(?P<dy>20\d\d)(?!\d))",
    re.IGNORECASE,
)

# An expiry, each language's words: what comes before the date (a colon, "on", "am", "于" may stand between).
_EXPIRY = lazy_pattern(
    r"(?:(?<![\w-])(?:expires?|expiring|expiry(?: date)?|expiration(?: date)?|valid (?:until|through|till|to)|"
    r"good (?:until|through|till))(?:\s+(?:on|at|by))?"
    r"|만료(?:일|\s*예정(?:일)?)?|유효\s*기간|(?:有效期|过期|到期|失效)(?:日期|时间)?\s*(?:至|为|于|到)?|有効期限|期限切れ|失効日?"
    r"|(?<![\w-])(?:gültig bis|ablauf(?:datum)?|läuft\s+(?:am\s+)?)|(?<![\w-])(?:platnost do|platí do|vyprší|expirace))"
    r"[\s:\uff1a=*_(\uff08\[]{0,6}$",
    re.IGNORECASE,
)
# German "läuft am 22.05.2026 ab" names its day inside the verb: read "läuft (am)" before the day.

# A snapshot's label beside its day: before it ("Status as of", "当前状态(", "Stand:") or after it ("(2026-06 状态)").
_SNAPSHOT_BEFORE = lazy_pattern(
    r"(?:(?<![\w-])(?:(?:current\s+)?(?:status|state|progress)(?:\s+as\s+of|\s+on)?|as\s+of|snapshot(?:\s+(?:of|on))?|"
    r"state of play(?:\s+on)?|where things stand(?:\s+on)?)"
    r"|(?:当前|目前|现在)?(?:状态|现状|进度|进展)|現状|現在の状況|進捗(?:状況)?|(?:현재\s*)?(?:상태|현황|진행\s*상황)"
    r"|(?<![\w-])(?:(?:aktueller\s+)?stand(?:\s+(?:vom|per|am))?|zwischenstand)|(?<![\w-])(?:aktuální\s+)?stav(?:\s+k)?)"
    r"[\s:\uff1a=*_(\uff08\[\u2014\u2013-]{0,6}$",
    re.IGNORECASE,
)
_SNAPSHOT_AFTER = lazy_pattern(
    r"[\s)\uff09\]]{0,3}(?:status|state|snapshot|状态|现状|進捗|状況|상태|현황|Stand)\b",
    re.IGNORECASE,
)
# "Status as of 2026-05-28" is a snapshot in a heading, a label or brackets; in running prose the
# English words must stand in a label of the line ("**Status (2026-05-28):** …") or in brackets.
_LABELLED = lazy_pattern(r"^\s*(?:#{1,6}\s|[-*+]\s+\*\*|\*\*|__|\|)|[(\uff08\[]\s*$")
# A past tense before an expiry reports history ("the cert expired on …"), and a recurring one is a rule.
_HISTORY = lazy_pattern(r"(?<![\w-])(?:expired|lapsed|renewed|extended|every|each|annual(?:ly)?|recurring)(?![\w-])|만료됨|만료된|过期了|已过期",
                        re.IGNORECASE)
_FENCE = lazy_pattern(r"^\s*(?:```|~~~).*?^\s*(?:```|~~~)[^\n]*$", re.MULTILINE | re.DOTALL)
_ANY_DIGIT_YEAR = lazy_pattern(r"20\d\d")


def day_of(m: re.Match[str]) -> dt.date | None:
    """The day a `DATES` match names (a month alone: its last day)."""
    try:
        if m.group("y") or m.group("cy"):
            year = int(m.group("y") or m.group("cy"))
            month = int(m.group("m") or m.group("cm"))
            day = m.group("d") or m.group("cd")
            return dt.date(year, month, int(day) if day else calendar.monthrange(year, month)[1])
        if m.group("ey"):
            return dt.date(int(m.group("ey")), int(m.group("em")), int(m.group("ed")))
        if m.group("nm"):
            return dt.date(int(m.group("ny")), _MONTHS[m.group("nm").lower().rstrip(".")], int(m.group("nd")))
        return dt.date(int(m.group("dy")), _MONTHS[m.group("dm").lower().rstrip(".")], int(m.group("dd")))
    except (ValueError, KeyError):
        return None


def _text(card: Card) -> str:
    """The card's body with fenced code blanked (offsets kept): a snippet's dates are data, not the card's."""
    return _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), card.body)


def _lines(card: Card) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    start = card.body_offset
    for line in _text(card).splitlines(keepends=True):
        out.append((start, line.rstrip("\n")))
        start += len(line)
    return out


def expiries(card: Card) -> list[Dated]:
    """The expiries the card's body writes, each with its day: "token expires 2026-05-22", "만료: 2026-05-22"."""
    out: list[Dated] = []
    if _ANY_DIGIT_YEAR.search(card.body) is None:
        return out
    for offset, line in _lines(card):
        for m in DATES.finditer(line):
            before = line[max(0, m.start() - 40): m.start()]
            lead = _EXPIRY.search(before)
            if lead is None or _HISTORY.search(line):
                continue
            day = day_of(m)
            if day is not None:
                out.append(Dated(offset + m.start(), day, (lead.group() + m.group()).strip(" :\uff1a*_(\uff08[")))
    return out


def snapshots(card: Card) -> list[Dated]:
    """The snapshots the card's body dates: a state label beside its day ("Current state (2026-05-28)")."""
    out: list[Dated] = []
    if _ANY_DIGIT_YEAR.search(card.body) is None:
        return out
    for offset, line in _lines(card):
        for m in DATES.finditer(line):
            before = line[max(0, m.start() - 40): m.start()]
            lead = _SNAPSHOT_BEFORE.search(before)
            after = _SNAPSHOT_AFTER.match(line, m.end())
            if lead is None and after is None:
                continue
            if lead is not None and lead.group().strip()[:1].isascii() and lead.group().strip()[:1].isalpha() \
                    and not (_LABELLED.search(line[: lead.start()]) or _bracketed(line, lead.start())):
                continue  # an English or German label in running prose: "the state on 2026-05-28 was …" is history
            day = day_of(m)
            if day is not None:
                words = (lead.group() + m.group()) if lead is not None else (m.group() + after.group() if after else m.group())
                out.append(Dated(offset + m.start(), day, words.strip(" :\uff1a*_(\uff08[")))
    return out


def _bracketed(line: str, at: int) -> bool:
    """Whether position `at` of `line` is inside brackets or opens the line's label (text before a colon)."""
    head = line[:at]
    return head.count("(") + head.count("\uff08") > head.count(")") + head.count("\uff09") or (":" not in head and line.find(":", at) > 0)
