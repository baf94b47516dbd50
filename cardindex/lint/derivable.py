"""Derivable rules: what the code, docs, config or git history already record.

A remembered copy of what the repo says exists only to go stale against it. The test is
the card's claim, not a name in it: a card that mentions code while giving an outside
reason or constraint ("keep `SIG_HEADER` as it is: the partner's parser expects it"),
a decision's why, a person or a fact about another system records something the repo
does not, and is not flagged (`meaning.claims`). A name that is a plain word (`Invoice`,
`main`) must also be backed by what its definition says, or it may name something else.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import Hit, LintContext
from cardindex.lint.derivable_cover import covered_card
from cardindex.lint.derivable_layout import listing, only_the_tree, resolve
from cardindex.lint.derivable_values import Worded, constant_values, record_values, worded_table, worded_values
from cardindex.meaning.claims import Sentence, brings_in_others, english_prose, gives_reason, prose_of, sentences
from cardindex.meaning.content import content_stems, has_date
from cardindex.meaning.repo_facts import RepoFacts, Symbol, constants_named
from cardindex.meaning.repo_files import Record
from cardindex.meaning.repo_match import (
    COVERED,
    Cover,
    block_cover,
    claim_stems,
    commit_cover,
    summary_of,
    unit_index,
)
from cardindex.meaning.repo_pulls import merged_pulls, stated_pulls
from cardindex.meaning.repo_synonyms import with_synonyms
from cardindex.meaning.text import description_line
from cardindex.store.card import Card

_PATH_LINE = lazy_pattern(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9]{1,6})(?::|#L| line | lines? )(\d+)\b")
_PATH = lazy_pattern(r"(?<![\w/.:-])((?:[\w.-]+/)+[\w.-]*|[\w-]+\.[A-Za-z0-9]{1,6})(?![\w/])")
_IDENT = lazy_pattern(r"`([A-Za-z_][\w.]*)(?:\(\))?`|\b([A-Za-z_]\w*)\(\)|\b([A-Za-z]+(?:_[A-Za-z0-9]+)+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b")

# A sentence with one of these states a constraint from outside the code.
_CONSTRAINT = lazy_pattern(
    r"(?i)\b(?:must|mustn't|never|always|should|shouldn't|don't|do not|does not need|required?|because|"
    r"since|limit|legal|law|compliance|contract|sandbox|times? out|timeout|policy|sla|"
    r"regulat\w*|deadline|until|forbidden|allowed|approv\w*|avoid|careful|"
    r"warning|beware|breaks?|broke|fragile|flaky|hack|workaround|agreed|decided)\b"
)
_DESCRIBES = lazy_pattern(
    r"(?i)\b(?:does|returns?|computes?|calculates?|handles?|takes|accepts?|validates?|parses?|builds?|"
    r"creates?|sends?|stores?|reads?|writes?|checks?|converts?|applies|multiplies|adds|wraps?|"
    r"implements?|raises?|retries|caches?|holds?|defines?|is (?:a|an|the) (?:\w+ )?(?:function|class|method|"
    r"constant|helper|module|dataclass|enum|type|struct|record|decorator|wrapper)|is set to|equals|is defined|"
    r"lives? in|is used (?:to|for)|gets|loads?|formats?|rounds?|allocates?|generates?|calls?|sums?|answers?|"
    r"responds?|looks? (?:\w+ ){0,3}up|dispatch\w*|with (?:\w+ )?fields|hard-?coded|(?:is|are) (?:set to )?(?:\d|\"|'))"
    r"\b|\s=\s"
)
_LAYOUT = lazy_pattern(
    r"(?i)\b(?:lives? in|live under|is in|are in|sits? in|located|can be found|found in|defined in|"
    r"contains?|holds|is under|are under|layout|structure|folder|directory|module|package|split into)\b"
)


# Cheap to look for first: what `_PATH_LINE` and `_IDENT` cannot match without.
_LINE_HINT = lazy_pattern(r"\.[A-Za-z0-9]{1,6}(?::|#L| lines? )\d")
_NAME_HINT = lazy_pattern(r"[`_]|\(\)|[a-z0-9][A-Z]")
_CONSTANT_HINT = lazy_pattern(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
_DIGIT_OR_NUMBER_WORD = lazy_pattern(r"(?i)\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b")


def _may_reach(a: str, b: str, score: float) -> bool:
    """Whether rapidfuzz's ratio (or token_sort_ratio, of single-spaced words) of `a` and `b` can reach `score`.

    The ratio is at most 200 * shorter / (both lengths): strings of very different
    lengths are not compared at all.
    """
    la, lb = len(a), len(b)
    return 200 * min(la, lb) >= score * (la + lb)


def _shared(tokens: Iterable[str], index: Mapping[str, list[int]]) -> Counter[int]:
    """For each item of an inverted index, how many of `tokens` it holds."""
    return Counter(chain.from_iterable(index.get(t, ()) for t in tokens))


def _claims(card: Card) -> list[Sentence]:
    """The sentences that state the card's claim: not under a Why label, not giving a reason."""
    return [s for s in sentences(card) if not s.reason]


