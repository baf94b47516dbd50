"""Run the selected rules over a vault and return sorted findings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from pathlib import Path

from ..card import Card, id_list
from ..errors import UsageError
from ..vault import Vault
from .context import LintContext
from .finding import Finding
from .registry import Rule, expand
from .text import ignored_on_lines


def lint(
    vault: Vault,
    rules: list[Rule],
    *,
    today: dt.date,
    repo_root: Path | None = None,
    paths: Collection[str] | None = None,
    universe: Collection[str] | None = None,
) -> list[Finding]:
    """Findings for the cards at `paths` (all cards when None), compared against `universe`.

    `universe` limits which cards the cross-card rules see (tracked cards under
    pre-commit); by default, every card in the vault.
    """
    cards = vault.cards
    if universe is not None:
        cards = [c for c in cards if c.path in universe or (paths is not None and c.path in paths)]
    ctx = LintContext(vault, today, repo_root, cards)
    targets = cards if paths is None else [c for c in cards if c.path in paths]
    findings: list[Finding] = []
    for card in targets:
        findings.extend(lint_one(card, rules, ctx))
    if paths is None:
        for rule in rules:
            if rule.check_vault is not None:
                findings.extend(_finding(rule, hit, hit.path or vault.index_name) for hit in rule.check_vault(ctx))
    findings.sort(key=Finding.sort_key)
    return findings


def lint_one(card: Card, rules: list[Rule], ctx: LintContext) -> list[Finding]:
    """The per-card rules' findings for one card, minus what the card suppresses."""
    try:
        suppressed = expand(id_list(card.meta.get("lint-ignore")))
    except UsageError:
        suppressed = set()
    by_line = ignored_on_lines(card)
    out = []
    for rule in rules:
        if rule.check is None or rule.code in suppressed:
            continue
        for hit in rule.check(card, ctx):
            if rule.code in by_line.get(hit.line, ()) or rule.category.upper() in by_line.get(hit.line, ()):
                continue
            out.append(_finding(rule, hit, hit.path or card.path))
    return out


def _finding(rule: Rule, hit: object, path: str) -> Finding:
    from .context import Hit

    assert isinstance(hit, Hit)
    return Finding(path, hit.line, rule.code, rule.category, rule.severity, hit.message, hit.related, hit.fix)
