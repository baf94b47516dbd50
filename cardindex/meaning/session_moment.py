"""A sentence anchored to the writer's sitting: a verbless note of what is being done, where things stand, what is unknown now.

Session notes are written as fragments whose subject is the writer and whose verb is left
out or kept in the progressive: "Parking it", "Testing that on the next run", "Was going
to flash the firmware", "Cannot reproduce the spike locally", "Still unclear why the
markers drift". A board fits in one line: "empty state done, CSV toggle not wired,
pagination untouched" (items, each given its state, with no verb). Durable English says
the same words inside a full clause: a gerund is the subject of a finite verb ("Stopping
the scheduler requires draining it"), a participle describes a class ("members not yet
verified can browse"), a state is what something "means". So the test here is grammar:
is there a finite verb, who is the subject, does the state close the item. Pure
functions of one English sentence; `session_words` calls them.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern

# Finite verbs that make a clause a full statement (a copula, an auxiliary, a modal).
_FINITE = frozenset({
    "is", "are", "was", "were", "be", "has", "have", "had", "does", "do", "did", "can", "could", "will", "would",
    "shall", "should", "may", "might", "must", "means", "isn't", "aren't", "doesn't", "won't", "can't", "cannot",
    "didn't", "don't", "hasn't", "haven't", "wasn't", "weren't", "wouldn't", "shouldn't", "couldn't",
})
_DET = frozenset({"a", "an", "the", "this", "that", "these", "those", "my", "our", "its", "their", "his", "her",
                  "each", "every", "any", "some", "no", "all", "both"})
_WORD = lazy_pattern(r"[A-Za-z][A-Za-z'-]*")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def finite(text: str, *, inflected: bool = False) -> bool:
    """Whether `text` (one clause) has a finite verb: an auxiliary or a modal; with `inflected`, also a
    verb in -s or -ed right after the words of a subject ("Keeping it short helps", "Removing it exposed")."""
    if "=" in text or "\u2192" in text or "->" in text:
        return True  # "Seeing this line = healthy": a definition
    # An acronym is a name, not a verb: "BE build" is the backend's build.
    words = [w.lower() if not (len(w) > 1 and w.isupper()) else "" for w in _WORD.findall(text)]
    for i, w in enumerate(words):
        if w in _FINITE:
            return True
        if inflected and i and len(w) > 3 and words[i - 1] not in _DET and words[i - 1] not in _PREPOSITIONS \
                and (w.endswith("ed") or (w.endswith("s") and not w.endswith(("ss", "us", "is")))):
            return True
    return False


_PREPOSITIONS = frozenset({"of", "on", "in", "at", "for", "to", "with", "from", "by", "and", "or", "via", "into", "over"})


# "Parking it", "Testing that on the next run", "Shelving the PDF export until …": the writer's act, subject left out.
# The clause must end inside the sentence: a line may wrap mid-sentence ("Exempting it via the").
_ING_PRONOUN = lazy_pattern(r"^\W*(?P<verb>[A-Z][a-z]+ing)\s+(?:it|this|that|them)\b(?P<rest>[^.;:!?]*)(?=[.;:!?])")
_PAUSE_ING = lazy_pattern(
    r"^\W*(?P<verb>(?:Parking|Shelving|Pausing|Stopping|Leaving|Dropping|Abandoning|Postponing|Deferring))\s+"
    r"(?:the|my|our)\s+(?P<rest>[^.;:!?]*)(?=[.;:!?])"
)
# Gerunds that open a general statement rather than the writer's act ("Keeping it short helps").
_NOT_ACT = frozenset({"nothing", "something", "anything", "everything", "during", "according", "bring", "sing", "king",
                      "thing", "spring", "string", "ring", "wing", "morning", "evening", "ceiling", "building"})
# "Was going to flash the firmware, but …": the plan of the sitting, the subject left out.
_WAS_GOING = lazy_pattern(
    r"^\W*(?:was|were)\s+(?:just\s+)?(?:(?:going|planning|meaning|hoping|about)\s+to|in the middle of|midway through|halfway through)\b",
    re.IGNORECASE,
)
# "Cannot reproduce the spike locally", "Still unclear why …", "Not sure whether …": what the writer does not know yet.
_UNKNOWN = lazy_pattern(
    r"^\W*(?:(?:still\s+)?(?:unclear|not sure|not clear|no idea)\s+(?:why|whether|if|what|how|where|which)\b"
    r"|(?:can't|cannot|couldn't|could not)\s+(?:yet\s+)?(?:reproduce|replicate|figure out|work out|pin down|tell why|find out)\b)",
    re.IGNORECASE,
)
# "Questions for Thursday's call": the agenda of one day's meeting.
_ONE_MEETING = lazy_pattern(
    r"\b(?:on|at|in|for|before|after|during)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day's\s+"
    r"(?:call|meeting|standup|stand-up|sync|review|demo|check-in|1:1|session|walkthrough|presentation|workshop|retro|planning)\b",
    re.IGNORECASE,
)
# "X has not happened", "hasn't been run": a task not done as of the writing (not "a refund that has not been applied").
_NOT_HAPPENED = lazy_pattern(
    r"(?<!that )(?<!which )(?<!who )\b(?:has|have)(?:n't| not)\s+(?:happened|started|landed|been (?:done|run|applied|"
    r"merged|pushed|started|migrated|ported|tested|wired|deployed|reviewed|written))\b",
    re.IGNORECASE,
)
# "all gates green", said without a verb: the state of one run ("Merge when all checks are green" is a rule).
_GREEN = lazy_pattern(r"(?<!when )(?<!until )(?<!once )(?<!if )\ball (?:the )?(?:gates|checks|tests|jobs|specs|builds)\s+(?:now\s+)?(?:green|passing)\b",
                    re.IGNORECASE)
# "Decision pending — discuss at sprint start": one item and its open state, the whole clause, no verb.
_OPEN_ITEM = lazy_pattern(r"^\W*(?P<item>(?:[\w-]+\s+){1,3})(?:pending|not (?:yet )?started|untested|unresolved|undecided)\s*(?=[\u2014\u2013:;,.(]|-\s|$)",
                        re.IGNORECASE)
# The state that closes an item of a one-line board.
_ITEM_STATE = lazy_pattern(
    r"(?:\bdone|\bfinished|\bcomplete|\bcompleted|\buntouched|\bpending|\bstarted|\bmissing|\bbroken|\bblocked|"
    r"\bin place|\bto do|\bremaining|\bwired|\bmerged|\bhalf[- ]done|\bnot (?:yet )?[a-z]+(?:ed|en|lt|t|un))\W*$",
    re.IGNORECASE,
)
_SEGMENT = lazy_pattern(r"[,;]\s*|\s+(?:and|but)\s+")


# A subordinate clause has its own verb ("Parking it until the codec question is answered"): the main clause ends there.
_SUBORDINATE = lazy_pattern(r"\b(?:until|till|when|once|because|since|after|before|while|if|unless|so that)\b", re.IGNORECASE)


def _fragment(m: re.Match[str] | None) -> str | None:
    if m is None or m.group("verb").lower() in _NOT_ACT:
        return None
    main = _SUBORDINATE.split(m.group("rest"), maxsplit=1)[0]
    return None if finite(main, inflected=True) else m.group().strip()[:60]


def moment(sentence: str) -> str | None:
    """What anchors `sentence` to the writer's sitting (a verbless act, an unknown, one day's meeting), or None."""
    found = _fragment(_ING_PRONOUN.match(sentence)) or _fragment(_PAUSE_ING.match(sentence))
    if found is not None:
        return found
    item = _OPEN_ITEM.match(sentence)
    if item is not None and not finite(item.group("item")):
        return item.group().strip()
    for pattern in (_WAS_GOING, _UNKNOWN, _ONE_MEETING, _NOT_HAPPENED):
        m = pattern.search(sentence)
        if m is not None:
            return m.group().strip()
    green = _GREEN.search(sentence)
    if green is not None and not finite(sentence):  # "nobody could log in, all checks green" tells an incident
        return green.group().strip()
    return board_line(sentence)


def board_line(sentence: str) -> str | None:
    """A one-line board ("empty state done, CSV toggle not wired, pagination untouched"), or None.

    Two or more short verbless items that each end in their state; a definition ("red
    means blocked") has a verb, and a field list ("email optional") has no work state.
    """
    head, colon, rest = sentence.partition(":")
    items = _SEGMENT.split(rest if colon and len(head.split()) <= 5 else sentence)
    stated = [i for i in items if 2 <= len(i.split()) <= 6 and _ITEM_STATE.search(i) and _ITEM_STATE.sub("", i).strip()
              and not finite(_ITEM_STATE.sub("", i))]
    if len(stated) >= 2 and len(stated) * 2 >= len([i for i in items if i.strip()]):
        return ", ".join(s.strip() for s in stated[:2])
    return None


def noun_postmodifier(sentence: str, start: int) -> bool:
    """Whether the phrase at `start` ("not yet indexed", "in progress") describes a noun inside a full clause.

    "Users can submit libraries not yet indexed": the clause has its own finite verb and
    the phrase follows a noun, so it names a class of things; "The parser is not yet
    written" and "Tests not yet written" report the state of a piece of work.
    """
    before = _words(sentence[:start])
    if not before or before[-1] in _FINITE or before[-1] in ("still", "and", "but", "now", "yet"):
        return False
    # the verb before ("can submit libraries not yet indexed"), or right after the subject it ends ("Members not yet verified can …")
    after = _POSTMODIFIER.match(sentence, start)
    following = _words(sentence[after.end():])[:1] if after is not None else []
    return finite(sentence[:start]) or (bool(following) and following[0] in _FINITE)


_POSTMODIFIER = lazy_pattern(r"(?:not yet|not started|in progress)(?:\s+[a-z]+)?", re.IGNORECASE)


def indefinite_kind(sentence: str, start: int) -> bool:
    """Whether the phrase at `start` follows an indefinite noun phrase ("A research-grade twin in progress"): a kind described."""
    before = _words(sentence[:start])[-5:]
    return "a" in before[:-1] or "an" in before[:-1]


def object_relative(sentence: str, start: int) -> bool:
    """Whether the pronoun at `start` opens a relative clause on a noun ("the lab changes we made are real"), not a story."""
    before = _words(sentence[:start])[-4:]
    if not before or before[-1] in _DET or before[-1] in ("and", "then", "so", "but", "when", "after", "before", "once",
                                                           "because", "until", "while", "as", "if", "first", "finally"):
        return False
    return any(w in _DET for w in before[:-1]) and not any(w in _FINITE for w in before)
