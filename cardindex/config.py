"""The vault's optional `.cardindex.yaml` (SPEC §4): read, validate, default."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from .errors import ConfigError

CONFIG_FILE = ".cardindex.yaml"
DEFAULT_INDEX = "INDEX.md"


class Budget(NamedTuple):
    lines: int = 200
    bytes: int = 25_000


class Config(NamedTuple):
    index_file: str | None = None  # None: INDEX.md, or MEMORY.md when only that exists
    index_budget: Budget = Budget()
    multi_valued_keys: frozenset[str] = frozenset()
    archive_dir: str = "archive"
    templates: str | None = None
    repo: str | None = None  # relative to the vault; "" (from `repo: false`): compare against no repo
    llm: str | None = None
    max_age: Mapping[str, int] = MappingProxyType({})
    lint: Mapping[str, Any] = MappingProxyType({})


_KEYS = {
    "index_file",
    "index_budget",
    "multi_valued_keys",
    "archive_dir",
    "templates",
    "repo",
    "llm",
    "max_age",
    "lint",
}
_LINT_KEYS = {"select", "ignore", "extend_select", "per_card_ignore"}


def load_config(root: Path) -> Config:
    """Read `root/.cardindex.yaml`; a missing file means all defaults."""
    path = root / CONFIG_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config: {exc}", path=CONFIG_FILE) from None
    import yaml

    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(
            f"invalid YAML: {getattr(exc, 'problem', None) or exc}",
            path=CONFIG_FILE,
            line=mark.line + 1 if mark else None,
        ) from None
    if data is None:
        return Config()
    if not isinstance(data, dict):
        raise ConfigError("the config must be a mapping of settings", path=CONFIG_FILE)
    return _from_mapping(data)


def _from_mapping(data: Mapping[Any, Any]) -> Config:
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise ConfigError(
            f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})", path=CONFIG_FILE
        )
    kwargs: dict[str, Any] = {}
    if data.get("repo") is False:
        kwargs["repo"] = ""
    for key in ("index_file", "archive_dir", "templates", "repo", "llm"):
        if data.get(key) is not None and data.get(key) is not False:
            kwargs[key] = _text(data[key], key)
    if "index_file" in kwargs and ("/" in kwargs["index_file"] or not kwargs["index_file"].endswith(".md")):
        raise ConfigError("'index_file' must be a file name ending in .md, such as MEMORY.md", path=CONFIG_FILE)
    if "archive_dir" in kwargs and (kwargs["archive_dir"].startswith((".", "/")) or ".." in kwargs["archive_dir"]):
        raise ConfigError("'archive_dir' must be a folder inside the vault", path=CONFIG_FILE)
    budget = data.get("index_budget")
    if budget is not None:
        if not isinstance(budget, dict) or set(budget) - {"lines", "bytes"}:
            raise ConfigError("'index_budget' takes 'lines' and 'bytes'", path=CONFIG_FILE)
        for key, value in budget.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"'index_budget.{key}' must be a positive whole number", path=CONFIG_FILE)
        kwargs["index_budget"] = Budget(**budget)
    keys = data.get("multi_valued_keys")
    if keys is not None:
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ConfigError("'multi_valued_keys' must be a list of keys", path=CONFIG_FILE)
        kwargs["multi_valued_keys"] = frozenset(keys)
    max_age = data.get("max_age")
    if max_age is not None:
        if not isinstance(max_age, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in max_age.values()
        ):
            raise ConfigError("'max_age' maps a card type to a number of days", path=CONFIG_FILE)
        kwargs["max_age"] = dict(max_age)
    lint = data.get("lint")
    if lint is not None:
        if not isinstance(lint, dict) or set(lint) - _LINT_KEYS:
            raise ConfigError(f"'lint' takes {', '.join(sorted(_LINT_KEYS))}", path=CONFIG_FILE)
        kwargs["lint"] = dict(lint)
    return Config(**kwargs)


def _text(value: object, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"'{key}' must be text", path=CONFIG_FILE)
    return value
