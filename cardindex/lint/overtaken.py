"""Stale rules from dated evidence: open work the history shows done, plans whose day has passed, states a newer card restates.

Each finding names its evidence (the commit, the day, the newer card) and the card's own
date, so a person can confirm it: these are warnings. The model of what a card states
about time is `meaning.stale_evidence`; the repo's dated history is `meaning.repo_history`,
read once per run and only when a card names a work item.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import Hit, LintContext
from cardindex.meaning.repo_history import ids_in, line_times
from cardindex.meaning.stale_evidence import (
    Item,
    card_time,
    dated_plans,
    end_of_day,
    items,
    may_hold_plans,
    open_pull_requests,
    says_open,
    subject_ids,
    written_on,
)
from cardindex.store.card import Card

DAY = 86_400
_MONTH_DAY = lazy_pattern(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d")


def _live(card: Card) -> bool:
    return card.usable and card.status in ("active", "conflict")


def _items(card: Card, ctx: LintContext) -> list[Item]:
    """`stale_evidence.items(card)`, from the lint cache when it has them."""
    if ctx.cache is None:
        return items(card)
    found = ctx.cache.derived(card, "stale_items", lambda c: [tuple(i) for i in items(c)])
    return [Item(*i) for i in found]


def _may_plan(card: Card, ctx: LintContext) -> bool:
    """`stale_evidence.may_hold_plans(card)`, from the lint cache when it has it."""
    if ctx.cache is None:
        return may_hold_plans(card)
    return bool(ctx.cache.derived(card, "stale_may_plan", lambda c: int(may_hold_plans(c))))


def _line_at(card: Card, offset: int) -> int:
    return card.text.count("\n", 0, offset) + 1


def _when(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).date().isoformat()


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def done_since(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card says a work item it is about is open (next, remaining, not started), and a later commit names it.

    A plan or status for work the repo's history has moved past. The item is a phase or
    ticket id (P13, D-15) the card is about: named in its file name, title or description,
    or a step of one (P18b of P18), not an item it mentions in passing. The commit that
    names it came after the line was written (`git blame`; else the card's `modified`,
    `verified` or `created`, the date in its file name, or its last commit), and does not
    itself call the item open ("refresh notes (next P8c)" is no evidence). Read the
    commit; then update the card to what holds now, or archive it (`cards archive ID`).
    Only checked in a git repo.
    """
    if ctx.repo_root is None or not _live(card):
        return
    open_items = [i for i in _items(card, ctx) if i.open]
    if not open_items:
        return
    about = _about(card)
    open_items = [i for i in open_items if _is_about(i.id, about) or i.offset < card.body_offset]
    if not open_items:
        return
    history = ctx.history
    since = card_time(card, history)
    if since is None or not history.by_id:
        return
    open_items = [i for i in open_items if i.id in history.by_id]  # no commit names it: nothing to weigh
    if not open_items:
        return
    lines = _line_times(card, ctx)
    day = written_on(card)
    for item in open_items:
        line = _line_at(card, item.offset)
        since_line = since
        if 0 < line <= len(lines) and lines[line - 1]:  # the line's own time: a card edited later keeps older lines
            since_line = min(lines[line - 1], end_of_day(day)) if day is not None else lines[line - 1]
        later = [i for i in history.by_id.get(item.id, ())
                 if history.commits[i][1] > since_line and not says_open(history.commits[i][2], item.id)]
        if later:
            sha, when, subject = history.commits[max(later)]  # the earliest commit after the card (newest first)
            yield Hit(line,
                      f"says {item.id} is still to do ({_short(item.clause, 60)!r}); commit {sha[:7]} of {_when(when)} "
                      f"{_short(subject)!r} came after this line was written ({_when(since_line)})")
            return


def _is_about(item: str, about: set[str]) -> bool:
    """Whether `item` is one of `about` or a step of one (P18b of P18)."""
    return item in about or (item[-1:].isalpha() and item[:-1] in about)


def _line_times(card: Card, ctx: LintContext) -> list[int]:
    """When git last changed each line of the card (empty outside git)."""
    root = ctx.repo_root
    if root is None or card.path not in ctx.history.file_time:
        return []
    try:
        rel = (ctx.vault.real_root / card.path).resolve().relative_to(Path(str(root)).resolve()).as_posix()
    except ValueError:
        return []
    return line_times(Path(str(root)), rel)


def _about(card: Card) -> set[str]:
    """The work items a card is about: named in its file name, title or description."""
    return {*subject_ids(card), *ids_in(card.description, strict=True)}


