"""A finding: one thing a rule flags, as a small immutable record."""

from __future__ import annotations

from typing import NamedTuple

# What a fix does. Safe fixes run with --fix; unsafe ones also need --unsafe-fixes.
SAFE_FIXES = {"reindex", "quote-value"}
UNSAFE_FIXES = {"archive"}


class Finding(NamedTuple):
    path: str  # relative to the vault
    line: int
    code: str
    category: str
    severity: str  # error or warning
    message: str
    related: tuple[str, ...] = ()
    fix: str | None = None

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line, self.code, self.message)

    def as_json(self) -> dict[str, object]:
        """The JSON form of SPEC §6, key for key."""
        return {
            "path": self.path,
            "line": self.line,
            "code": self.code,
            "category": self.category,
            "severity": self.severity,
            "message": self.message,
            "related": list(self.related),
            "fix": self.fix,
        }
