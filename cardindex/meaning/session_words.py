"""English words of session text: dating words, pauses and hand-offs, first-person narrative.

Each pattern names the context that makes a word temporal, and a sentence that states a
standing rule ("always", "never", "must"; or a general condition, "When the user labels a
PR WIP, open it as a draft") is durable. Only English sentences are read (`english`): a
Korean or Czech card gets nothing from these lists. Pure functions of text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning import session_ellipsis, session_moment, session_now, session_work
from cardindex.meaning.session_dates import DATE
from cardindex.meaning.session_shape import defines_state, english

_ING = r"[a-z]+ing\b"
_DET = r"(?:a|an|the|this|that|its|their|his|her|each|every|any|some|one|it|they|we|you|he|she|I|when|of|our)"

_LESSON_PARTICIPLE = r"(?:burned|burnt|bitten|stung|caught out|told|asked|warned|shown)\b"
_SESSION_NOUN_WHY = "true only inside this session"
_TONIGHT_WHY = "dated to one evening"
# (regex, what to say): dates the sentence, or names where the work stopped and what comes next.
_TEMPORAL = [
    (rf"\bcurrently\s+(?:(?:still|also|busy|just)\s+)?(?:{_ING}|on\b|in the middle\b|blocked\b|stuck\b|halfway\b)", "'currently …ing' is progress, not a fact"),
    (rf"\b(?:right now|(?:at|for) the moment(?!\s+{_DET}\b)|as of (?:now|writing|this writing)|for the time being)\b", "dates the sentence to this moment"),
    (r"^\W*at the moment (?:the|this|our|my)\b(?![^,;]*[,;])", "dates the sentence to this moment"),
    (r"\bfor now\b", "'for now' is a plan for this session"),
    (r"\b(?:work in progress|in progress|WIP|not (?:finished|done|pushed|merged) yet|half-?way(?: through| done)?)\b", "work in progress is session state"),
    (r"\bnext steps?\b(?:\s*(?::|is|are|will be|would be|was|to)\b|\s*:)", "a next step is a plan for this session"),
    (r"\b(?:in|during|for|from|of) (?:this|the current|today'?s) session\b|\bthis session\b", _SESSION_NOUN_WHY),
    (r"\b(?:today|tonight|this (?:morning|afternoon|evening))\s*,?\s+(?:I|we|I'm|we're|I've|we've|I'll|we'll)\b", "a diary entry for today"),
    # "today" is one day when the writer is in the sentence ("we merged it today", "today I
    # …", "Debugging the outage today"), or it heads a diary line ("Today: …"); "works
    # today", "the app consumes an intent today", "infeasible today, feasible in months"
    # say "at present", not a day.
    ((r"\b(?:I|we|I'm|we're|I've|we've|my|our)\b[^.;:\n]{0,60}(?<!-)\btoday\b(?!'s|\s*\()"
     r"|(?<!-)\btoday\b(?!'s|\s*\()[^.;:\n]{0,40}\b(?:I|we|I'm|we're|I've|we've)\b|^\W*today\b\s*[:\u2014\u2013-]"
     r"|(?:^|[.;]\s+)\W*\w+ing\b[^.;:\n]{0,60}(?<!-)\btoday\b(?!'s|\s*\()"  # the writer's doing, subject left out
     # an event of the day ("the migration finished today", "deployed v2.3 today"), a state
     # of the work that day ("today the export still fails")
     r"|\b(?!(?:based|required|supported|used|needed|called|named|shared|related|allowed)\b)[a-z]{3,}ed\b"
     r"[^.;:\n]{0,50}(?<!-)\btoday\b(?!'s|\s*\()|(?<!-)\btoday\b[^.;:\n]{0,40}\bstill\b|\bstill\b[^.;:\n]{0,40}(?<!-)\btoday\b"
     r"|\b(?:earlier|later) today\b|\byesterday\b|\btomorrow\b|\b(?:tmrw|tmr|tmw|2moro)\b|\b(?:of|for) today\s*:|\bend of (?:the )?day\b|\bby (?:EOD|tonight)\b|\b(?:before|after) lunch\b|\brest of the day\b|\bthis (?:morning|afternoon|evening|week)'s\b"), "dated to one day"),
    # "Deploy window is tonight at 22:00"; in a lesson without "I" or "we", the evening that taught it (`temporal`).
    (r"(?<!-)\btonight\b(?!-|'s)", _TONIGHT_WHY),
    # A period named from the writer's moment ("this week", "next sprint", "this afternoon"): a plan or report of it.
    (r"\b(?:this|next) (?:week|weekend|sprint|iteration|morning|afternoon|evening)\b(?!'s|\s+(?:of|after|before)\b)", "dated to the period it was written in"),
    (r"\b(?<!they )(?<!it )(?<!you )(?<!one )(?:left off|where I (?:stopped|left it)|pick (?:this|it|that) (?:back )?up|come back to)\b", "where this session stopped"),
    (r"\b(?:still (?:need|have) to|need to finish|haven't (?:\w+ ){0,3}yet|haven't (?:yet )?(?:finished|started|pushed)|so far|half-?finished|half[- ]done|not (?:yet )?committed)\b", "unfinished work"),
    (r"\bblocked(?: (?:until|on|by)\b|\s*[:—-])|\bwaiting (?:for|on) (?:\S+ ){0,5}?(?:to )?(?:reply|replies|answer|respond|response|review|approval|get back|finish|merge)\b", "a blocker of the current task"),
    (r"\bjust (?:pushed|merged|finished|started|opened|deployed|fixed|ran|added|created)\b|\bin (?:about |around )?(?:a few|\d+|ten|five|fifteen|twenty|thirty) (?:minutes|hours)\b|\bCI is (?:still )?running\b", "what is happening right now"),
    # Pauses and hand-offs: the place in the work, the unfinished action, the next sitting.
    (r"^\W*(?:left|stopped|paused|parked|stuck|halted)\s+(?:on|at|in|with|mid|halfway|partway|before|after)\b", "where the work was left: a pause in one session"),
    (r"\b(?:I|we)\s+(?:left|stopped|paused|parked)\s+(?:it\s+|this\s+|that\s+|the \w+\s+)?(?:on|at|here|there|mid|halfway|partway|before)\b", "where the work was left: a pause in one session"),
    (r"^\W*stopping\b[^.;:]{0,60}?\b(?:here|now|for (?:today|tonight|the day)|at this point)\b", "a pause in one session"),
    (r"^\W*(?:(?:I|we)\s+)?(?:was|were)\s+(?:just\s+)?about to\b|^\W*about to\b", "an unfinished action of one session"),
    (r"\bnext (?:session|sitting|time (?:I|we))\b\s*(?:[:=—\u2013-]|will|is|should|starts?|we|I)|\bnext up\b|\bnext (?:slice|phase|task|item|milestone|sprint|iteration)\s*(?:[:=—\u2013]|is\b|will be\b)", "a plan for the next sitting"),
    (r"\bpick(?:ing)? (?:it |this |that )?(?:back )?up (?:with|from|at|where)\b|\bresum(?:e|ing) (?:here|point)\b|\bresuming from\b|\bresume here\b|(?-i:\bSTART HERE\b)|\bwhere (?:I|we) (?:stopped|left (?:it|off)|are|were)\b", "where the next sitting starts"),
    (r"\bhand-?off notes?\s*(?:[:\u2014\u2013]|-\s)|\bhanding (?:this|it) (?:off|over)\b|\bfor the next (?:session|agent|sitting)\b", "a hand-off between sessions"),
    (r"(?-i:\bnot (?:yet )?started)\s*(?:[.;,—\u2013]|$)|\bnot yet (?:[a-z]+ed|built|run|written)\b", "unfinished work"),
    (r"\b(?:still|remaining|left) to (?:do|build|fix|wire|write|test|port|migrate)\b|\bremaining work\b|\bwhat(?:'s| is) left\b", "work that remains: a plan for the next sitting"),
    (r"\bpartially (?:done|built|implemented|migrated|wired|ported|applied)\b", "unfinished work"),
]
_NARRATIVE = [
    (r"\b(?:I|[Ww]e)(?:'m| am| are|'re)\s+(?:(?:now|currently|still|just)\s+)?(?:in the middle of|halfway|about to|trying to|going to|working on|busy)\b", "first-person narrative of work in progress"),
    # "we've been migrating…" is progress; "we've been burned by that before" is a lesson's reason.
    (rf"\b(?:I|[Ww]e)(?:'ve| have) (?:been\b(?!\s+{_LESSON_PARTICIPLE})|just|now|started|begun|finished)\b",
     "first-person narrative of this session"),
    (r"\b(?:I|[Ww]e)(?:'m| am| are|'re) (?!(?:not )?(?:allowed|required|supposed|expected|told)\b)[a-z]+ing\b", "first-person narrative of work in progress"),
    (r"\b(?:I|[Ww]e)(?:'ll| will) (?:continue|finish|resume|look|try|come back|pick)\b", "a plan for later in this session"),
    (r"(?:^|[.;:]\s+)(?:Working on|Still working|Need to (?:confirm|check|finish|ask|verify|follow up)|Plan for (?:today|the day|tomorrow))\b", "a diary entry of this session"),
    (r"(?:^|[.;]\s+)(?:[Ww]riting|[Dd]ebugging|[Ii]nvestigating|[Ff]ixing|[Rr]efactoring|[Mm]igrating|[Tt]esting) (?:the |a |an )?(?:patch|fix|bug|issue|outage|ticket|branch|PR|pull request|[A-Z]+-\d+)\b", "a diary entry of this session"),
    (r"\bon my (?:laptop|machine|branch)\b|\bHanding (?:\S+ ){1,6}over to\b", "first-person narrative of this session"),
]
# "I added …", "then we tried …": one clause of a story of work done. Counted over the card.
_PAST_CLAUSE = lazy_pattern(
    r"\b(?:I|[Ww]e)\s+(?:(?:then|also|just|finally|first|quickly|eventually|later|again|initially)\s+)?"
    r"(?P<verb>[a-z]{2,}ed|built|wrote|ran|made|got|found|tried|broke|took|began|kept|lost|sent|spent|put|shipped|split|did|saw|hit)\b"
    # "We got burned by a mock": what taught a lesson, told as something suffered, not work done
    r"(?!\s+(?:that|out|to|burned|burnt|bitten|stung|caught out)\b)"
)
_AND_PAST = lazy_pattern(r"\b(?:and|then),?\s+(?:then\s+|also\s+)?(?P<verb>[a-z]{2,}ed)\s+(?:up\s+|out\s+)?(?:the|a|an|my|our|it|them|two|three)\b")
# Verbs of deciding, knowing and wanting tell a standing fact ("we decided to…"), not a story.
_NOT_WORK = frozenset({
    "decided", "agreed", "learned", "noticed", "realized", "realised", "wanted", "needed", "preferred", "used", "called",
    "named", "liked", "loved", "hated", "believed", "assumed", "expected", "settled", "concluded", "chose", "opted",
    "discovered", "saw", "found", "considered", "required", "allowed", "owned", "hired", "promised",
})
# One of these alone reads as a diary entry even in a short card.
_CORE_WORK = frozenset({"got", "fixed", "tried", "started", "pushed", "finished", "added", "broke"})

# A sentence that states a standing rule or a definition is durable even with such words.
_DURABLE = lazy_pattern(
    # "should" states a rule, not when it predicts the sitting's run: "results should be in by tonight"
    # "don't run the formatter over it yet" holds only until the work is done: no rule
    r"\b(?:always|every|each time|whenever|never|must|must not|(?:do not|don't)(?![^.;]*\byet\b)|"
    r"should(?!\s+(?:be\s+(?:in|done|back|ready|finished|green|there)\s+(?:by|soon|shortly|tonight|tomorrow)|finish|land|arrive"
    r"|have\b[^.;]{0,40}\bby\s+(?:tonight|tomorrow|monday|tuesday|wednesday|thursday|friday|the end of))\b)|"
    # "Release 4.2 checklist is done up to the smoke tests": a checklist's progress, not a procedure
    r"(?:checklist|runbook|procedure)(?!\s+(?:is|are)\s+(?:done|finished|complete|half|ticked|through))|policy|convention|by default|as a rule|often|usually|typically|generally|tends? to|"
    r"make sure|ensure|remember to)\b",
    re.IGNORECASE,
)
# "When the user labels a PR WIP, open it as a draft": a general condition, nobody's session.
_CONDITION = lazy_pattern(r"^\W*(?:when|whenever|if|unless|once|while|before|after|until)\b", re.IGNORECASE)
# "Anything learned here that still holds next week goes into a card": a quantified subject states a rule.
_GENERIC = lazy_pattern(r"^\W*(?:anything|everything|whatever|whoever|anyone|anybody|everyone|everybody|any|every|each)\b",
                      re.IGNORECASE)
# "The 'done' column means deployed, not merged": a definition, its subject before the verb.
# So is a gloss whose label is told of any one of a kind: "Blocked on: a job's `blocked_on` field names …".
_DEFINITION = lazy_pattern(r"^[^,;:]*?\b(?:means|stands for|is defined as|is short for)\b"
                           r"|^\W*[^:;,.]{1,40}:\s*(?:an?|any|each|every)\s+[\w-]+'s\s", re.IGNORECASE)
# "Waiting for the security review is mandatory before …": an act named as the subject of a rule.
_GERUND_RULE = lazy_pattern(
    r"^\W*[A-Za-z]+ing\b[^.;,]{0,60}\b(?:is|are)\s+(?:mandatory|required|compulsory|optional|forbidden|not allowed|allowed|"
    r"expected|the rule|standard practice|enough|not enough)\b", re.IGNORECASE)
# "No deploys after 16:00": a prohibition of a kind of act, nobody's sitting (not "No reply yet").
_PROHIBITION = lazy_pattern(r"^\W*no\s+[a-z]+s\s+(?:after|before|on|during|without|outside|until|between)\b", re.IGNORECASE)
# "Draft PRs may stay WIP for a week": a permission or duty of a kind of thing, nobody's sitting.
_MODAL_RULE = lazy_pattern(r"\b(?:may|must|cannot)\b", re.IGNORECASE)  # not "should": "CI should finish soon" predicts
_DEICTIC = lazy_pattern(r"\b(?:this|these|here|now)\b", re.IGNORECASE)
_WE = lazy_pattern(r"\b(?:I|we|I'm|I've|we've|we're|we'll|I'll)\b", re.IGNORECASE)
_PERSONAL = lazy_pattern(r"\b(?:I|we|my|our|me|us|today|tonight|tomorrow|yesterday)\b", re.IGNORECASE)
# A sentence ends at . ! ? (and any closing quote, bracket or emphasis) before a space or
# the end: "PLAN.md" and "3.9" stay whole, "**One goal.** When …" is two sentences.
_SENTENCE = lazy_pattern(r"(?:[^.!?]|[.!?]+(?![*_\"')\]]*(?:\s|$)))+(?:[.!?]+[*_\"')\]]*)?")

_STRONG = lazy_pattern(
    r"(?i)(?:WIP|TODO|FIXME|work in progress|in this session|this session|next session|left off|halfway|half-way|"
    r"right now|just (?:pushed|merged|finished|started|opened|deployed|fixed|ran|added|created)|CI is|"
    r"(?:I|we)(?:'m| am| are|'re) (?:\w+ )?in the middle of|(?:before|after) lunch|rest of the day|"
    rf"(?:I|we)(?:'ve| have) been\b(?!\s+{_LESSON_PARTICIPLE})|on my (?:laptop|machine|branch))"
)
# A word named, not used: "a WIP label", "TODO comments", "labels a PR WIP".
_MENTION_BEFORE = frozenset({"a", "the", "label", "labels", "labelled", "labeled", "mark", "marks", "marked", "tag", "tags",
                             "tagged", "prefix", "prefixed", "titled", "called", "as", "no", "any", "leave", "leaving"})
_MENTION_AFTER = frozenset({"pr", "prs", "pull", "commit", "commits", "label", "labels", "prefix", "tag", "tags", "branch",
                            "branches", "draft", "drafts", "limit", "limits", "comment", "comments", "item", "items", "list",
                            "lists", "marker", "markers", "file", "files", "column", "columns", "lane", "state", "status"})

# Bullets and marked lines ("✅ Added the tide table") are the changelog's and the board's to judge.
_BULLET_LINE = lazy_pattern(r"^\s*(?:(?:[-*+]|\d{1,3}[.)])\s|[✅☑✔✓❌✗✘⏳🔄🚧⬜☐🟡◻])")
_TEMPORAL_RE = [(lazy_pattern(p, re.IGNORECASE), m) for p, m in _TEMPORAL]
# Words one of the patterns needs: a card (most cards) with none of them is passed over
# without reading its sentences. Each pattern above holds one of these.
_TEMPORAL_ANCHORS = (
    "current", "right now", "moment", "as of", "time being", "for now", "progress", "wip", " yet", "half",
    "next ", "session", "today", "tonight", "this morning", "this afternoon", "this evening", "this week",
    "this sprint", "this iteration", "next week", "next sprint", "next iteration", "yesterday", "tomorrow", "end of day", "end of the day", "eod", "lunch", "rest of the day", "left", "where i", "where we", "pick",
    "come back", "still ", "need to finish", "haven't", "so far", "committed", "blocked", "waiting", "just ",
    "minutes", "hours", "ci is", "stopp", "paused", "parked", "stuck", "halted", "about to", "resum", "start here",
    "hand-off", "handoff", "handing", "for the next", "not started", "remaining", "what is left", "partially",
)
_NARRATIVE_GATE = lazy_pattern(
    r"\b(?:I|[Ww]e|[Ww]orking on|[Ss]till working|[Nn]eed to|[Pp]lan for|on my|Handing|[Ww]riting|[Dd]ebugging|"
    r"[Ii]nvestigating|[Ff]ixing|[Rr]efactoring|[Mm]igrating|[Tt]esting)\b"
)
# A to-do marker ("TODO: …", "FIXME(ana)") is a convention of code, read in any language;
# a file or a word named ("TODO.md", "TODO comments") is not one.
_TODO = lazy_pattern(r"(?:^|(?<=[\s>*(\[]))(?:TODO|FIXME|TBD)\b(?!\.\w)(?=\**\s*[.:(—\u2013-]|\**\s*$)|^\W*(?:TODO|FIXME|TBD)\b(?!\.\w)")
_NARRATIVE_RE = [(lazy_pattern(p), m) for p, m in _NARRATIVE]  # case matters: I, We
# "as of 2026-05-02", and as of a day of the writer's week: "As of Tuesday: 3 open bugs", "as of this morning".
_AS_OF = lazy_pattern(
    rf"\bas of\s+(?:{DATE.pattern}|(?:last\s+|this\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"|today\b|yesterday\b|tonight\b|this (?:morning|afternoon|evening)\b|lunch\b|writing\b)",
    re.IGNORECASE,
)
_COUNT_OR_STATE = lazy_pattern(r"\d|\b(?:open|closed|remaining|left|done|pending|merged|complete|in progress|blocked)\b", re.IGNORECASE)


_LINK_TEXT = lazy_pattern(r"!?\[[^\]\n]*\]\([^)\n]*\)?")  # prose() has taken the URL out already
_WHY = lazy_pattern(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:why|reason|because|context|background|incident)\s*(?:\*\*|__)?\s*:", re.IGNORECASE)
# A long quotation (a prompt to paste, someone's message) is someone else's words, not the card's state.
_LONG_QUOTE = lazy_pattern(r'"[^"\n]{60,}"|\u201c[^\u201d\n]{60,}\u201d')
_LABEL = lazy_pattern(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)[^*_]{1,40}:?(?:\*\*|__)\s*:?")


def statement_lines(lines: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines that state the card's fact: without its evidence and without link titles.

    The reason under "**Why:**" tells the incident that taught the rule ("In this
    session the file had changed under me"), and a link's title is someone else's
    headline: neither dates the card.
    """
    out: list[tuple[int, str]] = []
    evidence = False
    for number, line in lines:
        if not line.strip():
            evidence = False
        elif _WHY.match(line):
            evidence = True
        elif evidence and _LABEL.match(line):
            evidence = False
        if not evidence:
            line = _LINK_TEXT.sub(" ", line) if "](" in line else line
            out.append((number, _LONG_QUOTE.sub(" ", line) if '"' in line else line))
    return out


