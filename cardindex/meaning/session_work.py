"""Work told by its aspect: a sentence whose truth changes with the next commit or the next sitting.

Session notes seldom say "currently"; they say where a task stands in the grammar of a
work log. A specific piece of work (PR 212, LIB-88, "the alerts branch", CI) is given a
workflow state ("has one approval", "is rebased on main", "reopened by QA", "red on
lint"); the writer's own act is told in the past with the subject left out and a
preposition before its object ("Looked at the drift", "Gave up on the socket approach");
an act not done is told in the negated perfect ("I have not touched the fallback",
"Haven't flashed any of them"); counts tally work ("412 of 960 scores scanned", "2,310
merged, 48 flagged", "318 green, two skipped"); a part of the system is "still a mock";
the place in a sequence is named ("Up to step 4", "Ended on the matrix"); a label
addresses the next sitting ("For whoever continues:", "Left to check:", "Open question
for Priya:"); a person's answer is awaited ("until she replies").

Durable text uses the same words in other grammar: a generic subject ("A PR that touches
the fare tables needs …"), a condition ("When a PR shows 'waiting for review' …"), a
stative participle that says where a thing is ("Stored at the root", "Built on the actor
model"), a reason ("still uses the old SDK because the depot devices …"), a limit ("up
to 5 users"). `session_words` asks these only of English sentences that state no rule.
Pure functions of one sentence.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern
from cardindex.meaning.session_dates import DATE
from cardindex.meaning.session_ellipsis import elided
from cardindex.meaning.session_moment import finite

# A specific piece of work: a numbered PR or issue, a tracker id, a named branch, CI, a draft.
_ITEM = (
    r"(?:\b(?:PR|MR|pull request|merge request|issue|ticket)\s*#?\d+\b|(?<![\w&])#\d+\b|(?-i:\b[A-Z][A-Z0-9]{1,9}-\d{1,5}\b)"
    r"|\b(?:the|my|our) [\w./-]+ branch\b|(?<![\w/.-])(?:feat|feature|fix|bugfix|hotfix|chore|refactor|wip|spike)/[\w.-]+\b|\b(?:the|my|our) (?:release|feature|fix) branch\b|(?-i:\bCI\b)|\bthe build\b"
    r"|\b(?:the|my|our) (?:draft|fork|stash|patch)\b(?: of [\w -]{1,30}?)?|\b(?:experiment|run|job|batch|build|trial|attempt)\s+#?\d+\b)"
)
# A workflow state given to it in the same clause: review, rebase, colour of the run, distance from upstream.
_ITEM_STATE = lazy_pattern(
    rf"{_ITEM}[^.;:,]{{0,40}}?\b(?:(?:is|are|was|got|now|still)\s+)*"
    r"(?:(?:re)?opened|rebased|approved|red|green|failing|passing|unmerged|unpushed|in review|in draft|a draft|stuck|reverted|changes requested|queued"
    r"|has (?:one|two|three|no|\d+) (?:approvals?|reviews?|comments?|conflicts?)|(?:one|two|three|no|\d+) (?:approvals?)"
    r"|(?:one|two|three|four|five|\d+) commits? (?:behind|ahead)|behind upstream|ahead of (?:main|master|upstream))\b",
    re.IGNORECASE,
)
# The writer's act, subject left out, with a preposition before its object ("Looked at the drift").
_STATIVE = frozenset({
    "located", "stored", "hosted", "kept", "placed", "mounted", "pinned", "built", "based", "served", "cached", "saved",
    "published", "listed", "shown", "displayed", "documented", "written", "defined", "declared", "configured",
    "registered", "scheduled", "triggered", "called", "named", "focused", "centred", "centered", "tuned", "designed",
    "limited", "restricted", "used", "hidden", "exposed", "backed", "keyed", "gated", "scoped", "aimed", "modelled",
    "modeled", "tested", "rated", "priced", "measured", "run", "set", "seated", "printed", "found",
})
_ACT_PREP = lazy_pattern(
    r"^\W*(?P<verb>(?-i:[A-Z])[a-z]+ed|(?-i:Gave|Ran|Dug|Fell|Got|Came|Went|Spent))"
    r"(?:\s+(?:up|back|out|off|in))?\s+(?:at|on|on to|onto|into|through|with|(?<=off )to)\s+(?:the|a|an|my|our|this|that|these|those|#\d+)\b",
    re.IGNORECASE,
)
# An act the writer has not done: "I have not touched …", "Haven't flashed any", "I have only looked at …".
_NOT_DONE = lazy_pattern(
    r"(?:^\W*(?:have|has)|(?:\bbut|[;,])\s+(?:have|has)(?=n't)|\b(?:I|we)(?:\s+have|'ve))(?:n't|\s+not|\s+only|\s+not yet)\s+(?P<verb>[a-z]+ed|made|done|run|built|written|"
    r"touched|sent|begun|seen)\b(?!\s+(?:before|since|in years|ever)\b)",
    re.IGNORECASE,
)
_NOT_DONE_TAIL = lazy_pattern(r"\b(?:before|since|ever|in years|for years|never)\b", re.IGNORECASE)
_KNOWING = frozenset({"needed", "wanted", "decided", "used", "liked", "noticed", "learned", "expected", "considered", "tried"})
# Counts that tally work: "412 of 960 scores scanned", "140 files in, 60 to go", "318 green, two skipped".
# A count, in figures or in words ("eleven", "twenty-three", "three hundred", "a dozen").
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
_NUMBER_WORD = (
    rf"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:{_UNITS}))?|ten|eleven|twelve|thirteen|fourteen|"
    rf"fifteen|sixteen|seventeen|eighteen|nineteen|{_UNITS})(?:\s+(?:hundred|thousand))?"
)
_N = rf"(?:\d[\d,]*|{_NUMBER_WORD}|a (?:few|dozen|couple(?: of)?)|several|dozens)"
_TALLY_OF = lazy_pattern(rf"\b{_N} of (?:the )?{_N}(?:\s+[\w-]+){{0,3}}\s+(?!(?:need|needs|must|may|can)\b)(?:[a-z]+ed|done|built|left|to go)\b",
                       re.IGNORECASE)
_TO_GO = lazy_pattern(rf"\b{_N} (?:more )?(?:[\w-]+ )?to go\b|\b{_N} [\w-]+ in,\s*{_N}", re.IGNORECASE)
_RUN_COUNT = lazy_pattern(rf"\b{_N}\s+(?:tests?\s+)?(?:passed|passing|green|failed|failing|skipped|xfail(?:ed)?|errored|flaky)\b",
                        re.IGNORECASE)
_DIGITS = lazy_pattern(r"\d")
_COUNT_WORDS = lazy_pattern(rf"\b{_N}\b", re.IGNORECASE)
# What is left of the work, counted: "Fourteen clippy warnings left in the ledger crate", "roughly three hundred remaining",
# "six fixtures left to convert". Not a place ("three columns left of the grid"), nor a class ("seats are left": a verb).
_LEFT_COUNT = lazy_pattern(
    rf"(?:^\W*|[;,:\u2014]\s*|\b(?:with|still|only|just)\s+)(?:about |roughly |around |some |another |nearly |almost )?{_N}\s+"
    r"(?:more\s+)?(?:(?!(?:is|are|was|were|be|been|get|gets|stay|stays)\b)[\w'-]+\s+){0,3}?(?:left|remaining|outstanding)\b"
    r"(?!-|\s+(?:of|over|behind|alone|out|unchanged|as|open|side|columns?|hand|turns?|margin|blank|empty|idle|unused|in place)\b)",
    re.IGNORECASE,
)
_RUN_RATIO = lazy_pattern(r"\b\d[\d,]*\s*/\s*\d[\d,]*\s+(?:tests?\s+|specs?\s+|checks?\s+)?(?:passing|passed|green)\b", re.IGNORECASE)
_RUN_LABEL = lazy_pattern(r"\b(?:suite|run|build)\s+(?:is\s+|was\s+)?at\b|^\W*(?:tests?|suite|specs?|ci|checks?)\s*:", re.IGNORECASE)
_SEGMENT_COUNT = lazy_pattern(rf"^\W*(?:[\w-]+ ){{0,3}}?{_N}\s+(?:[\w-]+\s+){{0,2}}(?P<verb>[a-z]+ed)\b", re.IGNORECASE)
_PERMIT = frozenset({"allowed", "permitted", "required", "supported", "reserved", "included", "expected", "needed",
                     "limited", "capped", "seeded", "named", "called", "based"})
# A part of the system that is a placeholder for now: "is still a mock", "still hard-coded".
_PLACEHOLDER = lazy_pattern(
    r"\bstill\s+(?:(?:is|are|was)\s+)?(?:a |an )?(?:mock|mocked|stub|stubbed|hard-?coded|placeholder|fake|untested|unwired|"
    r"empty|blank|commented out|broken|flaky|failing)\b",
    re.IGNORECASE,
)
# The place in a sequence: "Up to step 4", "Ended on the permissions matrix", "Stopped where …", "Back on the queue after …".
_POSITION = lazy_pattern(
    r"^\W*(?:got )?as far as (?:the|step|page|row|chapter|section)\b"
    r"|^\W*(?:(?:I'm|I am|we're|we are)\s+)?(?:up to|got to|reached)\s+(?:step|stage|page|row|chapter|section|item|part|round|phase|task)\s+\d+\b"
    r"|^\W*(?:ended|finished|stopped|left (?:it|things|off))\s+(?:on|at|where|with)\b"
    # a place counted against the whole: "stopped the backfill at row 180k of 420k"
    r"|\bat (?:row|step|page|item|record|batch|chapter|line|file|part)\s+\d[\d,.]*k?\s+of\s+\d[\d,.]*k?\b"
    r"|\b(?:is|are|got)\s+(?:done|finished|through|ticked off)\s+up to (?:the|step|page|row|section|item|chapter)\b"
    r"|^\W*(?:resume|continue|restart|carry on|pick up)\s+(?:from|at|with)\s+(?:step|stage|page|row|chapter|section|item|part|line)\s+\d+"
    r"|\b(?:before|when|until)\s+(?:I|we)\s+had to (?:stop|leave|go|pause|drop it|call it)\b"
    r"|\bwhere (?:I'm|I am|we're|we are) (?:stuck|blocked)\b|\b(?:I'm|I am|we're|we are) (?:stuck|blocked) (?:on|at|with|in)\b"
    r"|^\W*back on (?:the|my|our)\b[^.;]{0,60}\bafter\b"
    r"|\bpick(?:ing|ed)? (?:the |my |our )(?:[\w-]+ ){1,3}back up\b"
    r"|^\W*(?:picked|picking) (?:it |this |things )?(?:back )?up where (?:I|we|[A-Z][a-z]+) (?:left off|stopped|left (?:it|things))\b",
    re.IGNORECASE,
)
# A label that addresses the next sitting or a pending question.
_NEXT_LABEL = lazy_pattern(
    r"^\W*(?i:(?:(?:context|notes?|info|heads[- ]up)\s+)?for whoever (?:[\w']+ ){0,3}?(?:continues|picks (?:this|it) up|is next|comes next|takes over)"
    r"|open questions? for (?-i:[A-Z][a-z]+)|open questions? for (?:next time|later|tomorrow|the next (?:session|sitting))|(?:queue|parked|saved|kept) for later|left to (?:check|do|try|test|decide)"
    r"|still to (?:check|do|try|test|decide)|(?:note|reminder|memo)s? (?:for|to) (?:future me|myself|self|later|tomorrow)|future me"
    r"|things (?:I|we) tried(?: that (?:didn't|did not|don't) work)?|next (?:idea|thing to try|attempt|experiment)|scratch(?:pad| notes?)?)\b\s*[:\u2014\u2013-]",
)
# A reply awaited from one person: "until she replies", "Waiting to hear from the librarian".
_AWAITED = lazy_pattern(
    r"\b(?:until|once) (?:she|he|[A-Z][a-z]+) (?:replies|answers|confirms|gets back|decides|responds|signs off)\b"
    r"|\b(?i:waiting to hear (?:from|back))\b"
    r"|\b(?i:no (?:reply|answer|response|word|news) (?:from [\w ]{1,30}?)?(?:yet|so far))\b"
    # an arrangement that lasts while the writer tries something: "on for our accounts only while we check the player"
    r"|\b(?i:(?:while|until) (?:I|we) (?:check|test|try|verify|debug|look into|wait for|finish|sort out))\b"
    # work not yet out of the writer's hands: "Nothing deployed yet", "nothing is pushed."
    r"|\b(?i:nothing (?:is |has been |was )?(?:pushed|committed|merged|deployed|released|shipped|uploaded|sent)(?:\s+yet\b|(?=\s*(?:[.;:,]|$))))"
    # done but for one piece: "feature-complete except the appeals form"
    r"|\b(?i:(?:feature-?complete|done|finished|complete|working) (?:except|but for|apart from) (?:the|a|an|one|two)\b)",
)
# A clock time of the writer's day beside a past act ("Pushed 3.4.1 at noon", "Gave up around four").
_CLOCK = lazy_pattern(r"\b(?:at noon|around (?:noon|one|two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2}(?::\d\d)?\s*(?:am|pm)?)"
                    r"|at (?:[01]?\d|2[0-3]):[0-5]\d|at \d{1,2}\s*(?:am|pm))\b",
                    re.IGNORECASE)
_PAST_ACT = lazy_pattern(r"^\W*(?:[A-Za-z][a-z]+ed|gave|ran|got|went|spent|sent|made|built|took|hit)\b", re.IGNORECASE)
_REASON = lazy_pattern(r"\b(?:because|since|so that|due to|in order to)\b|[,;]\s+so\b", re.IGNORECASE)
_LABEL = lazy_pattern(r"^\W*(?:[\w-]+\s+){0,4}?[\w-]+\s*:\s+(?=[a-z])")
_CONDITION = lazy_pattern(r"\b(?:when|whenever|if|unless|once)\b", re.IGNORECASE)
_GENERIC = lazy_pattern(r"^\W*(?:a|an|any|every|each|no)\s", re.IGNORECASE)


# Part of the work moved, the rest "still" on the old path: "Fines and waitlists still read the old tables".
_STILL_OLD = lazy_pattern(
    r"\bstill\s+(?:[a-z]+\s+){1,2}?(?:through |to |from |on |against |at |with |in )?the (?:old|previous|legacy)\b", re.IGNORECASE
)
_YEAR = lazy_pattern(r"\b(?:19|20)\d\d\b")


# A verbless item closed by what was done to it: "v0.3 tagged locally", "release notes drafted", "Phase 2 complete".
_DONE_ITEM = lazy_pattern(
    r"^\W*(?P<item>(?:[\w./#()-]+\s+){1,5}?)(?:(?:locally|already|now)\s+)?(?P<pp>[a-z]{3,}ed|done|built|written|complete|finished|"
    r"merged|shipped|landed|not (?:yet )?(?:[a-z]+ed|opened|built|written|run|done))(?:\s+(?:locally|already|now|too))?\W*$",
    re.IGNORECASE,
)
# Labels that say what state the items after them are in: "Uncommitted: …", "Not built: …", "Open PRs: …".
_STATE_LABEL = lazy_pattern(
    r"^\W*(?:uncommitted|unpushed|unmerged|not (?:yet )?(?:built|done|merged|pushed|wired|started|ported|tested)|in flight"
    r"|open (?:PRs|pull requests|merge requests|branches)|then|after that|afterwards)\s*:\s*\S",
    re.IGNORECASE,
)
# The writer's act in progress, subject left out: "Continuing with the refunds module", "Still seeing the duplicates".
_ING_ACT = lazy_pattern(
    r"^\W*(?:(?-i:[A-Z])[a-z]+ing(?:\s+(?:on|up|back|over))?\s+(?:with|on|onto|to|through|into|at)\s+(?:the|a|an|my|our|this|that)\b"
    r"|still\s+(?:seeing|getting|hitting|chasing|debugging|fighting|investigating|looking (?:at|into)|working (?:on|through)|trying)\b)",
    re.IGNORECASE,
)
# Part of the work moved: "Half the stores are on the new feed", "Most of the parser is in".
_PARTIAL = lazy_pattern(
    r"\b(?:half|most|some|part|a few|all but (?:one|two|three|\d+))(?: of)? the [\w -]{1,30}?\s(?:is|are|have been|has been)\s+"
    r"(?:now\s+)?(?:in|done|wired|merged|ported|migrated|converted|on the new|using the new|moved to the new|switched to the new)\b",
    re.IGNORECASE,
)
# A state of the writer's work said with its subject left out, or what comes next.
_BARE_STATE = lazy_pattern(
    r"^\W*ready for (?:review|merge|QA|testing|release|deploy)\b"
    r"|\bawaiting (?:[\w-]+ ){0,2}?(?:sign-?off|review|approval|merge|deploy|reply|answer|feedback|confirmation)\s*(?=[.;,)]|$)"
    r"|\b(?:awaiting|waiting (?:for|on)) (?:my|me)\b|\bon my (?:plate|list|to-?do list)\b"
    r"|\bworking (?:tree|copy) (?:is )?dirty\b"
    r"|(?:^|[;,]\s*|\b(?:is|are)\s+[a-z]+ed\b[^.;]{0,30}\bbut\s+)not (?:yet )?(?:merged|pushed|deployed|committed|released|opened|reviewed|run|"
    r"sent|published|submitted|filed|signed)(?:\s+yet)?\s*(?=[.;]|$)"
    r"|\b(?:is|are)\s+(?:still\s+)?not\s+(?:yet\s+)?final\s*(?=[.;]|$)"
    r"|\b(?:begins|starts|comes|follows) next\s*(?=[.;,]|$)",
    re.IGNORECASE,
)
# Nouns of work items (the brief's "branch, PR, ticket, test count" and their kin): an item of a work board names one,
# or a number; "Uploads scanned, thumbnails generated" describes a pipeline, not work done.
_WORK_NOUN = lazy_pattern(
    r"\d|\b(?:phase|step|stage|pass|draft|version|release|notes|docs|tests?|specs?|migration|branch|PR|MR|ticket|issue|"
    r"milestone|spike|prototype|port|refactor|review|fix|patch|commit|tag|changelog|screens?|page|endpoint|importer|exporter|"
    r"script|job|schema|fixtures?|mockups?|copy|translations?|slides|deck|report|chapter|section)s?\b",
    re.IGNORECASE,
)
# Work between start and end: "Midway through the Terraform split", "refactor underway", "mostly there".
_UNDERWAY = lazy_pattern(
    r"^\W*(?:mid-?way|part-?way) (?:through|into) (?:the|my|our|this)\b"
    r"|\b(?:I'm|I am|we're|we are)\s+(?:only\s+)?(?:mid-?way|part-?way|half-?way|most of the way) (?:through|into)\b|\b(?:is |are )?(?:now )?under ?way\s*(?=[.;:,]|$)"
    r"|\b(?:mostly|almost|nearly) (?:there|done|finished|ported|migrated|converted)\b"
    r"|\b(?:is|are|about|roughly|nearly|almost|only) half[ -](?:converted|done|ported|migrated|written|wired|finished)\b"
    r"|\b(?:the|my|our) half-?(?:finished|done|written|built|baked|migrated|ported|implemented|converted)\b"
    # someone at work on it now: "Priya is reviewing the schema PR" (a habit is told in the simple present)
    r"|(?-i:\b[A-Z][a-z]+) is (?:reviewing|testing|fixing|porting|rewriting|migrating|refactoring|debugging|investigating|"
    r"looking into|working on|implementing|drafting)\b"
    # broken since an event of the work, changed only here
    r"|\b(?:is|are|has been|have been) (?:broken|failing|red|down) since (?:the|this|my|our|yesterday|last)\b"
    r"|\b(?:I|we) (?:[a-z]+ed|set|put|made|kept)\b[^.;]{0,60}\b(?:locally only|only locally|only on my (?:machine|laptop|branch))\b",
    re.IGNORECASE,
)
# The writer's own next act, subject left out: "Going to split the auth module out next", "Need to rerun the seeds".
_PLAN = lazy_pattern(r"^\W*(?:(?:going|planning|hoping|meaning) to|gonna|(?:still )?need to)\s+(?!be\b)[a-z]+(?:-[a-z]+)?\b(?!-)", re.IGNORECASE)
# "Jobs that are almost done cannot be cancelled": a class of things; "reviews every contract from now on": a standing duty.
_RELATIVE = lazy_pattern(r"\b(?:that|which|who)\s+(?:is|are)\s+$", re.IGNORECASE)
_STANDING = lazy_pattern(r"\b(?:from now on|going forward|until further notice|permanently)\b", re.IGNORECASE)
_DEFINES = lazy_pattern(r"\b(?:means|mean|is when|stands for)\b|=", re.IGNORECASE)


# A clause that ends in its line: a line may wrap mid-sentence ("Widening the provider with a" / "read raised …").
_ENDED = lazy_pattern(r"[.;:!?\u2014]")
_VERB_OBJECT = lazy_pattern(r"\b[a-z]{3,}(?<!s)(?:s|ed)\s+(?:a|an|the|new|no|that|to|it|them|its|their|one|two|\d)\b")


def _predicate(text: str) -> bool:
    """Whether `text` holds a finite verb: an auxiliary, or a verb in -s before its object ("… requires a signed agreement")."""
    return finite(text) or _VERB_OBJECT.search(text) is not None


_CLOSING = lazy_pattern(
    r"^(?:done|complete|completed|finished|merged|shipped|landed|not (?:yet )?(?:opened|built|written|run|done|merged|pushed|"
    r"deployed|started|tested|wired|reviewed|committed|released|migrated|ported))$",
    re.IGNORECASE,
)


def _board(sentence: str, *, closing: bool) -> str | None:
    """Items closed by what was done to them, with no verb: by a closing state ("Phase 2 complete", "PR not opened"),
    or else (not `closing`) by any participle, two items at least ("v0.3 tagged locally, release notes drafted")."""
    if _DEFINES.search(sentence) or DATE.search(sentence):
        return None
    segments = [x for x in re.split(r"[,;]\s*", sentence.rstrip(" .")) if x.strip()]
    closed = []
    for x in segments:
        d = _DONE_ITEM.match(x)
        if d is None or finite(d.group("item")) or not _WORK_NOUN.search(d.group("item")):
            continue
        pp = d.group("pp").lower()
        if pp in _PERMIT or pp in _STATIVE or (closing and not _CLOSING.match(pp)):
            continue
        closed.append(x.strip())
    if closing and closed and (len(segments) <= 2 or 2 * len(closed) >= len(segments)):
        return closed[0][:60]  # "First pass of the glossary done; second pass after review"
    if not closing and len(closed) >= 2 and 2 * len(closed) >= len(segments):
        return ", ".join(closed[:2])[:60]
    return None


def work_note(sentence: str) -> str | None:
    """What marks `sentence` (English, stating no rule) as the state of work in one sitting, or None.

    Table rows are a board's to judge (`session_shape`): a row of counts is a record as often as a snapshot.
    Each family of signs is asked only when the sentence holds a word it needs (lint reads every sentence).
    """
    if "|" in sentence:
        return None
    low = sentence.lower()
    first = _FIRST.match(low)
    head = first.group(1) if first is not None else ""
    # "Why we haven't moved to Postgres 17: …", "What makes the size check in CI go red": a
    # question or its answer, about how things are in general, not where this sitting's work stands.
    asks = head in _ASKING and _LEFT.match(low) is None
    found = ((_label(sentence) if head in _LABEL_HEADS else None)
             or (_item_state(sentence) if not asks and any(h in low for h in _ITEM_HINTS) else None)
             or (_position(sentence) if head in _POSITION_HEADS or "back up" in low or " up to " in low or "had to" in low
                 or "stuck" in low or "blocked" in low else None)
             or (_not_done(sentence) if not asks and ("n't" in low or " not" in low or " only" in low) else None)
             or (_board(sentence, closing=True) if any(h in low for h in _CLOSING_HINTS) else None))
    if found is not None:
        return found
    for pattern, hints in _PLAIN:
        m = pattern.search(sentence) if any(h in low for h in hints) else None
        if m is not None:
            return m.group().strip()
    if not _REASON.search(sentence) and not _PREFERENCE.search(sentence):
        for pattern, hints in _PLAIN_UNLESS_REASON:
            m = pattern.search(sentence) if any(h in low for h in hints) else None
            if m is not None:
                return m.group().strip()
    found = ((_once_they(sentence) if any(h in low for h in ("once", "when", "after", "as soon as")) else None)
             or (_waiting(sentence) if "waiting" in low or "blocked" in low or "stuck" in low else None)
             or (_status_line(sentence) if "status" in low or "progress" in low else None)
             or (_still_not(sentence) if "still" in low else None)
             or (_part_done(sentence) if ("," in sentence or ";" in sentence or " but " in low or " while " in low) else None))
    if found is not None:
        return found
    m = _UNDERWAY.search(sentence) if any(h in low for h in _UNDERWAY_HINTS) else None
    if m is not None and not _GENERIC.match(sentence) and not DATE.search(sentence) and not _YEAR.search(sentence) \
            and not _RELATIVE.search(sentence, 0, m.start()) and not _STANDING.search(sentence):
        return m.group().strip()
    m = _PLAN.search(sentence) if head in _PLAN_HEADS else None
    # "Going to production requires …": a subject; "- Need to balance cost and quality": an item of a list of needs
    if m is not None and not _predicate(sentence[m.end():]) and not (m.group().lower().lstrip("-*+ ").startswith(("need", "still"))
                                                                       and sentence.lstrip()[:1] in "-*+"):
        return m.group().strip()
    m = _ING_ACT.search(sentence) if head.endswith("ing") or head == "still" else None
    # "Working with the county API requires …": a subject
    if m is not None and _ENDED.search(sentence, m.end()) and not sentence.startswith("#") and not _predicate(sentence[m.end():]):
        return m.group().strip()
    m = _PARTIAL.search(sentence) if any(h in low for h in _PARTIAL_HINTS) else None
    if m is not None and not _REASON.search(sentence) and not _YEAR.search(sentence):
        return m.group().strip()
    m = _STILL_OLD.search(sentence) if "still" in low else None
    if m is not None and not _REASON.search(sentence) and not _YEAR.search(sentence):
        return m.group().strip()
    return _act(sentence) if head.endswith("ed") or head in _IRREGULAR_HEADS or ":" in sentence or "noon" in low or "around" in low else None


# A label that opens a snapshot of where the work stands: "Current state of the renderer: …",
# "Where the port stands: …", "Day 2 of the licence audit: …" (one numbered day of a piece of work).
_SNAPSHOT_LABEL = lazy_pattern(
    r"^\W*(?:(?:the\s+)?current (?:state|status) of\b[^:\u2014]{1,60}|state of play|where (?:things|it|we|the [\w -]{1,30}) stands?"
    r"|day (?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten) of (?:the|my|our|this)\b[^:\u2014]{1,50})\s*[:\u2014]\s*\S",
    re.IGNORECASE,
)
# A run of the sitting not yet over: "The benchmark is still running on the big box", "results should be in by tonight".
_STILL_RUNNING = lazy_pattern(
    r"^\W*(?:the|my|our)\s+(?:[\w./-]+\s+){0,4}?(?:is|are)\s+still\s+(?:running|going|building|compiling|uploading|downloading|"
    r"syncing|copying|indexing|training|rendering|importing|deploying|processing|re-?indexing|backfilling)\b"
    r"|\b(?:should|will|ought to)\s+be\s+(?:in|done|back|ready|finished|green)\s+by\s+(?:tonight|this evening|the morning|lunch|"
    r"end of (?:the )?day|eod|tomorrow)\b",
    re.IGNORECASE,
)
# The writer's act in progress now, subject left out: "addressing the naming comments now".
_ING_NOW = lazy_pattern(r"(?:^|;\s*)\W*(?:[a-z]+ing)(?:\s+(?:up|out|through|over|back|in|on|down))?\s+(?:the|my|our|these|those|that|this)\b[^.;:]{0,60}?\bnow\s*(?=[.;,]|$)",
                        re.IGNORECASE)
# A count of what is open, as a label: "Three things open: …", "2 questions outstanding:".
_OPEN_COUNT = lazy_pattern(
    rf"^\W*{_N}\s+(?:[\w-]+\s+){{0,2}}?(?:open|left|remaining|outstanding|pending|in flight|to (?:do|fix|check))\s*:\s*\S", re.IGNORECASE)
# The writer's present work named "current": "Current blocker is the CORS error", "The current task: …".
_CURRENT_WORK = lazy_pattern(
    r"^\W*(?:the |my |our )?current (?:blockers?|problems?|bugs?|focus|tasks?|tickets?|hurdles?|snag|sticking point|numbers|figures|"
    r"results|stats|metrics|timings)\s*(?:is|are|:)", re.IGNORECASE)
# An item labelled with the state it is in: "CX-301: reproduced, root cause unknown", "PR #41 — changes requested".
_ITEM_LABEL_STATE = lazy_pattern(
    rf"^\W*{_ITEM}\s*[:\u2014\u2013-]\s*(?:(?:re)?opened|rebased|approved|red|green|failing|passing|reproduced|not reproduced|"
    r"triaged|investigating|stuck|reverted|changes requested|in review|in progress|waiting|blocked|needs? (?:review|a rebase|tests)|"
    r"root cause unknown|cause unknown)\b",
    re.IGNORECASE,
)
# A near day guessed for the writer's next step: "probably Thursday", "hopefully tomorrow".
_NEAR_DAY = lazy_pattern(
    r"\b(?:probably|maybe|likely|hopefully|perhaps)\s+(?:on\s+|by\s+)?(?:monday|tuesday|wednesday|thursday|friday|tomorrow|tonight|"
    r"this (?:afternoon|evening)|next week)\b", re.IGNORECASE)
# A state that dates from a recent day: "staging still runs on Friday's snapshot", "still the build from yesterday".
_STILL_FROM_DAY = lazy_pattern(
    r"\bstill\b[^.;]{0,40}?\b(?:from |on )?(?:last )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|yesterday)(?:'s)?\b",
    re.IGNORECASE)
# A specific part of the work waiting on someone or something: "Q3 is waiting on the invoices from accounting".
_WAITING_ON = lazy_pattern(
    r"\b(?:is|are)\s+(?:still\s+)?(?:waiting|blocked|stuck)\s+(?:on|for)\s+(?:the|her|his|their|(?-i:[A-Z]))", re.IGNORECASE)


_RELATIVE_BEFORE = lazy_pattern(r"\b(?:that|which|who)\s+$", re.IGNORECASE)


def _waiting(sentence: str) -> str | None:
    m = _WAITING_ON.search(sentence)
    if m is None or _GENERIC.match(sentence) or _CONDITION.search(sentence) or _RELATIVE_BEFORE.search(sentence, 0, m.start()):
        return None  # "A job is waiting on the lock when …", "Orders that are waiting for payment …": a kind
    return m.group().strip()


# The end of the writer's struggle with one thing: "finally got docker compose to start", "At last tracked down the leak".
_FINALLY = lazy_pattern(r"^\W*(?:finally|at last)\s+(?:got|managed|fixed|found|figured|made|tracked|nailed|cracked)\b", re.IGNORECASE)
# Work held back until an event of the sitting: "Holding SSO for everyone until the security review comes back".
_HOLDING_UNTIL = lazy_pattern(
    r"^\W*(?-i:[A-Z])[a-z]+ing\b[^.;]{0,60}\buntil\s+(?:the|she|he|they|[A-Z])[^.;]{0,40}?\b(?:comes back|is done|lands|arrives|replies|"
    r"is merged|is fixed|is over|passes|clears|finishes|is approved|signs off)\b", re.IGNORECASE)
# A status label over items each given its state: "Refactor status: models moved; views moving; tests not yet".
_STATUS_LINE = lazy_pattern(r"^\W*(?:[\w-]+\s+){0,3}?(?:status|progress)\s*[:\u2014]\s*(?P<rest>.+)$", re.IGNORECASE)
_SEGMENT_STATE = lazy_pattern(r"(?:[a-z]{3,}ed|[a-z]{3,}ing|not yet|not started|done|pending|todo|blocked|in progress|untouched)\W*$",
                              re.IGNORECASE)


def _still_not(sentence: str) -> str | None:
    m = _STILL_NOT.search(sentence)
    if m is None or _REASON.search(sentence) or _YEAR.search(sentence) or _GENERIC.match(sentence) or _CONDITION.search(sentence):
        return None  # "The old app still doesn't load on iOS 12 because …": a known limit with its reason
    return m.group().strip()


def _status_line(sentence: str) -> str | None:
    m = _STATUS_LINE.match(sentence)
    if m is None:
        return None
    segments = [x for x in re.split(r"[;,]\s*", m.group("rest").rstrip(" .")) if x.strip()]
    stated = [x for x in segments if _SEGMENT_STATE.search(x) and len(x.split()) <= 6]
    return m.group().strip()[:60] if len(segments) >= 2 and len(stated) >= 2 else None


# The sitting's end told by what ran out: "Ran out of time on the audit"; a debt of the writer: "I still owe them the wireframes";
# a distance to a milestone: "We're two tickets away from the beta".
_SITTING_END = lazy_pattern(
    r"^\W*(?:ran out of (?:time|steam)|out of time)\b|\b(?:I|we)\s+still\s+owe\b"
    rf"|\b(?:I'm|I am|we're|we are)\s+(?:only\s+|just\s+)?{_N}\s+(?:[\w-]+\s+)?away from\b",
    re.IGNORECASE)
# The writer's activity as a label: "Investigating: why the cron skips Sundays", "Incident ongoing: …".
_ACTIVITY_LABEL = lazy_pattern(
    r"^\W*(?:(?:investigating|debugging|looking into|working on|chasing|trying out|testing|drafting|reviewing|fixing)"
    # a named piece of work before the state ("Incident ongoing:"); a bare "IN PROGRESS: someone owns it" defines a state
    r"|(?:(?!(?:in|under|still)\b)[^\W\d_][\w-]*\s+){1,2}?(?:ongoing|in progress|under ?way|still running))\s*[:\u2014]\s*\S", re.IGNORECASE)
# A part of the work that still fails: "the argument in 4.3 still doesn't hold together".
_STILL_NOT = lazy_pattern(
    r"\bstill\s+(?:doesn't|does not|don't|do not|won't|will not|isn't|aren't|can't|cannot)\s+(?:work|hold|compile|build|pass|load|render|"
    r"start|run|fit|match|parse|sync|connect|show|boot|deploy|install)\b", re.IGNORECASE)
# The writer's return to the work: "when I'm back at the desk", "first thing Monday", "once we get back to it".
_RESUME = lazy_pattern(
    r"\b(?:when|once|after|as soon as)\s+(?:I|we)(?:'m|'re|\s+am|\s+are|\s+get|\s+come)?\s+back\b"
    r"|\b(?:when|once)\s+(?:I|we)\s+(?:next|return|pick (?:it|this) (?:up|back up))\b"
    r"|^\W*first thing (?:tomorrow|monday|tuesday|wednesday|thursday|friday|on \w+day|in the morning|next week)\b",
    re.IGNORECASE,
)
# A specific piece of work held by one person: "The schema PR is with Jonas for review", "sits with Tomas for sign-off".
_HELD_BY = lazy_pattern(
    r"^\W*(?:the|my|our|this)\s+(?:[\w./#-]+\s+){0,5}?(?:is|sits|lies|stays|waits|are|sit)\s+with\s+(?-i:[A-Z][a-z]+)\s+"
    r"(?:for\s+(?:review|approval|sign-?off|testing|a look|comments|feedback)|to (?:review|approve|sign|test))\b",
    re.IGNORECASE,
)
# What the writer does once one person acts: "once he signs off I'll run it", "when she's back from leave I'll chase it".
_ONCE_THEY = lazy_pattern(
    r"\b(?i:once|when|after|as soon as)\s+(?:she|he|they|[A-Z][a-z]+)(?:\s+(?:approves|signs off|replies|answers|confirms|"
    r"gets back|reviews it|merges it|sends (?:it|them)|returns)|(?:'s|\s+is|'re|\s+are)\s+back)\b"
)
_WRITER_ACTS = lazy_pattern(r"\b(?:I|I'll|we|we'll|I'd|we'd)\b")
# The writer's present guess, subject left out: "Suspect the relay firmware", "My guess is the cache".
_SUSPECT = lazy_pattern(r"^\W*(?:suspect(?:ing)?|my (?:best )?guess is)\s+(?:that\s+|it'?s\s+)?(?:the|a|an|it|both|this)\b", re.IGNORECASE)
# One part of the work done beside another still open, in one sentence: "Upload works end to end now, download still
# throws", "the forms are finished, the modal dialogs remain", "Chapters one to three are drafted, the appendix is untouched".
_PART_DONE = lazy_pattern(
    r"\b(?:is|are)\s+(?:now\s+|all\s+)?(?:done|finished|complete|drafted|written|ported|migrated|converted|wired(?: up)?|merged|"
    r"fixed|in|working|translated|tested|reviewed|sorted)\b(?!\s+(?:by|when|if|whenever|unless|only|before|after|as|until)\b)"
    r"|\b(?:works|work|runs|passes)\s+(?:end to end|fine)\b|\b[a-z]{3,}s\s+(?:now|again|correctly now)\s*$",
    re.IGNORECASE,
)
_PART_OPEN = lazy_pattern(
    r"\bremains?\s*$|\b(?:is|are)\s+(?:still\s+)?(?:left|open|pending|missing|untouched|a (?:skeleton|stub|mock|placeholder)|stubs?|"
    r"to (?:do|come)|next)\s*$|\b(?:is|are)\s+(?:still\s+)?not\s+(?:yet\s+)?[a-z]+(?:ed|en|t)(?:\s+yet)?\s*$"
    r"|\bnot\s+[a-z]+ed\s+yet\s*$|\bstill\s+(?:throws|fails|crashes|breaks|errors|hangs|times out|leaks|(?:is|are)\s+(?:broken|failing|red|a todo))\b"
    # ("… still doesn't hold together")
    r"|\bstill\s+(?:doesn't|does not|won't|isn't|aren't|can't)\b",
    re.IGNORECASE,
)


def _part_done(sentence: str) -> str | None:
    """A sentence that gives one part of the work as done and another as still open (`_PART_DONE`, `_PART_OPEN`)."""
    if _CONDITION.search(sentence) or _GENERIC.match(sentence) or DATE.search(sentence) or _REASON.search(sentence):
        return None
    segments = [x.strip() for x in re.split(r"[,;]\s*|\s+(?:but|while|whereas)\s+|\s[\u2014\u2013]\s", sentence.rstrip(" .!")) if x.strip()]
    done = next((i for i, x in enumerate(segments) if _PART_DONE.search(x)), None)
    if done is None:
        return None
    for x in segments[:done] + segments[done + 1:]:
        m = _PART_OPEN.search(x)
        if m is not None:
            return f"{segments[done][:30]} … {m.group().strip()}"
    return None


def _once_they(sentence: str) -> str | None:
    m = _ONCE_THEY.search(sentence)
    return m.group().strip() if m is not None and _WRITER_ACTS.search(sentence) else None


# The words each family needs, so that a sentence with none of them is passed over cheaply.
_FIRST = lazy_pattern(r"^\W*([\w'-]+)")
_LABEL_HEADS = frozenset({"for", "open", "queue", "parked", "saved", "kept", "left", "still", "note", "notes", "reminder",
                          "memo", "future", "things", "next", "context", "info", "heads", "heads-up",
                          "scratch"})
_ASKING = frozenset({"why", "what", "how", "when", "where", "which", "who", "whether"})
_LEFT = lazy_pattern(r"^\W*what(?:'s| is| remains| still)\b")  # "What's left: …", "What remains": a board's label
_ITEM_HINTS = ("#", "pr", "mr", "request", "issue", "ticket", "-", "ci", "branch", "build", "draft", "fork", "stash", "patch",
               "experiment", "run ", "job", "batch", "trial", "attempt")
_POSITION_HEADS_UP = ("up to",)
_POSITION_HEADS = frozenset({"resume", "continue", "restart", "carry", "pick", "got", "as", "i'm", "i", "we're", "we", "up", "reached", "ended", "finished", "stopped", "left", "back",
                             "picked", "picking"})
_CLOSING_HINTS = ("done", "complete", "finished", "merged", "shipped", "landed", "not ")
_PLAIN = (
    (_PLACEHOLDER, ("still",)),
    (_AWAITED, ("until", "waiting", "nothing", "except", "but for", "apart from", "while", "no ")),
    (_STATE_LABEL, (":",)),
    (_BARE_STATE, ("ready", "awaiting", "working", "not ", "next", "final", "waiting", "on my")),
    (_SNAPSHOT_LABEL, ("current", "state", "stand", "day ")),
    (_HELD_BY, (" with ",)),
    (_SUSPECT, ("suspect", "guess")),
    (_ING_NOW, ("now",)),
    (_OPEN_COUNT, (":",)),
    (_CURRENT_WORK, ("current",)),
    (_ITEM_LABEL_STATE, ("-", "#", "pr", "issue", "ticket")),
    (_NEAR_DAY, ("probably", "maybe", "likely", "hopefully", "perhaps")),
    (_STILL_FROM_DAY, ("still",)),
    (_FINALLY, ("finally", "at last")),
    (_SITTING_END, ("out of", "owe", "away from")),
    (_ACTIVITY_LABEL, (":", "\u2014")),
)
# Signs that a reason or a preference overrides: "The backup cron is still running on the old host because …" tells why a
# state lasts; "When I'm back from leave I want a summary" states what the writer wants each time.
_PLAIN_UNLESS_REASON = (
    (_RESUME, ("back", "next", "return", "pick", "first thing")),
    (_STILL_RUNNING, ("still", " by ")),
    (_HOLDING_UNTIL, ("until",)),
)
_PREFERENCE = lazy_pattern(r"\bI (?:want|prefer|like|need|expect)\b|\b(?:give|send|show|tell) me\b", re.IGNORECASE)
_UNDERWAY_HINTS = ("way", "half-", "i'm", "we're", "i am", "we are", "mostly", "almost", "nearly", "half", " is ", "since", "locally")
_PLAN_HEADS = frozenset({"going", "planning", "hoping", "meaning", "need", "still", "gonna"})
_PARTIAL_HINTS = ("half", "most", "some", "part", "few", "all but")
_IRREGULAR_HEADS = frozenset({"gave", "ran", "dug", "fell", "got", "came", "went", "spent", "sent", "made", "built", "took", "hit"})


def tally(sentence: str) -> str | None:
    """Counts that tally work in progress ("412 of 960 scores scanned", "318 green, two skipped"), or None.

    Weaker than `work_note`: a lesson cites the run that taught it ("56 passed / 6 failed. Every
    failure was …"), so the caller counts a tally only in a card that states no rule.
    """
    if "|" in sentence:
        return None
    counted = _tally(sentence) if _DIGITS.search(sentence) or _COUNT_WORDS.search(sentence) else None
    # a board needs two items, each closed by a participle
    return counted or (_board(sentence, closing=False) if ("," in sentence or ";" in sentence) and "ed" in sentence else None)


def _label(sentence: str) -> str | None:
    m = _NEXT_LABEL.match(sentence)
    return m.group().strip(" :\u2014\u2013-") if m is not None else None


def _item_state(sentence: str) -> str | None:
    if _GENERIC.match(sentence) or _CONDITION.search(sentence) or DATE.search(sentence):
        return None  # "A PR that touches …", "CI is red when the lockfile drifts": a kind, a condition; "merged 2026-07-06": a record
    m = _ITEM_STATE.search(sentence)
    return m.group().strip() if m is not None else None


def _position(sentence: str) -> str | None:
    if _CONDITION.search(sentence):
        return None  # "Resume from step 5 if the migration fails": a procedure
    m = _POSITION.search(sentence)
    return m.group().strip() if m is not None else None


def _not_done(sentence: str) -> str | None:
    m = _NOT_DONE.search(sentence)
    if m is None or m.group("verb").lower() in _KNOWING or _NOT_DONE_TAIL.search(sentence, m.end()):
        return None
    return m.group().strip()


def _tally(sentence: str) -> str | None:
    m = _TALLY_OF.search(sentence) or _TO_GO.search(sentence) or (_LEFT_COUNT.search(sentence) if not _DEFINES.search(sentence) else None)
    if m is not None and not finite(m.group()) and m.group().split()[-1].lower() not in _STATIVE:
        return m.group().strip()
    ratio = _RUN_RATIO.search(sentence)
    if ratio is not None:
        return ratio.group().strip()
    runs = list(_RUN_COUNT.finditer(sentence))
    if len(runs) >= 2 or (runs and _RUN_LABEL.search(sentence)):
        return runs[0].group().strip()
    # "2,310 entries merged, 48 flagged for review": two counts, each closed by what was done to them, no verb.
    segments = [s for s in re.split(r"[,;]\s*", sentence) if s.strip()]
    counted = [s for s in segments if (c := _SEGMENT_COUNT.match(s)) is not None and c.group("verb").lower() not in _PERMIT
               and not finite(s)]
    if len(counted) >= 2:
        return ", ".join(s.strip() for s in counted[:2])[:60]
    return None


def _opens_act(sentence: str) -> bool:
    """Whether a sentence opens where a writer starts one (a capital, a list marker, a label's colon): only then
    is a verb at its head an act with its subject left out ("Hit the quota at 15:40"). A lowercase verb heads
    what is left of a sentence whose subject was code ("`core-loop` passed at 12:37"), read as prose without
    it: the subject is there, only not in words."""
    start = sentence.lstrip()
    return start[:1].isupper() or not start[:1].isalpha()


def _act(sentence: str) -> str | None:
    """The writer's act in the past, subject left out: with a preposition ("Looked at the"), or at a clock time of the day."""
    if not _opens_act(sentence):
        return None
    body = _LABEL.sub("", sentence, count=1)  # "Fleet GPS gaps: ruled out the antenna"
    if body != sentence and (told := elided(body[:1].upper() + body[1:])) is not None:
        return told
    m = _ACT_PREP.match(body)
    if m is not None and _ENDED.search(body, m.end()) and m.group("verb").lower() not in _STATIVE and not _REASON.search(sentence) and not DATE.search(sentence):
        # "Counted at the gate, visitors get a wristband": a participle before the main clause, not an act.
        clause = re.split(r"[;:\u2014\u2013]", body[m.end():], maxsplit=1)[0]
        head, comma, main = clause.partition(",")
        if not finite(head) and not (comma and _main_clause(main)):
            return m.group().strip()
    # The act's own clause ("Hit the quota at 15:40; it resets at midnight, so …"): a reason given later is the system's.
    clause = re.split(r"[;\u2014\u2013]", body, maxsplit=1)[0]
    c = _CLOCK.search(clause)
    verb = _PAST_ACT.match(body)
    if c is not None and verb is not None and verb.group().strip(" *_\"'").lower() not in _STATIVE \
            and not DATE.search(sentence) and not _REASON.search(clause):
        return f"{body.split()[0]} … {c.group()}"
    return None


# What a diary puts after a comma: another fragment ("ruled out the SIM", "back to SVG", "nothing obvious").
_FRAGMENT_OPENERS = frozenset({"back", "no", "nothing", "none", "still", "then", "not", "now", "so", "but", "and", "also",
                               "same", "probably", "maybe", "will", "next", "one", "two", "three", "all", "only", "just"})


def _main_clause(text: str) -> bool:
    """Whether `text` after a participle's comma is a main clause with its own subject ("visitors get a wristband")."""
    words = text.split()
    if finite(text, inflected=True):
        return True
    return len(words) >= 3 and words[0].isalpha() and words[0].islower() and words[0] not in _FRAGMENT_OPENERS \
        and not words[0].endswith(("ed", "ing"))
