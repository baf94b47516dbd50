"""The write gate: what a new card must pass before `cards add` writes it.

One function, so the linter can extend it (session, derivable, duplicate and secret
rules) without `cards add` changing. Today it applies the card rules of SPEC §2 to the
card exactly as it would be written.
"""

from __future__ import annotations

from .card import Card, Problem
from .vault import Vault


def review(card: Card, vault: Vault) -> list[Problem]:
    """Problems that stop `card` from being written into `vault` (empty: it may go in)."""
    del vault  # the vault-wide rules arrive with the linter
    return [p for p in card.problems if p.severity == "error"]
