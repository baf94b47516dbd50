"""More of what a repo's files record: TypeScript and Prettier settings, Dockerfiles, the variables of `.env.example`.

Cards restate these as often as a Makefile ("the dashboard's TypeScript is strict and
targets ES2022", "Prettier: print width 100, single quotes", "the API image is built
from python:3.12-slim and exposes 8000", "the API reads DATABASE_URL and REDIS_URL").
Each reader is a pure function of one file's text, giving `repo_files.Record`s: a
setting per JSON key (`compilerOptions.strict = true`), a Dockerfile instruction per
line (`FROM python:3.12-slim`), an environment variable per `.env.example` line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from cardindex.lazy import lazy_pattern
from cardindex.meaning.repo_files import Record

_LINE_COMMENT = lazy_pattern(r'("(?:[^"\\\n]|\\.)*")|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMA = lazy_pattern(r",(\s*[}\]])")


def _jsonc(text: str) -> Any:
    """JSON with comments and trailing commas (tsconfig, .prettierrc), or None."""
    stripped = _LINE_COMMENT.sub(lambda m: m.group(1) or "", text)
    try:
        return json.loads(_TRAILING_COMMA.sub(r"\1", stripped))
    except ValueError:
        return None


def _line(text: str, key: str) -> int:
    at = text.find(f'"{key}"')
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _flat(prefix: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _flat(f"{prefix}.{key}" if prefix else str(key), inner)
    elif isinstance(value, list):
        if all(isinstance(v, (str, int, float, bool)) for v in value):
            yield prefix, " ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in value)
    elif isinstance(value, bool):
        yield prefix, str(value).lower()
    elif isinstance(value, (str, int, float)):
        yield prefix, str(value)


def json_settings(path: str, text: str) -> Iterator[Record]:
    """Each leaf of a tsconfig's `compilerOptions` (and its `extends`), or of a Prettier config, as a setting."""
    base = path.rsplit("/", 1)[-1]
    data = _jsonc(text)
    if not isinstance(data, dict):
        return
    if base.startswith("tsconfig"):
        tool = "tsconfig"
        data = {k: v for k, v in data.items() if k in ("compilerOptions", "extends")}
    else:
        tool = "prettier"
    for key, value in _flat("", data):
        yield Record(path, _line(text, key.rsplit(".", 1)[-1]), "setting", f"{tool}.{key}", value)


_INSTRUCTION = lazy_pattern(r"^\s*(FROM|EXPOSE|CMD|ENTRYPOINT|WORKDIR|USER|ENV|ARG)\s+(.+?)\s*$", re.IGNORECASE | re.MULTILINE)


def dockerfile(path: str, text: str) -> Iterator[Record]:
    """A Dockerfile's base image, ports, command, work folder, user and variables: one record per instruction."""
    for m in _INSTRUCTION.finditer(text):
        value = m.group(2)
        if value.startswith("["):
            try:
                value = " ".join(str(v) for v in json.loads(value))
            except ValueError:
                pass
        yield Record(path, text.count("\n", 0, m.start()) + 1, "docker", m.group(1).upper(), value)


_VARIABLE = lazy_pattern(r"^[ \t]*(?:export[ \t]+)?([A-Z][A-Z0-9_]{1,})[ \t]*=[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def env_example(path: str, text: str) -> Iterator[Record]:
    """The variables an `.env.example` names (an example value is no secret and no setting: it is left out)."""
    for m in _VARIABLE.finditer(text):
        yield Record(path, text.count("\n", 0, m.start()) + 1, "env", m.group(1), "")


def reader(rel: str) -> Callable[[str, str], Iterator[Record]] | None:
    """The reader for one of these files, by its path (None: not one of them)."""
    base = rel.rsplit("/", 1)[-1]
    if base.startswith("tsconfig") and base.endswith(".json"):
        return json_settings
    if base in (".prettierrc", ".prettierrc.json"):
        return json_settings
    if base == "Dockerfile" or base.endswith(".Dockerfile") or base.startswith("Dockerfile."):
        return dockerfile
    if base in (".env.example", ".env.sample", ".env.template", "example.env"):
        return env_example
    return None
