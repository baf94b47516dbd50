"""The shape of session text: what a note written during one sitting looks like, besides its words.

A session note is a dated report (a card whose name, description or file name carries the
day it was written, next to a word such as "session" or "EOD"), a status board (items
marked done, in progress or remaining; check marks; "80% complete"; "412 passing"), or a
changelog of work done (bullets that start with what was built, fixed or shipped; a list
of commits). A durable card may carry a date (`verified`, "decided on 2026-05-02", a dated
example after a rule): a date alone is never a session.

Dates, check marks, progress bars and commit hashes are read in any language. The
signals made of English words (status labels, verbs of work done, session nouns) are
read only in English text (`english`), so a card in Korean, Chinese or Czech gets no
finding from an English word list. Pure functions of a card.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning import session_status
from cardindex.meaning.content import has_cjk
from cardindex.meaning.language import is_english
from cardindex.meaning.session_dates import DATE, dated_state, period_title
from cardindex.meaning.text import body_lines, description_line, strip_non_prose
from cardindex.store.card import Card

# --------------------------------------------------------------------------- language

_LATIN = lazy_pattern(r"[A-Za-z]")
_LETTER = lazy_pattern(r"[^\W\d_]")
_WORD = lazy_pattern(r"[^\W\d_]+(?:'[a-z]+)?")
# Short English words that no other language spelled in Latin letters uses as often
# ("a", "to", "on", "do", "no" are Czech, Slovak or Spanish words too).
_ENGLISH_FUNCTION = frozenset({
    "the", "is", "are", "was", "were", "and", "of", "for", "with", "this", "that", "it", "be", "have", "has", "had",
    "not", "from", "will", "would", "should", "must", "been", "an", "at", "by", "in", "you", "they", "we", "our",
    "their", "its", "what", "which", "when", "where", "there", "these", "those", "can", "into", "about", "than",
})


@functools.lru_cache(maxsize=8192)  # the three session rules ask about the same sentences in turn
def english(text: str) -> bool:
    """Whether `text` reads as English, so that English word patterns may judge it (`meaning.language`, the one judgement).

    Mixed text (a Korean sentence quoting an English term) is not English; nothing to judge is not English either.
    """
    return is_english(text) is True


# A word in a card's name that says the card is the record of one sitting ...
_SESSION_NOUN = lazy_pattern(
    r"\b(?:sessions?|eod|end of day|stand-?ups?|daily|recap|hand-?off|handover|work ?log|diary|debrief|wrap-?up|"
    r"today'?s|tonight'?s|day \d+|audit|status|progress|summary|dialogue|transcript|report|meeting|minutes)\b",
    re.IGNORECASE,
)
# Of those, the words that name one sitting itself, not a report that may outlive it.
_SITTING_NOUN = lazy_pattern(
    r"\b(?:sessions?|eod|end of day|stand-?ups?|recap|hand-?off|handover|work ?log|diary|wrap-?up|today'?s|tonight'?s|"
    r"day \d+)\b",
    re.IGNORECASE,
)
# ... or, with the same date and something of a report in the body, a plan or review of the day.
_REPORT_NOUN = lazy_pattern(
    r"\b(?:plan|sprint|review|agenda|update|notes|log|changelog|milestone|iteration|retro|pending|findings)\b",
    re.IGNORECASE,
)
# A title that calls the card a snapshot of work ("Importer migration status", "Current
# state", "Rollout progress") is one, dated or not; "HTTP status codes" is not.
_SNAPSHOT_TITLE = lazy_pattern(
    r"(?<!\bin )\b(?:status|progress|current state|state of play|where things stand)\s*(?:$|[\u2014\u2013:(|]|- )",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------- status boards

# Marks that only ever say "not finished yet", in any language.
_OPEN_MARKS = "⏳🔄🚧⬜☐🟡◻"
# Marks that say done or failed; alone they may be a do/don't list, so they need a status word.
_DONE_MARKS = "✅☑✔✓❌✗✘🟢🔴"
_LEAD = lazy_pattern(r"^\s*(?:(?:[-*+]|\d{1,3}[.)]|#{1,6}|\|)\s+)?(?:\*\*|__)?\s*")
_STATUS_DONE = r"DONE|COMPLETED?|MERGED|SHIPPED|BUILT|DEPLOYED|FIXED|RESOLVED|CLOSED|PASSED|LANDED|FINISHED"
_STATUS_OPEN = (
    r"IN[ -]PROGRESS|PENDING|NOT (?:YET )?STARTED|NOT (?:YET )?DONE|BLOCKED|BLOCKER|REMAINING|NEXT|"
    r"DEFERRED|PARKED|OPEN|STARTED|AWAITING"
)
_STATUS = lazy_pattern(rf"(?<![\w-])(?:(?P<done>{_STATUS_DONE})|(?P<open>{_STATUS_OPEN}))(?![\w-])")
# A label that heads a group of items by their state: "Shipped:", "**Still open**", "## Remaining".
_STATUS_HEAD = lazy_pattern(
    r"^(?:(?P<done>done|completed?|shipped|merged|landed|finished|fixed|delivered)"
    r"|(?P<open>remaining|pending|in progress|still open|open items|next up|next steps?|not (?:yet )?done|blocked|to ?do|"
    r"(?:still |left )to do|outstanding|deferred))"
    r"(?:\s*(?:/|&|\band\b|\bor\b)\s*(?:done|completed?|shipped|merged|landed|finished|fixed|delivered|verified|"
    r"remaining|pending|deferred|parked|blocked|in progress|open|outstanding|to ?do|next))?"  # "Pending / Deferred"
    # "Pending improvements", "Remaining work", "Done items": the state heads a list of pieces of work.
    r"(?:\s+(?:actions?|items?|tasks?|work|improvements?|fixes|changes|steps|todos?|follow-?ups?|pieces))?"
    r"(?:\s*\([^)]{0,60}\)|,[^:]{0,60})?\s*(?:\*\*|__)?\s*(?::|(?:\*\*|__)?\s*$|\s[\u2014\u2013]\s[^:]{0,60}$)",
    re.IGNORECASE,
)
# "set a ticket to DONE", "marked as MERGED": a state named as the object of a verb, not reported.
_NAMED_STATE = lazy_pattern(
    r"(?:\b(?:to|as|from|into|the|an?)|\b(?:mark(?:s|ed)?|sets?|label(?:s|led|ed)?|tag(?:s|ged)?|call(?:s|ed)?|titled)"
    r"(?:\s+\S+){0,2})\s*$",
    re.IGNORECASE,
)
_FLOW = lazy_pattern(rf"(?:{_STATUS_DONE}|{_STATUS_OPEN})\W{{0,4}}(?:then|until|before|after|→|->|=>|⇒)\W{{0,4}}(?:{_STATUS_DONE}|{_STATUS_OPEN})"
    # a lifecycle of any named states: "An order moves PLACED, then PACKED, then SHIPPED"
    r"|(?-i:\b[A-Z][A-Z_]{2,})\W{0,4}(?:then|→|->|=>|⇒)\W{0,4}(?-i:[A-Z][A-Z_]{2,}\b)")
# "CLOSED tickets are never reopened": a state before a noun names a class of items.
_CLASS_NOUN = lazy_pattern(r"^\s+(?!(?:to|on|in|at|by|for|and|or|via|with|after|before|since|but|now|again|here)\b)[a-z]")
_STATUS_LABEL = lazy_pattern(
    rf"\bstatus\s*\**\s*[:=|—-]\s*\**\s*(?:(?P<done>{_STATUS_DONE.lower()}|complete|shipped)|(?P<open>in progress|pending|"
    r"not started|blocked|open|next|wip|todo|remaining|awaiting\b[\w ]*))\b",
    re.IGNORECASE,
)
# "OPEN: a ticket nobody has looked at" defines a state; it reports nothing.
_DEFINES_STATE = lazy_pattern(
    rf"^(?:{_STATUS_DONE}|{_STATUS_OPEN})(?:\s+(?:ON|BY|UNTIL|FOR))?\**\s*[:=—\u2013-]\s*(?:a|an|the|when|if|set|means|used|for|any|every|each|someone|somebody|nobody|no one)\b"
)


# A CJK heading that names a convention, a rule, a legend or a field's values ("## U열 처리상태 (드롭다운)",
# "## 음영 컬러 컨벤션", "## 状态说明", "## 凡例"): the states under it say what each value means, they report no work.
_LEGEND_HEAD = lazy_pattern(r"컨벤션|규칙|룰|범례|드롭다운|의미|정의|约定|规范|规则|图例|说明|含义|定义|規約|ルール|凡例|意味|定義")


def legend_lines(card: Card) -> frozenset[int]:
    """The body lines under a CJK heading that names a convention, a legend or a field's values (`_LEGEND_HEAD`)."""
    out: set[int] = set()
    legend = False
    for number, raw in body_lines(card):
        if raw.lstrip().startswith("#"):
            legend = _LEGEND_HEAD.search(raw) is not None
        elif legend:
            out.add(number)
    return frozenset(out)


