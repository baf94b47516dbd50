"""Which cards INDEX.md and `cards context` withhold: those whose text holds a secret.

Those two are loaded into every agent session and committed or written to files, so a
card with a secret is kept out of them rather than shown redacted. The test is
`secrets.has_secret` over the card's whole text, which costs about 14 µs a card (0.14 s
at 10k cards, more when many mention tokens or passwords) on every render after any
change: so the answer is remembered per card text under `.cardindex/cache/`, keyed on
the detector's own source, and only new texts are scanned.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from pathlib import Path

from cardindex.secrets import has_secret
from cardindex.store.card import Card
from cardindex.store.remembered import Memo, digest
from cardindex.store.scanned import card_text_key
from cardindex.store.scanned import known as scanned


@functools.lru_cache(maxsize=1)
def _detector_stamp() -> bytes:
    """A digest of the detector's source: a change of detection forgets what was remembered."""
    from cardindex import secrets

    try:
        return hashlib.blake2b(Path(secrets.__file__).read_bytes(), digest_size=16).digest()
    except OSError:
        return b"unknown"


def holding_secrets(cards: Sequence[Card], state_dir: Path | None = None) -> frozenset[str]:
    """The paths of `cards` whose text holds a secret; remembered under `state_dir/cache` when given."""
    if state_dir is None:
        return frozenset(c.path for c in cards if has_secret(c.text))
    check = Withholding(state_dir)
    found = frozenset(c.path for c in cards if check.holds(c))
    check.done()
    return found


class Withholding:
    """`holding_secrets` one card at a time, for a caller that lets each card go once asked (`build.write`):
    ask `holds` of each card, then `done` once to remember the answers."""

    def __init__(self, state_dir: Path) -> None:
        self.memo = Memo(state_dir / "cache" / "secrets.marshal", digest("secrets", _detector_stamp()))
        known = self.memo.get()
        self.known: dict[bytes, bool] = known if isinstance(known, dict) else {}
        self.seen: dict[bytes, bool] = {}

    def holds(self, card: Card) -> bool:
        key = card_text_key(card.path, card.text)
        secret = self.known.get(key)
        if not isinstance(secret, bool):
            secret = scanned(key)  # found while loading, on both cores (`store.scanned`)
        if not isinstance(secret, bool):
            secret = has_secret(card.text)
        self.seen[key] = secret
        return secret

    def done(self) -> None:
        known, seen = self.known, self.seen
        if not seen.keys() <= known.keys():
            merged = {**known, **seen}  # index and context ask about different sets of cards
            self.memo.put(merged if len(merged) <= 2 * len(seen) + 1000 else seen)  # edits leave old texts behind
