"""The one exception root of cardindex, and its few kinds.

The core raises these; the CLI turns them into one line on stderr and an exit code.
Anything else escaping the core is a bug and is allowed to show.
"""

from __future__ import annotations


class CardIndexError(Exception):
    """Something the user can fix went wrong."""

    exit_code = 2

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def __str__(self) -> str:
        where = self.path or ""
        if where and self.line:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}" if where else self.message


class UsageError(CardIndexError):
    """The command was called with arguments that cannot work."""


class ConfigError(CardIndexError):
    """The vault's .cardindex.yaml is invalid."""


class CardError(CardIndexError):
    """A card file cannot be read or is invalid."""


class NotFound(CardIndexError):
    """No card or vault by that name."""


class Refused(CardIndexError):
    """The operation was refused to protect the user's data; nothing was written."""

    exit_code = 1


class LockTimeout(CardIndexError):
    """Another cards process held the vault lock for too long."""

    exit_code = 1


class CheckFailed(CardIndexError):
    """A --check found the generated file out of date."""

    exit_code = 1
