"""What rules see: the card, the vault around it, today's date, the repo, similar pairs."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from cardindex.index import build as index
from cardindex.lazy import lazy_pattern
from cardindex.store.card import Card
from cardindex.store.vault import Vault

FOCUSED_PAIRS_MAX = 16  # more cards in focus than this: one all-pairs search is cheaper than one per card
_TYPE_PREFIX = lazy_pattern(r"^(?:user|feedback|project|reference)_(?=.)", re.IGNORECASE)  # Claude Code's file names

if TYPE_CHECKING:
    from cardindex.lint.cache import LintCache
    from cardindex.meaning.language import CardLanguage
    from cardindex.meaning.repo_facts import RepoFacts
    from cardindex.meaning.repo_history import History
    from cardindex.meaning.similarity import Pair
    from cardindex.meaning.words import Statement


class Hit(NamedTuple):
    """What a rule reports; the runner adds the rule's code, category and severity."""

    line: int
    message: str
    related: tuple[str, ...] = ()
    fix: str | None = None
    path: str | None = None  # vault-level rules name the file; card rules default to the card


class LintContext:
    """Shared, lazily computed inputs of the rules for one run."""

    def __init__(
        self, vault: Vault, today: dt.date, repo_root: Path | None, cards: list[Card], focus: Sequence[Card] = (),
        cache: LintCache | None = None, repo: RepoFacts | None = None,
    ) -> None:
        self.vault = vault
        self.today = today
        self.repo_root = repo_root
        self.cards = cards
        # The cards being checked (the write gate's one, the ones `cards watch` saw change):
        # pair only those with the rest, unless they are so many that one full search is cheaper.
        self.focus = focus if len(focus) <= FOCUSED_PAIRS_MAX else ()
        self.cache = cache  # per-card results of earlier runs (None: compute everything)
        # `lint.per_card_ignore` expanded to codes (card id -> codes); the runner fills it, as only it knows the rules
        self.per_card_ignores: dict[str, set[str]] | None = None
        # What facts read from the repo now are keyed on (`lint.cache.facts_key`), when the caller knows the repo's
        # stamp but has no cache (the write gate); with a cache, the cache's key.
        self.repo_key: bytes | None = None
        if repo is not None:
            self.__dict__["repo"] = repo  # read by the caller already (the gate, over many cards)

    @functools.cached_property
    def live(self) -> list[Card]:
        return [c for c in self.cards if c.live(self.today)]

    @functools.cached_property
    def link_targets(self) -> frozenset[str]:
        """What a `[[link]]` may name, case-folded: every card's name, id and file stem (archive too).

        A Claude Code memory file is named `<type>_<slug>.md` (`feedback_no-fabrication.md`), and
        a link written by its slug alone (`[[no-fabrication]]`) means it too.
        """
        names: set[str] = set()
        for card in [*self.cards, *self.vault.archived()]:
            stem = card.id.rsplit("/", 1)[-1]
            names.update(n.casefold() for n in (card.name, card.id, stem, _TYPE_PREFIX.sub("", stem)) if n)
        return frozenset(names)

    @functools.cached_property
    def live_paths(self) -> frozenset[str]:
        return frozenset(c.path for c in self.live)

    @functools.cached_property
    def pairs(self) -> dict[str, list[Pair]]:
        """Duplicate and contradiction pairs among live cards, by the path of each side."""
        from cardindex.meaning.similarity import pairs_with

        multi = self.vault.config.multi_valued_keys
        if self.focus:
            found = []
            seen: set[tuple[str, str]] = set()
            for card in self.focus:
                if not card.live(self.today):
                    continue
                for pair in pairs_with(card, self.live, multi, self.statement):
                    key = (min(pair.a.path, pair.b.path), max(pair.a.path, pair.b.path))
                    if key not in seen:  # both sides in focus: found from each
                        seen.add(key)
                        found.append(pair)
        else:
            found = self._all_pairs([c for c in self.live if c.usable], multi)
        out: dict[str, list[Pair]] = {}
        for pair in found:
            out.setdefault(pair.a.path, []).append(pair)
            out.setdefault(pair.b.path, []).append(pair)
        return out

    def _all_pairs(self, usable: list[Card], multi: frozenset[str]) -> list[Pair]:
        """`find_pairs` over the live cards, or what it gave last time when no statement changed.

        The pairs depend on each card's path, key and statement alone (in order), and for a
        long card its body, so an edit elsewhere in a short card (a reason, a tag) reuses them.
        """
        from cardindex.meaning.similarity import Pair, find_pairs

        if self.cache is None:
            return find_pairs(usable, multi)
        h = hashlib.blake2b(repr(sorted(multi)).encode(), digest_size=16)
        for card in usable:
            h.update(self.cache.derived(card, "compared", self._compared))
        key = h.digest()
        remembered = self.cache.pairs(key)
        if remembered is not None:
            return [Pair(usable[i], usable[j], *rest) for i, j, *rest in remembered]
        found = find_pairs(usable, multi, [self.statement(c) for c in usable])
        index = {c.path: i for i, c in enumerate(usable)}
        self.cache.put_pairs(key, [(index[p.a.path], index[p.b.path], *p[2:]) for p in found])
        return found

    def _compared(self, card: Card) -> bytes:
        """A digest of what `find_pairs` reads of `card`: its path, key, scope, language and statement
        (and, for a long card compared as a document, its name and body; for a short one, its content)."""
        from cardindex.meaning import restatement, slots
        from cardindex.meaning.documents import signature

        parts = [card.path, card.key or "", slots.scope_of(card), "en" if slots.english(card) else "other",
                 signature(card), restatement.signature(card)]
        for w in self.statement(card):
            parts += [w.text, " ".join(sorted(w.values))]
        return hashlib.blake2b("\0".join(parts).encode("utf-8", "surrogatepass"), digest_size=16).digest()

    def said(self, card: Card) -> tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]:
        """`derivable.said(card)`, from the cache when it has it."""
        from cardindex.meaning.text import said

        if self.cache is None:
            return said(card)
        found: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...] = self.cache.derived(card, "said", said)
        return found

    def statement(self, card: Card) -> Statement:
        """What `card` says, as similarity compares it (from the cache when it has it)."""
        from cardindex.meaning.words import statement

        if self.cache is None:
            return statement(card)
        found = self.cache.statement(card)
        if found is None:
            found = statement(card)
            self.cache.put_statement(card, found)
        return found

    def language(self, card: Card) -> CardLanguage:
        """Which of `card`'s prose lines are not English (`meaning.language`), from the cache when it has it."""
        from cardindex.meaning.language import CardLanguage, card_language
        from cardindex.meaning.text import prose

        def judged(c: Card) -> tuple[str, tuple[int, ...]]:
            found = card_language(prose(c))
            return found.kind, tuple(sorted(found.foreign))

        kind, foreign = judged(card) if self.cache is None else self.cache.derived(card, "language", judged)
        return CardLanguage(kind, frozenset(foreign))

    @functools.cached_property
    def by_path(self) -> dict[str, Card]:
        return {c.path: c for c in self.cards}

    @functools.cached_property
    def indexed_paths(self) -> frozenset[str]:
        """The cards INDEX.md shows: live, holding no secret, and within the budget."""
        from cardindex.index.withhold import holding_secrets

        live = list(self.live)  # as index.render chooses them
        secret = holding_secrets(live, self.vault.state_dir if self.vault.use_cache else None)
        live = sorted((c for c in live if c.path not in secret), key=index.priority)
        return frozenset(c.path for c in live[: self.rendered_index.shown])

    @functools.cached_property
    def rendered_index(self) -> index.Rendered:
        return index.render(self.vault, self.cards, self.today)

    def loaded_repo(self) -> RepoFacts | None:
        """The repo's facts if a rule read them in this context (None otherwise)."""
        value: RepoFacts | None = self.__dict__.get("repo")
        return value

    @functools.cached_property
    def history(self) -> History:
        """The repo's commits with their times and the vault files' commit times (read once, when a stale rule asks)."""
        from cardindex.meaning.repo_history import EMPTY, load_history

        if self.repo_root is None:
            return EMPTY
        return load_history(self.repo_root, self.vault.real_root)

    @functools.cached_property
    def repo(self) -> RepoFacts | None:
        from cardindex.meaning.repo_facts import facts_of_plain, load_repo_facts, plain_facts, vouch

        if self.repo_root is None:
            return None
        cached = self.cache.facts() if self.cache is not None else None
        key = self.cache.facts_key() if self.cache is not None else self.repo_key
        if cached is not None:
            return facts_of_plain(cached, key)
        facts = load_repo_facts(self.repo_root, self.vault.real_root)
        if self.cache is not None:
            self.cache.put_facts(plain_facts(facts))
        if key is not None:
            vouch(facts, key)
        return facts


def vault_pairs(vault: Vault, live: list[Card], today: dt.date) -> list[Pair]:
    """`similarity.find_pairs` over `live` (the vault's live cards), through the lint cache.

    Consolidation asks what `cards lint` asks; when no card's statement changed since
    either last asked, the pairs come back without a card being compared.
    """
    ctx = LintContext(vault, today, None, live)
    if vault.use_cache:
        from cardindex.lint.cache import LintCache

        ctx.cache = LintCache(vault.state_dir)
    found = ctx._all_pairs([c for c in live if c.usable], vault.config.multi_valued_keys)
    if ctx.cache is not None:
        ctx.cache.save(vault.cards)
    return found
