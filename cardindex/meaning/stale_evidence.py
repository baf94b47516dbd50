"""What a card says that time can overtake: its own date, the work items it gives a state, the plans it dates.

A card goes stale when what it said was true once and later evidence says otherwise. The
evidence the stale rules weigh is dated, so this module reads three things from a card:

- when it was written (`written_on`: `modified`, `verified` or `created`, else a date in its
  file name; `card_time` adds the time git last committed the file, when the vault is tracked);
- the work items it gives a state (`items`): a tracker id (P13, D-15, AC-070) in a clause
  that says the work is open ("P9b UI is next", "two remaining items: D-15 …", "build not
  started") or done. The state words are the small closed class of workflow states, as in
  `session_status`; a clause in the past tense ("was pending") reports history, not a state;
- the plans it dates (`dated_plans`): a future-directed clause ("planned for June 4",
  "starts June 17", "review on May 26", "sprint May 15 to Jul 1") with the day it names.

Pure functions of the card (and the history handed in); the rules in `lint/overtaken.py` decide.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.repo_history import ID, ID_SLASH, History, ids_in
from cardindex.store.card import Card


class Item(NamedTuple):
    """A work item the card gives a state: its id, where the clause starts (offset in the card's text), open or done."""

    id: str
    offset: int
    open: bool
    clause: str
    named: bool = True  # False: the clause names no id and speaks of the card's subject


class Plan(NamedTuple):
    """A dated plan: where it is in the card's text, the day it names, the words that date it."""

    offset: int
    day: dt.date
    phrase: str


NEAR = 60  # characters between an id and the state word it takes

_FILE_DATE = lazy_pattern(r"(?<!\d)(20\d\d)-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])(?!\d)")
_FENCE = lazy_pattern(r"^\s*(?:```|~~~).*?^\s*(?:```|~~~)[^\n]*$", re.MULTILINE | re.DOTALL)
# A clause: a line, cut at semicolons, sentence ends and middle dots (a table row stays whole: its cells are item and state).
_CLAUSE_CUT = lazy_pattern(r";\s+|(?<=[a-z0-9)*])\.\s+(?=[A-Z*(])|\s\u00b7\s")

# The open states of a piece of work (the small closed class), and the done ones.
_OPEN = lazy_pattern(
    r"(?<![\w-])(?:next(?=\s*[:=\u2014\u2013]|\s+session\s*[:=]|\s+up\b|\s+steps?\b|\s*(?:\*\*)?\s*(?:$|[.,;)]))|(?:is|are|comes?|goes) next\b|(?-i:NEXT)|not (?:yet )?(?:started|begun|implemented|built|done|merged|shipped|"
    r"committed|pushed|fixed|run|written|wired)|not yet|remain(?:s|ing)?|left to do|still to do|in progress|in flight|"
    r"pending|planned|awaiting|waiting (?:for|on)|in (?:a )?(?:PR|review)\b|still open|(?-i:OPEN)|(?:is|are|remains?|stays?) open|"
    r"blocked|TBD|TODO|to do|on hold|(?-i:HELD)|held until|owed|unpushed|unmerged|queued|WIP|upcoming)(?![\w-])",
    re.IGNORECASE)
_DONE = lazy_pattern(
    r"(?<![\w-])(?:done|complete[d]?|shipped|merged|fixed|resolved|closed|landed|released|deployed|met|verified|"
    r"confirmed|mitigated|implemented|built|passed|removed|superseded|obsolete)(?![\w-])",
    re.IGNORECASE)
# A state reported in the past ("was pending", "had been blocked"): history, not the state now.
_PAST_BEFORE = lazy_pattern(r"(?:\b(?:was|were|had been|used to be|previously|originally|once)\s+(?:\w+\s+){0,2})$", re.IGNORECASE)

_MONTHS = {m: i for i, names in enumerate(
    ("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august",
     "sep sept september", "oct october", "nov november", "dec december"), 1) for m in names.split()}
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DAY = lazy_pattern(
    rf"(?<![\w-])(?:(?P<iy>20\d\d)-(?P<im>0[1-9]|1[0-2])-(?P<id>0[1-9]|[12]\d|3[01])(?![\d-])"
    rf"|(?P<mn>{_MONTH})\.?\s+(?P<md>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?(?!\d|:)(?:,?\s+(?P<my>20\d\d))?"
    rf"|(?P<dd>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s+(?P<dm>{_MONTH})\.?,?\s+(?P<dy>20\d\d))(?![\w-])",
    re.IGNORECASE)
# What makes a clause a plan for a day: the words before the day (within a few words) that point forward.
_PLAN_BEFORE = lazy_pattern(
    r"(?<![\w-])(?:planned(?: for| on)?|scheduled|due|deadline|starts|starting|begins|kicks off|"
    # a deferral's day is its target only after "to" or "until" ("deferred May 21" is when it was put off)
    r"(?:deferred|defer|postponed|pushed back|moved|held)\b[^.;\n]{0,30}?\b(?:to|until|till)|"
    r"review(?:ed)?(?: all items)? on|resumes?(?: on)?|target(?:ed)?(?: for)?|ETA|until|will)(?![\w-])(?P<gap>[^.;|\n]{0,40})$",
    re.IGNORECASE)
# Words just before a day that make it the day something happened, not the day planned for it.
_HAPPENED = lazy_pattern(r"(?<![\w-])(?:decided|agreed|approved|written|updated|created|recorded|since|as of|dated|confirmed|"
                       r"verified|done|shipped|completed?|finished|started|began|set up)\W*(?:on\W*)?$", re.IGNORECASE)
_RECURRING = lazy_pattern(r"(?<![\w-])(?:every|each|annual(?:ly)?|yearly|monthly|weekly|recurring)(?![\w-])", re.IGNORECASE)


def written_on(card: Card) -> dt.date | None:
    """The day the card says it was written or confirmed: `modified`, `verified`, `created`, else its file name's date."""
    dates = [d for d in (card.modified, card.verified, card.created) if d is not None]
    if dates:
        return max(dates)
    m = _FILE_DATE.search(card.path.rsplit("/", 1)[-1])
    if m:
        try:
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    return None


def end_of_day(day: dt.date) -> int:
    """The last second of `day` (UTC), as an epoch time."""
    return int(dt.datetime.combine(day, dt.time(23, 59, 59), dt.timezone.utc).timestamp())


def card_time(card: Card, history: History) -> int | None:
    """When the card was last written, as an epoch time: the earlier of its git commit and the end of its own day.

    A card is committed when or after it is written, so git's time bounds it; a card
    written long before a bulk commit of the vault says so with its date.
    """
    times = [t for t in (history.file_time.get(card.path),) if t]
    day = written_on(card)
    if day is not None:
        times.append(end_of_day(day))
    return min(times) if times else None


def _prose(card: Card) -> str:
    """The card's description line and body, the rest of the frontmatter and fenced code blanked (offsets kept)."""
    head = card.text[: card.body_offset]
    kept = "".join(line if line.lstrip().startswith("description:") else re.sub(r"[^\n]", " ", line)
                   for line in head.splitlines(keepends=True))
    return kept + _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), card.body)


