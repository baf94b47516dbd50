"""`cards watch` (placeholder until it lands)."""

from __future__ import annotations

from ..errors import UsageError
from ..vault import Vault


def run(*, vault: Vault, once: bool) -> int:
    raise UsageError("cards watch is not built yet")
