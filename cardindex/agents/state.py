"""The working memory (SPEC §10): a bounded file that replaces itself, never grows.

`cards state` writes CURRENT_STATE.md (the vault's `state_file`) within `state_budget`
characters (1,500 by default), from four sources, in this order of priority:

1. **Active work**: log entries of the last `HORIZON_DAYS` days that are still open,
   newest first. An entry is closed by a later entry that says it is done and names the
   same work (most of the open entry's content words, as Snowball stems), or by being
   a checked item itself (`[x]`, "done:", "fixed …"). Cold days fall out by the horizon.
2. **Next focus**: open entries that state a plan ("next: …", "tomorrow …", `[ ]`).
3. **Recent learnings**: cards changed since the previous `cards state` (their file's
   mtime, or a `created`/`verified` date on or after that day), newest first.
4. **Key context**: the top live cards in the order `cards context` ranks them.

Deterministic: the same logs, cards and time give the same bytes. The word signals
(done, next) are English; entries in other languages are kept as open work.
Cards holding a secret are left out, as in INDEX.md; every line passes the redaction.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from cardindex.redaction import shown
from cardindex.store.card import Card
from cardindex.store.daily_log import Entry, days, entries, stamp

if TYPE_CHECKING:
    from cardindex.lifecycle.llm import LlmCommand
    from cardindex.store.vault import Vault

HORIZON_DAYS = 7  # log days older than this are cold: they fall out of the working memory
MAX_LINE = 180  # characters of one line of the state
MAX_OPEN, MAX_NEXT, MAX_LEARNED = 8, 5, 6
TITLE = "# Current state"

_CHECKED = re.compile(r"^\s*(?:[-*+]\s+)?\[[xX]\]\s*")
_UNCHECKED = re.compile(r"^\s*(?:[-*+]\s+)?\[ \]\s*")
_DONE = re.compile(
    r"(?i)^\W*(?:done|finished|fixed|shipped|merged|completed|closed|resolved|landed|released)\b"
    r"|\b(?:is|are|was|were|now|got|been)\s+(?:done|finished|fixed|merged|shipped|completed|closed|resolved)\b"
    r"|\b(?:finished|completed|closed|resolved|shipped|landed)\s+(?:the|a|an|my|our)\b")
_NEXT = re.compile(
    r"(?i)^\W*(?:next(?:\s+(?:step|up|focus|time))?|todo|to do|tomorrow|then|plan(?:ned)?|will|need to|must|"
    r"going to|remaining)\b")
_WORD = re.compile(r"[^\W\d_]{3,}|[^\W_]*\d[^\W_]*")  # words of three letters and more, and anything with a digit
_FUNCTION = frozenset(
    ["the", "and", "for", "with", "that", "this", "from", "into", "onto", "then", "than", "was", "were", "are", "has", "have", "had", "not", "but", "all", "any", "our", "their", "its", "done", "finished", "fixed", "shipped", "merged", "completed", "closed", "resolved", "landed", "released", "next", "step", "todo", "tomorrow", "will", "need", "now", "got", "been", "still", "left", "off", "half", "way", "work", "working", "on"])


class Note(NamedTuple):
    """A log entry as the working memory sees it."""

    entry: Entry
    kind: str  # "open", "next" or "done"


class State(NamedTuple):
    """The rendered working memory and what went into it."""

    text: str
    open: tuple[Note, ...]
    next: tuple[Note, ...]
    learned: tuple[Card, ...]
    key: tuple[Card, ...]


def kind_of(text: str) -> str:
    """Whether a log entry reports work done, plans what is next, or is open work."""
    if _CHECKED.match(text) or _DONE.search(text):
        return "done"
    if _UNCHECKED.match(text) or _NEXT.match(text):
        return "next"
    return "open"


def _stems(text: str) -> frozenset[str]:
    from cardindex.meaning.stem import stems

    words = [w for w in (m.group().lower() for m in _WORD.finditer(text)) if w not in _FUNCTION]
    return frozenset(stems(words))


def _values(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w for w in words if any(ch.isdigit() for ch in w))


def closes(done: Entry, earlier: Entry) -> bool:
    """Whether a done entry names the work of an earlier one: most of its content words, two at least.

    Numbers and names with digits tell pieces of work apart: "finished feature 4" does
    not close "working on feature 5", however alike the rest.
    """
    mine, theirs = _stems(done.text), _stems(earlier.text)
    values_mine, values_theirs = _values(mine), _values(theirs)
    if values_mine and values_theirs and values_mine.isdisjoint(values_theirs):
        return False
    shared = len(mine & theirs)
    return (shared >= 2 and shared >= 0.5 * len(theirs)) or (bool(theirs) and theirs <= mine)


def recent_notes(log_dir_entries: Iterable[Entry]) -> tuple[list[Note], list[Note]]:
    """The open and next notes among entries (oldest first in), newest first out; done ones close earlier ones."""
    notes: list[Note] = []
    for entry in log_dir_entries:
        kind = kind_of(entry.text)
        if kind == "done":
            notes = [n for n in notes if not closes(entry, n.entry)]
            continue
        notes.append(Note(entry, kind))
    notes.reverse()
    return [n for n in notes if n.kind == "open"], [n for n in notes if n.kind == "next"]


def _when(entry: Entry) -> dt.datetime:
    """An entry's time; a line written by hand without one counts from the start of its day."""
    if entry.time is not None:
        return entry.time
    return dt.datetime.combine(dt.date.fromisoformat(entry.path.stem), dt.time(), tzinfo=dt.timezone.utc)


