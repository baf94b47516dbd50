"""Words that mean the same in a software team's talk: abbreviations and common synonyms, for search and judgement.

An agent asks "PR size limit" of a card that says "pull request", "k8s" of one that says
"Kubernetes", "ship to prod" of "deploy to production". The stemmer cannot join these;
this table does, for queries only (`agents.ranking` adds each equivalent as an
alternative of the query word, counted at `ranking.EQUIVALENT_FACTOR`, below the word
itself, so a card that says what was asked still ranks first).

What belongs here: vocabulary any software team uses, an abbreviation with its one
common expansion, two words a team uses for one thing, or the plain-English ways of
naming one concept that agents ask in and cards answer in ("how often" and "interval",
"looks after" and "owner", "ceiling" and "maximum"). What does not: a word because
one card or one query needs it, a product name, or a word with several common meanings
in this talk ("pm", "op", "run"; "min" is also minutes, "store" an app store, "image" a
container image, "route" a delivery route, "hr" an hour). Each line is one group of equivalent phrases; a
phrase of several words matches those words side by side. Analysed with the one
stemmer (`meaning.terms`), so "alarms" meets "alarm" and "alerting" "alert".

The duplicate judgement reads the same table (`said_groups`) in the words of the one model
of a card (`meaning.words`): "PR" of one card says "pull request" of another, "ships to
prod" says "deploys to production". There a phrase one of whose words that model drops
(a stop word: "sign in", "turn on", "how often") is left out: "turn" alone is not
"enable"; so is a word the stemmer cuts back past an inflection to a stem other words
share ("production" and "product", "authorization" and "author", "exception" and
"except": `_one_word`); a cut-short form of it is `values.abbreviation`'s already. It only ever counts towards how much of one card another says; it never makes
two values one (`restatement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from cardindex.meaning.terms import terms

GROUPS = (
    # abbreviations and their expansions
    "pr | pull request | merge request",
    "k8s | kubernetes",
    "eod | end of day",
    "eow | end of week",
    "prod | production",
    "db | database",
    "repo | repository",
    "config | configuration",
    "env | environment",
    "auth | authentication | sign in | log in | login",
    "authz | authorization | permission",
    "creds | credentials | secrets",
    "ci | continuous integration",
    "sso | single sign on",
    "tz | timezone | time zone",
    "i18n | internationalization | localization | translation",
    "a11y | accessibility",
    "msg | message",
    "infra | infrastructure",
    "docs | documentation",
    "deps | dependencies",
    "perf | performance",
    "mfa | 2fa | two factor",
    "e2e | end to end",
    "cli | command line",
    "ttl | time to live",
    "dr | disaster recovery",
    "rpo | recovery point objective",
    "rto | recovery time objective",
    "sla | slo | availability | uptime",
    "sev | severity",
    "dm | direct message",
    "ide | editor",
    "js | javascript",
    "ts | typescript",
    "py | python",
    # one thing, two words
    "ship | deploy | release",
    "spin up | set up | provision | bootstrap",
    "alarm | alert",
    "outage | incident",
    "toggle | feature flag",
    "exception | error",
    "stress test | load test",
    "sign off | approve",
    "customer service | customer support | support",
    "dev machine | laptop | workstation",
    "bug | defect",
    # more abbreviations a team writes either way
    "qa | quality assurance",
    "pii | personal data | personally identifiable information",
    "adr | architecture decision record | decision record",
    "lb | load balancer",
    "vm | virtual machine",
    "ml | machine learning",
    "ui | user interface",
    "ux | user experience",
    "os | operating system",
    "pto | time off | vacation",
    "kpi | key performance indicator",
    "staging | preprod | pre production",
    # one concept, said several ways
    "owner | maintainer | in charge of | looks after | responsible for",
    "how often | frequency | interval | cadence",
    "how long | duration",
    "how far | distance",
    "limit | cap | ceiling | maximum | max | upper bound",
    "minimum | lower bound",
    "delete | remove | erase | purge | wipe",
    "deprecated | sunset",
    "cron | cron job | scheduled job | periodic job",
    "unavailable | unreachable | offline",
    "flaky | intermittent",
    "revert | roll back",
    "invoice | bill",
    "salary | payroll | wages",
    "reply | answer | respond",
    "enable | turn on | switch on | activate",
    "disable | turn off | switch off | deactivate",
    "start | begin | kick off",
    "verify | validate",
    "increase | grow | rise",
    "decrease | reduce",
    "big | large | huge",
    "employee | staff",
    "car | vehicle",
    "folder | directory",
    "codebase | repo",
    "dark mode | dark theme | night mode",
    "postmortem | incident review",
    "monitoring | observability",
    "deadline | due date",
)


@cache
def _table() -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    table: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for line in GROUPS:
        phrases = [tuple(terms(p)) for p in line.split("|")]
        for p in phrases:
            table.setdefault(p, set()).update(q for q in phrases if q != p)
    return {k: tuple(sorted(v)) for k, v in table.items()}


def equivalents(phrase: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The phrases (as terms) that mean what `phrase` (terms) means, itself left out; () when none."""
    return _table().get(phrase, ())