def defines_state(line: str) -> bool:
    """A line that says what a state means ("IN PROGRESS: someone owns it") or how states follow
    each other ("OPEN, then IN PROGRESS, then DONE"), not that an item is in one."""
    if _DEFINES_STATE.match(_LEAD.sub("", line, count=1)):
        return True
    return _FLOW.search(line) is not None

_PERCENT_DONE = lazy_pattern(
    r"\b\d{1,3}(?:\.\d+)?\s?% (?:complete|completed|done|finished|through|of the way|migrated|ported|converted|there)\b"
    r"|\b\d+\s*/\s*\d+\s+(?:done|complete|completed|finished|tasks|items|slices|steps|stories|tickets)\b"
    r"|\b\d+ of \d+ (?:done|complete|completed|finished|tasks|items|slices|steps|stories|tickets)\b",
    re.IGNORECASE,
)
_PROGRESS_BAR = lazy_pattern(r"[█▓▒░■□]{4,}|\[[#=]{2,}[ .-]+\]")
# A share of the work done, in another language: "API 연동 80% 완료", "已完成 60%", "zatím 40 % hotovo".
_PERCENT_DONE_ANY = lazy_pattern(
    r"\b\d{1,3}\s?%\s*(?:완료|진행|完成|已完成|完了|済み|hotovo|fertig|erledigt|terminé|hecho|gemacht)|(?:已完成|完成了?|완료)\s*\d{1,3}\s?%")
