"""`cards import` (placeholder until it lands)."""

from __future__ import annotations

from ..errors import UsageError
from ..vault import Vault


def run(*, vault: Vault, files: list[str], apply: bool) -> int:
    raise UsageError("cards import is not built yet")
