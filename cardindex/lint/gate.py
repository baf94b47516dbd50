"""The write gate: what a new card must pass before `cards add` writes it.

The card is checked exactly as it would be written, against the vault, by the lint
rules of the categories a memory must not take in: broken structure, session-only
notes, what the repo already records, duplicates of live cards, and secrets.
Sharing a key with a live card is never a reason to refuse (that is supersession).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardindex.lint.context import LintContext
from cardindex.lint.finding import Finding
from cardindex.lint.registry import RULES, Rule
from cardindex.store.card import Card
from cardindex.store.vault import Vault, today

if TYPE_CHECKING:
    from cardindex.meaning.repo_facts import RepoFacts

REFUSED = ("structure", "session", "derivable", "duplicate", "secret")
REPORTED = ("contradiction",)  # said, never refused: the new value may be the right one


class Gate:
    """The write gate of one vault, for one or many cards: the repo is read once.

    `accepted` cards count as if they were in the vault already: `cards import` adds
    each candidate it accepts, so a file that says one thing twice gives one card.
    """

    def __init__(self, vault: Vault, *, fast: bool = True) -> None:
        self.vault = vault
        self.fast = fast  # False: pair against every loaded card (the reference the postings are tested against)
        self.repo_root = vault.repo_root()
        self.accepted: list[Card] = []
        self.reported: list[Finding] = []  # what the last `review` found that does not refuse: contradictions
        self._repo: RepoFacts | None = None
        self._stamp: bytes | None = None  # the repo's stamp, when its facts are remembered under .cardindex/
        self._sources = b""  # the code's digest (`lint.cache.sources_digest`), with the stamp

    def review(self, card: Card) -> list[Finding]:
        """Findings that stop `card` from being written (empty: it may go in)."""
        from cardindex.lint.runner import lint_one

        if self._repo is None:
            self._repo = self._remembered_repo()
        now = today()
        fast = None
        if self.fast and not self.accepted and not self.vault.cards_loaded:  # the vault's postings: only the cards that can pair are loaded
            from cardindex.lint.gate_postings import focused

            fast = focused(self.vault, card, now)
        cards = [*self.vault.cards, *self.accepted, card] if fast is None else [*fast.cards, card]
        ctx = LintContext(self.vault, now, self.repo_root, cards, focus=(card,), repo=self._repo)
        if fast is not None:
            ctx.__dict__["pairs"] = fast.pairs
        if self._repo is None and self._stamp is not None:
            from cardindex.lint.cache import facts_key

            ctx.repo_key = facts_key(self._sources, self._stamp)
        rules = [r for r in RULES.values() if r.default and r.check is not None and _decides(r)]
        findings = lint_one(card, rules, ctx)
        loaded = ctx.loaded_repo()
        if self._repo is None and loaded is not None:
            self._repo = loaded
            if self._stamp is not None:  # read from the repo: remembered for the next gate and `cards lint`
                from cardindex.lint.cache import remember_facts
                from cardindex.meaning.repo_facts import plain_facts

                remember_facts(self.vault.state_dir, self._stamp, plain_facts(loaded), self._sources)
        # A contradiction with a holder of the new card's single-valued key is the supersession `add` does.
        self.reported = [f for f in findings if f.category in REPORTED and not _same_key(card, f.related, ctx)]
        return [
            f for f in findings
            if f.category in REFUSED and f.severity == "error"
            and not (f.category == "duplicate" and _same_key(card, f.related, ctx))
        ]


    def _remembered_repo(self) -> RepoFacts | None:
        """The repo's facts as `cards lint` last remembered them, when the repo has not changed since."""
        if self.repo_root is None or not self.vault.use_cache:
            return None
        from cardindex.lint.cache import facts_key, remembered_facts, sources_digest
        from cardindex.meaning.repo_facts import facts_of_plain, repo_stamp

        self._stamp = repo_stamp(self.repo_root, self.vault.real_root)
        self._sources = sources_digest()
        plain = remembered_facts(self.vault.state_dir, self._stamp, self._sources)
        return facts_of_plain(plain, facts_key(self._sources, self._stamp)) if plain is not None else None


def _decides(rule: Rule) -> bool:
    """Whether a rule's findings can refuse a card or are reported: a warning of a refused category never is."""
    return rule.category in REPORTED or (rule.category in REFUSED and rule.severity == "error")


def review(card: Card, vault: Vault) -> list[Finding]:
    """Findings that stop `card` from being written into `vault` (empty: it may go in)."""
    return Gate(vault).review(card)


def _same_key(card: Card, related: tuple[str, ...], ctx: LintContext) -> bool:
    """Whether the duplicate is a card holding the new card's single-valued key: that is supersession.

    The same value twice under a multi-valued key is a duplicate like any other.
    """
    if not card.key or card.key in ctx.vault.config.multi_valued_keys:
        return False
    others = {c.path: c for c in ctx.cards}
    return any(r in others and others[r].key == card.key for r in related)
