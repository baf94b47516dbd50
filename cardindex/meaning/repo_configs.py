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


_FLAT_DEPTH = 12  # levels of keys; a YAML alias may make a mapping hold itself ("a: &a {b: *a}")
_FLAT_NODES = 5_000  # values walked in one document; aliases may repeat a mapping exponentially often


def _flat(prefix: str, value: Any, budget: list[int] | None = None, depth: int = 0) -> Iterator[tuple[str, str]]:
    """(key path, value) of each leaf, within `_FLAT_DEPTH` levels and `_FLAT_NODES` values walked."""
    budget = [_FLAT_NODES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        return
    if isinstance(value, dict):
        if depth >= _FLAT_DEPTH:
            return
        for key, inner in value.items():
            yield from _flat(f"{prefix}.{key}" if prefix else str(key), inner, budget, depth + 1)
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


_TREE_BYTES = 32_000  # a larger YAML or TOML file is data (fixtures, a catalogue), not settings someone chose
_TREE_RECORDS = 200
_YAML_KEY = lazy_pattern(r"^[ \t-]*([\w.-]+)[ \t]*:")


def tree_settings(path: str, text: str) -> Iterator[Record]:
    """Each leaf of any other YAML or TOML file (a deploy manifest, docker-compose, an app's config) as a setting.

    The subject is the file's stem and the leaf's key path (`local.log_level`,
    `deployment.spec.replicas`): "locally the service logs at debug level" restates
    `log_level = "debug"` in config/local.toml as a tool's setting is restated.
    """
    if len(text) > _TREE_BYTES:
        return
    base = path.rsplit("/", 1)[-1]
    stem = base.rsplit(".", 1)[0].lstrip(".")
    if base.endswith(".toml"):
        from cardindex.meaning.repo_files import settings

        # Keys above the first [section] are the file's own: under its stem.
        for n, record in enumerate(settings(path, f"[{stem}]\n{text}")):
            if n >= _TREE_RECORDS:
                return
            yield record._replace(line=max(1, record.line - 1))
        return
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        documents = [d for d in yaml.load_all(text, Loader=loader) if isinstance(d, dict)]
    except yaml.YAMLError:
        return
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        m = _YAML_KEY.match(line)
        if m is not None:
            lines.setdefault(m.group(1), number)
    n = 0
    for document in documents:
        for key, value in _flat("", document):
            if not value:
                continue
            yield Record(path, lines.get(key.rsplit(".", 1)[-1], 1), "setting", f"{stem}.{key}", value)
            n += 1
            if n >= _TREE_RECORDS:
                return


def reader(rel: str) -> Callable[[str, str], Iterator[Record]] | None:
    """The reader for one of these files, by its path (None: not one of them); any other YAML or TOML file last."""
    base = rel.rsplit("/", 1)[-1]
    if base.startswith("tsconfig") and base.endswith(".json"):
        return json_settings
    if base in (".prettierrc", ".prettierrc.json"):
        return json_settings
    if base == "Dockerfile" or base.endswith(".Dockerfile") or base.startswith("Dockerfile."):
        return dockerfile
    if base in (".env.example", ".env.sample", ".env.template", "example.env"):
        return env_example
    if base.endswith((".yml", ".yaml", ".toml")) and not rel.startswith(".github/"):
        return tree_settings
    return None
