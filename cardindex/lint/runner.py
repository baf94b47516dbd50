"""Run the selected rules over a vault and return sorted findings.

Every message passes the one redaction here (`redaction.shown`), after the words of the
card's own secrets are taken out in any letter case (`redact_words`): rules quote card
words case-folded, where a secret no longer looks like one.

The language gate is here too, so no rule needs to know about it: a rule that matches
English words (`Rule.english`) keeps a hit only on a line judged English
(`meaning.language`); a card with no English line gets none of its findings, a mixed
card only those on its English lines, and a duplicate or contradiction with a card
written in another language is not reported.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.errors import UsageError
from cardindex.index.withhold import holding_secrets
from cardindex.lint.baseline import without_accepted
from cardindex.lint.cache import LintCache
from cardindex.lint.context import Hit, LintContext
from cardindex.lint.finding import Finding
from cardindex.lint.memo import RunMemo, probing
from cardindex.lint.registry import Rule, expand, per_card_ignores
from cardindex.meaning.language import CardLanguage
from cardindex.meaning.repo_facts import facts_digest, repo_stamp
from cardindex.meaning.text import body_start_line, description_line, ignored_on_lines
from cardindex.redaction import redact_words, shown
from cardindex.secrets import has_secret
from cardindex.store.card import Card, id_list
from cardindex.store.vault import Vault


def lint(
    vault: Vault,
    rules: list[Rule],
    *,
    today: dt.date,
    repo_root: Path | None = None,
    paths: Collection[str] | None = None,
    universe: Collection[str] | None = None,
    memo: RunMemo | None = None,
) -> list[Finding]:
    """Findings for the cards at `paths` (all cards when None), compared against `universe`.

    `universe` limits which cards the cross-card rules see (tracked cards under
    pre-commit); by default, every card in the vault. The findings of a run in a vault
    where nothing changed come from the run memo (`lint/memo.py`); `memo`: one the caller
    asked already (it missed), keyed on how it chose `rules`.
    """
    if memo is None and vault.use_cache:
        memo = RunMemo(vault, ("codes", sorted(r.code for r in rules)), today=today.isoformat(), repo_root=repo_root,
                       paths=paths, universe=universe)
        remembered = memo.get()
        if remembered is not None:
            return remembered
    cards = vault.cards
    if universe is not None:
        cards = [c for c in cards if c.path in universe or (paths is not None and c.path in paths)]
    looked_up = repo_root if memo is None or repo_root is None else probing(repo_root, memo.probed)
    ctx = LintContext(vault, today, looked_up, cards)
    if vault.use_cache:
        ctx.cache = _open_cache(vault, rules, ctx, repo_root, memo.repo_stamp if memo is not None else None)
    targets = cards if paths is None else [c for c in cards if c.path in paths]
    secret = holding_secrets(targets, vault.state_dir if vault.use_cache else None)
    findings: list[Finding] = []
    for card in targets:
        findings.extend(lint_one(card, rules, ctx, secret=card.path in secret))
    if paths is None:
        for rule in rules:
            if rule.check_vault is not None:
                findings.extend(_finding(rule, hit, hit.path or vault.index_name) for hit in rule.check_vault(ctx))
    if ctx.cache is not None:
        ctx.cache.save(vault.cards)
    findings = without_accepted(findings, targets, vault.root)
    findings.sort(key=Finding.sort_key)
    findings = once(findings)
    if memo is not None:
        memo.put(findings)
    return findings


def once(findings: list[Finding]) -> list[Finding]:
    """Sorted `findings` with each one once: a rule that hits one thing twice on a line is one finding."""
    return [f for i, f in enumerate(findings) if i == 0 or f != findings[i - 1]]


def _open_cache(vault: Vault, rules: list[Rule], ctx: LintContext, repo_root: Path | None,
                stamp: bytes | None = None) -> LintCache:
    """The lint cache, with the repo rules' cached hits dropped where the repo part they read changed."""
    cache = ctx.cache = LintCache(vault.state_dir)
    repo_rules = [r for r in rules if r.reads.startswith("repo:")]
    if repo_rules:
        if stamp is None:
            stamp = repo_stamp(repo_root, vault.real_root) if repo_root is not None else b"no repo"
        cache.check_repo(stamp, lambda: {r.code: facts_digest(ctx.repo, r.reads.removeprefix("repo:")) for r in repo_rules})
    return cache


