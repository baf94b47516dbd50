"""Similarity: which cards say the same thing, and which say opposite things.

The one mechanism behind the duplicate and contradiction rules, the write gate of
`cards add`, and consolidation. Fuzzy scores alone cannot tell the two apart (a rule and
its negation score 100 on token_set_ratio), so this works in three steps:

1. **Block**: propose candidate pairs cheaply, never all pairs: cards sharing a
   single-valued key, cards whose normalized description is identical, and cards that
   share at least two of their rarest words.
2. **Score** each candidate with rapidfuzz on normalized descriptions (synonyms folded,
   filler and stop words dropped).
3. **Classify by what differs**: opposite polarity (a negation or an antonym on one side
   only) or a different value in the same slot (a number, version, port, weekday, or a
   proper noun at one aligned position) makes a contradiction; a difference only in
   wording makes a duplicate.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .card import Card

DUPLICATE_SCORE = 88  # normalized descriptions at least this similar, nothing opposed: duplicate
RELATED_SCORE = 75  # below this, two cards are about different things
MAX_BLOCK = 60  # a word shared by more cards than this is not rare enough to block on
RARE_WORDS = 4  # each card is indexed under this many of its rarest words

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
    # Negations read alike: "never", "do not ever", "don't" all say "not".
    ("not", "never", "don't", "dont", "doesn't", "doesnt", "didn't", "isn't", "aren't", "won't", "mustn't",
     "shouldn't", "cannot", "can't"),
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
    ("ascending", "descending"), ("upper", "lower"), ("before", "after"), ("inside", "outside"),
    ("local", "remote"), ("manual", "automatic"), ("manually", "automatically"), ("blocking", "non-blocking"),
]
ANTONYMS: dict[str, set[str]] = defaultdict(set)
for _x, _y in _ANTONYM_PAIRS:
    ANTONYMS[_x].add(_y)
    ANTONYMS[_y].add(_x)
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
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
    """A card's description as compared: normalized tokens and which are values."""

    tokens: tuple[str, ...]
    values: frozenset[str]
    text: str


def words(text: str) -> Words:
    """Normalize a description: case folded, stop and filler words dropped, synonyms folded."""
    tokens: list[str] = []
    values: set[str] = set()
    sentence_start = True
    for raw, stop in _TOKEN_SPLIT.findall(text):
        raw = raw.rstrip(".'\u2019")
        if not raw:
            continue
        low = raw.lower()
        start = sentence_start
        sentence_start = bool(stop)
        if low in STOP or low in FILLER:
            continue
        low = SYNONYMS.get(low, low)
        tokens.append(low)
        if (not start and raw[0].isupper()) or not low.isalpha() or low in CALENDAR:
            if _is_value(raw, low, start):
                values.add(low)
    return Words(tuple(tokens), frozenset(values), " ".join(tokens))


_TOKEN_SPLIT = re.compile("([A-Za-z0-9][A-Za-z0-9._+/'\u2019-]*[A-Za-z0-9]|[A-Za-z0-9])([.!?:;](?=\\s|$))?")


def _is_value(raw: str, low: str, sentence_start: bool) -> bool:
    """A token that fills a slot: a number or version, a date word, a name, a path or host."""
    if any(c.isdigit() for c in raw) or low in CALENDAR:
        return True
    if "." in raw.strip(".") or "/" in raw or "_" in raw:
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


