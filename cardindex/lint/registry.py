"""The rule registry: every lint rule, its code, category, severity and summary, in one literal table.

Codes are a letter for the category and three digits. No discovery by file name: a rule
exists when it is listed here, and a test checks each is listed once and documented.

Each rule has a default: on as an error (its findings fail `cards lint` and pre-commit),
on as a warning (shown, never failing), or off (style rules: run only when selected, and
then as errors, since asking for a rule is asking for it to be kept). Content rules and
the structure findings that break a card are errors; `english=True` marks the rules that
match English words, which the runner applies only to English text (`meaning.language`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import NamedTuple

from cardindex.errors import UsageError
from cardindex.lint import derivable, facts, index_rules, overtaken, secret, session, similar, stale, structure
from cardindex.lint.context import Hit, LintContext
from cardindex.store.card import Card

CATEGORIES = ("structure", "derivable", "session", "duplicate", "contradiction", "stale", "secret", "index")


class Rule(NamedTuple):
    code: str
    category: str
    severity: str
    summary: str
    check: Callable[[Card, LintContext], Iterable[Hit]] | None = None  # per card
    check_vault: Callable[[LintContext], Iterable[Hit]] | None = None  # once per run
    # What a per-card check reads besides the card: "" (nothing: its hits are cached by the
    # card's content), "live" (whether the card is live today: cached by content and that),
    # "repo:PART" (that part of the repo too: cached while it is unchanged) or "vault"
    # (other cards, dates, files: never cached). See lint/cache.py.
    reads: str = "vault"
    default: bool = True  # selected when no --select or config `select` names the rules
    english: bool = False  # matches English words: judged only on English text (see lint/runner.py)
    languages: str = ""  # what `cards rule` says of its languages, when neither flag says it

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.check or self.check_vault) or self.summary

    @property
    def level(self) -> str:
        """What the rule is by default: "error", "warning" or "off"."""
        return self.severity if self.default else "off"


RULES: dict[str, Rule] = {
    rule.code: rule
    for rule in (
        Rule("F001", "structure", "error", "unreadable file (binary, not UTF-8, empty, over 1 MB)", structure.unreadable, reads=""),
        Rule("F002", "structure", "error", "missing, unclosed or non-mapping frontmatter", structure.frontmatter, reads=""),
        Rule("F003", "structure", "error", "invalid YAML in the frontmatter", structure.yaml_syntax, reads=""),
        Rule("F004", "structure", "error", "YAML anchors or aliases", structure.yaml_alias, reads=""),
        Rule("F005", "structure", "error", "missing or invalid field", structure.invalid_field, reads=""),
        Rule("F006", "structure", "warning", "unquoted ': ' in a value (read leniently)", structure.unquoted_colon),
        Rule("F007", "structure", "error", "more than one fact in a card", facts.many_facts, reads="",
             default=False),
        Rule("F008", "structure", "error", "description over 150 characters", structure.long_description, reads="",
             default=False),
        Rule("F009", "structure", "warning", "a [[link]] to no card", structure.dangling_link),
        Rule("F010", "structure", "error", "a field at the top level and under metadata: with different values", structure.both_places, reads=""),
        Rule("F011", "structure", "error", "a key repeated in one frontmatter", structure.repeated_key, reads=""),
        Rule("F012", "structure", "error", "a control character in a field or the body", structure.control_character, reads=""),
        Rule("F013", "structure", "warning", "a document, not a card (over 16,000 bytes or 300 lines)", structure.document,
             reads=""),
        Rule("D101", "derivable", "error", "file and line reference into the repo", derivable.file_line, reads="repo:files"),
        Rule("D102", "derivable", "error", "describes what a function, class or constant does", derivable.code_symbol, reads="repo:symbols",
             english=True),
        Rule("D103", "derivable", "error", "describes the module layout", derivable.layout, reads="repo:files", english=True),
        Rule("D104", "derivable", "error", "repeats a commit hash or subject", derivable.commit, reads="repo:commits"),
        Rule("D105", "derivable", "error", "repeats the README or docs", derivable.docs_text, reads="repo:docs"),
        Rule("D106", "derivable", "error", "walks through the code, saying what its definitions say", derivable.code_walk,
             reads="repo:symbols"),
        Rule("S101", "session", "error", "progress or plan words that date the card to one session", session.temporal, reads="",
             languages="shapes (dated reports, status boards, a TODO: marker) in any language; its word patterns "
                       "only in sentences written in English (meaning.language)"),
        Rule("S102", "session", "error", "to-do checkboxes", session.todo_list, reads=""),
        Rule("S103", "session", "error", "first-person narrative of work in progress", session.narrative, reads="", english=True),
        Rule("U101", "duplicate", "error", "the same fact as another live card", similar.duplicate, english=True),
        Rule("C101", "contradiction", "error", "two live cards hold one single-valued key", similar.same_key),
        Rule("C102", "contradiction", "error", "opposite polarity: a rule and its negation", similar.opposite, english=True),
        Rule("C103", "contradiction", "error", "a different value in the same slot", similar.other_value, english=True),
        Rule("T101", "stale", "error", "past its expires date", stale.expired),
        Rule("T102", "stale", "error", "verified longer ago than max_age", stale.unverified),
        Rule("T103", "stale", "error", "scope path no longer exists", stale.missing_scope_path),
        Rule("T104", "stale", "error", "superseded but still live", stale.superseded_but_live),
        # Heuristics a person confirms (the path may be another project's; "fixed" may be history): warnings.
        Rule("T105", "stale", "warning", "names a repo file that is gone, or a line past its end", stale.dead_reference),
        Rule("T106", "stale", "warning", "says of itself that it is resolved or obsolete", stale.says_resolved, reads="",
             english=True),
        # Dated evidence a person confirms (a commit naming the item, a day now past, a newer card): warnings.
        Rule("T107", "stale", "warning", "says work is still to do that a later commit names", overtaken.done_since,
             english=True),
        Rule("T108", "stale", "warning", "plans work for a day that has passed", overtaken.plan_passed, english=True),
        Rule("T109", "stale", "warning", "a newer card reports on work this card calls open", overtaken.restated_later,
             english=True),
        Rule("K101", "secret", "error", "a credential in a known format", secret.known_token, reads=""),
        Rule("K102", "secret", "error", "a private key block", secret.private_key, reads=""),
        Rule("K103", "secret", "error", "a password or key assigned a random-looking value", secret.assigned_secret, reads=""),
        Rule("K104", "secret", "error", "a random-looking token with no keyword", secret.random_token, reads=""),
        Rule("I101", "index", "error", "INDEX.md is out of date", check_vault=index_rules.out_of_date),
        Rule("I102", "index", "warning", "live cards left out by the index budget", check_vault=index_rules.over_budget),
        Rule("I103", "index", "error", "a description too long for its index line", index_rules.long_line, default=False),
        Rule("I104", "index", "warning", "index file edited by hand", check_vault=index_rules.hand_edited),
    )
}


DEFAULT: frozenset[str] = frozenset(code for code, rule in RULES.items() if rule.default)


def expand(selectors: Iterable[str]) -> set[str]:
    """Codes named by selectors: a code (S101), a prefix (S, S1), a category (session), or ALL."""
    out: set[str] = set()
    for raw in selectors:
        for selector in (s.strip() for s in raw.split(",")):
            if not selector:
                continue
            if selector.upper() == "ALL":
                out.update(RULES)
                continue
            if selector.lower() in CATEGORIES:
                out.update(code for code, rule in RULES.items() if rule.category == selector.lower())
                continue
            matched = {code for code in RULES if code.startswith(selector.upper())}
            if not matched:
                raise UsageError(f"unknown rule, prefix or category {selector!r}; see `cards rule --all`")
            out.update(matched)
    return out


def selected(
    *,
    select: Iterable[str] = (),
    extend_select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    config: dict[str, object] | None = None,
) -> list[Rule]:
    """The rules a run applies. The command line's --select replaces the config's whole selection (as ruff's does).

    With no `select` anywhere, the rules on by default (`DEFAULT`); `extend_select` adds
    opt-in rules to whichever base applies.
    """
    config = config or {}
    cli_select = list(select)
    base = cli_select or _as_list(config.get("select"))
    extended = list(extend_select) + ([] if cli_select else _as_list(config.get("extend_select")))
    codes = (expand(base) if base else set(DEFAULT)) | expand(extended)
    ignored = list(ignore) + ([] if cli_select else _as_list(config.get("ignore")))
    codes -= expand(ignored)
    per_card_ignores(config)  # an unknown code there is an error before any card is read, as in `ignore`
    return [RULES[c] for c in sorted(codes)]


def per_card_ignores(config: Mapping[str, object]) -> dict[str, set[str]]:
    """`lint.per_card_ignore`: card id -> the codes that card does not get, as its own `lint-ignore:` would say."""
    given = config.get("per_card_ignore") or {}
    if not isinstance(given, Mapping):
        raise UsageError("'lint.per_card_ignore' maps a card id to the rule codes it ignores")
    out: dict[str, set[str]] = {}
    for card_id, selectors in given.items():
        try:
            out[str(card_id).removesuffix(".md")] = expand(_as_list(selectors))
        except UsageError as exc:
            raise UsageError(f"lint.per_card_ignore.{card_id}: {exc}") from None
    return out


def _as_list(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise UsageError(f"lint selectors must be a list of codes or categories, got {value!r}")


def by_category(categories: Iterable[str]) -> list[Rule]:
    wanted = set(categories)
    return [rule for rule in RULES.values() if rule.category in wanted]


def iter_hits(rule: Rule, card: Card, ctx: LintContext) -> Iterator[Hit]:
    if rule.check is not None:
        yield from rule.check(card, ctx)