class WordHit(NamedTuple):
    line: int
    matched: str
    why: str


def sentences(line: str) -> Iterator[str]:
    for m in _SENTENCE.finditer(line):
        if m.group().strip():
            yield m.group().strip()


def durable(sentence: str) -> bool:
    """A standing rule, a definition or a general condition: durable whatever its words."""
    return bool(_DURABLE.search(sentence)) or general_condition(sentence) or bool(_GENERIC.match(sentence)) \
        or bool(_PROHIBITION.match(sentence)) or (bool(_DEFINITION.match(sentence)) and not _WE.search(sentence)) \
        or bool(_GERUND_RULE.match(sentence))


def rule_for_kind(sentence: str) -> bool:
    """A modal rule about a kind of thing, with nobody of the sitting in it ("Draft PRs may stay WIP for a week")."""
    return bool(_MODAL_RULE.search(sentence)) and not _WE.search(sentence) and not _DEICTIC.search(sentence)


def _described(sentence: str, m: re.Match[str]) -> bool:
    """The matched words describe a thing rather than report the writer's work (`session_moment`).

    "libraries not yet indexed can be submitted" and "a research-grade twin in progress"
    describe a kind; "This session (Claude Code)" names the agent that writes.
    """
    word = m.group().strip().lower()
    if word.startswith(("not yet", "not started")):
        return session_moment.noun_postmodifier(sentence, m.start())
    if word == "in progress":
        return session_moment.indefinite_kind(sentence, m.start())
    if word == "this session":
        return sentence[m.end():m.end() + 2].strip().startswith("(")
    if word in ("halfway", "half-way"):  # "Design docs get a review halfway": a stage of a kind of process
        return _BARE_PLURAL.match(sentence) is not None and not _WE.search(sentence)
    if word in ("today", "tomorrow", "yesterday"):  # "Tomorrow's delivery date is computed …": a kind of date, named
        # "Bookings for tomorrow close at 18:00 each day": counted from every day, not from the day of writing.
        return _DAY_NAMED.match(sentence, m.end()) is not None or (
            word != "yesterday" and _EVERY_DAY.search(sentence) is not None and _WRITER.search(sentence) is None)
    return False


