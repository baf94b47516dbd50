"""`cards git-setup` and `cards merge-index` (placeholders until they land)."""

from __future__ import annotations

from ..errors import UsageError
from ..vault import Vault


def setup(*, vault: Vault) -> int:
    raise UsageError("cards git-setup is not built yet")


def merge(*, base: str, ours: str, theirs: str, path: str | None) -> int:
    raise UsageError("cards merge-index is not built yet")
