"""How a search query is put, apart from what it is about: its question word and its framing.

An agent asks memory in its own words: "who looks after the clusters", "I'm about to write
a log line with a phone number, anything to know?". Two things in such a query are not
its topic, and ranking treats them apart (`agents.ranking`):

- **The question word** ("who", "when", "where", "which", "why", "how", "what") that opens the
  query or one of its clauses says what kind of answer is wanted. A card's description
  usually says which question the card answers ("Who runs the clusters", "When payouts are
  sent"), so the question word is matched against descriptions only, as a small bonus
  weighted by its rarity there: "who" opens few descriptions and says much; "how" opens
  many and says little. It never makes a card a candidate by itself. A "who" question is
  also answered by a description that names an owner ("Owner of fare rules").
- **Framing**: words that say where the agent stands in its task rather than what it
  needs to know ("need to", "about to", "going to", "trying to", "now", "please"). They count
  at `FRAMING_FACTOR` of their weight, in the ranking and in how much of the query a card
  holds, so "I'm going to patch it now" neither ranks the card that says "Go" nor makes an
  on-topic query look unanswered.
- **The past**: "what did we use before X", "originally", "used to" ask for what was
  replaced. When retired cards are searched too (`--all`), a superseded or archived card
  counts `PAST_FACTOR` more.
"""

from __future__ import annotations

from cardindex.meaning.terms import words

QUESTION_WORDS = frozenset(["who", "whom", "whose", "when", "where", "which", "what", "why", "how"])
# A "who" question asks for a person: a description naming an owner answers it as well.
ANSWERED_BY = {"who": ("who", "owner"), "whom": ("who", "owner"), "whose": ("who", "owner")}
# Words that, before "to", make what follows the task ("need to add", "about to write").
_TO_FRAMES = frozenset(["need", "needs", "want", "wants", "going", "about", "trying", "try", "have", "has",
                        "plan", "planning", "wish", "like"])
# Words that frame a task wherever they stand.
_FRAMES = frozenset(["now", "please", "help", "gonna", "wanna", "anything", "something", "know", "thing", "things"])
FRAMING_FACTOR = 0.5
PAST_FACTOR = 1.5
# Words that ask about what held before ("what did we use before X", "the old value").
_PAST = frozenset(["before", "previously", "previous", "prior", "formerly", "former", "originally", "original",
                   "earlier", "old", "older", "replaced", "superseded", "until"])


def question_words(query: str) -> list[str]:
    """The question words that open `query` or one of its clauses (after a comma, ';', ':' or '?')."""
    out: list[str] = []
    for clause in _clauses(query):
        found = words(clause)
        if found and found[0] in QUESTION_WORDS and found[0] not in out:
            out.append(found[0])
    return out


def framing(asked: list[str]) -> set[int]:
    """Positions in `asked` (the query's words) of words that frame the task rather than name its topic."""
    out = set()
    for i, w in enumerate(asked):
        if w in _FRAMES or (w in _TO_FRAMES and i + 1 < len(asked) and asked[i + 1] == "to"):
            out.add(i)
    return out


def asks_the_past(asked: list[str]) -> bool:
    """Whether the query asks what held before ("before", "originally", "used to"): retired cards answer it."""
    return any(w in _PAST or (w == "used" and asked[i + 1:i + 2] == ["to"]) for i, w in enumerate(asked))


def _clauses(query: str) -> list[str]:
    text = query
    for mark in ",;:?!":
        text = text.replace(mark, "\n")
    return text.split("\n")