def plan_passed(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card plans work for a day that has passed ("planned for June 4", "starts June 17", "review on May 26").

    A dated plan is true until its day; after it, the work was done or dropped and the card
    says neither. Only a card whose every dated plan is past is reported (a day given without
    a year is read in the card's own year; a recurring date, "every April 15", is no plan;
    a card with `expires` is T101's).
    Update the card to what happened, or archive it.
    """
    if not _live(card) or card.expires is not None or not _may_plan(card, ctx):
        return  # a card with `expires` says itself when it stops holding: T101 judges it
    written = written_on(card)
    plans = dated_plans(card, written)
    if written is None and ctx.repo_root is not None and _MONTH_DAY.search(card.text):
        seconds = card_time(card, ctx.history)  # the day git last committed it: the year of "June 4"
        if seconds is not None:
            plans = dated_plans(card, dt.datetime.fromtimestamp(seconds, dt.timezone.utc).date())
    if not plans or any(p.day >= ctx.today for p in plans):
        return
    if written is not None and all(p.day < written - dt.timedelta(days=1) for p in plans):
        return  # days before the card was written: history it recounts, not its plan
    last = max(plans, key=lambda p: p.day)
    yield Hit(_line_at(card, last.offset), f"plans {_short(last.phrase, 50)!r} ({last.day.isoformat()}), a day now past")


def restated_later(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """This card calls a work item open that it, or a newer card of the vault, says is done.

    One item, two states: work goes from open to done, so the "open" is the account that
    was overtaken: a description left behind when the card's body recorded the item done,
    or an older card when a newer one (written at least a day later) reports it done, as a
    later audit reports an earlier audit's finding fixed. Only tracker ids are compared:
    written with a hyphen (D-15, SEV-42, AC-070) or named by a commit of the repo (P9b); a
    bare letter and number is as often a device (SW1, EP1). Keep what still holds and
    archive the rest.
    """
    if not _live(card):
        return
    found = _items(card, ctx)
    # the description's open clause about the card's own subject ("build not started") counts here too
    summary = [i for i in found if i.open and not i.named and i.offset < card.body_offset]
    open_items = [i for i in found if i.open and i.named]
    if not open_items and not summary:
        return
    done_here = {i.id: i for i in found if not i.open and i.named and i.offset >= card.body_offset and _tracked(i, ctx)}
    for item in [*open_items, *summary]:
        done = done_here.get(item.id)
        if done is not None and item.offset < card.body_offset:  # the summary says open, the body says done
            yield Hit(_line_at(card, item.offset),
                      f"says {item.id} is still to do, and line {_line_at(card, done.offset)} says it is done "
                      f"({_short(done.clause, 50)!r})")
            return
    hyphened = [i for i in open_items if _tracked(i, ctx)]
    if not hyphened:
        return
    mine = _time_of(card, ctx)
    if mine is None:
        return
    index = _stated_index(ctx)
    for item in hyphened:
        newer = [(t, p) for t, p in index.get(item.id, ()) if p != card.path and t >= mine + DAY]
        if newer:
            when, path = min(newer)
            yield Hit(_line_at(card, item.offset),
                      f"says {item.id} is still to do; {path} ({_when(when)}) says it is done, after this card ({_when(mine)})",
                      (path,))
            return


_HYPHENED = lazy_pattern(r"[A-Za-z]-\d")


def _tracked(item: Item, ctx: LintContext) -> bool:
    """Whether the item's id is a tracker's: written with a hyphen (AC-070), or named by a commit of the repo (P9b)."""
    return _hyphened(item) or (ctx.repo_root is not None and item.id in ctx.history.by_id)


def _hyphened(item: Item) -> bool:
    """Whether the clause writes the item's id with a hyphen (AC-070 for AC070)."""
    letters = item.id.rstrip("abcdefghijklmnopqrstuvwxyz").rstrip("0123456789")
    return re.search(rf"(?i)(?<![\w-]){re.escape(letters)}-\d", item.clause) is not None


def _time_of(card: Card, ctx: LintContext) -> int | None:
    history = ctx.history if ctx.repo_root is not None else None
    if history is None:
        day = written_on(card)
        return end_of_day(day) if day is not None else None
    return card_time(card, history)


def _stated_index(ctx: LintContext) -> dict[str, list[tuple[int, str]]]:
    """Work item id -> (time, path) of each live card that says it is done."""
    found: dict[str, list[tuple[int, str]]] | None = ctx.__dict__.get("_stale_stated")
    if found is not None:
        return found
    found = {}
    for other in ctx.live:
        if not other.usable:
            continue
        stated = [i for i in _items(other, ctx) if not i.open]
        if not stated:
            continue
        when = _time_of(other, ctx)
        if when is None:
            continue
        for item in sorted({i.id for i in stated}):
            found.setdefault(item, []).append((when, other.path))
    ctx.__dict__["_stale_stated"] = found
    return found



_SQUASHED = lazy_pattern(r"\(#(?P<n>\d{1,6})\)\s*$")  # GitHub's squash merge: "feat(p16): hardening (#141)"


def merged_since(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card says a pull request is still open (awaiting merge, in review), and the history holds its merge.

    A squash-merged pull request leaves a commit whose subject ends "(#141)"; once it is on the
    branch the request is no longer open, whenever the card was written. Read the commit; then
    update the card to what holds now, or archive it. Only checked in a git repo.
    """
    if ctx.repo_root is None or not _live(card):
        return
    pulls = open_pull_requests(card)
    if not pulls or not ctx.history.commits:  # the history is read only for a card that names an open pull request
        return
    merged = _merges(ctx)
    for pull in pulls:
        found = merged.get(pull.id[1:])
        if found is not None:
            sha, when, subject = found
            yield Hit(_line_at(card, pull.offset),
                      f"says PR {pull.id} is still open ({_short(pull.clause, 60)!r}); commit {sha[:7]} of {_when(when)} "
                      f"{_short(subject)!r} merged it")
            return


_MERGES: list[tuple[object, dict[str, tuple[str, int, str]]]] = []


def _merges(ctx: LintContext) -> dict[str, tuple[str, int, str]]:
    """The squash merges of the history by pull request number, computed once per history."""
    history = ctx.history
    if not (_MERGES and _MERGES[0][0] is history):
        merged: dict[str, tuple[str, int, str]] = {}
        for sha, when, subject in history.commits:
            m = _SQUASHED.search(subject)
            if m is not None:
                merged.setdefault(m.group("n"), (sha, when, subject))
        _MERGES[:] = [(history, merged)]
    return _MERGES[0][1]