def log_entries(log_dir: Path, now: dt.datetime) -> list[Entry]:
    """Every entry of the log days within the horizon up to `now`, oldest first."""
    first = now.date() - dt.timedelta(days=HORIZON_DAYS - 1)
    out = [e for day, path in days(log_dir) if first <= day <= now.date() for e in entries(path) if _when(e) <= now]
    out.sort(key=lambda e: (_when(e), str(e.path), e.line))
    return out


def _line(text: str) -> str:
    one = " ".join(shown(text).split())
    return one if len(one) <= MAX_LINE else one[: MAX_LINE - 1].rstrip() + "…"


def _note_line(note: Note) -> str:
    when = note.entry.time.strftime("%m-%d %H:%M") if note.entry.time else note.entry.path.stem
    text = _UNCHECKED.sub("", note.entry.text)
    return _line(f"- {when} {text}")


def _card_line(card: Card) -> str:
    from cardindex.agents.facts import fact

    description = card.description or card.id
    said = fact(card)
    return _line(f"- {description}: {said}" if said and said != description else f"- {description}")


def render(now: dt.datetime, budget: int, sections: Sequence[tuple[str, Sequence[str]]]) -> tuple[str, list[int]]:
    """The state text within `budget` characters, and how many lines of each section fit.

    Sections are filled in order, line by line; a heading is written only with its
    first line, and a section that does not fit leaves room for the ones after it
    only if a shorter line of theirs fits.
    """
    head = f"{TITLE}\n<!-- `cards state` {stamp(now)}: rewritten each run; earlier ones: `cards journal` -->\n"
    parts = [head]
    used = len(head)
    counts: list[int] = []
    for heading, lines in sections:
        taken = 0
        for line in lines:
            extra = len(line) + 1 + (0 if taken else len(heading) + 2)
            if used + extra > budget:
                continue
            if not taken:
                parts.append(f"\n{heading}\n")
            parts.append(line + "\n")
            used += extra
            taken += 1
        counts.append(taken)
    return "".join(parts), counts


def build(
    *, log: Sequence[Entry], cards: Sequence[Card], ranked: Sequence[Card], changed_since: dt.datetime | None,
    mtimes: dict[str, int], now: dt.datetime, budget: int,
) -> State:
    """The working memory from the log entries (oldest first), the live cards and their ranking."""
    opened, planned = recent_notes(log)
    since = changed_since or now - dt.timedelta(days=HORIZON_DAYS)

    def changed(card: Card) -> float:
        when = mtimes.get(card.path, 0) / 1e9
        dated = [d for d in (card.created, card.verified) if isinstance(d, dt.date)]
        if dated:
            when = max(when, max(dt.datetime.combine(d, dt.time(), tzinfo=dt.timezone.utc).timestamp() for d in dated))
        return when

    learned = sorted((c for c in cards if changed(c) >= since.timestamp() and changed(c) <= now.timestamp() + 1),
                     key=lambda c: (-changed(c), c.path))[:MAX_LEARNED]
    shown_ids = {c.path for c in learned}
    key = [c for c in ranked if c.path not in shown_ids]
    sections = [
        ("## Active work", [_note_line(n) for n in opened[:MAX_OPEN]]),
        ("## Next focus", [_note_line(n) for n in planned[:MAX_NEXT]]),
        ("## Recent learnings", [_card_line(c) for c in learned]),
        ("## Key context", [_card_line(c) for c in key]),
    ]
    text, counts = render(now, budget, sections)
    return State(text, tuple(opened[: counts[0]]), tuple(planned[: counts[1]]), tuple(learned[: counts[2]]),
                 tuple(key[: counts[3]]))


def bullet_lines(text: str) -> list[str]:
    """The item lines of a state file, without their times: what `dropped` compares."""
    out = []
    for line in text.splitlines():
        if line.startswith("- "):
            out.append(re.sub(r"^- \d{2}-\d{2} \d{2}:\d{2} |^- \d{4}-\d{2}-\d{2} ", "- ", line))
    return out


