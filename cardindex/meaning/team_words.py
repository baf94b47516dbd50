"""Words that mean the same in a software team's talk: abbreviations and common synonyms, for search.

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
"""

from __future__ import annotations

from functools import cache

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