@cache
def longest() -> int:
    """How many words the longest phrase of the table has."""
    return max(len(k) for k in _table())


@cache
def _word_table() -> dict[tuple[str, ...], frozenset[int]]:
    """Each phrase as `meaning.words` tokens → the numbers of the groups it is in (a phrase that loses a word left out)."""
    from cardindex.meaning.words import words

    table: dict[tuple[str, ...], set[int]] = {}
    for number, line in enumerate(GROUPS):
        for phrase in line.split("|"):
            tokens = words(phrase.strip()).tokens
            if tokens and len(tokens) == len(phrase.split()) and (len(tokens) > 1 or _one_word(phrase.strip(), tokens[0])):
                table.setdefault(tokens, set()).add(number)
    return {k: frozenset(v) for k, v in table.items()}


_INFLECTED = ("es", "ed", "ing", "ies")  # what is left of a word past its stem when the stem is the word's alone


def _one_word(word: str, token: str) -> bool:
    """Whether the token `meaning.words` makes of a word is that word's alone: the word less an inflection.

    "deploys", "ceiling", "staging", "cadence" keep their stem ("deploy", "ceil", "stage",
    "cadenc": a letter or an inflection cut); "production" → "product", "authorization" →
    "author", "validate" → "valid" cut a derivation, to a stem another word is.
    """
    n = 0
    while n < min(len(word), len(token)) and word[n] == token[n]:
        n += 1
    rest = word[n:]
    return n >= len(token) - 1 and (len(rest) <= 1 or rest in _INFLECTED)


@lru_cache(maxsize=20_000)
def _spans(tokens: tuple[str, ...]) -> tuple[tuple[int, int, int], ...]:
    """Each phrase of the table `tokens` say: (start, end, group)."""
    table = _word_table()
    longest_phrase = max(len(k) for k in table)
    out: list[tuple[int, int, int]] = []
    for start in range(len(tokens)):
        for end in range(start + 1, min(len(tokens), start + longest_phrase) + 1):
            phrase = tokens[start:end]
            if phrase not in table and end == start + 1 and _plural_abbreviation(phrase[0]):
                phrase = (phrase[0][:-1],)  # "PRs", "VMs": the stemmer leaves a short word as written
            out.extend((start, end, group) for group in table.get(phrase, ()))
    return tuple(out)


@lru_cache(maxsize=20_000)
def said_groups(tokens: Sequence[str]) -> dict[int, frozenset[int]]:
    """The groups whose phrases `tokens` (`meaning.words` tokens, in order) say → the positions of their words."""
    out: dict[int, set[int]] = {}
    for start, end, group in _spans(tuple(tokens)):
        out.setdefault(group, set()).update(range(start, end))
    return {g: frozenset(p) for g, p in out.items()}


def _plural_abbreviation(token: str) -> bool:
    return 3 <= len(token) <= 5 and token.endswith("s") and (token[:-1],) in _word_table()


def joined_words(mine: Sequence[str], theirs: Sequence[str]) -> dict[str, str]:
    """Words of `mine` that a phrase of theirs says otherwise ("pull" and "request" by "pr") → that phrase."""
    ours, others = said_groups(tuple(mine)), said_groups(tuple(theirs))
    out: dict[str, str] = {}
    for group, positions in ours.items():
        if group in others:
            phrase = " ".join(theirs[i] for i in sorted(others[group]))
            for i in sorted(positions):
                out.setdefault(mine[i], phrase)
    return out


def phrase_shares(mine: Sequence[str], theirs: Sequence[str]) -> dict[str, float]:
    """Words of `mine` in a phrase of theirs says in fewer words → the share of a word each is worth.

    One concept is one word's worth, however many words name it: "due date" said by
    "deadline" is one word said, not two ("due" and "date" half each).
    """
    shortest: dict[int, int] = {}
    for start, end, group in _spans(tuple(theirs)):
        shortest[group] = min(shortest.get(group, end - start), end - start)
    out: dict[str, float] = {}
    for start, end, group in _spans(tuple(mine)):
        if group in shortest and shortest[group] < end - start:
            for word in mine[start:end]:
                out[word] = min(out.get(word, 1.0), shortest[group] / (end - start))
    return out
