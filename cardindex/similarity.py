"""Similarity: which cards say the same thing, and which say opposite things.

The one mechanism behind the duplicate and contradiction rules, the write gate of
`cards add`, and consolidation. Fuzzy scores alone cannot tell the two apart (a rule and
its negation score 100 on token_set_ratio), so this works in three steps:

A card is compared by its **statement**: the description, plus the body sentence that
states the fact (the one sharing most words with the description; Why/How/Source lines
are reasons, not the fact). Words are normalized: case folded, plurals stemmed, stop and
filler words dropped, synonyms and negations folded ("never", "don't" → "not").

1. **Block**: propose candidate pairs cheaply, never all pairs: cards sharing a
   single-valued key, cards with the same normalized description, and cards that share
   at least two of their rarest words.
2. **Classify by what differs**: opposite polarity (a negation or an antonym on one side
   only, the rest the same) or a different value in one aligned slot (a number, version,
   port, weekday, or a name) makes a contradiction; shared words weighted by rarity,
   with nothing opposed, make a duplicate (rapidfuzz confirms close wording).
"""

from __future__ import annotations

import difflib
import functools
import math
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from .card import Card

DUPLICATE_OVERLAP = 0.65  # rarity-weighted share of a statement's words the other one has
SAME_THING = 0.6  # two facts are about the same thing when this much of their non-value words agree
MAX_BLOCK = 60  # a word shared by more cards than this is not rare enough to block on
RARE_WORDS = 8  # each card is indexed under this many of its rarest words