_EVERY_DAY = lazy_pattern(r"\b(?:each|every)\s+(?:day|night|morning|afternoon|evening|weekday|working day|business day)\b",
                          re.IGNORECASE)
_WRITER = lazy_pattern(r"\b(?:I|I'm|I've|we|we're|my|our|me|us)\b", re.IGNORECASE)


_BARE_PLURAL = lazy_pattern(
    r"^\W*(?!(?:the|this|these|those|my|our|its|their|it|we|i)\b)[A-Za-z-]+(?:\s+[a-z-]+)?s\s+(?:get|go|are|have|need|take|run|stop|pause|"
    r"reach|pass)\b", re.IGNORECASE)
_DAY_NAMED = lazy_pattern(r"'s\s+(?:[\w-]+\s+){0,2}?(?:date|day|timestamp|time|deadline)s?\b", re.IGNORECASE)


def general_condition(sentence: str) -> bool:
    """"When the user labels a PR WIP, …", also after a label ("**How to apply:** When …"), with nobody of the sitting in it."""
    sentence = _LABEL.sub("", sentence, count=1)
    return bool(_CONDITION.match(sentence)) and not _PERSONAL.search(sentence)


def _mention(sentence: str, m: re.Match[str]) -> bool:
    """The matched word is named, not used ("a WIP label", "TODO.md", "labels a PR WIP")."""
    if sentence[m.start() - 1:m.start()] == "/" or sentence[m.end():m.end() + 1] == "/":
        return True  # one of a list of named values ("Done/In Progress/Pending")
    if " " in m.group().strip():
        # "writes Handoff Notes": a section or file named in Title Case, inside the sentence.
        # A heading ("## Remaining Work") or a label uses the words; running prose names them.
        words = m.group().split()
        preceding = sentence[:m.start()].split()
        return bool(preceding) and preceding[-1].isalpha() and preceding[-1].islower() and all(w[:1].isupper() for w in words)
    before = sentence[: m.start()].split()
    after = sentence[m.end():].split()
    prev = before[-1].strip("*_\"'(").lower() if before else ""
    nxt = after[0].strip("*_\"'),.:;").lower() if after else ""
    return prev in _MENTION_BEFORE or nxt in _MENTION_AFTER or (len(before) >= 2 and before[-2].lower() in ("labels", "marks", "tags"))