def classify(a: Card, b: Card, wa: Words, wb: Words, *, same_key: bool) -> Pair | None:
    """What two candidate cards are to each other: duplicate, contradiction, or nothing."""
    set_a, set_b = set(wa.tokens), set(wb.tokens)
    only_a, only_b = set_a - set_b, set_b - set_a
    union = len(set_a | set_b) or 1
    core_a = {t for t in only_a if not _polar(t)}
    core_b = {t for t in only_b if not _polar(t)}
    values_differ = bool(core_a & wa.values) or bool(core_b & wb.values)
    opposed = _opposed(only_a, only_b)
    compatible = _keys_compatible(a, b)
    if opposed and compatible and not values_differ and len(core_a) + len(core_b) <= max(1, union // 6):
        return Pair(a, b, "contradiction", "polarity", 100.0, f"opposite polarity: {opposed}")
    if compatible and core_a and core_b and core_a <= wa.values and core_b <= wb.values:
        slot = _value_slot(wa, wb)
        if slot:
            return Pair(a, b, "contradiction", "value", 100.0, f"different value in the same place: {slot}")
    if compatible and not opposed and not values_differ and len(only_a) + len(only_b) <= max(2, union // 4):
        from rapidfuzz import fuzz

        score = fuzz.token_sort_ratio(wa.text, wb.text)
        if score >= DUPLICATE_SCORE - 10 or len(only_a) + len(only_b) <= 1:
            return Pair(a, b, "duplicate", "same-key" if same_key else "wording", score, "the same fact in other words")
    if same_key:
        return Pair(a, b, "contradiction", "same-key", 0.0, "two live cards hold one single-valued key")
    return None


def candidates(cards: Sequence[Card], words_of: Sequence[Words], multi_valued: frozenset[str]) -> Iterator[tuple[int, int, bool]]:
    """Index pairs worth comparing, each once: (i, j, share a single-valued key)."""
    seen: set[tuple[int, int]] = set()
    by_key: dict[str, list[int]] = defaultdict(list)
    by_text: dict[str, list[int]] = defaultdict(list)
    for i, card in enumerate(cards):
        if card.key and card.key not in multi_valued:
            by_key[card.key].append(i)
        by_text[words_of[i].text].append(i)
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
    frequency: dict[str, int] = defaultdict(int)
    for w in words_of:
        for token in set(w.tokens):
            frequency[token] += 1
    index: dict[str, list[int]] = defaultdict(list)
    for i, w in enumerate(words_of):
        rare = sorted((frequency[t], t) for t in set(w.tokens) if frequency[t] <= MAX_BLOCK)[:RARE_WORDS]
        for _, token in rare:
            index[token].append(i)
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for members in index.values():
        for x in range(len(members)):
            for y in range(x + 1, len(members)):
                shared[(members[x], members[y])] += 1
    for (i, j), count in shared.items():
        small = min(len(words_of[i].tokens), len(words_of[j].tokens))
        if (count >= 2 or small <= 2) and (i, j) not in seen:
            seen.add((i, j))
            yield i, j, False


def find_pairs(cards: Sequence[Card], multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """Every duplicate and contradiction pair among `cards` (usable, live cards)."""
    cards = [c for c in cards if c.usable]
    words_of = [words(c.description) for c in cards]
    out = []
    for i, j, same_key in candidates(cards, words_of, multi_valued):
        pair = classify(cards[i], cards[j], words_of[i], words_of[j], same_key=same_key)
        if pair is not None:
            out.append(pair)
    out.sort(key=lambda p: (p.a.path, p.b.path))
    return out


def pairs_with(new: Card, cards: Sequence[Card], multi_valued: frozenset[str] = frozenset()) -> list[Pair]:
    """Pairs between one new card and a vault: what the write gate asks.

    Looks only at cards that could pair with `new`: those holding its key, and those
    whose description contains two of its rarest words (a substring scan, so the vault's
    other cards are never tokenized).
    """
    others = [c for c in cards if c.usable and c.path != new.path]
    mine = words(new.description)
    lowered = [c.description.casefold() for c in others]
    frequency = {t: sum(t in d for d in lowered) for t in set(mine.tokens)}
    rare = [t for f, t in sorted((f, t) for t, f in frequency.items() if f <= MAX_BLOCK)][:RARE_WORDS]
    out = []
    for card, lowered_description in zip(others, lowered, strict=True):
        same_key = bool(new.key) and card.key == new.key and new.key not in multi_valued
        shared = sum(t in lowered_description for t in rare)
        if not (same_key or shared >= 2 or (shared and len(mine.tokens) <= 2)):
            continue
        theirs = words(card.description)
        pair = classify(new, card, mine, theirs, same_key=same_key)
        if pair is not None:
            out.append(pair)
    return out
