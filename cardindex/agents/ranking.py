"""Ranking for `cards search` and `cards context --query`: BM25F over stemmed fields, with abstention.

A query becomes groups, one per content word (stop words are dropped unless the query
has nothing else). A group matches a card through any of its alternatives:

- the word's Snowball stem (`meaning.terms`: "payouts", "payout" and "Payouts" are one),
  and for a short word whose plural Snowball leaves alone its other number ("SLOs", "PRs");
- a compound with its neighbour: "dark mode" also matches "darkmode", "on call"
  "on-call"/"oncall" and "setting up" "setup", when the vault holds the joined form (a
  one-letter word joins nothing: "a rounding" is not "around", nor does a join that is an
  irregular past: "to OK" is not "took", nor a function word but a particle: "red is" is not
  "redis", `ranking_words.compound`; joining two content words, "rider app" as
  "rider-app", it counts each no more than the word alone); a word the vault does not
  hold is also tried as two words it does ("oncall" finds "on call"), or else as its head,
  the longest content word it ends with that the vault writes ("microservice": "service"),
  at `HEAD_FACTOR`;
- a numbered word also as the kind it numbers, at `NUMBERED_FACTOR`: "sev1" is a sev (and
  so a severity), "tier2" a tier; a single letter is no kind ("p1", "v2");
- only for a word the vault holds in no form: its typo corrections, the word forms the
  vault holds within one edit (two for words of 10 letters or more), counted at
  `TYPO_FACTOR` (`meaning.edits`). Lengths must be close, so a short word never matches
  inside a longer one;
- the words that mean the same in a software team's talk (`meaning.team_words`: "PR" and
  "pull request", "ship" and "deploy"), counted at `EQUIVALENT_FACTOR` and never with more
  IDF than the word asked; a phrase of the table said in the query ("customer service")
  gives its equivalents to each of its words.

How the query is put (`meaning.asking`): framing words ("need to", "going to", "now")
count at `FRAMING_FACTOR`; a question word opening the query or a clause ("who", "when")
adds `ASK_FACTOR` of its IDF among titles and descriptions to the cards whose title or
description holds it ("Who runs the clusters", "Where secrets live"), and "who" is also
answered by "owner", at `PERSON_FACTOR` (a person is a kind of card; "when" or "how" ask
for an aspect of the topic); this orders hits and is no part of their score. A query about the
past ("before", "originally", "used to") counts retired cards `PAST_FACTOR` more when
they are searched, and a retired card ranks just above the card that replaced it (its
`superseded_by`): "what did we use before X" names X, which the new card says.

Candidates come from SQLite FTS5 (any alternative of any group); each is scored with
BM25F: per group, the term frequency of each field weighted (`WEIGHTS`) and normalised
by that field's length, saturated with `K1`, times the group's IDF. Consecutive query
words found side by side add `PHRASE_BONUS`; the share of the query's weight a card
holds, to the power `COVER_POWER`, multiplies it (more of the query's distinct words
beat one word said often). Each alternative's gain is also weighed by its topicality
(`_topical`): how often the term occurs in the cards that hold it. A word a card is about
recurs in it, a word said in passing ("keep", "answer", "safe") occurs once where it occurs,
however rare that makes it in a small vault; so "is it safe to keep data in Redis" finds the
Redis card before one that says "safe" and "keep" once each. Topicality orders hits only:
whether they are weak is read in the order without it (`Scored.plain`), and a score is a
share of the most the query's words can add at their most topical.

Abstention: a group whose word the vault holds in no form still counts in the query's
weight (with the IDF of a term no card has), though it cannot rank anything. The best
card's share of the query's weight is its `coverage`. One shared content word is most
often a coincidence ("visa sponsorship in Berlin" and the card naming the Berlin office),
three are not, however long the query: so the hits are marked weak when the best card
holds one content word (framing words do not count) and under `WEAK_COVERAGE`, or two
and under `WEAK_FLOOR`. Calibrated on the off-topic queries of bench/retrieval_dev and
bench/retrieval_set (a plateau: floors 0.12-0.18 score alike). Nothing is ever cut off
by an absolute score.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from itertools import pairwise
from typing import Any, NamedTuple

from cardindex.agents import ranking_candidates, ranking_words
from cardindex.meaning.asking import ANSWERED_BY, FRAMING_FACTOR, PAST_FACTOR, asks_the_past, framing, question_words
from cardindex.meaning.terms import STOP, irregular_forms, stem, word_terms
from cardindex.store.search_index import SearchIndex
from cardindex.store.search_reads import FIELDS

WEIGHTS = (3.0, 2.5, 2.0, 2.0, 1.0)  # title, description, key, tags, body
# what a correction, a prefix and a compound's head count (the word forms a query word may stand for)
TYPO_FACTOR, PREFIX_FACTOR, HEAD_FACTOR = ranking_words.TYPO_FACTOR, ranking_words.PREFIX_FACTOR, ranking_words.HEAD_FACTOR
B = (0.5, 0.5, 0.3, 0.3, 0.75)
K1 = 1.2
PHRASE_BONUS = 0.15
NUMBERED_FACTOR = 0.6  # "sev1" found as "sev" (and so as "severity")
EQUIVALENT_FACTOR = 0.6
ASK_FACTOR = 0.5  # a question word found in a title or description, of its IDF among them
HUB_FACTOR = 0.5  # a hub (a sub-index: a list of pointers to cards) answers below the cards it points at
PERSON_FACTOR = 2.0  # a "who" question's answer, a card saying who or naming an owner, counts this much more
WEAK_COVERAGE = 0.3
WEAK_DEPTH = 3  # the hits that must all hold too little of the query for the answer to be weak
WEAK_FLOOR = 0.15  # the least a best card holding two of the query's words may hold of its weight
CANDIDATES = 120
ASK_FIELDS = (0, 1)  # a title says which question it answers as a description does ("Where secrets live")
COVER_POWER = 0.25  # a card holding more of the query's distinct words ranks higher
# a word's gain times its topicality (occurrences per card holding it, with this prior) to this power
TOPICAL_POWER, TOPICAL_PRIOR = 0.75, 1.0
_NUMBERED = re.compile(r"([a-z]{2,})\d+")
Alt = tuple[tuple[str, ...], float]  # a term (or a phrase of terms) and how much it counts


class Group(NamedTuple):
    word: str
    alts: tuple[Alt, ...]
    idf: float  # of its rarest alternative; the IDF of an unheld term when none is held
    held: bool  # whether any alternative occurs in the vault
    idfs: tuple[float, ...] = ()  # of each alternative: "oncall" weighs more than "call"
    framing: bool = False  # the word frames the task ("need to", "now"): no evidence of what is asked
    dfs: tuple[int, ...] = ()  # of each alternative: how many cards hold it (which cards to score, at scale)
    topical: tuple[float, ...] = ()  # of each alternative: how often it recurs where it occurs (`_topical`)


class Plan(NamedTuple):
    groups: list[Group]
    total: int  # cards in the index
    joined: dict[tuple[str, str], str]  # adjacent query terms -> their joined form the vault holds
    # per question word, the terms that answer it in titles and descriptions, with their IDF there
    asks: tuple[tuple[tuple[str, float], ...], ...] = ()
    past: bool = False  # the query asks what held before: retired cards count more


class Scored(NamedTuple):
    rid: int
    path: str
    archived: bool
    info: dict[str, Any]
    score: float  # 0-100: the share of the query's weight found, saturated
    raw: float  # the BM25F score the order follows
    coverage: float  # the share of the query's IDF whose words the card holds
    field: str  # the field that contributed most
    words: int = 0  # how many of the query's content words (not framing) the card holds
    plain: float = 0.0  # the score without the words' topicality: the order whether the answer is weak is read in


def _idf(total: int, df: int) -> float:
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def plan(index: SearchIndex, query: str) -> Plan:
    """The groups of `query` against what `index` holds."""
    total, _ = index.stats()
    asked = ranking_words.asked(index, query)
    content = [w for w in asked if w not in STOP and len(w) > 1]
    if not content:
        content = list(asked)
    stems_of = {w: tuple(word_terms(w)) for w in asked}
    joins = {i: _joins(asked[i], asked[i + 1]) for i in range(len(asked) - 1)}
    same = _equivalents(asked)
    framed = framing(asked)
    numbers = {w: _number(w) for w in asked}
    kinds = {w: _numbered(w) for w in asked}
    wanted = {t for ts in stems_of.values() for t in ts} | {t for ts in joins.values() for t in ts}
    wanted |= {t for ts in numbers.values() for t in ts} | {t for t in kinds.values() if t}
    wanted |= {t for alts in same.values() for a in alts for t in a}
    df = index.document_frequency(wanted)
    # the joined form of two adjacent words that the vault holds, the commonest when several are
    joined = {i: max(ts, key=lambda t: df.get(t, 0)) for i, ts in joins.items() if any(df.get(t) for t in ts)}
    groups: list[Group] = []
    seen: set[tuple[str, ...]] = set()
    for i, w in enumerate(asked):
        parts = stems_of[w]
        if w not in content or parts in seen:  # "apps" and "app" are one word of the query
            continue
        seen.add(parts)
        alts: list[Alt] = [((parts[0],), 1.0)]
        if len(parts) > 1:
            alts.append((parts[1:], 1.0))  # "e-bike" as the phrase "e bike"
        alts += [((t,), 1.0) for t in numbers[w] if df.get(t)]
        kind = kinds[w]
        if kind and df.get(kind):  # "sev1" is a sev, "tier2" a tier
            alts.append(((kind,), NUMBERED_FACTOR))
        shared: set[tuple[str, ...]] = set()  # joined forms that also stand for a content word beside this one
        for j in (i - 1, i):
            if j in joined and df.get(joined[j]):
                alts.append(((joined[j],), 1.0))
                if asked[j if j < i else i + 1] in content:
                    shared.add((joined[j],))
        counts = [_alt_df(index, a, df) for a, _ in alts]
        if not any(counts):
            alts += ranking_words.split(index, w, df) + ranking_words.typos(index, w)
            df.update(index.document_frequency(t for a, _ in alts for t in a if t not in df))
            counts = [_alt_df(index, a, df) for a, _ in alts]
        own = [a for (a, _), c in zip(alts, counts, strict=True) if c]
        said = {a for a, _ in alts}
        extra = [(a, EQUIVALENT_FACTOR) for a in same.get(i, ()) if a not in said]
        alts += extra
        counts += [_alt_df(index, a, df) for a, _ in extra]
        held = any(counts)
        kept = [(a, c) for a, c in zip(alts, counts, strict=True) if c]
        idfs = tuple(_idf(total, c) for _, c in kept)
        alone = df.get(parts[0], 0)
        if shared and alone:  # "rider app" as "rider-app" says both words, each no more than it says alone:
            # the joined form is rarer than either, and counted in both groups it outweighed every card
            # that writes them apart
            idfs = tuple(min(x, _idf(total, alone)) if alt in shared else x
                         for ((alt, _), _n), x in zip(kept, idfs, strict=True))
        # The query's weight of a word is its own (or its corrections'); an equivalent only stands in for it.
        base = [idf for ((alt, _), _n), idf in zip(kept, idfs, strict=True) if alt in own] or list(idfs)
        idf = max(base) if base else _idf(total, 0)
        if own:  # nor can it say more than the word: "SLO" finds the card saying "SLO" before one saying "SLA"
            idfs = tuple(x if alt in own else min(x, idf) for ((alt, _), _n), x in zip(kept, idfs, strict=True))
        if i in framed:  # "need to", "going to", "now": where the agent stands, not what it asks about
            idf, idfs = idf * FRAMING_FACTOR, tuple(x * FRAMING_FACTOR for x in idfs)
        groups.append(Group(w, tuple(a for a, _ in kept), idf, held, idfs, i in framed, tuple(c for _, c in kept)))
    pairs = {(stem(asked[i]), stem(asked[i + 1])): t for i, t in joined.items() if df.get(t)}
    return Plan(_topical(index, groups), total, pairs, _asks(index, query, total), asks_the_past(asked))


def _topical(index: SearchIndex, groups: list[Group]) -> list[Group]:
    """Each alternative's topicality: how often a term occurs in the cards that hold it, smoothed, to `TOPICAL_POWER`.

    A word a card is about recurs in it (its title, description, tags and body say it again:
    "redis", "sev2", "payout"); a word said in passing occurs once where it occurs ("keep",
    "answer", "put", "safe"), whatever its rarity in a small vault (Church and Gale's
    burstiness). A phrase is as topical as its words on average.
    """
    if not TOPICAL_POWER:
        return groups
    found = index.occurrences(t for g in groups for a, _ in g.alts for t in a)

    def ratio(term: str) -> float:
        cards, said = found.get(term, (0, 0))
        return (said + TOPICAL_PRIOR) / (cards + TOPICAL_PRIOR)

    return [g._replace(topical=tuple((sum(ratio(t) for t in a) / len(a)) ** TOPICAL_POWER for a, _ in g.alts))
            for g in groups]


def _asks(index: SearchIndex, query: str, total: int) -> tuple[tuple[tuple[str, float], ...], ...]:
    """Per question word of the query (`meaning.asking`), the terms that answer it with their IDF among
    titles and descriptions: "who" is answered by "who" or "owner", once, by the better of the two."""
    out: list[tuple[tuple[str, float], ...]] = []
    seen: set[str] = set()
    for word in question_words(query):
        # "who" asks for a person, a kind of card, where "when" or "how" ask for an aspect of the topic
        factor = PERSON_FACTOR if word in ANSWERED_BY else 1.0
        answers = []
        for term in ANSWERED_BY.get(word, (word,)):
            t = stem(term)
            n = index.count(f'{{title description}} : "{t}"')
            if n and t not in seen:
                seen.add(t)
                answers.append((t, factor * _idf(total, n)))
        if answers:
            out.append(tuple(answers))
    return tuple(out)


def _numbered(word: str) -> str | None:
    """The term of the kind a numbered word names: "sev1" a sev, "p2" no kind (one letter), "tier3" a tier."""
    m = _NUMBERED.fullmatch(word)
    return stem(m.group(1)) if m else None


def _number(word: str) -> tuple[str, ...]:
    """The other number of a short word whose plural the stemmer leaves alone: "SLOs" and "SLO", "PRs" and "PR".

    Snowball drops a plural "s" only after a vowel and a consonant, so abbreviations keep it
    ("slos", "prs", "vms") while "apis" and "etas" lose it.
    """
    if len(word) > 6 or not word.isalnum():
        return ()
    if word.endswith("s"):
        return (stem(word[:-1]),) if len(word) >= 3 and stem(word) == word else ()
    plural = word + "s"
    return (plural,) if stem(plural) == plural else ()


def _joins(first: str, second: str) -> tuple[str, ...]:
    """The terms two adjacent words may be written as one word as: "on call" "oncall", "setting up" "setup".

    A word of one letter joins nothing ("a rounding" is not "around"), nor does a hyphenated one.
    """
    if len(first) < 2 or len(second) < 2 or "-" in first + second or not ranking_words.compound(first, second):
        return ()
    # a joined form that is an irregular past ("to OK" as "took") is another
    # word, whose term ("take") the vault holds for every card that says it
    irregular = irregular_forms()
    return tuple(dict.fromkeys(stem(w) for w in (first + second, stem(first) + second) if w not in irregular))


def _equivalents(asked: Sequence[str]) -> dict[int, list[tuple[str, ...]]]:
    """word position -> the phrases (as terms) that mean what it, or a table phrase it is part of, means."""
    from cardindex.meaning.team_words import equivalents, longest

    tokens = [(stem(part), i) for i, w in enumerate(asked) for part in w.split("-") if part]
    out: dict[int, list[tuple[str, ...]]] = {}
    for start in range(len(tokens)):
        for end in range(start + 1, min(len(tokens), start + longest()) + 1):
            found = equivalents(tuple(t for t, _ in tokens[start:end]))
            for i in {i for _, i in tokens[start:end]}:
                out.setdefault(i, []).extend(a for a in found if a not in out.get(i, []))
    for i, w in enumerate(asked):  # "sev1" means what "sev" means: "severity 1"
        kind = _numbered(w)
        if kind:
            out.setdefault(i, []).extend(a for a in equivalents((kind,)) if a not in out.get(i, []))
    return out


def _alt_df(index: SearchIndex, alt: tuple[str, ...], df: dict[str, int]) -> int:
    if len(alt) == 1:
        return df.get(alt[0], 0)
    if not all(df.get(t) for t in alt):
        return 0
    return index.count(ranking_words.phrase(alt))


def match_expression(p: Plan) -> str:
    """The FTS5 expression for every card holding any alternative of any held group."""
    return ranking_candidates.whole(p.groups)


def candidates(index: SearchIndex, p: Plan, where: str, params: Sequence[Any], limit: int) -> list[int]:
    """The ids of the cards to score: FTS5's best by BM25 among those holding any alternative, or in a large
    vault the best of each narrower part (`ranking_candidates`); the ranking scores them all, in any order."""
    found: dict[int, None] = {}
    for narrow in ranking_candidates.narrowed(p.groups, limit):
        found.update(dict.fromkeys(index.candidates(narrow, WEIGHTS, where, params, limit)))
    if len(found) >= limit:
        return list(found)
    return index.candidates(match_expression(p), WEIGHTS, where, params, limit)


def rank(index: SearchIndex, p: Plan, *, where: str = "1", params: Sequence[Any] = (),
         limit: int = CANDIDATES) -> list[Scored]:
    """The candidate cards of `p` that pass `where`, scored, best first."""
    if not any(g.held for g in p.groups):
        return []
    ids = candidates(index, p, where, params, limit)
    if not ids:
        return []
    _, averages = index.stats()
    rows = index.rows(ids)
    weight = sum(g.idf for g in p.groups)
    # the most the words can add, each at its most topical alternative (a score is a share of it)
    most = sum(g.idf * max(g.topical, default=1.0) for g in p.groups)
    best_sat = K1 + 1.0  # what a group adds at most, however often its word occurs
    needles = {alt: f" {' '.join(alt)} " for g in p.groups for alt, _ in g.alts}
    nfields = range(len(FIELDS))
    out = []
    for rid in ids:
        row = rows.get(rid)
        if row is None:  # another process replaced the card between the two reads: its new row is another id
            continue
        path, archived, texts, info = row
        padded = [f" {t} " for t in texts]
        norms = [1.0 - B[k] + B[k] * (_length(texts[k]) / averages[k] if averages[k] else 1.0) for k in nfields]
        per_alt = {alt: [WEIGHTS[k] * _tf(needle, padded[k]) / norms[k] for k in nfields]
                   for alt, needle in needles.items()}
        total = plain = 0.0
        covered = 0.0
        words = 0
        by_field = [0.0] * len(FIELDS)
        for g in p.groups:
            best = best_plain = best_cover = 0.0
            best_fields: list[float] = []
            for (alt, factor), idf, topical in zip(g.alts, g.idfs, g.topical or (1.0,) * len(g.alts), strict=True):
                per_field = per_alt[alt]
                tf = factor * sum(per_field)
                gain = idf * _saturate(tf) if tf else 0.0
                best_plain = max(best_plain, gain)
                if gain * topical > best:
                    best, best_fields = gain * topical, per_field
                if tf:  # the card covers the word as fully as its best-held alternative says it
                    best_cover = max(best_cover, idf * factor)
            if best:
                total += best
                plain += best_plain
                covered += best_cover
                words += not g.framing
                for k, v in enumerate(best_fields):
                    by_field[k] += v
        if not total:
            continue
        factor = 1.0 + PHRASE_BONUS * _adjacent(p, texts)
        factor *= (covered / weight if weight else 0.0) ** COVER_POWER
        if p.past and (archived or info.get("status") in ("superseded", "archived")):
            factor *= PAST_FACTOR
        if info.get("hub"):
            factor *= HUB_FACTOR
        asked = _answers_asked(p, padded, norms)  # what kind of answer is wanted: no part of the query's weight
        total = total * factor + asked
        score = min(100.0, 100.0 * total / (most * best_sat))  # follows the order, so scores fall down the list
        field = FIELDS[max(range(len(FIELDS)), key=lambda k: by_field[k])]
        out.append(Scored(rid, path, archived, info, round(score, 1), total, covered / weight if weight else 0.0, field,
                          words, plain * factor + asked))
    if p.past:
        out = _before_successors(out)
    out.sort(key=lambda s: (-s.raw, s.path))
    return out


def _answers_asked(p: Plan, padded: Sequence[str], norms: Sequence[float]) -> float:
    """What a card's title and description add for saying what the query's question words ask for.

    Each question word counts once, by the best of its answers: a card saying both "who"
    and "owner" answers one "who" question, not two.
    """
    gained = 0.0
    for answers in p.asks:
        tfs = [(idf, sum(WEIGHTS[k] * _tf(f" {term} ", padded[k]) / norms[k] for k in ASK_FIELDS)) for term, idf in answers]
        gained += max(ASK_FACTOR * idf * _saturate(tf) for idf, tf in tfs)
    return gained


def _before_successors(out: list[Scored]) -> list[Scored]:
    """Asked what held before X: a retired card that matched ranks just above the card that replaced it.

    "What CI did we use before GitHub Actions" names the new thing, so the card that says it
    outscores the old one; but the old card (its `superseded_by` the new one) is the answer.
    """
    by_id = {s.path.removesuffix(".md"): s for s in out}
    moved = []
    for s in out:
        successors = [by_id.get(i.removesuffix(".md")) for i in s.info.get("superseded_by") or ()]
        above = [t for t in successors if t is not None and t.path != s.path and t.raw >= s.raw]
        if above:
            top = max(above, key=lambda t: t.raw)
            s = s._replace(raw=top.raw * 1.001, score=max(s.score, top.score))
        moved.append(s)
    return moved


def weak_hits(scored: Sequence[Scored]) -> bool:
    """Whether none of the first `WEAK_DEPTH` hits holds enough of what was asked to be trusted.

    A card at the second or third place that holds three of the query's words says the
    vault knows the topic, even when a question word lifted a card holding less above it.
    """
    return all(weak(s) for s in sorted(scored, key=lambda s: -s.plain)[:WEAK_DEPTH])


def weak(best: Scored) -> bool:
    """Whether the best hit holds too little of what was asked to be trusted."""
    if best.words >= 3:  # three of the query's words in one card are no coincidence, however long the query
        return False
    if best.words == 2:  # two are rarely one
        return best.coverage < WEAK_FLOOR
    return best.coverage < WEAK_COVERAGE


def _saturate(tf: float) -> float:
    return tf * (K1 + 1.0) / (tf + K1)


def _tf(needle: str, padded: str) -> int:
    """How often the terms of `needle` (" a b ") occur side by side in a field (" x a b y "), overlaps counted.

    Terms are space-joined, so each occurrence of the padded needle is one window of
    tokens; a substring search finds the common case, absence, without splitting the field.
    """
    at = padded.find(needle)
    n = 0
    while at >= 0:
        n += 1
        at = padded.find(needle, at + 1)
    return n


def _length(text: str) -> int:
    """How many terms a space-joined field holds (as the index counted them)."""
    return text.count(" ") + 1 if text else 0


def _adjacent(p: Plan, texts: Sequence[str]) -> float:
    """The share of consecutive held query words found side by side in one field (`texts`: its terms, space-joined)."""
    firsts = [g.alts[0][0] for g in p.groups if g.held and g.alts]
    pairs = list(pairwise(firsts))
    if not pairs:
        return 0.0
    padded = [f" {t} " for t in texts if t]

    def side_by_side(a: str, b: str) -> bool:  # "darkmode" is "dark mode" said as one word
        joined = p.joined.get((a, b))
        return any(f" {a} {b} " in t or (joined is not None and f" {joined} " in t) for t in padded)

    return sum(1 for a, b in pairs if side_by_side(a[-1], b[0])) / len(pairs)
