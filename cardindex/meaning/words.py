"""Words and statements: what a card states, as normalized words (the one model of it).

A card is compared by its **statement**: the description, plus the body sentence that
states the fact (the one sharing most words with the description; Why/How/Source
sentences are reasons, not the fact). Words are normalized: case folded, inflections
folded ("writes", "writing", "written" → one token), hyphenated words split, stop and
filler words dropped, phrases read as the word they mean ("no later than" is a bound, not
a negation), synonyms and negations folded ("never", "don't" → "not"). `similarity`
compares statements; the text rules, repo facts and takeover read words.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.stem import stem
from cardindex.meaning.value_forms import normalized
from cardindex.store.card import Card

STOP = frozenset(
    ["a", "an", "the", "to", "of", "in", "on", "at", "for", "by", "with", "and", "or", "is", "are", "was", "be", "been", "it", "its", "this", "that", "these", "those", "as", "from", "into", "per", "via", "which", "what", "who", "whom", "whose", "how", "when", "where", "there", "here", "than", "then", "so", "such", "our", "their", "his", "her", "your", "we", "they", "he", "she", "i", "you", "me", "us", "them", "one", "do", "does", "did", "each", "every", "whether", "much", "against", "about"]
)
FILLER = frozenset(
    ["note", "reminder", "fyi", "important", "please", "confirmed", "agreed", "going", "forward", "consistently", "also", "just", "really", "actually", "basically", "generally", "ever", "now"]
)
_SYNONYM_GROUPS = [
    # "X uses V", "X runs on V", "X relies on V", "X is built on V": one fact, reworded
    ("uses", "use", "using", "used", "employs", "employ", "employed", "utilizes", "utilize",
     "relies", "rely", "relying", "depends", "depend", "depending", "runs", "run", "built", "deployed"),
    ("prefers", "prefer", "likes", "like", "wants", "want", "would"),
    ("handled", "done", "managed", "performed"),
    ("lives", "live", "hosted", "located", "stored", "kept"),
    ("found", "available", "reachable"),
    ("link", "url", "address"),
    ("choice", "preference"),
    ("before", "prior"),
    ("make", "remember", "ensure"),
    ("user", "users"),
    ("reference", "references", "referenced", "cite", "cites", "cited", "refer", "refers"),
    ("contact", "contacts", "reach"),
    ("sender", "from"),
    ("format", "formatted", "formatting", "formats"),
    ("commit", "committing", "commits", "committed"),
    ("merge", "merged", "merging", "merges"),
    ("uppercase", "upper-case", "capitals", "capitalise", "capitalised", "capitalize", "capitalized", "all-caps"),
    ("lowercase", "lower-case"),
    ("explain", "explains", "explained", "explaining", "explanation", "explanations"),
    ("basic", "basics", "everyday", "elementary", "fundamental", "fundamentals"),
    ("fluent", "proficient", "expert", "experienced", "skilled", "adept"),
    # Negations read alike: "never", "do not ever", "don't" all say "not".
    ("not", "never", "don't", "dont", "doesn't", "doesnt", "didn't", "isn't", "aren't", "won't", "mustn't",
     "shouldn't", "cannot", "can't", "rather", "instead"),
]
SYNONYMS = {word: group[0] for group in _SYNONYM_GROUPS for word in group}
# The groups above that are light verbs ("uses", "runs", "stored", "handled"): what a statement does with its
# subject, never the subject itself.
LIGHT = frozenset({"uses", "prefers", "handled", "lives", "found", "make"})
NEGATORS = frozenset(
    ["not", "never", "no", "don't", "dont", "doesn't", "doesnt", "didn't", "isn't", "aren't", "won't", "cannot", "can't", "mustn't", "shouldn't", "without", "avoid", "avoids", "forbidden", "prohibited", "disallowed", "neither", "nor", "stop", "ever", "skip", "skips", "omit", "omits"]
)
# Words that say "not" by themselves: they answer a negation on the other side.
NEGATIVE = frozenset(
    ["off", "disable", "disabled", "disables", "forbid", "forbids", "forbidden", "exclude", "excluded", "excludes",
     "reject", "rejected", "rejects", "false", "closed"]
)
_ANTONYM_PAIRS = [
    ("always", "never"), ("always", "not"), ("allowed", "forbidden"), ("allow", "forbid"), ("allows", "forbids"),
    ("enable", "disable"), ("enabled", "disabled"), ("include", "exclude"), ("included", "excluded"),
    ("on", "off"), ("true", "false"), ("yes", "no"), ("required", "optional"), ("mandatory", "optional"),
    ("accept", "reject"), ("accepted", "rejected"), ("uppercase", "lowercase"), ("public", "private"), ("sync", "async"),
    ("synchronous", "asynchronous"), ("minimum", "maximum"), ("min", "max"), ("more", "fewer"),
    ("more", "less"), ("increase", "decrease"), ("first", "last"), ("open", "closed"), ("start", "stop"),
    ("must", "may"), ("should", "shouldn't"), ("can", "cannot"), ("squash", "rebase"), ("merge", "rebase"),
    ("keep", "shut"), ("running", "down"), ("up", "down"), ("ascending", "descending"), ("upper", "lower"), ("before", "after"), ("inside", "outside"),
    ("local", "remote"), ("manual", "automatic"), ("manually", "automatically"), ("blocking", "non-blocking"),
]
ANTONYMS: dict[str, set[str]] = defaultdict(set)
for _x, _y in _ANTONYM_PAIRS:
    ANTONYMS[_x].add(_y)
    ANTONYMS[_y].add(_x)
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = ["january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december"]
CALENDAR = frozenset(_WEEKDAYS + [d + "s" for d in _WEEKDAYS] + _MONTHS)
# Numbers written as words are values like digits ("two approvals" / "1 approval"); "one"
# is left out: it is a pronoun as often as a number.
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
            "hundred": 100, "thousand": 1000, "dozen": 12}
NUMBER_WORDS = frozenset(_NUMBERS)




class Words(NamedTuple):
    """Text as compared: normalized tokens and which of them are values."""

    tokens: tuple[str, ...]
    values: frozenset[str]
    text: str


class Statement(NamedTuple):
    """What a card says: its description, its fact sentence, and both together."""

    description: Words
    fact: Words
    all: Words


# Irregular participles and past forms that suffix stripping cannot reach.
_IRREGULAR = {
    "shown": "show", "known": "know", "knew": "know", "written": "write", "wrote": "write", "given": "give",
    "gave": "give", "taken": "take", "took": "take", "chosen": "choose", "chose": "choose", "broken": "break",
    "broke": "break", "seen": "see", "saw": "see", "gone": "go", "went": "go", "made": "make", "held": "hold",
    "sent": "send", "spent": "spend", "got": "get", "gotten": "get", "told": "tell", "said": "say",
    "thought": "think", "brought": "bring", "bought": "buy", "ran": "run", "began": "begin", "begun": "begin",
    "drawn": "draw", "drew": "draw", "grown": "grow", "grew": "grow", "thrown": "throw", "threw": "throw",
    "hidden": "hide", "hid": "hide", "driven": "drive", "drove": "drive", "forgotten": "forget", "forgot": "forget",
    "understood": "understand", "lost": "lose", "left": "leave", "met": "meet", "paid": "pay", "read": "read",
    "led": "lead", "fed": "feed", "stuck": "stick", "struck": "strike", "spoken": "speak", "spoke": "speak",
    "frozen": "freeze", "froze": "freeze", "ridden": "ride", "risen": "rise", "rose": "rise", "fallen": "fall",
    "fell": "fall", "woken": "wake", "woke": "wake", "worn": "wear", "wore": "wear", "torn": "tear",
}
def _stem(word: str) -> str:
    """Fold inflections together with the Snowball stemmer ("writing", "writes", "written" → "write").

    Irregular forms are folded first (Snowball does not know "woken" is "wake"); antonyms,
    calendar words and words not in ASCII (other languages: the stemmer is English) stay
    as they are, and a word is never turned into a negation or a stop word.
    """
    if len(word) <= 3 or not word.isalpha() or word in ANTONYMS or word in CALENDAR or not word.isascii():
        return word
    folded = stem(_IRREGULAR.get(word, word))
    if folded in NEGATORS or folded in STOP:
        return word
    return folded


@functools.lru_cache(maxsize=100_000)
def words(text: str) -> Words:
    """Normalize text: case folded, stop and filler words dropped, synonyms folded, words stemmed.

    Words in scripts written without spaces (Chinese, Japanese; Korean words carry their
    particles) become overlapping pairs of characters, so two such texts can be compared
    at all. In a title ("Theme Customization Complete Reference") a capital is no name.
    """
    tokens: list[str] = []
    values: set[str] = set()
    sentence_start = True
    lowered = text.lower()
    if any(key in lowered for key in _PHRASE_KEYS):
        text = _PHRASES.sub(_phrase, text)
    if "`" in text:
        text = _SYMBOL_SPAN.sub(_symbol, text)
    found_words = _TOKEN_SPLIT.findall(text)
    titled = _titled(found_words)
    after_number = False
    for raw, stop in found_words:
        found = _token(raw, sentence_start or titled)
        if found is None:
            continue
        sentence_start = bool(stop)
        for token, value in found:
            tokens.append(token)
            if value or (after_number and token.isalpha() and token not in NEGATORS):
                values.add(token)  # a number's unit is part of the value: "30 seconds", "5 minutes"
        after_number = raw.isdigit() or raw.replace(".", "", 1).isdigit()
    return Words(tuple(tokens), frozenset(values), " ".join(tokens))


# A code span that is one punctuation mark names it: "`;`" is "semicolon" in every language.
_SYMBOL_NAMES = {";": "semicolon", ",": "comma", "|": "pipe", ":": "colon", ".": "dot", "/": "slash",
                 "\\": "backslash", "-": "hyphen", "_": "underscore", "\\t": "tab", "#": "hash", "@": "at-sign"}
_SYMBOL_SPAN = lazy_pattern(r"`([^\w\s`]|\\t)`")


def _symbol(m: re.Match[str]) -> str:
    return _SYMBOL_NAMES.get(m.group(1), m.group())


def _titled(found: list[tuple[str, str]]) -> bool:
    """Whether most words are capitalized (a heading or title), so a capital says nothing."""
    alpha = [raw for raw, _ in found if raw[:1].isalpha() and raw.lower() not in STOP]
    if len(alpha) < 3:
        return False
    return sum(raw[0].isupper() for raw in alpha) * 10 >= len(alpha) * 7


_UNSPACED = lazy_pattern("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]+")


def _unspaced(raw: str) -> tuple[tuple[str, bool], ...] | None:
    """Overlapping character pairs of the runs of an unspaced script in `raw`, with any other parts as words."""
    out: list[tuple[str, bool]] = []
    rest = _UNSPACED.sub(" ", raw).split()
    for run in _UNSPACED.findall(raw):
        out.extend((run[i:i + 2], False) for i in range(max(1, len(run) - 1)))
    for part in rest:
        part = part.strip("@._+/:'\u2019-").lower()
        if part:
            out.append((part, not part.isalpha()))
    return tuple(out) or None


@functools.lru_cache(maxsize=200_000)
def _token(raw: str, start: bool) -> tuple[tuple[str, bool], ...] | None:
    """The normalized tokens of one word as written, each with whether it is a value; None: no word."""
    raw = raw.rstrip(".'\u2019")
    if _UNSPACED.search(raw):
        return _unspaced(raw)
    if raw.endswith(("'s", "\u2019s")):
        raw = raw[:-2]
    if not raw:
        return None
    low = raw.lower()
    if "-" in low and low not in SYNONYMS and low not in ANTONYMS and low.replace("-", "").isalpha():
        parts = [(part, p) for part, p in zip(raw.split("-"), low.split("-"), strict=True) if p]
    else:
        parts = [(raw, low)]
    out = []
    for raw, low in parts:
        if low.endswith("days") and low[:-1] in CALENDAR:
            low = low[:-1]
        if low in STOP or low in FILLER:
            continue
        low = str(_NUMBERS[low]) if low in _NUMBERS else _normal(low)  # "two" is "2"
        value = ((not start and raw[0].isupper()) or not low.isalpha() or low in CALENDAR
                 or raw.lower() in NUMBER_WORDS) and _is_value(raw, low, start)
        out.append((low, value))
    return tuple(out)


@functools.lru_cache(maxsize=20_000)
def _normal(low: str) -> str:
    """One token per word: a synonym group's first word, else the word's stem (or its stem's group)."""
    folded = SYNONYMS.get(low)
    if folded is not None:
        return folded
    stem = _stem(low)
    return SYNONYMS.get(stem, stem)


def normal(word: str) -> str:
    """The token one lower-cased word becomes (its synonym group's first word, else its stem)."""
    return _normal(word)


# Phrases that are one word's worth of meaning; "no later than" is a bound, not a negation.
_PHRASE_WORDS = {
    "no later than": "within", "not later than": "within", "at the latest": "",
    "no more than": "max", "not more than": "max", "no longer than": "max", "at most": "max",
    "no fewer than": "min", "no less than": "min", "not less than": "min", "at least": "min",
    "make sure": "ensure", "be sure": "ensure", "prior to": "before", "in advance of": "before",
}
_PHRASE_KEYS = ("than", "latest", "most", "least", "sure", "prior", "advance")  # each phrase has one: a cheap test first
_PHRASES = lazy_pattern(r"(?i)\b(?:" + "|".join(p.replace(" ", r"\s+") for p in _PHRASE_WORDS) + r")\b")


def _phrase(m: re.Match[str]) -> str:
    return _PHRASE_WORDS[" ".join(m.group().lower().split())]


_TOKEN_SPLIT = lazy_pattern("((?:[^\\W_]|@)(?:[^\\W_]|[@.+/:'\u2019-])*[^\\W_]|[^\\W_])([.!?:;](?=\\s|$))?")
_REASON_LINE = lazy_pattern(r"(?i)^\W*(?:why|how to apply|source|see also|related|context|reason|because)\b[^:]{0,20}:")
_SENTENCE_SPLIT = lazy_pattern(r"(?<=[.!?])\s+")
# A rule's clause ends at ';' or where a reason or circumstance starts (", when traffic is low").
_CLAUSE_SPLIT = lazy_pattern(r";(?=(?:[^`]*`[^`]*`)*[^`]*$)|,\s+(?=(?:because|since|so|as|when|while|which|where)\b)",
                           re.IGNORECASE)  # not at a ';' inside a code span


QUESTION = lazy_pattern(r"(?i)^\W*(?:how|what|which|when|where|who|whom|whose|whether|why)\b")


def _fact(card: Card, description: Words) -> tuple[str, Words | None, Words | None]:
    """The body clause that states the card's fact, its words, and the words of its whole sentence.

    The clause sharing most words with the description; when none does, the body's
    first clause when it answers a description that only names the question ("How pull
    requests are merged") or is the body's one sentence; else none (several sentences
    that never name the description are notes about the card: "Related cards cover …"). Clauses (split at ';' and before ", because …") keep a
    rule apart from its reason for contradictions; the whole sentence is compared for
    duplicates.
    """
    best: tuple[str, Words | None, Words | None] = ("", None, None)
    first: tuple[str, Words | None, Words | None] = ("", None, None)
    best_overlap = 0
    sentences = 0
    wanted = set(description.tokens)
    for line in card.body.split("\n\n", 1)[0].splitlines()[:6]:
        if _REASON_LINE.match(line):
            continue
        line = normalized(line)
        for sentence in _SENTENCE_SPLIT.split(line.strip(" -*#>")):
            if not sentence or _REASON_LINE.match(sentence):
                continue  # "Source: …" after the fact on one line is a reason too
            sentences += 1
            whole = words(sentence)
            for clause in _CLAUSE_SPLIT.split(sentence):
                w = words(clause)
                if not w.tokens:
                    continue
                if first[1] is None:
                    first = (clause, w, whole)
                overlap = len(wanted.intersection(w.tokens))
                if overlap > best_overlap:
                    best, best_overlap = (clause, w, whole), overlap
    if best[1] is None and (sentences == 1 or QUESTION.match(card.description)):
        # No clause names the description's words: a body of one sentence is what the card
        # says ("Docker is what the team settled on"); of several, they are notes about it.
        return first
    return best


def _answers(description: Words, fact: Words, text: str) -> bool:
    """Whether a fact clause is said about the description: it shares a word, or the description is a question."""
    return bool(set(description.tokens).intersection(fact.tokens)) or QUESTION.match(text) is not None


def fact_sentence(card: Card, description: Words) -> str:
    """The body clause that states the card's fact."""
    return _fact(card, description)[0]


def statement(card: Card) -> Statement:
    d = words(normalized(card.description))  # one amount in one unit: "2 GB" is "2048 MB" (`value_forms`)
    _, f, whole = _fact(card, d)
    if f is None or whole is None:
        return Statement(d, _EMPTY, d)
    if not _answers(d, f, card.description):
        # A first clause that names nothing of the description ("Written after the March
        # incident") may be a note about the card rather than its fact: it is compared as
        # the value of a shared slot, never counted as words the two cards have in common.
        return Statement(d, f, d)
    both = Words(d.tokens + whole.tokens, d.values | whole.values, f"{d.text} {whole.text}")
    return Statement(d, f, both)


_EMPTY = Words((), frozenset(), "")


def _is_value(raw: str, low: str, sentence_start: bool) -> bool:
    """A token that fills a slot: a number or version, a date word, a name, a path or host."""
    if any(c.isdigit() for c in raw) or low in CALENDAR or raw.lower() in NUMBER_WORDS:
        return True
    if "." in raw.strip(".") or "/" in raw or "_" in raw or "@" in raw:
        return True
    return not sentence_start and raw[:1].isupper() and low not in NEGATORS