def _clauses(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    start = 0
    for line in text.splitlines(keepends=True):
        pos = 0
        for cut in _CLAUSE_CUT.finditer(line):
            out.append((start + pos, line[pos:cut.start()]))
            pos = cut.end()
        out.append((start + pos, line[pos:].rstrip("\n")))
        start += len(line)
    return out


def _state_at(clause: str, pattern: re.Pattern[str]) -> bool:
    """Whether `clause` reports a state of `pattern` now (not in the past tense)."""
    return any(not _PAST_BEFORE.search(clause[: m.start()]) for m in pattern.finditer(clause))


def subject_ids(card: Card) -> list[str]:
    """The work items a card is about by its file name or title ("p13-webex-plan", "P9 Voting plan"): P13, P9."""
    stem = card.path.rsplit("/", 1)[-1].removesuffix(".md")
    # a file name is written in lower case: "p6a-plan" names P6a (its letters raised, the step's letter kept)
    raised = _STEM_ID.sub(lambda m: m.group(1).upper() + m.group(2) + m.group(3), stem.lower())
    return list(dict.fromkeys([*ids_in(raised, strict=True), *ids_in(card.name or "", strict=True)]))


_STEM_ID = lazy_pattern(r"(?<![a-z0-9])([a-z]{1,4})(\d+)([a-z]?)(?![a-z0-9])")


# Cheap tests that a card may hold an item or a dated plan at all: most cards hold neither.
_ANY_STATE = lazy_pattern(r"(?i)next|not |remain|left|still|progress|flight|pending|planned|await|wait|review|\bPR\b|open|"
                        r"block|TBD|TODO|to do|hold|held|owed|unpushed|unmerged|queued|WIP|upcoming|done|complete|"
                        r"shipped|merged|fixed|resolved|closed|landed|released|deployed|met|verified|confirmed|"
                        r"mitigated|implemented|built|passed|removed|superseded|obsolete")
_LETTER_DIGIT = lazy_pattern(r"[A-Za-z]-?\d")
_ANY_DAY = lazy_pattern(r"(?i)jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|20\d\d-\d\d-\d\d")
_ANY_LEAD = lazy_pattern(r"(?i)plann|schedul|due|deadline|start|begin|kick|defer|postpon|pushed|moved|held|review|resume|"
                       r"target|ETA|until|will")


# A line of the body that opens with a status label: "**REMAINING (open):** …", "Next: …", "Still to do - …".
_STATUS_LABEL = lazy_pattern(
    r"^\W*(?:next(?: steps?| session)?|remaining|still to do|left to do|to ?do|open items?|pending|not yet done)\b[^:=\n]{0,20}[:=\u2014]",
    re.IGNORECASE)


def may_hold_items(card: Card) -> bool:
    """False when the card names no id anywhere (file name, title, text) or has no state word: no items."""
    text = card.text
    if _LETTER_DIGIT.search(text) is None and _LETTER_DIGIT.search(card.path) is None:
        return False  # a fast scan first: a letter then a digit
    if ID.search(text) is None and ID.search(card.path.upper()) is None:
        return False
    return _ANY_STATE.search(text) is not None


def may_hold_plans(card: Card) -> bool:
    """False when the card's text has no day or no word that points forward: no dated plans."""
    body = card.body
    if _ANY_DAY.search(body) is None and _ANY_DAY.search(card.description) is None:
        return False
    return (_DAY.search(body) is not None and _ANY_LEAD.search(body) is not None) or (
        _DAY.search(card.description) is not None and _ANY_LEAD.search(card.description) is not None)


def items(card: Card) -> list[Item]:
    """The work items the card gives a state: each id near a state word of its clause, open or done.

    An id takes the state of a state word within a few words of it, with no other state
    word between; a clause that says work is open and names no id, in the description ("build
    not started", "only the live sandbox remains") or as a status label opening a line of the
    body ("**Remaining:** the live check"), speaks of the card's own subject (`subject_ids`).
    """
    out: list[Item] = []
    if not may_hold_items(card):
        return out
    subject: list[str] | None = None
    for offset, clause in _clauses(_prose(card)):
        if not clause.strip():
            continue
        states = [(m.start(), m.end(), True) for m in _OPEN.finditer(clause) if not _PAST_BEFORE.search(clause[: m.start()])]
        states += [(m.start(), m.end(), False) for m in _DONE.finditer(clause) if not _PAST_BEFORE.search(clause[: m.start()])]
        if not states:
            continue
        states.sort()
        listed = ID_SLASH.sub(" ", clause) if "/" in clause else clause
        named = [(m.start(), m.end(), found) for m in ID.finditer(listed) for found in ids_in(m.group(), strict=True)]
        if not named:
            if (offset < card.body_offset or _STATUS_LABEL.match(clause)) and any(opened for _, _, opened in states):
                subject = subject_ids(card) if subject is None else subject
                out.extend(Item(found, offset, True, _bare(clause), False) for found in subject)
            continue
        seen: set[str] = set()
        for start, end, found in named:
            state = _nearest(states, start, end)
            if state is not None and found not in seen:
                seen.add(found)
                out.append(Item(found, offset, state, _bare(clause)))
    return out


_NEXT_BEFORE = lazy_pattern(r"(?i)\bnext\b(?=\s+[A-Za-z]{1,5}-?\d)")


def says_open(text: str, item: str) -> bool:
    """Whether a line of text (a commit subject) gives `item` an open state: "refresh notes (next P8c)"."""
    found = False
    for clause in _CLAUSE_CUT.split(text):
        states = [(m.start(), m.end(), True) for m in _OPEN.finditer(clause)]
        states += [(m.start(), m.end(), True) for m in _NEXT_BEFORE.finditer(clause)]  # a subject's "next P8c"
        states += [(m.start(), m.end(), False) for m in _DONE.finditer(clause)]
        listed = ID_SLASH.sub(" ", clause) if "/" in clause else clause
        for m in ID.finditer(listed):
            if item in ids_in(m.group()):
                found = found or _nearest(sorted(states), m.start(), m.end()) is True
    return found


def _bare(clause: str) -> str:
    """The clause as a message quotes it: without the `description:` field name."""
    text = clause.strip()
    return text[len("description:"):].strip() if text.startswith("description:") else text


def _nearest(states: list[tuple[int, int, bool]], start: int, end: int) -> bool | None:
    """Whether the state word nearest the id at start:end says open (True) or done (False); None if none is near."""
    best: tuple[int, bool] | None = None
    for s_start, s_end, opened in states:
        gap = s_start - end if s_start >= end else start - s_end
        if gap <= NEAR and (best is None or gap < best[0]):
            best = (gap, opened)
    return None if best is None else best[1]


def _day_of(m: re.Match[str], year: int | None) -> dt.date | None:
    try:
        if m.group("iy"):
            return dt.date(int(m.group("iy")), int(m.group("im")), int(m.group("id")))
        if m.group("mn"):
            y = int(m.group("my")) if m.group("my") else year
            return dt.date(y, _MONTHS[m.group("mn").lower().rstrip(".")], int(m.group("md"))) if y else None
        return dt.date(int(m.group("dy")), _MONTHS[m.group("dm").lower().rstrip(".")], int(m.group("dd")))
    except (ValueError, KeyError):
        return None


def _card_year(card: Card, text: str) -> int | None:
    day = written_on(card)
    if day is not None:
        return day.year
    years = re.findall(r"(?<!\d)(20\d\d)(?!\d)", text)
    return int(max(years)) if years else None


def dated_plans(card: Card, written: dt.date | None) -> list[Plan]:
    """The future-directed clauses of the card with the day each names (a day without a year is in the card's year)."""
    out: list[Plan] = []
    if not may_hold_plans(card):
        return out
    text = _prose(card)
    year = written.year if written is not None else _card_year(card, text)
    for offset, clause in _clauses(text):
        if _RECURRING.search(clause) or _state_at(clause, _DONE):  # a recurring day, or one the clause reports kept
            continue
        for m in _DAY.finditer(clause):
            before = clause[max(0, m.start() - 60): m.start()]
            lead = _PLAN_BEFORE.search(before)
            if lead is None or _PAST_BEFORE.search(before[: lead.start()]) or _HAPPENED.search(before):
                continue
            gap = lead.group("gap")
            if gap.rstrip().endswith("(") and len(gap.split()) > 3:
                continue  # "until it leaves the laptop (2026-07-14)": a note of when, not the day planned
            day = _day_of(m, year)
            if day is not None:
                out.append(Plan(offset + m.start(), day, (lead.group() + m.group()).strip()))
    return out


# A pull request the card names by its number: "PR #141", "pull request #88" ("PR1", "PR2" are often slices of a plan).
_PR = lazy_pattern(r"(?<![\w-])(?:PR|pull request)\s*#(?P<n>\d{1,6})(?![\w.])", re.IGNORECASE)
# What says a pull request is still open: the workflow's open states, and "open", "opened", "draft", "awaiting merge".
_PR_OPEN = lazy_pattern(
    r"(?<![\w-])(?:open(?:ed)?|still open|draft|awaiting(?: \w+){0,2}|pending(?: \w+)?|in review|under review|"
    r"ready for review|not (?:yet )?merged|unmerged|waiting (?:for|on)(?: \w+){0,2}|to be merged|needs? (?:a )?review)(?![\w-])",
    re.IGNORECASE)
_PR_DONE = lazy_pattern(r"(?<![\w-])(?:merged|closed|squashed|landed|abandoned|superseded|reverted|declined)(?![\w-])", re.IGNORECASE)
PR_NEAR = 40  # characters between "PR #N" and the state word it takes


def open_pull_requests(card: Card) -> list[Item]:
    """The pull requests the card says are still open ("PR #141 OPEN — awaiting merge", "P18b in PR #147 (open)").

    A state word takes the nearest pull request of its clause (within `PR_NEAR` characters, none
    nearer); a clause in the past tense ("was open until …") reports history. The id is "#N".
    """
    out: list[Item] = []
    if _PR.search(card.text) is None:
        return out  # most cards name no pull request: one scan of the text
    for offset, clause in _clauses(_prose(card)):
        named = [(m.start(), m.end(), m.group("n")) for m in _PR.finditer(clause)]
        if not named:
            continue
        states = [(m.start(), m.end(), True) for m in _PR_OPEN.finditer(clause) if not _PAST_BEFORE.search(clause[: m.start()])]
        states += [(m.start(), m.end(), False) for m in _PR_DONE.finditer(clause)]
        for i, (start, end, number) in enumerate(named):
            # a state word belongs to the pull request it is nearest: not to one another PR stands between
            near = [s for s in states if (s[0] >= end and s[0] - end <= PR_NEAR
                                          and not any(end <= o[0] < s[0] for o in named[i + 1:]))
                    or (s[1] <= start and start - s[1] <= PR_NEAR and not any(s[1] <= o[0] < start for o in named[:i]))]
            if near and all(opened for _, _, opened in near):
                out.append(Item(f"#{number}", offset, True, _bare(clause)))
    return list({i.id: i for i in reversed(out)}.values())[::-1]