def temporal(lines: Iterable[tuple[int, str]], lesson: bool = False) -> WordHit | None:
    """The first English sentence that dates itself to one session (progress, plans, pauses).

    In a `lesson` (a feedback card: guidance the user gave) "this session" without a
    first-person subject names where the lesson was learned or the agent's own runtime
    ("the prompt never surfaces in this session"), not a state that ends with the
    sitting; "in this session we agreed to …" is still one, and so are the other words.
    """
    lines = list(lines)
    joined = "\n".join(line for _, line in lines)
    todos = "TODO" in joined or "FIXME" in joined or "TBD" in joined
    lowered = joined.lower()
    if not todos and not any(anchor in lowered for anchor in _TEMPORAL_ANCHORS):
        return _work_state(lines)
    for number, line in lines:
        governed = False  # a general condition earlier in the line governs the instructions after it
        for sentence in sentences(line):
            todo = _TODO.search(sentence) if todos else None
            if todo is not None and not _mention(sentence, todo) and not general_condition(sentence):
                return WordHit(number, todo.group().strip(), "a to-do note")
            if not english(sentence) or defines_state(sentence):
                continue
            condition = general_condition(sentence)
            for pattern, why in _TEMPORAL_RE:
                if lesson and why in (_SESSION_NOUN_WHY, _TONIGHT_WHY) and not _WE.search(sentence):
                    continue
                m = pattern.search(sentence)
                if m is None:
                    continue
                if _mention(sentence, m) or _described(sentence, m):
                    continue
                if _strong(m.group()):
                    if condition or rule_for_kind(sentence):
                        continue
                elif durable(sentence) or (governed and not _WE.search(sentence)) or _WH_SUBJECT.match(_clause_at(sentence, m.start())):
                    continue
                return WordHit(number, m.group().strip(), why)
            governed = governed or condition
            m = _AS_OF.search(sentence)
            if m is not None and _COUNT_OR_STATE.search(sentence[m.end():]) and not durable(sentence):
                return WordHit(number, m.group().strip(), "a snapshot of counts or states on one day")
    return _work_state(lines)


