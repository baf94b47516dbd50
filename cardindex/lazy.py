"""Module-level regular expressions compiled on first use, not at import.

A rule module holds dozens of patterns, and importing the rule registry compiled about
350 of them (60 ms of every `cards add`, whose gate runs on one card and reaches about a
third of them). `lazy_pattern` is `re.compile` in place: it returns an object that
behaves as the compiled pattern, keeps `pattern` and `flags` readable without compiling
(modules build patterns from each other's `.pattern`), and compiles once, on the first
method call. After that its methods are the compiled pattern's own bound methods, so a
call costs what a call on the compiled pattern costs.

Compiling is most of the cost of a pattern: `re`'s parser and compiler are Python, about
0.3 ms a pattern, and a `cards add` compiles about a hundred. So what the compiler makes of
each pattern (its code, groups and flags) is kept in the vault's cache folder, as the other
tables of `store.built` are (`built-patterns.marshal`, through the functions `store.built`
hands over, `kept_by`, keyed on the interpreter's version
and its regular expression engine's): a later process hands that code to the engine
(`_sre.compile`, what `re.compile` ends with), which checks it, and skips the parse. A
compiled pattern compares equal to `re.compile`'s only when its code is the same
(`tests/test_speed7_patterns.py` holds every pattern of the package to that). Without
the internals this relies on (another Python), patterns compile as `re.compile` does.

A lazy pattern is not a `re.Pattern`: pass its methods' results around, not the object to
`re.sub(PATTERN, ...)` or `isinstance` (use `PATTERN.sub(...)`, as the modules do).
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # the engine `re` compiles for (no stubs); built in, imported by `re`
import re
import sys
from collections.abc import Callable
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
            found = compile_kept(self.pattern, self.flags)
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


# (pattern, flags) -> what `_sre.compile` takes after the pattern: flags, code, groups, groupindex, indexgroup
_Args = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
_KEPT: list[dict[tuple[str | bytes, int], _Args]] = []  # the table read from the cache folder (loaded once)
_NEW: dict[tuple[str | bytes, int], _Args] = {}  # compiled by this process, not in the table: kept at exit
_FORMAT = 1


def _key() -> bytes:
    return f"{sys.version}\0{_sre.MAGIC}\0{_sre.CODESIZE}\0{_FORMAT}".encode()


# Where tables are kept: `store.built` hands over its `folder`, `remembered` and `keep` when a vault opens
# (this module sits below `store`, so it is told, and never imports it).
_STORE: list[tuple[Callable[[], object], Callable[[str, bytes], Any], Callable[[str, bytes, Any], None]]] = []


def kept_by(folder: Callable[[], object], remembered: Callable[[str, bytes], Any],
            keep: Callable[[str, bytes, Any], None]) -> None:
    """Keep compiled code as a table of `store.built` (its `folder`, `remembered` and `keep`)."""
    if not _STORE or _STORE[0] != (folder, remembered, keep):  # every vault opened tells: nothing made when known
        _STORE[:] = [(folder, remembered, keep)]


def _table() -> dict[tuple[str | bytes, int], _Args]:
    if not _KEPT:
        if not _STORE or not _STORE[0][0]():
            return {}  # no vault's cache folder yet: look again on the next pattern
        kept = _STORE[0][1]("patterns", _key())
        _KEPT.append(kept if isinstance(kept, dict) else {})
    return _KEPT[0]


def compile_kept(pattern: str | bytes, flags: int = 0) -> re.Pattern[Any]:
    """`re.compile(pattern, flags)`, from the compiled code kept in the cache folder when it is there."""
    flags = int(flags)
    key = (pattern, flags)
    args = _table().get(key) or _NEW.get(key)
    if args is not None:
        try:
            return cast("re.Pattern[Any]", _sre.compile(pattern, *args))
        except (TypeError, ValueError, RuntimeError):  # not code this engine takes: compiled afresh
            pass
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        if flags & (1 | re.DEBUG):
            raise ValueError(flags)  # TEMPLATE (refused since 3.11) and DEBUG (printed): left to `re.compile`
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        state = parsed.state
        indexgroup: list[str | None] = [None] * state.groups
        for name, i in state.groupdict.items():
            indexgroup[i] = name
        args = (int(flags | state.flags), [int(c) for c in code], state.groups - 1, dict(state.groupdict), tuple(indexgroup))
        compiled = _sre.compile(pattern, *args)
    except (ImportError, AttributeError, TypeError, ValueError):  # another Python's internals: as `re` does it
        return re.compile(pattern, flags)
    if not _NEW:
        import atexit

        atexit.register(keep_new)
    _NEW[key] = args
    return cast("re.Pattern[Any]", compiled)


def keep_new() -> None:
    """Add the patterns this process compiled to the table in the cache folder (at exit; best effort)."""
    if not _NEW:
        return
    table = _table()
    if _STORE and _STORE[0][0]():
        _STORE[0][2]("patterns", _key(), {**table, **_NEW})
        table.update(_NEW)
    _NEW.clear()
