"""`cards rule CODE`: explain a lint rule; `--all` lists them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cardindex.cli.options import FORMAT, exit_with

if TYPE_CHECKING:
    from cardindex.lint.registry import Rule


def run(*, code: str | None, show_all: bool = False, output_format: str = "text") -> int:
    import json

    from cardindex.errors import UsageError
    from cardindex.lint.registry import RULES, expand

    if show_all or not code:
        codes = sorted(RULES)
    else:
        codes = sorted(expand([code]))
    if not codes:
        raise UsageError(f"no rule {code!r}")
    rules = [RULES[c] for c in codes]
    if output_format == "json":
        print(json.dumps([{"code": r.code, "category": r.category, "severity": r.severity, "default": r.level,
                           "languages": "english" if r.english else "any",
                           "summary": r.summary, "doc": r.doc} for r in rules], indent=1))
        return 0
    if len(rules) == 1:
        r = rules[0]
        print(f"{r.code} ({r.category}, {_level(r)}): {r.summary}\n\n{r.doc}\n\n{_languages(r)}")
        return 0
    for r in rules:
        print(f"{r.code}  {r.category:<13} {r.level:<7}  {r.summary}")
    return 0


def _level(rule: Rule) -> str:
    if rule.level == "error":
        return "on by default, an error: fails `cards lint` and pre-commit"
    if rule.level == "warning":
        return "on by default, a warning: shown, never fails"
    return f"off by default, an error when selected: `cards lint --extend-select {rule.code}`"


def _languages(rule: Rule) -> str:
    if rule.languages:
        return f"Languages: {rule.languages}."
    if rule.english:
        return ("Languages: it matches English words, so it judges only lines written in English "
                "(cards in other languages, and their other-language lines, get none of its findings).")
    return "Languages: any (it reads structure, values or patterns, not English words)."


@click.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule.")
@FORMAT
def rule_command(code: str | None, show_all: bool, output_format: str) -> None:
    """Explain a lint rule (or a prefix or category of rules).

    \b
    Examples:
      cards rule S101
      cards rule session
      cards rule --all
    """
    exit_with(run(code=code, show_all=show_all, output_format=output_format))