TALLY_WHY = "a tally of work in progress: counts that the next sitting changes"


def _work_state(lines: list[tuple[int, str]]) -> WordHit | None:
    """The first English sentence that gives a piece of work its state in this sitting (`session_ellipsis.work_state`).

    A tally of work (`session_work.tally`) counts only in a card that states no rule.
    """
    tallied: WordHit | None = None
    ruled = False
    for number, line in lines:
        for whole in sentences(line):
            if not english(whole):
                continue
            ruled_here = durable(whole)
            ruled = ruled or ruled_here
            for sentence in clauses(whole) if ruled_here else [whole]:
                if durable(sentence):
                    continue
                found = _work_state_of(sentence)
                if found is not None:
                    return WordHit(number, *found)
                if tallied is None and not ruled_here and (counted := session_work.tally(sentence)) is not None:
                    tallied = WordHit(number, counted, TALLY_WHY)
    return None if ruled else tallied


# "Who is on call this week is in PagerDuty": a question word heads the subject, a kind of fact, not the sitting's.
_WH_SUBJECT = lazy_pattern(r"^\W*(?:who|what|which|where)\s+(?!(?:I|we)\b)(?!(?:is|'s|are)\s+(?:left|still|next)\b|remains\b)[^?]*$", re.IGNORECASE)


