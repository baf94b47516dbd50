"""Reading a frontmatter's text into fields: the fast path (`fastparse.py`) for the common shape, YAML for the rest.

Never raises for bad input: what is wrong becomes a `Problem`. YAML keeps the last of
two equal keys without a word while an editor (and a rewrite) finds the first, so
repeated keys are found here, at every level, and reported.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from cardindex.store.fastparse import fast_fields
from cardindex.store.fields import Problem
from cardindex.store.frontmatter import field_line, nested_block, quote

__all__ = ["fast_fields", "load_fields"]


def load_fields(fm_lines: list[str]) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The frontmatter's fields (None when unreadable) and what is wrong with them."""
    fast = fast_fields(fm_lines)
    if fast:
        return fast, []
    text = "".join(fm_lines)
    problems: list[Problem] = []
    try:
        meta, repeated = _yaml_load(text)
    except _YamlProblem as first:
        lenient = _quote_colon_values(fm_lines)
        if not lenient:
            return None, [Problem(first.line, first.message, kind=first.kind)]
        fixed_lines, warnings = lenient
        try:
            meta, repeated = _yaml_load("".join(fixed_lines))
        except _YamlProblem:
            return None, [Problem(first.line, first.message, kind=first.kind)]
        problems.extend(warnings)
    problems.extend(repeated)
    if meta is None:
        return None, [Problem(1, "frontmatter is empty: add at least 'description' and 'type'", kind="frontmatter")]
    if not isinstance(meta, dict):
        kind = "a list" if isinstance(meta, list) else f"a single {type(meta).__name__} value"
        return None, [Problem(2, f"frontmatter must be a mapping of fields, got {kind}", kind="frontmatter")]
    for key in meta:
        if not isinstance(key, str):
            line = field_line(fm_lines, str(key).lower() if isinstance(key, bool) else str(key))
            return None, [Problem(line, f"field name {key!r} is not text; quote it")]
    return meta, problems


class _YamlProblem(Exception):
    def __init__(self, line: int | None, message: str, kind: str = "yaml") -> None:
        message = " ".join(message.split())  # one line, whatever YAML said
        super().__init__(message)
        self.line = line
        self.message = message
        self.kind = kind


_LOADERS: dict[type[Any], type[Any]] = {}


def _loader_class(base: type[Any]) -> type[Any]:
    """`base` (libyaml's safe loader when there is one) that also notes every repeated key."""
    found = _LOADERS.get(base)
    if found is not None:
        return found

    import yaml

    class Loader(base):  # type: ignore[misc]
        repeated: list[Problem]

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: dict[Any, int] = {}
                for key_node, _ in node.value:
                    if not isinstance(key_node, yaml.ScalarNode):
                        continue
                    key = self.construct_object(key_node)
                    line = key_node.start_mark.line + 2
                    try:
                        first = seen.get(key)
                        seen.setdefault(key, line)
                    except TypeError:  # an unhashable key: YAML itself refuses it
                        continue
                    if first is not None:
                        self.repeated.append(Problem(
                            line,
                            f"key '{key}' appears twice (lines {first} and {line}): YAML keeps the last, an editor "
                            "or a rewrite finds the first; remove one. cards will not rewrite this card until then",
                            kind="duplicate",
                        ))
            return super().construct_mapping(node, deep)

    _LOADERS[base] = Loader
    return Loader


def _yaml_load(text: str) -> tuple[Any, list[Problem]]:
    import yaml

    loader_class = _loader_class(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    try:
        if "&" in text or "*" in text:
            # Aliases can expand exponentially ("billion laughs") once the value is walked.
            anchor_line = None
            for event in yaml.parse(text, Loader=loader_class):
                line = event.start_mark.line + 2 if event.start_mark else None
                if isinstance(event, yaml.AliasEvent):
                    raise _YamlProblem(line, "YAML anchors and aliases are not allowed in a card", "alias")
                if anchor_line is None and getattr(event, "anchor", None):
                    anchor_line = line
            if anchor_line is not None:
                raise _YamlProblem(anchor_line, "YAML anchors and aliases are not allowed in a card", "alias")
        loader = loader_class(text)
        loader.repeated = []
        try:
            return loader.get_single_data(), loader.repeated
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 2
        raise _YamlProblem(line, f"character {exc.character!r} is not allowed in YAML frontmatter") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else None
        raise _YamlProblem(line, f"invalid YAML in frontmatter: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise _YamlProblem(None, f"invalid YAML in frontmatter: {exc}") from None
    except (ValueError, OverflowError) as exc:  # a date YAML recognises but cannot build: 2026-02-30
        line, key, value = _impossible_date(text)
        raise _YamlProblem(line, f"'{key}' is not a real date: {value} ({exc})") from None


def _impossible_date(text: str) -> tuple[int | None, str, str]:
    """Where the date YAML could not build is, and its field."""
    for i, line in enumerate(text.splitlines()):
        m = re.match(r"\s*(?:- )?([^:#]+?)\s*:\s+(\d{4}-\d\d?-\d\d?(?:[Tt ][\d:.]+)?)\s*$", line)
        if m:
            value = m.group(2)
            try:
                dt.datetime.fromisoformat(value) if len(value) > 10 else dt.date.fromisoformat(value)
            except ValueError:
                return i + 2, m.group(1), value
    return None, "a date", "?"


_COLON_LINE = re.compile(r"([A-Za-z_][\w-]*):[ \t]+(\S.*?)\s*$")


def _quoted_then_more(value: str) -> bool:
    """`"a phrase" and more`: a value that opens a quote, closes it, and goes on (not a comment)."""
    if not value or value[0] not in "'\"":
        return False
    mark = value[0]
    end = value.find(mark, 1)
    while end != -1 and mark == "'" and value[end + 1 : end + 2] == "'":  # '' is a quote inside '…'
        end = value.find(mark, end + 2)
    if end == -1 or (mark == '"' and value[end - 1] == "\\"):
        return False
    rest = value[end + 1 :].strip()
    return bool(rest) and not rest.startswith("#")


def _quote_colon_values(fm_lines: list[str]) -> tuple[list[str], list[Problem]] | None:
    """Read `key: text with: colons` as `key: "text with: colons"`, as Claude Code does."""
    fixed = list(fm_lines)
    warnings = []
    block = nested_block(["---\n", *fm_lines], len(fm_lines) + 1)
    for i, line in enumerate(fm_lines):
        indent = ""
        if block is not None and block.indent and block.start <= i + 1 < block.end and line.startswith(block.indent):
            indent = block.indent  # a field under `metadata:` (Claude Code's nested form)
        m = _COLON_LINE.fullmatch(line[len(indent):].rstrip("\r\n"))
        if not m:
            continue
        key, value = m.groups()
        ending = line[len(line.rstrip("\r\n")) :]
        if _quoted_then_more(value):
            # `description: "안 나옴" 같은 …`: a quoted phrase, then more text. YAML stops at the
            # closing quote; Claude Code reads the whole line as the value, and so do we.
            fixed[i] = f"{indent}{key}: {quote(value)}{ending}"
            warnings.append(Problem(i + 2, f"a quoted phrase followed by more text in '{key}' is invalid YAML; "
                                           "read as text", "warning", "quote the whole value", "lenient"))
            continue
        if value[0] in "'\"[{|>&*!#" or not (": " in value or value.endswith(":")):
            continue
        fixed[i] = f"{indent}{key}: {quote(value)}{ending}"
        warnings.append(
            Problem(i + 2, f"unquoted ': ' in '{key}' is invalid YAML; read as text", "warning", "quote the value", "lenient")
        )
    return (fixed, warnings) if warnings else None