# A run's count told by its marks, in any language: "✅ 214 ❌ 6", "✔ 30 / ✘ 2".
_MARKED_COUNT = lazy_pattern(r"[✅✔☑✓]\ufe0f?\s*\d+\b.{0,6}?[❌✗✘✖]\ufe0f?\s*\d+\b|[❌✗✘✖]\ufe0f?\s*\d+\b.{0,6}?[✅✔☑✓]\ufe0f?\s*\d+\b")
_TEST_COUNT = lazy_pattern(
    r"\b\d[\d,]*\s+(?:(?:unit|e2e|fe|be|backend|frontend|integration|new|api|ui)\s+)?(?:tests?|specs?|checks?|cases?)"
    r"\s+(?:(?:are|were|now|all|still)\s+)?(?:pass(?:ing|ed|es)?|green|failing|failed|fail)\b"
    r"|\b\d[\d,]*\s+(?:passing|passed|failing|failed)\b"
    r"|\ball \d+ (?:ci )?(?:checks|tests|jobs) (?:are |were )?(?:green|pass(?:ing|ed)?)\b",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------- work done

_ITEM = lazy_pattern(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")
_BULLET = lazy_pattern(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[[ xX]\]\s+)?(?:[✅☑✔✓]\s*)?(?:\*\*|__)?")
_IRREGULAR_PAST = (
    "built|wrote|ran|made|got|found|shipped|set up|split|cut|put|rebuilt|rewrote|took|began|broke|caught|did|"
    "drew|kept|lost|sent|shut|spent|threw|undid|redid|swapped|dropped|stripped|bumped|wired|tried|moved"
)
_PAST_ACTION = lazy_pattern(rf"(?:(?:{_IRREGULAR_PAST})|[a-z]{{2,}}(?<!need)(?<!feed)(?<!seed)(?<!speed)ed)\b", re.IGNORECASE)
# Work done has an object ("Added the retry", "Fixed a race"); a passive past ("Built in
# 1920", "Closed to ferries since 2026") is history, and "Required:" is a label.
_DONE_TO = lazy_pattern(
    r"(?!\s*:)(?!\s+(?:in|on|at|after|before|during|by|since|from|for|with|to|into|over|under|until)\b)"
)
_OBJECT = lazy_pattern(r"\s+(?:the|a|an|all|both|every|its|their|our|my|this|that|these|those|it|them|\d|`|\*\*|\[)", re.IGNORECASE)
_MODAL = lazy_pattern(r"\b(?:must|should|never|always|only|cannot|can't|don't|do not|may not)\b", re.IGNORECASE)
_HASH = lazy_pattern(r"(?<![\w/#.-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}(?![\w-])")


# An item of a log timed by the clock: "- 09:10 started on the cache layer", "- 15:00 stuck on eviction order".
_CLOCK_ITEM = lazy_pattern(r"^\s*(?:[-*+]|\d{1,3}[.)])?\s*(?:\*\*|__)?\[?(?:[01]?\d|2[0-3]):[0-5]\d\]?(?:\*\*|__)?\s*[-:\u2014\u2013]?\s+(?P<rest>\S.*)")
_CLOCK_ACT = lazy_pattern(r"(?:stuck|blocked|back|done|finished|still|gave up|started|starting|switched)\b", re.IGNORECASE)
# A card whose body says what holds each time ("every Friday", "whenever") is about a kind, whatever its title says.
_HABIT = lazy_pattern(r"\b(?:every|each|always|never|whenever)\b", re.IGNORECASE)


class ShapeHit(NamedTuple):
    """One sign of session text: its kind ("report", "board", "changelog"), the line, what to say."""

    kind: str
    line: int
    message: str


def _identity(card: Card, opening: bool = False) -> list[tuple[str, str, bool]]:
    """The card's file name, name and description (and with `opening`, the title its body opens with): (the
    field to report on, text, is a title). A body's first heading ("# Handover (Fri 2026-11-27)") or the label its
    first line opens with ("Standup 2026-12-01: …") names the card as its `name` does, when a date is what
    is asked of it; undated ("## Sprint 3 changes"), a body's heading is one section's, not the card's."""
    stem = card.id.rsplit("/", 1)[-1].replace("_", " ").replace("-", " ")
    parts = [("name", stem, True)]
    if card.name:
        parts.append(("name", card.name, True))
    if card.description:
        parts.append(("description", card.description, False))
    title = _opening_title(card) if opening else None
    if title is not None:
        parts.append((f"body:{title[0]}", title[1], True))
    return parts


# The label a first line opens with: a heading, or a few words before a colon ("Standup 2026-12-01: …").
_OPENING_LABEL = lazy_pattern(r"^\s{0,3}(?:#{1,6}\s+(?P<heading>.+?)\s*#*\s*$|(?:\*\*|__)?(?P<label>[^:*_]{2,40}?)(?:\*\*|__)?\s*:\s)")
_LABEL_WORDS = 5


def _opening_title(card: Card) -> tuple[int, str] | None:
    for number, line in body_lines(card):
        if not line.strip():
            continue
        m = _OPENING_LABEL.match(line)
        if m is None:
            return None
        text = m.group("heading") or m.group("label")
        return (number, text) if m.group("heading") or len(text.split()) <= _LABEL_WORDS else None
    return None


def _line(card: Card, field: str) -> int:
    if field == "description":
        return description_line(card)
    if field.startswith("body:"):
        return int(field[5:])
    return card.line_of("name") if card.name else 1


def dated_report(card: Card, body_signals: bool) -> ShapeHit | None:
    """A title that carries a date beside a word for one sitting ("Session 2026-05-07", "EOD May 24").

    A description that does ("deferred from the May 21 session") names a session rather
    than records one, so it counts only beside a report shape in the body
    (`body_signals`), and so does a report word ("plan", "status", "summary") beside a
    date in the description; beside a date in the title ("Review agenda — May 26") it is
    the plan or review of that day.
    """
    parts = _identity(card, opening=True)
    dated = [p for p in parts if _DIGIT.search(p[1]) and DATE.search(p[1]) and english(p[1])]
    if not dated:
        return None
    parts = [p for p in parts if english(p[1])]
    for field, text, title in dated:
        # A body's own title names the sitting only by a word for one ("Handover", "Standup"); "Postmortem
        # summary — <date>" is the record of an incident, kept for its lesson.
        m = (_SITTING_NOUN if field.startswith("body:") else _SESSION_NOUN).search(text)
        if m and (title or body_signals):
            return ShapeHit("report", _line(card, field), f"a dated session record ({m.group()!r} with a date in its name)")
    for field, text, title in dated:
        m = _REPORT_NOUN.search(text)
        if m and title and not all(_REVISION.search(text, 0, d.start()) for d in DATE.finditer(text)):  # "Review agenda — May 26 2026": a plan or review of that day, whatever its body
            return ShapeHit("report", _line(card, field), f"a dated {m.group().lower()} of one session ({m.group()!r} with a date in its name)")
    if body_signals:
        for field, text, _ in parts:
            m = _REPORT_NOUN.search(text)
            if m:
                return ShapeHit("report", _line(card, field), f"a dated {m.group().lower()} of one session (a date in its name and a report in its body)")
    return None


# "Review checklist (updated 2026-05-02)", "since May 1": a revision or validity date, not the day of a report.
_REVISION = lazy_pattern(r"\b(?:updated|revised|verified|reviewed|since|effective|from|until|through|valid)\s*(?:on\s*)?:?\s*$",
                       re.IGNORECASE)
_DIGIT = lazy_pattern(r"[\d█▓▒░■□]")
_ARROW = lazy_pattern(r"→|->|=>|⇒")
_DATED_LINE = lazy_pattern(rf"^\s*(?:[-*+]|#{{1,6}})?\s*(?:\*\*|__)?\s*\[?(?:{DATE.pattern})\]?")


# What a line needs to report a state at all: a capitalized word, a mark, a "status" label.
_MAY_REPORT = lazy_pattern(rf"[A-Z]{{2}}|[Ss]tatus|:|^\s*#|[{_OPEN_MARKS}{_DONE_MARKS}]")


def _period_report(card: Card) -> ShapeHit | None:
    """A project card titled as one numbered sprint's plan or report ("Sprint 2 — implementation plan")."""
    if card.type != "project":
        return None
    for field, text, title in _identity(card):
        m = period_title(text) if title and english(text) else None
        if m is not None:
            return ShapeHit("report", _line(card, field), f"the plan or report of one numbered sprint ({m!r} in its name)")
    for number, line in body_lines(card):  # a dated section of one sprint's work: "## Sprint 1 fixes — June 4 2026"
        heading = _HEADING_TEXT.match(line)
        if heading and _DIGIT.search(line) and DATE.search(line) and english(heading.group(1)):
            m = period_title(heading.group(1))
            if m is not None:
                return ShapeHit("report", number, f"the report of one numbered sprint, dated ({m!r} in a heading)")
    return None


_HEADING_TEXT = lazy_pattern(r"^\s{0,3}#{1,6}\s+(.+)")
# "## Progress", "### Where things stand": a section of how far the work is ("## Status" may be an ADR's "Accepted").
_PROGRESS_HEADING = lazy_pattern(
    r"^\s{0,3}#{1,6}\s+(?:\*\*)?(?:progress(?: so far)?|current (?:state|progress)|where (?:things|it|we) stand|state of play|"
    r"work ?log|progress log)(?:\*\*)?\s*:?\s*$",
    re.IGNORECASE,
)


def snapshot_title(card: Card) -> ShapeHit | None:
    """A name that calls a project card a status or progress snapshot ("Importer migration status").

    A feedback or user card titled so ("ticket status") is a rule about statuses.
    """
    if card.type in ("feedback", "user"):
        return None
    if card.name and english(card.name):
        m = _SNAPSHOT_TITLE.search(card.name)
        if m and not any(_HABIT.search(line) and english(line) for _, line in body_lines(card)):
            return ShapeHit("board", card.line_of("name"), f"a status snapshot: its name says so ({m.group().strip(' :(|')!r})")
    return None


def _status_of(line: str) -> tuple[bool, bool]:
    """(done, open): the states this line reports for an item."""
    if _MAY_REPORT.search(line) is None:
        return False, False
    stripped = _LEAD.sub("", line, count=1)
    done = opened = False
    if any(mark in line for mark in _OPEN_MARKS):
        opened = True
    en = english(line)
    if en and not defines_state(line):
        head = _STATUS_HEAD.match(stripped.rstrip())
        if head:
            return head.group("done") is not None, head.group("open") is not None
    if en and not defines_state(line):
        for m in _STATUS.finditer(line):
            if _NAMED_STATE.search(line[: m.start()]) or _CLASS_NOUN.match(line[m.end():]):
                continue
            done |= m.group("done") is not None
            opened |= m.group("open") is not None
        label = _STATUS_LABEL.search(line)
        if label:
            done |= label.group("done") is not None
            opened |= label.group("open") is not None
        if not (done or opened) and stripped[:1] in _DONE_MARKS:
            # "✅ Added the retry" reports work; "✓ Deferred event dispatch" praises a practice.
            rest = stripped[1:].lstrip(" *")
            verb = _PAST_ACTION.match(rest)
            done = verb is not None and _OBJECT.match(rest[verb.end():]) is not None and not _MODAL.search(rest)
    if en and not (done or opened) and not defines_state(line):
        return session_status.item_state(line)
    return done, opened


def _head(line: str) -> tuple[bool, bool]:
    """(done, open) when `line` is a label that heads a list of items by their state ("Remaining work:", "## Done")."""
    if not english(line) or defines_state(line):
        return False, False
    head = _STATUS_HEAD.match(_LEAD.sub("", line, count=1).rstrip())
    return (False, False) if head is None else (head.group("done") is not None, head.group("open") is not None)


_LAST: list[tuple[Card, list[ShapeHit]]] = []


def shapes(card: Card) -> list[ShapeHit]:
    """Every kind of session shape the card has, each at its first line (empty: none).

    The three session rules ask in turn about the same card: the last answer is kept.
    """
    if _LAST and _LAST[0][0] is card:
        return _LAST[0][1]
    found = _shapes(card)
    _LAST[:] = [(card, found)]
    return found


def _shapes(card: Card) -> list[ShapeHit]:
    found: dict[str, ShapeHit] = {}
    status_lines: list[int] = []
    states = [False, False]
    bullets = past_bullets = 0
    first_past = 0
    hashes: dict[str, int] = {}
    test_count: ShapeHit | None = None
    said = 0  # statement lines: a note of one or two lines that reports a state is a status note
    cjk_lines: list[int] = []  # CJK items with their state (`session_status`), and a "current state" heading
    cjk_head = 0
    latin_labels = 0  # German, Czech, French, Spanish status labels (`session_status.latin_label`)
    under_cjk_head = False
    heading: tuple[bool, bool] = (False, False)  # the state of the list being read, under a label such as "Remaining:"
    marked_done = marked_open = timed = 0  # items marked ✅ and ⏳ (any language); items of a clock-timed log
    first_mark = first_timed = 0
    legend = False  # under a heading that names a convention, a legend or a field's values: its states are defined
    for number, raw in body_lines(card):
        if not raw.strip():
            continue
        said += 1
        line = strip_non_prose(raw) if "`" in raw else raw
        if raw.lstrip().startswith("#"):
            legend = _LEGEND_HEAD.search(raw) is not None
        done, opened = _status_of(line)
        if _ITEM.match(raw) and any(heading) and not (done or opened):
            done, opened = heading  # an item of a list headed by its state: "Pending improvements:" then "1. …"
        elif not _ITEM.match(raw):
            # A label heads the list under it by its state, whether or not it passed the report filter ("**Done**").
            heading = _head(line)
        if not (done or opened) and has_cjk(line):
            cjk_done, cjk_open, head = session_status.cjk_state(line)
            snapshot = session_status.cjk_snapshot(line)
            if "board" not in found and snapshot is not None:
                found["board"] = ShapeHit("board", number, f"a status line: how the work stands now ({snapshot!r})")
            if head:
                cjk_head = cjk_head or number
            # An item under "다음 단계" / "남은 과제" is one of what is left to do, as under "Remaining:".
            if (cjk_done or cjk_open or (under_cjk_head and _ITEM.match(raw))) and not legend:
                cjk_lines.append(number)
            if not _ITEM.match(raw):
                under_cjk_head = head
        elif not _ITEM.match(raw):
            under_cjk_head = False
        if "board" not in found and ":" in line and not (done or opened) and not has_cjk(line) and not english(line):
            label = session_status.latin_label(line)
            if label is not None:
                latin_labels += 1
                if label == "now" or latin_labels >= 2:
                    found["board"] = ShapeHit("board", number, "a status line: how the work stands now (a status label)")
        if done or opened:
            status_lines.append(number)
            states[0] |= done
            states[1] |= opened
            if done and opened and "board" not in found and len(_STATUS.findall(line)) >= 3 and not _ARROW.search(line):
                found["board"] = ShapeHit("board", number, "a status line: items marked done and items still open")
        if "board" not in found and _PROGRESS_HEADING.match(raw):
            found["board"] = ShapeHit("board", number, "a status snapshot: a section that says how far the work is")
        lead = _LEAD.sub("", raw, count=1)
        ticked = lead[:1] in _DONE_MARKS[:4] or (_ITEM.match(raw) is not None and raw.rstrip()[-1:] in _DONE_MARKS[:4])
        if ticked or any(mark in raw for mark in _OPEN_MARKS):
            marked_done += ticked
            marked_open += any(mark in raw for mark in _OPEN_MARKS)
            first_mark = first_mark or number
        digits = _DIGIT.search(raw) is not None  # dates, counts, bars and hashes need one
        clock = _CLOCK_ITEM.match(raw) if digits and ":" in raw else None
        if clock is not None and english(clock.group("rest")):
            rest = clock.group("rest")
            verb = _PAST_ACTION.match(rest)
            if (verb is not None and not _MODAL.search(rest)) or _CLOCK_ACT.match(rest):
                timed += 1
                first_timed = first_timed or number
        if digits and "entry" not in found:
            dated = _DATED_LINE.match(raw)
            if dated is not None and english(line[dated.end():]):
                rest = raw[dated.end():]
                if _SESSION_NOUN.search(rest) or _STATUS.search(rest) or _TEST_COUNT.search(rest):
                    found["entry"] = ShapeHit("report", number, "a dated log entry: what one day's session did")
        if digits and "board" not in found:
            marked = dated_state(line)
            if marked is not None and english(line):
                found["board"] = ShapeHit("board", number, f"a piece of work marked done on a day ({marked!r})")
        if (digits or "[#" in raw or "[=" in raw) and "progress" not in found:
            m = _PERCENT_DONE.search(line) or _PROGRESS_BAR.search(line) or _MARKED_COUNT.search(line) or _PERCENT_DONE_ANY.search(line)
            if m is not None and (m.re.pattern != _PERCENT_DONE.pattern or english(line)):  # bars and marks in any language
                found["progress"] = ShapeHit("board", number, f"progress of unfinished work ({m.group().strip()!r})")
            elif test_count is None:
                t = _TEST_COUNT.search(line)
                if t is not None and english(line):
                    test_count = ShapeHit("board", number, f"a test count of one run ({t.group()!r})")
        bullet = _BULLET.match(raw)
        if bullet:
            bullets += 1
            rest = raw[bullet.end():]
            m = _PAST_ACTION.match(rest)
            if m and _DONE_TO.match(rest[m.end():]) and not _MODAL.search(rest) and english(rest):
                past_bullets += 1
                first_past = first_past or number
        if digits:
            for h in _HASH.findall(raw):
                hashes.setdefault(h, number)
    # "✅ menu / ✅ error messages / ⏳ help pages": items ticked and items still open, in any language.
    if "board" not in found and marked_done and marked_open:
        found["board"] = ShapeHit("board", first_mark, "a status board: items marked done beside items still open")
    if timed >= 2 and "entry" not in found:
        found["entry"] = ShapeHit("report", first_timed, f"a log of one day's work by the clock ({timed} timed items)")
    if "board" not in found and status_lines and said <= 2:
        found["board"] = ShapeHit("board", status_lines[0], "a status note: what it says is the state of a piece of work")
    if "board" not in found and (len(status_lines) >= 3 or (len(status_lines) >= 2 and all(states))):
        found["board"] = ShapeHit("board", status_lines[0], f"a status board: {len(status_lines)} items marked done, in progress or remaining")
    # A heading's own states count beside another item's only: "상태: 결제 대기, 배송 중" may name a field's values.
    if "board" not in found and (len(cjk_lines) >= 3 or (cjk_head and any(n != cjk_head for n in cjk_lines))):
        found["board"] = ShapeHit("board", min(cjk_lines + ([cjk_head] if cjk_head else [])),
                                  f"a status board: {len(cjk_lines)} items given with their state")
    # A lesson cites the run that taught it ("1,241 passing tests certified code that did
    # not compile"): a test count is a snapshot only beside other signs of one.
    if test_count is not None and "progress" not in found and (status_lines or len(hashes) >= 2):
        found["progress"] = test_count
    if past_bullets >= 3 and past_bullets * 5 >= bullets * 3:
        found["changelog"] = ShapeHit("changelog", first_past, f"a changelog of work done: {past_bullets} items say what was done")
    elif len(hashes) >= 3:
        found["changelog"] = ShapeHit("changelog", min(hashes.values()), f"a list of {len(hashes)} commits: what one session did")
    if "board" not in found:
        title = snapshot_title(card)
        if title is not None:
            found["board"] = title
    report = dated_report(card, bool(found)) or _period_report(card)
    if report is not None and ("entry" not in found or report.line < found["entry"].line):
        found["entry"] = report
    return sorted(found.values(), key=lambda h: h.line)