def dropped(old: str, new: str) -> tuple[list[str], list[str]]:
    """The lines of the old state the new one no longer holds, and the lines that are new."""
    before, after = bullet_lines(old), bullet_lines(new)
    return [x for x in before if x not in after], [x for x in after if x not in before]


class Written(NamedTuple):
    state: State
    path: str  # vault-relative
    job: str | None  # the journal job that holds the previous version (None: nothing changed)
    dropped: list[str]
    added: list[str]


LLM_PROMPT = """\
Rewrite this working memory of a software project for an agent starting its next session.
Keep what is still open and what comes next; merge lines that say the same; drop nothing
that is a decision or a warning. Answer with Markdown only, at most {room} characters,
no preamble. The deterministic version:

{text}"""


def with_llm(vault: Vault, command: LlmCommand, state: State, budget: int) -> tuple[str, str | None]:
    """The state text as the llm command rewrote it (within the budget), or the deterministic one and why not."""
    from cardindex.lifecycle.llm import ask

    title, stamp_line = state.text.split("\n", 2)[:2]
    header = f"{title}\n{stamp_line}\n"  # "# Current state" and the stamp `written_at` reads
    room = budget - len(header) - 2
    raw, problem = ask(vault, command, LLM_PROMPT.format(room=room, text=state.text))
    if raw is None:
        return state.text, problem
    answer = shown(raw.strip())
    if answer.startswith(TITLE):
        answer = answer[len(TITLE):].lstrip("\n")
    if not answer:
        return state.text, "empty answer"
    text = f"{header}\n{answer}\n"
    if len(text) > budget:
        return state.text, f"the answer is {len(text):,} characters, over the budget of {budget:,}"
    return text, None


def write(vault: Vault, now: dt.datetime, budget: int | None = None, *, dry_run: bool = False,
          llm: LlmCommand | None = None) -> Written:
    """Build the working memory and replace the state file with it as one journalled job.

    With `llm` (a command `lifecycle.llm.choose` allowed), that command rewrites the
    deterministic version within the same budget; anything wrong with its answer keeps
    the deterministic one (a warning on stderr says why).
    """
    from cardindex.agents.context import build as build_context
    from cardindex.store.jobs import Write, run_job
    from cardindex.store.journal import Action, sha256
    from cardindex.store.vault import today

    budget = budget or vault.config.state_budget
    rel = vault.config.state_file
    target = vault.path_of(rel)
    if target.is_symlink():
        from cardindex.errors import Refused

        raise Refused(f"{rel} is a symlink; the working memory is written only as a file of its own in the vault")
    with vault.lock():
        live_day = today()
        ctx = build_context(vault.cards, today=live_day, budget=100_000, max_age=vault.config.max_age,
                            state_dir=vault.state_dir)
        ranked = [c for item in ctx.items for c in item.cards[:1]]
        allowed = {c.path for item in ctx.items for c in item.cards}
        live = [c for c in vault.cards if c.path in allowed]
        try:
            prior: bytes | None = target.read_bytes()
        except FileNotFoundError:
            prior = None
        old = (prior or b"").decode("utf-8", "replace")
        state = build(log=log_entries(vault.log_folder(), now), cards=live, ranked=ranked,
                      changed_since=written_at(old), mtimes=vault.mtimes(), now=now, budget=budget)
        if llm is not None:
            import sys

            text, problem = with_llm(vault, llm, state, budget)
            if problem:
                print(f"warning: llm command for the working memory: {problem}; kept the deterministic one",
                      file=sys.stderr)
            state = state._replace(text=text)
        gone, new = dropped(old, state.text)
        data = state.text.encode("utf-8")
        if dry_run or (prior is not None and _same_but_time(old, state.text)):
            return Written(state, rel, None, gone, new)
        change = Write(rel if prior is not None else None, rel, data,
                       sha256(prior) if prior is not None else None, prior)
        reason = (f"working memory rewritten: {len(state.open)} open, {len(state.next)} next, "
                  f"{len(state.learned)} learned, {len(state.key)} key; {len(gone)} line(s) dropped")
        action = Action("state", rel.removesuffix(".md"), reason, change.changes(rel))
        job = run_job(vault, [change], [action], command="state", day=live_day)
    return Written(state, rel, job, gone, new)


def _same_but_time(old: str, new: str) -> bool:
    """Whether two states differ only in the time of their header (nothing to journal)."""
    return _STAMP.sub("", old) == _STAMP.sub("", new)


_STAMP = re.compile(r"^<!-- `cards state` (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z):", re.MULTILINE)


def written_at(state_text: str) -> dt.datetime | None:
    """When a state file was written, from its header (None: no state yet, or written by hand)."""
    match = _STAMP.search(state_text)
    if not match:
        return None
    return dt.datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