STOP = frozenset(
    ["a", "an", "the", "to", "of", "in", "on", "at", "for", "by", "with", "and", "or", "is", "are", "was", "be", "been", "it", "its", "this", "that", "these", "those", "as", "from", "into", "per", "via", "which", "what", "who", "whom", "whose", "how", "when", "where", "there", "here", "than", "then", "so", "such", "our", "their", "his", "her", "your", "we", "they", "he", "she", "i", "you", "me", "us", "them", "one", "do", "does", "did"]
)
FILLER = frozenset(
    ["note", "reminder", "fyi", "important", "please", "confirmed", "agreed", "going", "forward", "consistently", "also", "just", "really", "actually", "basically", "generally", "ever", "now"]
)
_SYNONYM_GROUPS = [
    ("uses", "use", "using", "used", "employs", "employ", "employed", "utilizes", "utilize"),
    ("relies", "rely", "relying", "depends", "depend", "depending"),
    ("prefers", "prefer", "likes", "like", "wants", "want", "would"),
    ("handled", "done", "managed", "performed"),
    ("lives", "live", "hosted", "located", "stored", "kept"),
    ("found", "available", "reachable"),
    ("link", "url", "address"),
    ("choice", "preference"),
    ("before", "prior"),
    ("runs", "run", "built", "deployed"),
    ("make", "remember", "ensure"),
    ("user", "users"),
    ("reference", "references", "referenced", "cite", "cites", "cited", "refer", "refers"),
    ("contact", "contacts", "reach"),
    ("sender", "from"),
    ("formatted", "format", "formatting", "formats"),
    ("committing", "commit", "commits", "committed"),
    ("merged", "merge", "merging", "merges"),
    # Negations read alike: "never", "do not ever", "don't" all say "not".
    ("not", "never", "don't", "dont", "doesn't", "doesnt", "didn't", "isn't", "aren't", "won't", "mustn't",
     "shouldn't", "cannot", "can't", "rather", "instead"),
]
SYNONYMS = {word: group[0] for group in _SYNONYM_GROUPS for word in group}
NEGATORS = frozenset(
    ["not", "never", "no", "don't", "dont", "doesn't", "doesnt", "didn't", "isn't", "aren't", "won't", "cannot", "can't", "mustn't", "shouldn't", "without", "avoid", "avoids", "forbidden", "prohibited", "disallowed", "neither", "nor", "stop", "ever"]
)
_ANTONYM_PAIRS = [
    ("always", "never"), ("always", "not"), ("allowed", "forbidden"), ("allow", "forbid"), ("allows", "forbids"),
    ("enable", "disable"), ("enabled", "disabled"), ("include", "exclude"), ("included", "excluded"),
    ("on", "off"), ("true", "false"), ("yes", "no"), ("required", "optional"), ("mandatory", "optional"),
    ("accept", "reject"), ("accepted", "rejected"), ("public", "private"), ("sync", "async"),
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


class Pair(NamedTuple):
    """Two cards and what they are to each other."""

    a: Card
    b: Card
    kind: str  # "duplicate" or "contradiction"
    reason: str  # "same-key", "polarity", "value", "wording"
    score: float
    detail: str


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


def _stem(word: str) -> str:
    if len(word) > 4 and word.isalpha() and word not in ANTONYMS and word not in CALENDAR:
        if word.endswith("ies"):
            return word[:-3] + "y"
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return word[:-1]
    return word


@functools.lru_cache(maxsize=100_000)
def words(text: str) -> Words:
    """Normalize text: case folded, stop and filler words dropped, synonyms folded, plurals stemmed."""
    tokens: list[str] = []
    values: set[str] = set()
    sentence_start = True
    for raw, stop in _TOKEN_SPLIT.findall(text):
        raw = raw.rstrip(".'\u2019")
        if raw.endswith(("'s", "\u2019s")):
            raw = raw[:-2]
        if not raw:
            continue
        low = raw.lower()
        if low.endswith("days") and low[:-1] in CALENDAR:
            low = low[:-1]
        start = sentence_start
        sentence_start = bool(stop)
        if low in STOP or low in FILLER:
            continue
        low = _stem(SYNONYMS.get(low, low))
        low = SYNONYMS.get(low, low)
        tokens.append(low)
        if ((not start and raw[0].isupper()) or not low.isalpha() or low in CALENDAR) and _is_value(raw, low, start):
            values.add(low)
    return Words(tuple(tokens), frozenset(values), " ".join(tokens))


_TOKEN_SPLIT = re.compile("([A-Za-z0-9@][A-Za-z0-9@._+/:'\u2019-]*[A-Za-z0-9]|[A-Za-z0-9])([.!?:;](?=\\s|$))?")
_REASON_LINE = re.compile(r"(?i)^\W*(?:why|how to apply|source|see also|related|context|reason|because)\b[^:]{0,20}:")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+")


_QUESTION = re.compile(r"(?i)^\W*(?:how|what|which|when|where|who|whom|whose|whether|why)\b")


def _fact(card: Card, description: Words) -> tuple[str, Words | None, Words | None]:
    """The body clause that states the card's fact, its words, and the words of its whole sentence.

    The clause sharing most words with the description; when none does and the
    description only names the question ("How pull requests are merged"), the body's
    first clause is its answer. Clauses (split at ';') keep a rule apart from its reason
    for contradictions; the whole sentence is compared for duplicates.
    """
    best: tuple[str, Words | None, Words | None] = ("", None, None)
    first: tuple[str, Words | None, Words | None] = ("", None, None)
    best_overlap = 0
    wanted = set(description.tokens)
    for line in card.body.split("\n\n", 1)[0].splitlines()[:6]:
        if _REASON_LINE.match(line):
            continue
        for sentence in _SENTENCE_SPLIT.split(line.strip(" -*#>")):
            if not sentence:
                continue
            whole = words(sentence)
            for clause in sentence.split(";"):
                w = words(clause)
                if not w.tokens:
                    continue
                if first[1] is None:
                    first = (clause, w, whole)
                overlap = len(wanted.intersection(w.tokens))
                if overlap > best_overlap:
                    best, best_overlap = (clause, w, whole), overlap
    if best[1] is None and _QUESTION.match(card.description):
        return first
    return best


def fact_sentence(card: Card, description: Words) -> str:
    """The body clause that states the card's fact."""
    return _fact(card, description)[0]


def statement(card: Card) -> Statement:
    d = words(card.description)
    _, f, whole = _fact(card, d)
    if f is None or whole is None:
        return Statement(d, _EMPTY, d)
    both = Words(d.tokens + whole.tokens, d.values | whole.values, f"{d.text} {whole.text}")
    return Statement(d, f, both)


_EMPTY = Words((), frozenset(), "")


def _is_value(raw: str, low: str, sentence_start: bool) -> bool:
    """A token that fills a slot: a number or version, a date word, a name, a path or host."""
    if any(c.isdigit() for c in raw) or low in CALENDAR:
        return True
    if "." in raw.strip(".") or "/" in raw or "_" in raw or "@" in raw:
        return True
    return not sentence_start and raw[:1].isupper() and low not in NEGATORS


def _polar(token: str) -> bool:
    return token in NEGATORS or token in ANTONYMS or token.endswith("n't")


def _opposed(only_a: set[str], only_b: set[str]) -> str | None:
    """Why two statements have opposite polarity, or None."""
    for word in only_a:
        for other in ANTONYMS.get(word, ()):
            if other in only_b:
                return f"'{word}' vs '{other}'"
    neg_a = {t for t in only_a if t in NEGATORS or t.endswith("n't")}
    neg_b = {t for t in only_b if t in NEGATORS or t.endswith("n't")}
    if bool(neg_a) != bool(neg_b):
        return f"'{min(neg_a or neg_b)}' on one side only"
    return None


def _value_slot(a: Words, b: Words) -> str | None:
    """The one aligned position where the two differ, and only in values (port, version, weekday…)."""
    matcher = difflib.SequenceMatcher(a=a.tokens, b=b.tokens, autojunk=False)
    changed = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = changed[0]
    left, right = a.tokens[i1:i2], b.tokens[j1:j2]
    if all(t in a.values for t in left) and all(t in b.values for t in right):
        return f"{' '.join(left)!r} vs {' '.join(right)!r}"
    return None


def _keys_compatible(a: Card, b: Card) -> bool:
    """Cards with unrelated keys fill different slots: not contradictory by wording."""
    if not a.key or not b.key or a.key == b.key:
        return True
    short, long = sorted((a.key, b.key), key=len)
    return long.startswith(short)


def _contradiction(wa: Words, wb: Words) -> tuple[str, str] | None:
    """(reason, detail) when two statements about the same thing cannot both hold."""
    set_a, set_b = set(wa.tokens), set(wb.tokens)
    if not set_a or not set_b:
        return None
    only_a, only_b = set_a - set_b, set_b - set_a
    core_a = {t for t in only_a if not _polar(t)}
    core_b = {t for t in only_b if not _polar(t)}
    opposed = _opposed(only_a, only_b)
    if opposed and not (core_a & wa.values or core_b & wb.values):
        plain_a = {t for t in set_a if not _polar(t)}
        plain_b = {t for t in set_b if not _polar(t)}
        if len(core_a) + len(core_b) <= max(2, len(plain_a | plain_b) // 3):
            return "polarity", f"opposite polarity: {opposed}"
    if core_a and core_b and core_a <= wa.values and core_b <= wb.values:
        slot = _value_slot(wa, wb)
        if slot:
            return "value", f"different value in the same place: {slot}"
    return None


def _overlap(wa: Words, wb: Words, weight: Mapping[str, float]) -> float:
    """Rarity-weighted share of the smaller statement's words that the other one has."""
    set_a, set_b = set(wa.tokens), set(wb.tokens)
    if not set_a or not set_b:
        return 0.0
    shared = sum(weight.get(t, 1.0) for t in set_a & set_b)
    smaller = min(sum(weight.get(t, 1.0) for t in set_a), sum(weight.get(t, 1.0) for t in set_b))
    return shared / smaller if smaller else 0.0


def classify(a: Card, b: Card, sa: Statement, sb: Statement, weight: Mapping[str, float], *, same_key: bool) -> Pair | None:
    """What two candidate cards are to each other: duplicate, contradiction, or nothing."""
    compatible = _keys_compatible(a, b)
    if compatible:
        for wa, wb in ((sa.fact, sb.fact), (sa.description, sb.description)):
            found = _contradiction(wa, wb)
            if found:
                return Pair(a, b, "contradiction", found[0], 100.0, found[1])
    all_a, all_b = sa.all, sb.all
    only_a, only_b = set(all_a.tokens) - set(all_b.tokens), set(all_b.tokens) - set(all_a.tokens)
    conflict = (bool(only_a & all_a.values) and bool(only_b & all_b.values)) or _opposed(only_a, only_b) is not None
    if compatible and (_reworded(sa.description, sb.description) or
                       (not same_key and not conflict and _overlap(all_a, all_b, weight) >= DUPLICATE_OVERLAP)):
        return Pair(a, b, "duplicate", "same-key" if same_key else "wording",
                    round(_overlap(all_a, all_b, weight) * 100, 1), "the same fact in other words")
    if same_key:
        return Pair(a, b, "contradiction", "same-key", 0.0, "two live cards hold one single-valued key")
    return None


def _reworded(wa: Words, wb: Words) -> bool:
    """The same words once synonyms, fillers and negation forms are folded (at most two differ)."""
    only_a, only_b = set(wa.tokens) - set(wb.tokens), set(wb.tokens) - set(wa.tokens)
    if only_a & wa.values or only_b & wb.values or _opposed(only_a, only_b):
        return False
    if only_a and only_b:
        return False  # a word swapped for an unrelated one is another value, not another wording
    return bool(wa.tokens) and len(only_a) + len(only_b) <= 2


def weights(statements: Sequence[Statement]) -> dict[str, float]:
    """Inverse document frequency of every word: rare words say more about a fact."""
    frequency: dict[str, int] = defaultdict(int)
    for st in statements:
        for token in set(st.all.tokens):
            frequency[token] += 1
    total = len(statements) + 1
    return {t: math.log(total / n) + 0.1 for t, n in frequency.items()}


def candidates(cards: Sequence[Card], statements: Sequence[Statement], weight: Mapping[str, float], multi_valued: frozenset[str]) -> Iterator[tuple[int, int, bool]]:
    """Index pairs worth comparing, each once: (i, j, share a single-valued key)."""
    seen: set[tuple[int, int]] = set()
    by_key: dict[str, list[int]] = defaultdict(list)
    by_text: dict[str, list[int]] = defaultdict(list)
    for i, card in enumerate(cards):
        if card.key and card.key not in multi_valued:
            by_key[card.key].append(i)
        by_text[statements[i].description.text].append(i)
    for members in by_key.values():
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                seen.add((members[x], members[y]))
                yield members[x], members[y], True
    for members in by_text.values():
        if 1 < len(members) <= MAX_BLOCK:
            for x in range(len(members)):
                for y in range(x + 1, len(members)):
                    if (members[x], members[y]) not in seen:
                        seen.add((members[x], members[y]))
                        yield members[x], members[y], False
    threshold = math.log((len(cards) + 1) / MAX_BLOCK) if len(cards) > MAX_BLOCK else 0.0
    index: dict[str, list[int]] = defaultdict(list)
    for i, st in enumerate(statements):
        rare = sorted(((-weight.get(t, 0.0), t) for t in set(st.all.tokens)), key=lambda p: p)[:RARE_WORDS]
        for w, token in rare:
            if -w >= threshold:
                index[token].append(i)
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for members in index.values():
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                shared[(members[x], members[y])] += 1
    for (i, j), count in shared.items():
        small = min(len(statements[i].all.tokens), len(statements[j].all.tokens))
        if (count >= 2 or small <= 2) and (i, j) not in seen:
            seen.add((i, j))
            yield i, j, False


def find_pairs(cards: Sequence[Card], multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """Every duplicate and contradiction pair among `cards` (usable, live cards)."""
    cards = [c for c in cards if c.usable]
    statements = [statement(c) for c in cards]
    weight = weights(statements)
    out = []
    for i, j, same_key in candidates(cards, statements, weight, multi_valued):
        pair = classify(cards[i], cards[j], statements[i], statements[j], weight, same_key=same_key)
        if pair is not None:
            out.append(pair)
    out.sort(key=lambda p: (p.a.path, p.b.path))
    return out


def pairs_with(new: Card, cards: Sequence[Card], multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """Pairs between one new card and a vault: what the write gate asks.

    Looks only at cards that could pair with `new`: those holding its key, and those
    whose text contains two of its rarest words (a substring scan, so the vault's other
    cards are only tokenized when they are candidates).
    """
    others = [c for c in cards if c.usable and c.path != new.path]
    mine = statement(new)
    lowered = [f"{c.description}\n{c.body[:400]}".lower() for c in others]
    total = len(others) + 2
    frequency = {t: sum(t in d for d in lowered) for t in set(mine.all.tokens)}
    weight = {t: math.log(total / (n + 1)) + 0.1 for t, n in frequency.items()}
    rare = [t for f, t in sorted((f, t) for t, f in frequency.items() if f <= MAX_BLOCK)][:RARE_WORDS]
    out = []
    for card, text in zip(others, lowered, strict=True):
        same_key = bool(new.key) and card.key == new.key and new.key not in multi_valued
        shared = sum(t in text for t in rare)
        if not (same_key or shared >= 2 or (shared and len(mine.all.tokens) <= 2)):
            continue
        pair = classify(new, card, mine, statement(card), weight, same_key=same_key)
        if pair is not None:
            out.append(pair)
    return out
