"""Module-level regular expressions compiled on first use, not at import.

A rule module holds dozens of patterns, and importing the rule registry compiled about
350 of them (60 ms of every `cards add`, whose gate runs on one card and reaches about a
third of them). `lazy_pattern` is `re.compile` in place: it returns an object that
behaves as the compiled pattern, keeps `pattern` and `flags` readable without compiling
(modules build patterns from each other's `.pattern`), and compiles once, on the first
method call. After that its methods are the compiled pattern's own bound methods, so a
call costs what a call on the compiled pattern costs.

A lazy pattern is not a `re.Pattern`: pass its methods' results around, not the object to
`re.sub(PATTERN, ...)` or `isinstance` (use `PATTERN.sub(...)`, as the modules do).
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


class LazyPattern:
    """A pattern compiled on first use (see the module docstring)."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[Any]:
        """The compiled pattern (compiled now, once, if it was not)."""
        found = self.__dict__.get("_compiled")
        if found is None:
            found = re.compile(self.pattern, self.flags)
            for name in _METHODS:  # found by plain lookup from now on: `__getattr__` is not asked again
                self.__dict__[name] = getattr(found, name)
            self.__dict__["groups"] = found.groups
            self.__dict__["groupindex"] = found.groupindex
            self.__dict__["_compiled"] = found
        return cast("re.Pattern[Any]", found)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self.pattern!r}, {self.flags!r})"


def lazy_pattern(pattern: AnyStr | re.Pattern[AnyStr], flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, compiled when first used (typed as the compiled pattern it stands for)."""
    if isinstance(pattern, LazyPattern):
        return cast("re.Pattern[AnyStr]", pattern)
    if isinstance(pattern, re.Pattern):
        return pattern
    return cast("re.Pattern[AnyStr]", LazyPattern(pattern, flags))