def file_line(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A file and line number in the repo (`src/billing.py:42`): the code says what is there.

    Line numbers move with every edit; the reference goes stale silently. Point to the
    behaviour or constraint instead, or leave it to the code. A reference given as the
    evidence of a reason (under **Why:**, in a sentence saying why) is not reported.
    """
    repo = ctx.repo
    if repo is None or not card.usable or not _LINE_HINT.search(card.text) or not _PATH_LINE.search(card.text):
        return
    for sentence in _claims(card):
        for m in _PATH_LINE.finditer(sentence.text):
            found = resolve(repo, m.group(1))
            if found:
                yield Hit(sentence.line, f"cites {found} line {m.group(2)}: the code already records it", fix="archive")
                return


# Another system's thing: its URL or domain, "their …", "Stripe's … API", "the GitHub API".
_EXTERNAL = lazy_pattern(
    r"https?://|\b\w+\.(?:com|io|org|net|dev)\b|\b(?:their|theirs)\b"
    r"|\b\w+(?:'s|\u2019s)\s+(?:[\w`-]+\s+){0,3}(?i:api|apis|endpoint|sdk|object|service|server|site|portal)\b"
    r"|\b[Tt]he\s+[A-Z]\w*\s+(?i:api|sdk)\b")


def _plain_word(name: str) -> bool:
    """A name that is also an ordinary word (`Invoice`, `main`, `FROM`): it may name something outside the repo."""
    return re.fullmatch(r"[A-Z]?[a-z]+|[A-Z]+", name) is not None


_KEYWORDS = frozenset(content_stems(
    "def class return self cls function const let var import from export pub fn func if else elif none null nil true "
    "false new this struct impl type interface async await static public private int str string bool void"))
_NEXT_DEFINITION = lazy_pattern(r"^(?:export\s+|pub\s+|async\s+)*(?:def|class|function|fn|func|const|struct|enum|type|interface)\b")


def _defined_words(repo: RepoFacts, symbol: Symbol) -> set[str]:
    """The content stems of a symbol's definition: the comments above it and its body, up to the next definition."""
    try:
        with (repo.root / symbol.path).open(encoding="utf-8", errors="replace") as fh:
            lines = fh.read(400_000).splitlines()
    except OSError:
        return set()
    start = symbol.line - 1
    end = start + 1
    while end < min(len(lines), start + 40) and not _NEXT_DEFINITION.match(lines[end]):
        end += 1
    before = start
    while before > max(0, start - 5) and lines[before - 1].lstrip().startswith(("#", "//", "/*", "*", "///")):
        before -= 1
    return set(content_stems("\n".join(lines[before:end]), split_camel=True)) - _KEYWORDS


def _backed(repo: RepoFacts, name: str, named: set[str], sentence: str) -> bool:
    """Whether the words of `sentence` about `name` appear where it, or another name the card gives, is defined."""
    defined: set[str] = set()
    for other in sorted(named & repo.symbols.keys())[:8]:
        defined |= _defined_words(repo, repo.symbols[other])
    said = set(content_stems(sentence, split_camel=True)) - set(content_stems(name, split_camel=True)) - _KEYWORDS
    return len(said & defined) >= 3


# Where one clause of a sentence ends: a semicolon, a dash, a table cell, "x: y", a parenthetical's edges.
_CLAUSE_END = lazy_pattern(r"[;\u2014\u2013|]|:\s|\s-\s|\s\(|\)(?=\s|$)")


def _subject_of_cue(part: str, start: int, end: int) -> bool:
    """Whether a describing verb is said in the same clause as the name at `part[start:end]`.

    "`Dialog` re-runs its effect", "rates are hard-coded in `VAT_RATES`: …" describe the
    name; "fixed in `Dialog` (read `onClose` through a ref)" places a fix in it, and
    "re-pin `IMAGE_TAG` in the env file (CI writes full SHAs)" gives a step whose verb
    belongs to a clause of its own: a lesson or a step that names a component is not a
    description of it, and neither is an instruction that has it for object ("call `issue_code`").
    """
    before = [m.end() for m in _CLAUSE_END.finditer(part, 0, start)]
    after = _CLAUSE_END.search(part, end)
    first = before[-1] if before else 0
    ahead = prose_of(part[first:start])
    if any(re.fullmatch(r"[a-z]+", c.group()) and not c.group().endswith(("s", "ed")) for c in _DESCRIBES.finditer(ahead)):
        return False  # an instruction ("read `onClose` through a ref", "call `issue_code`"), not what the name does
    behind = prose_of(part[end:after.start() if after else len(part)])
    if _DESCRIBES.search(behind):
        return True  # "`Dialog` re-runs its effect": the name does what the verb says
    # A verb before the name has it for subject only when it says what the name holds: the cues of more than
    # one word ("rates are hard-coded in `VAT_RATES`", "is set to", "lives in") and `_HOLDING`. "every test
    # that reads `redact_threshold()`" describes the test; the name is what it acts on.
    return any(not re.fullmatch(r"[a-z]+", c.group()) or c.group() in _HOLDING for c in _DESCRIBES.finditer(ahead))


_HOLDING = frozenset({"holds", "defines", "stores", "implements"})  # single verbs before a name that say what it holds


def code_symbol(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Describes what a function, class or constant defined in the repo does, or gives a constant's value.

    The code and its docstrings are the source of truth; a copy in memory drifts. A card
    giving a constant another value than the code's is the same copy gone stale (or
    never right): the message says both values. Not reported: a card that gives an
    outside reason or constraint for the name, or describes another system's API whose
    name matches ours; a name that is a plain word counts only when its definition
    bears the card out; a name whose clause has no describing verb, or that an
    instruction has for object ("fixed in `Dialog` (read `onClose` through a ref)").
    A card that walks through many names at once is D106's.
    """
    repo = ctx.repo
    if repo is None or not card.usable:
        return
    found = next(_code_symbol(card, repo), None) or _worded_constant(card, repo)
    if found is not None:
        yield found


_tables: list[tuple[dict[str, list[Record]], dict[str, list[Worded]]]] = []


def _worded_constant(card: Card, repo: RepoFacts) -> Hit | None:
    """A constant's value given in the words of its name, not by it ("the retry limit is five" for MAX_RETRIES = 5)."""
    if not _DIGIT_OR_NUMBER_WORD.search(card.text, card.body_offset) or gives_reason(card):
        return None
    constants = constants_named(repo)
    if not (_tables and _tables[0][0] is constants):
        _tables[:] = [(constants, worded_table(constants))]
    table = _tables[0][1]
    if not table:
        return None
    for sentence in sentences(card):
        if sentence.description or not english_prose(sentence.text):
            continue
        for stated in worded_values(sentence.text, table):
            r = stated.record
            return Hit(sentence.line, f"gives {r.subject} = {r.value} ({r.path}:{r.line}) in other words: the code "
                       "already records it", fix="archive")
    return None


def _code_symbol(card: Card, repo: RepoFacts) -> Iterator[Hit]:
    if not _NAME_HINT.search(card.text, card.body_offset) and not _NAME_HINT.search(card.description) and not \
            _CONSTANT_HINT.search(card.text, card.body_offset):
        return  # nothing in it looks like a code name
    named = {next(g for g in m.groups() if g).rsplit(".", 1)[-1] for m in _IDENT.finditer(card.text, card.body_offset)}
    named.update(next(g for g in m.groups() if g).rsplit(".", 1)[-1] for m in _IDENT.finditer(card.description))
    constants = constants_named(repo)
    if repo.symbols.keys().isdisjoint(named) and constants.keys().isdisjoint(named):
        return  # names no symbol of the repo
    reasoned, others = gives_reason(card), brings_in_others(card)
    if others:
        return  # someone else's reason or demand: what the code does not record
    for sentence in sentences(card):
        if sentence.reason:
            continue
        for stated in ([] if reasoned else constant_values(sentence.text, constants)):
            r = stated.record
            if stated.same:
                yield Hit(sentence.line, f"gives {r.subject} = {r.value} ({r.path}:{r.line}): the code already records it",
                          fix="archive")
            else:
                yield Hit(sentence.line, f"says {r.subject} is {stated.stated} but {r.path}:{r.line} sets {r.value}: "
                          "a stale copy of what the code records", fix="archive")
            return
        for part in re.split(r"(?<=[.!?;])\s+", sentence.text):
            if not english_prose(part) or not _DESCRIBES.search(prose_of(part)):
                continue  # says nothing of what a name does, or in words the cues cannot read
            for m in _IDENT.finditer(part):
                name = next(g for g in m.groups() if g).rsplit(".", 1)[-1]
                symbol = repo.symbols.get(name)
                if symbol is None or not _subject_of_cue(part, m.start(), m.end()):
                    continue
                if (_plain_word(name) or _EXTERNAL.search(part)) and not _backed(repo, name, named, part):
                    continue  # a name match alone: the claim may be about something else
                yield Hit(sentence.line, f"describes {name} ({symbol.path}:{symbol.line}): the code already records it",
                          fix="archive")
                return


def code_walk(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Walks through the code: many of its sentences say what the definitions of the code names they give say.

    A design note or a bullet per class ("`OccupancyTracker` marks a section occupied when
    an axle counter sees a tram enter") copies what the code and its comments hold, and
    drifts as they change. Reported when five or more of the card's sentences, and a
    fifth of them, each name a repo symbol and have three or more of their content words
    (the names left out) in its comments and body; a sentence giving a reason counts
    only against the share. In any language: the words are compared, not read as English.
    A card of lessons or reasons that names the same code is not reported.
    """
    repo = ctx.repo
    if repo is None or not card.usable or not repo.symbols or not _NAME_HINT.search(card.text, card.body_offset):
        return
    described = code_described(repo, card)
    if described is not None:
        line, count, symbol_name = described
        symbol = repo.symbols[symbol_name]
        yield Hit(line, f"describes {count} of the repo's code names as their definitions do ({symbol_name} at "
                  f"{symbol.path}:{symbol.line} and on): the code already records it", fix="archive")


CODE_SENTENCES = 5  # sentences of a card that say what the code of the names they give says, at the least ...
CODE_SHARE = 0.2  # ... and this share of its sentences


def code_described(repo: RepoFacts, card: Card) -> tuple[int, int, str] | None:
    """A card that walks through the code: many of its sentences say what the definitions of the names they give say.

    A sentence is such when three or more of its content stems (the names it gives left
    out) are in the comments and body of a repo symbol it names (`_defined_words`): a
    note of a design ("`ClientPredictionWorld.ApplyServerSnapshot()` drops the inputs the
    server acknowledged"), a bullet per class, in any language. Reported when
    `CODE_SENTENCES` of them make `CODE_SHARE` of the card's sentences; a sentence giving
    a reason is no description, and counts only against the share. (first line, count, first name)
    """
    claims = [s for s in sentences(card) if not s.description and len(set(content_stems(s.text))) >= 3]
    if len(claims) < CODE_SENTENCES:
        return None
    definitions: dict[str, set[str]] = {}
    found: list[tuple[int, str]] = []
    for sentence in claims:
        if sentence.reason:
            continue
        names = [n for m in _IDENT.finditer(sentence.text) if (n := next(g for g in m.groups() if g).rsplit(".", 1)[-1])
                 in repo.symbols]
        if not names:
            continue
        defined: set[str] = set()
        for name in dict.fromkeys(names):
            if name not in definitions:
                definitions[name] = _defined_words(repo, repo.symbols[name])
            defined |= definitions[name]
        said = set(content_stems(sentence.text, split_camel=True)) - _KEYWORDS
        said -= {stem for name in names for stem in content_stems(name, split_camel=True)}
        if len(said & defined) >= 3:
            found.append((sentence.line, names[0]))
    if len(found) < CODE_SENTENCES or len(found) < CODE_SHARE * len(claims):
        return None
    return found[0][0], len(found), found[0][1]


def layout(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Describes the module layout (where files and folders are, what a folder holds): the tree shows it.

    Reported when a claim sentence places a repo path with a layout word and says
    nothing about it beyond what the names of the files under it say, or when the card is
    a map of three or more repo files, each with a short gloss of what it is for and no
    reason, date or constraint.
    """
    repo = ctx.repo
    if repo is None or not card.usable:
        return
    if not any(resolve(repo, m.group(1)) for m in _PATH.finditer(card.text[card.body_offset:].replace("`", " "))):
        return  # names no file or folder of the repo
    if gives_reason(card):
        return
    listed = listing(repo, card)
    if listed is not None:
        yield Hit(listed[0], f"lists where {listed[1]} repo folders and files are: the repo layout already shows it",
                  fix="archive")
        return
    for sentence in _claims(card):
        for part in re.split(r"(?<=[.!?;])\s+", sentence.text):
            if not english_prose(part) or not _LAYOUT.search(prose_of(part)) or _PATH_LINE.search(part):
                continue  # no layout word, or reported as a file and line
            paths = [found for m in _PATH.finditer(part.replace("`", " ")) if (found := resolve(repo, m.group(1)))]
            if paths and only_the_tree(repo, part, paths):
                yield Hit(sentence.line, f"describes where {paths[0]} is: the repo layout already shows it", fix="archive")
                return


def commit(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Repeats a commit: its hash, its subject, or what happened in a pull request it merged. `git log` records it.

    Keep the why that the commit message does not say, if any, and drop the rest. A hash
    cited as the evidence of a reason (under **Why:**) is not reported, nor a pull request
    cited in parentheses as the evidence of what a sentence says ("… (PR #206)").
    """
    repo = ctx.repo
    if repo is None or not card.usable or not repo.commits:
        return
    from rapidfuzz import fuzz

    described = description_line(card)
    reasons = {s.line for s in sentences(card) if s.reason and not s.description}
    claims = {s.line for s in _claims(card)}
    for number, hexes, said in ctx.said(card):
        for hex_string in hexes if number in claims or number not in reasons else ():
            for commit_hash, subject, _, _ in repo.subjects:
                if commit_hash.startswith(hex_string):
                    yield Hit(number, f"cites commit {commit_hash[:10]} ({subject!r}): git history records it", fix="archive")
                    return
        if number == described:
            continue  # a description says what the card is for, not what happened
        for text in said:
            if text.count(" ") < 2:
                continue
            said_tokens = set(text.split())
            if len(repo.subject_index.keys() & said_tokens) < 2:
                continue  # no subject can share two words with it
            shared = _shared(said_tokens, repo.subject_index)
            for i in (i for i, n in shared.items() if n >= 2):
                commit_hash, subject, normalized, wanted = repo.subjects[i]
                if len(wanted) < 3:
                    continue
                covered = len(wanted & said_tokens) >= 0.8 * len(wanted) and fuzz.token_set_ratio(text, normalized) >= 90
                if covered or (_may_reach(text, normalized, 80) and fuzz.ratio(text, normalized) >= 80):
                    yield Hit(number, f"repeats commit {commit_hash[:10]} {subject!r}: git history records it", fix="archive")
                    return
    # A pull request the history merged: "PR #126 is open, not merged" when `git log` has "… (#126)".
    merged = merged_pulls(repo.subjects) if "PR" in card.text or "ull request" in card.text else {}
    for sentence in _claims(card) if merged else ():
        for pull in stated_pulls(sentence.text) if not sentence.description else ():
            if pull in merged:
                commit_hash, subject = merged[pull]
                yield Hit(sentence.line, f"states what happened in PR #{pull}, merged as {commit_hash[:10]} ({subject!r}): "
                          "git history records it", fix="archive")
                return
    # Reworded: "Webhook sending got exponential backoff in a recent commit" is "Add exponential backoff to the webhook sender".
    for sentence in _claims(card):
        if sentence.description or sentence.reason or has_date(sentence.text) or _CONSTRAINT.search(sentence.text):
            continue  # a rule ("always apply dotnet format before pushing") is no report of a change
        stems = claim_stems(sentence.text)
        found = commit_cover(repo, sorted(stems)) if len(stems) >= 4 else None
        if found is not None:
            commit_hash, subject = found
            yield Hit(sentence.line, f"repeats commit {commit_hash[:10]} {subject!r} in other words: git history records it",
                      fix="archive")
            return


COVERED_SHARE = 0.75  # past this share of a card's stems in sentences no passage covers, stop looking sentence by sentence
COPIED_SENTENCES = 5  # sentences of one card mostly covered by passages of one doc: the card copies that doc
COPIED_COVERAGE = 0.7  # ... each at least this much
COPIED_SHARE = 0.05  # ... when they hold at least this share of its content stems


def docs_text(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """Says what the repo's docs or config files already say, however reworded.

    Docs are every Markdown or reStructuredText file outside the vault (README, docs/,
    CLAUDE.md, AGENTS.md…), cut into passages; config records are package.json scripts,
    Makefile targets, CI workflow jobs and steps, pyproject and tool settings, runtime
    versions and CODEOWNERS lines. Reported when most of the card's content words (Snowball
    stems, rare ones weighing most) sit in sentences that one passage each covers, and
    the rest adds no reason, constraint or date; or when five or more of a long card's
    sentences are one doc's (a copy of that doc, whatever else it adds); or when the card names a
    doc of the repo as its source and rewords it sentence by sentence (on average a third of
    each sentence's weighted content words in one passage of it, five sentences half or
    more: a summary of an incident report or design doc the repo keeps). A tool setting given another number than
    the config's is reported as a stale copy.
    """
    repo = ctx.repo
    if repo is None or not card.usable or not repo.units:
        return
    all_sentences = sentences(card)
    # A rule the config itself states ("pytest always runs with --strict-markers") gives no reason of its own;
    # any other reason or constraint is what the config does not record.
    # A description says what the card is for ("Why the API stays on Python 3.11"): the body is what it states.
    stating = [s for s in all_sentences if not s.description] or all_sentences
    stated_in = [(sentence, next(iter(record_values(sentence.text, repo.records)), None)) for sentence in stating]
    if not any(sentence.reason and stated is None for sentence, stated in stated_in):
        for sentence, stated in stated_in:
            if stated is None:
                continue
            r = stated.record
            if stated.same:
                yield Hit(sentence.line, f"{r.path} line {r.line} ({r.kind} {r.subject}) already records this",
                          fix="archive")
            else:
                yield Hit(sentence.line, f"says {r.subject} is {stated.stated} but {r.path} line {r.line} gives "
                          f"{r.value}: a stale copy of what the config records", fix="archive")
            return
    body = [s for s in all_sentences if not s.description and len(set(content_stems(s.text))) >= 3]
    claims = body or [s for s in all_sentences if s.description]
    index = unit_index(repo)
    by_doc: dict[str, list[tuple[Sentence, Cover, int]]] = {}
    held: dict[Sentence, Cover] = {}  # sentences one passage, record or block holds
    said = [(sentence, claim_stems(sentence.text)) for sentence in claims]
    total = sum(len(stems) for _, stems in said)
    uncovered = 0
    for seen, (sentence, stems) in enumerate(said):
        most = max((len(found) for found in by_doc.values()), default=0)
        if uncovered > (1 - COVERED_SHARE) * total and most + len(said) - seen < COPIED_SENTENCES:
            break  # neither most of the card nor five of its sentences can be covered any more
        cover = with_synonyms(index, index.best(list(stems)), stems)
        if cover is None or cover.coverage < COVERED:
            cover = block_cover(repo, list(stems)) or cover
        elif cover.unit.label and cover.missing:
            # One record holds most of it; its block may hold the rest ("based on python:3.12-slim and exposes 8000").
            # It counts when it leaves less out, and no number: a port the Dockerfile does not expose is the card's own.
            block = block_cover(repo, list(stems))
            if block is not None and block.missing < cover.missing and not any(s[:1].isdigit() for s in block.missing):
                cover = block
        if cover is not None and cover.coverage >= COPIED_COVERAGE:
            # Each doc that holds the sentence, not only the one that holds it best: a repo that keeps a doc twice
            # (an archived version, a plugin's copy, each reworded a little) would split a copied card's sentences
            # between the copies, and neither would reach COPIED_SENTENCES.
            holding = index.docs_holding(list(stems), COPIED_COVERAGE)
            if not cover.unit.label:
                holding.setdefault(cover.unit.path, cover)
            for path, found in holding.items():
                by_doc.setdefault(path, []).append((sentence, found, len(stems)))
        if cover is not None and cover.coverage >= COVERED:
            held[sentence] = cover
            continue
        uncovered += len(stems)
    # The card as one query: one or two passages (or, sentence by sentence, config records and blocks) hold most of
    # its information, and what they do not hold is no reason, date or value of its own.
    whole_card = covered_card(card, repo, [(s, claim_stems(s.text)) for s in all_sentences], held)
    if whole_card is not None:
        yield whole_card
        return
    # A long card that copies one doc: many of its sentences are that doc's, whatever it adds.
    copied = max(by_doc.values(), key=len, default=[])
    if len(copied) >= COPIED_SENTENCES and sum(n for *_, n in copied) >= COPIED_SHARE * total:
        sentence, cover, _ = copied[0]
        yield Hit(sentence.line, f"{cover.unit.path} line {cover.unit.line} already says this "
                  f"(and {len(copied) - 1} more of the card's sentences)", fix="archive")
        return
    # A card that names a repo doc as its source and rewords it, sentence by sentence.
    summary = summary_of(index, _named_docs(repo, card), [frozenset(stems) for _, stems in said])
    if summary is not None:
        yield Hit(said[summary.sentence][0].line, f"sums up {summary.path}, which it names: {summary.strong} of its "
                  f"sentences reword that doc (line {summary.line} and on)", fix="archive")


def _named_docs(repo: RepoFacts, card: Card) -> list[str]:
    """The repo docs a card names by path (`docs/incidents/…md`), each once, in order."""
    found: dict[str, None] = {}
    for m in _PATH.finditer(card.text.replace("`", " ")):
        path = resolve(repo, m.group(1))
        if path is not None and path.endswith((".md", ".markdown", ".rst", ".mdc", ".adoc")):
            found[path] = None
    return list(found)