def lint_one(card: Card, rules: list[Rule], ctx: LintContext, *, secret: bool | None = None) -> list[Finding]:
    """The per-card rules' findings for one card, minus what the card suppresses.

    `secret`: whether the card's text holds a secret, when the caller knows already.
    """
    if secret is None:
        secret = has_secret(card.text)
    try:
        suppressed = expand(id_list(card.fields.get("lint-ignore")))
    except UsageError:
        suppressed = set()
    if ctx.per_card_ignores is None:
        ctx.per_card_ignores = per_card_ignores(dict(ctx.vault.config.lint))
    suppressed |= ctx.per_card_ignores.get(card.id, set())
    by_line = ignored_on_lines(card)
    if ctx.cache is None:
        found: Iterable[tuple[Rule, Iterable[tuple[Any, ...]]]] = (
            (rule, _check(rule, card, ctx)) for rule in rules if rule.check is not None and rule.code not in suppressed
        )
    else:
        found = _cached(card, rules, ctx, ctx.cache, suppressed)
    out = []
    language: CardLanguage | None = None
    for rule, hits in found:
        for line, message, related, fix, path in hits:
            if by_line and (rule.code in by_line.get(line, ()) or rule.category.upper() in by_line.get(line, ())):
                continue
            if rule.english:
                language = language or ctx.language(card)
                if not _english_hit(language, line, related, ctx):
                    continue
            message = shown(redact_words(message, card.text) if secret else message)
            out.append(Finding(path or card.path, line, rule.code, rule.category, rule.severity, message, related, fix))
    return out


def _check(rule: Rule, card: Card, ctx: LintContext) -> Iterable[Hit]:
    """`rule.check` on `card`; for a rule of English words, on the card's English lines only."""
    assert rule.check is not None
    if not rule.english:
        return rule.check(card, ctx)
    language = ctx.language(card)
    if language.kind == "english":
        return rule.check(card, ctx)
    if language.kind == "other":
        return ()
    return rule.check(english_view(card, language), ctx)


def english_view(card: Card, language: CardLanguage) -> Card:
    """`card` with its lines in other languages blanked (line numbers kept), for the English-word rules."""
    start = body_start_line(card)
    lines = card.body.split("\n")
    body = "\n".join("" if start + i in language.foreign else line for i, line in enumerate(lines))
    meta = card.meta
    if description_line(card) in language.foreign:
        meta = {**meta, "description": ""}
        if isinstance(meta.get("metadata"), dict) and "description" in meta["metadata"]:
            meta["metadata"] = {**meta["metadata"], "description": ""}
    return card._replace(text=card.text[: card.body_offset] + body, meta=meta)


def _english_hit(language: CardLanguage, line: int, related: tuple[str, ...], ctx: LintContext) -> bool:
    """Whether an English-word rule's hit stands: on an English line, and no related card wholly in another language."""
    if language.kind == "other" or line in language.foreign:
        return False
    for path in related:
        other = ctx.by_path.get(path)
        if other is not None and ctx.language(other).kind == "other":
            return False
    return True


class _Plan(NamedTuple):
    """The selected per-card rules, split by what the cache can answer."""

    fixed: frozenset[str]  # slots of reads="" and repo rules: their codes
    by_live: dict[bool, frozenset[str]]  # those plus the slots of reads="live" rules, for a live card and not
    rule_of: dict[str, Rule]  # slot -> rule
    uncached: tuple[Rule, ...]  # reads="vault"


@functools.lru_cache(maxsize=16)
def _plan(rules: tuple[Rule, ...]) -> _Plan:
    per_card = [r for r in rules if r.check is not None]
    rule_of = {r.code: r for r in per_card if r.reads not in ("vault", "live")}
    fixed = frozenset(rule_of)
    live = [r for r in per_card if r.reads == "live"]
    by_live = {flag: fixed | {f"{r.code}@{flag}" for r in live} for flag in (True, False)}
    rule_of.update({f"{r.code}@{flag}": r for r in live for flag in (True, False)})
    return _Plan(fixed, by_live, rule_of, tuple(r for r in per_card if r.reads == "vault"))


def _cached(card: Card, rules: list[Rule], ctx: LintContext, cache: LintCache,
            suppressed: set[str]) -> Iterator[tuple[Rule, Iterable[tuple[Any, ...]]]]:
    """Each rule's hits on `card`: from the cache where it has them; it keeps what is computed."""
    plan = _plan(tuple(rules))
    wanted = plan.by_live[card.path in ctx.live_paths] if len(plan.by_live[True]) > len(plan.fixed) else plan.fixed
    if suppressed:
        wanted = frozenset(s for s in wanted if plan.rule_of[s].code not in suppressed)
    record = cache.found(card)
    for slot in sorted(wanted - record.done):
        cache.add(record, slot, _check(plan.rule_of[slot], card, ctx))
    for slot, hits in record.hits.items():
        if slot in wanted:
            yield plan.rule_of[slot], hits
    for rule in plan.uncached:
        if rule.code not in suppressed:
            yield rule, _check(rule, card, ctx)


def _finding(rule: Rule, hit: Hit, path: str) -> Finding:
    return Finding(path, hit.line, rule.code, rule.category, rule.severity, shown(hit.message), hit.related, hit.fix)
