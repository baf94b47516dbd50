"""What rules see: the card, the vault around it, today's date, the repo, similar pairs."""

from __future__ import annotations

import datetime as dt
import functools
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .. import index
from ..card import Card
from ..vault import Vault

if TYPE_CHECKING:
    from ..similarity import Pair
    from .repo import RepoFacts


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
        self, vault: Vault, today: dt.date, repo_root: Path | None, cards: list[Card], focus: Card | None = None
    ) -> None:
        self.vault = vault
        self.today = today
        self.repo_root = repo_root
        self.cards = cards
        self.focus = focus  # the one card being checked (the write gate): pair only with it

    @functools.cached_property
    def live(self) -> list[Card]:
        return [c for c in self.cards if c.live(self.today)]

    @functools.cached_property
    def pairs(self) -> dict[str, list[Pair]]:
        """Duplicate and contradiction pairs among live cards, by the path of each side."""
        from ..similarity import find_pairs, pairs_with

        multi = self.vault.config.multi_valued_keys
        found = pairs_with(self.focus, self.live, multi) if self.focus else find_pairs(self.live, multi)
        out: dict[str, list[Pair]] = {}
        for pair in found:
            out.setdefault(pair.a.path, []).append(pair)
            out.setdefault(pair.b.path, []).append(pair)
        return out

    @functools.cached_property
    def rendered_index(self) -> index.Rendered:
        return index.render(self.vault, self.cards, self.today)

    @functools.cached_property
    def repo(self) -> RepoFacts | None:
        from .repo import load_repo_facts

        if self.repo_root is None:
            return None
        return load_repo_facts(self.repo_root, self.vault.real_root)