def _clause_at(sentence: str, at: int) -> str:
    """The clause of `sentence` (`clauses`) that holds position `at`."""
    if ";" not in sentence:
        return sentence
    parts = clauses(sentence)
    if len(parts) == 1:
        return sentence
    start = sentence.rfind(";", 0, at) + 1
    stop = sentence.find(";", at)
    return sentence[start:stop if stop >= 0 else len(sentence)].strip()


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence joined by semicolons, each judged alone: "The checklist is done up to the smoke
    tests; the rest tomorrow" states no rule in its second clause. A sentence that opens with a condition or a
    quantified subject governs all of its clauses, and stays whole."""
    if ";" not in sentence or general_condition(sentence) or _GENERIC.match(sentence):
        return [sentence]
    return [c.strip() for c in sentence.split(";") if c.strip()]


def _work_state_of(sentence: str) -> tuple[str, str] | None:
    """What gives one sentence (or clause) of work its state in this sitting, and why; None when nothing does."""
    found = session_ellipsis.work_state(sentence)
    if found is not None:
        return found, "the state of a piece of work in one session"
    found = session_moment.moment(sentence)
    if found is not None:
        return found, "a note of the writer's sitting: what is being done, where it stands, what is unknown now"
    found = session_work.work_note(sentence)
    if found is not None:
        return found, "work told where it stands in this sitting: its state, its place, what is not done, who is awaited"
    return session_now.now_sign(sentence)


def narrative(lines: list[tuple[int, str]]) -> WordHit | None:
    """First-person narrative of work: in progress ("I'm fixing…"), or a story of work done ("I added…, then we…").

    One past-tense clause is a lesson's anecdote when the card also states a rule; a story
    of three is a session log whatever else the card says.
    """
    gate = any(_NARRATIVE_GATE.search(line) for _, line in lines)
    clauses: list[WordHit] = []
    told: list[str] = []
    left_out: list[WordHit] = []  # "Tried three fixes…": the subject left out, as a diary does
    for number, line in lines:
        for sentence in sentences(line):
            told.append(sentence)
            if not english(sentence):
                continue
            if durable(sentence) and not _STRONG.search(sentence):
                continue
            if not _BULLET_LINE.match(line):  # bullets of work done are the changelog shape's
                found = session_ellipsis.elided(sentence)
                if found is not None:
                    left_out.append(WordHit(number, found, "a diary of one session: work told with its subject left out"))
            if not gate:
                continue
            for pattern, why in _NARRATIVE_RE:
                m = pattern.search(sentence)
                if m is not None and not (durable(sentence) and not _strong(m.group())):
                    return WordHit(number, m.group().strip(), why)
            for m in _PAST_CLAUSE.finditer(sentence):
                if m.group("verb") not in _NOT_WORK and not session_moment.object_relative(sentence, m.start()):
                    clauses.append(WordHit(number, m.group().strip(), "first-person narrative of work done in one session"))
                    # "I wired the map … and cleaned up the legend": the same subject, a second act
                    clauses.extend(WordHit(number, m.group().strip(), "first-person narrative of work done in one session")
                                   for c in _AND_PAST.finditer(sentence, m.end()) if c.group("verb") not in _NOT_WORK)
    if not clauses and not left_out:
        return None
    ruled = any(english(t) and durable(t) for t in told)
    # "We tried GraphQL and gRPC-web and rejected both": the options weighed before a decision, not a session's work
    if len(clauses) < 3 and any(_DECISION.search(t) for t in told):
        return None
    if left_out and (not ruled or len(left_out) + len(clauses) >= 3):
        return left_out[0]
    if len(clauses) >= 3 or (len(clauses) == 2 and not ruled):
        return clauses[0]
    if len(clauses) == 1 and not ruled and clauses[0].matched.split()[-1] in _CORE_WORK:
        return clauses[0]
    return None


_DECISION = lazy_pattern(r"\b(?:rejected|decided|chose|settled on|opted for|ruled (?:it |them |both )?out)\b", re.IGNORECASE)


def _strong(matched: str) -> bool:
    """Markers that stay temporal even inside a rule-like sentence ("WIP, don't merge")."""
    return bool(_STRONG.match(matched.strip(" .;:")))
