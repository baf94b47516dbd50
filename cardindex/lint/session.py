"""Session rules: what is true only inside one session, from its words and from its shape.

Words alone flag durable sentences ("today's date must never be hard-coded", "When the
user labels a PR WIP, open it as a draft") and miss session notes that use none of them
("Left on the export screen: the empty state", a dated report of what was shipped, a
board of what is done and what remains). So the rules read both: the English words of
`meaning.session_words` (English sentences only) and the shapes of
`meaning.session_shape` (dates in a card's name, boards, counts, changelogs), which are
read in any language where they carry no English word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import Hit, LintContext
from cardindex.meaning import session_shape, session_status, session_words
from cardindex.meaning.content import has_cjk
from cardindex.meaning.text import body_lines, prose
from cardindex.store.card import Card

_CHECKBOX = lazy_pattern(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s")
_HEADING = lazy_pattern(r"^\s{0,3}#{1,6}\s+(.*)")
# Unticked boxes under a heading (or in a card) named so are a checklist to follow each time.
# So are boxes under a heading that names when they recur ("Every Friday before doors open", "Before each release").
_CHECKLIST = lazy_pattern(
    r"\b(?:checklists?|runbooks?|procedures?|pre-?flight)\b|^\W*(?:(?:before|after|on)\s+)?(?:every|each|whenever)\b", re.IGNORECASE
)


def _hit(line: int, what: str, why: str) -> Hit:
    return Hit(line, f"session-only: {what}: {why}", fix="archive")


_SAID: list[tuple[Card, list[tuple[int, str]]]] = []


def _statement_lines(card: Card) -> list[tuple[int, str]]:
    """What S101 and S103 read of `card`, once for both (the last card's lines are kept)."""
    if not (_SAID and _SAID[0][0] is card):
        _SAID[:] = [(card, session_words.statement_lines(prose(card)))]
    return _SAID[0][1]


def _shape(card: Card, kinds: tuple[str, ...]) -> session_shape.ShapeHit | None:
    return next((h for h in session_shape.shapes(card) if h.kind in kinds), None)


def temporal(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Words and names that date a card to one session: progress, plans, pauses, a dated report.

    "currently fixing", "right now", "for now", "WIP", "next step is", "in this session",
    "today I", "tomorrow", "left off", "TODO: …"; pauses and hand-offs ("Left on the export
    screen: …", "Stopping the cleanup here", "Was about to upgrade eslint", "Next session =
    …"); notes of the sitting with no such word, told by their grammar ("Parking it; …",
    "Testing that on the next run", "Cannot reproduce the spike", "Still unclear why …",
    "Decision pending — …", "timed entry done, refunds untouched", "TBD"); counts "as of"
    a day; a project card titled as one numbered sprint's plan or notes; and a card whose name, description or file name carries a
    date beside a word for one sitting ("Session 2026-05-07", "EOD summary May 24"). Such a
    note reads as standing knowledge six weeks later, when it is false.
    Durable sentences that merely contain such words ("today's date must never be
    hard-coded", "When the user labels a PR WIP, open it as a draft", "Key files: TODO.md
    (tasks)") are not flagged, nor is the incident told under "**Why:**", nor "this
    session" in a feedback card with no "I" or "we" (where the lesson was learned); and a date
    alone ("decided on 2026-05-02", `verified`) is no session. English words are read
    in English sentences only. The fix is to archive the card; keep only what will
    still hold next week.
    """
    found = session_words.temporal(_statement_lines(card), lesson=card.type == "feedback")
    if found is not None and found.why == session_words.TALLY_WHY and _shape(card, ("board",)) is not None:
        found = None  # the board's counts are S102's to report
    report = _shape(card, ("report",))
    if found is not None and (report is None or found.line <= report.line):
        yield _hit(found.line, repr(found.matched), found.why)
    elif report is not None:
        yield _hit(report.line, "a dated report", report.message)
    elif card.type not in ("feedback", "user"):
        cjk = next(((n, w) for n, line in _statement_lines(card) if has_cjk(line) and (w := session_status.cjk_next(line))), None)
        if cjk is not None:
            yield _hit(cjk[0], repr(cjk[1]), "names the next sitting's work: a plan for the next session")
        elif card.type != "reference" and _shape(card, ("board",)) is None:  # a reference card says where things are;
            # a board is S102's to report
            # its words are no English words: a German line that the language judge reads as English still counts
            legend = session_shape.legend_lines(card) if has_cjk(card.body) else frozenset()  # a legend's states are defined
            day = next(((n, w) for n, line in _statement_lines(card) if n not in legend and (w := session_status.deictic_day(line))), None)
            if day is not None:
                yield _hit(day[0], repr(day[1]), "the writer's today or tomorrow: what one sitting did or plans next")


def todo_list(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A to-do list or a status board: tasks and progress of a session, not facts.

    `- [ ]` / `- [x]` checkboxes (unticked boxes in a reference card, or under a heading
    that names a checklist or runbook, are a procedure to follow each time); three or more items marked done, in progress or
    remaining (DONE, PENDING, ⏳, "Status: blocked"), or given with a state that closes
    the clause ("Rehearsal 2: Complete (Mar 5)", "결제 연동: 진행 중"; in Korean, Chinese
    and Japanese three such items, or one under a heading such as 현재 상태); an item marked done
    on a day ("| Done May 12 |", not "Released 2024-03-01"); progress figures ("80% complete",
    "3/7 done", a progress bar); a test count of one run ("412 passing"). A line that
    defines a state ("OPEN: a ticket nobody has triaged") reports nothing. Track tasks in
    the issue tracker or the session; a card holds what stays true.
    """
    # A reference card documents how something is done: its unticked boxes are a checklist too.
    reference = card.type == "reference"
    template = reference or _CHECKLIST.search(f"{card.name or ''} {card.description}") is not None
    for number, line in body_lines(card):
        heading = _HEADING.match(line)
        if heading:
            template = reference or _CHECKLIST.search(heading.group(1)) is not None
            continue
        box = _CHECKBOX.match(line)
        if box is not None and (box.group(1) != " " or not template):
            yield _hit(number, "a to-do checkbox", "tasks belong in the tracker, not in memory")
            return
    board = _shape(card, ("board",))
    if board is not None:
        yield _hit(board.line, "a status snapshot", board.message)


def narrative(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """First-person narrative of work, or a changelog of one session's work.

    Work in progress ("I've been refactoring…", "we're in the middle of…"), a story of
    work done ("I added the retry, then we fixed the test"), bullets that say what was
    built, fixed or shipped, or a list of commits. It describes what an agent or person
    did, which stops mattering when the session ends. A lesson told briefly ("We once
    deployed on a Friday and lost the weekend; never deploy on Fridays") is durable.
    """
    found = session_words.narrative(_statement_lines(card))
    if found is not None:
        yield _hit(found.line, repr(found.matched), found.why)
        return
    log = _shape(card, ("changelog",))
    if log is not None:
        yield _hit(log.line, "a record of work done", log.message)
