"""The vault's optional `.cardindex.yaml` (SPEC §4): read, validate, default.

The file comes with `git pull`, so it is read as warily as a card (`read_settings`,
which also reads the user's own config, `trust.user_config`), and its `llm:` command
is run only under the trust rule of `llm.choose`.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from cardindex.errors import ConfigError

CONFIG_FILE = ".cardindex.yaml"
DEFAULT_INDEX = "INDEX.md"
MAX_CONFIG_BYTES = 64 * 1024
CARD_TYPES = ("user", "feedback", "project", "reference")


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
    llm: str | None = None  # the vault's own: runs only through `llm.choose` (the trust rule)
    max_age: Mapping[str, int] = MappingProxyType({})
    forget_after: Mapping[str, int] = MappingProxyType({})  # `consolidate --deep` archives what is unconfirmed this long
    lint: Mapping[str, Any] = MappingProxyType({})
    log_dir: str = "log"  # the raw tier (SPEC §10): never cards
    state_file: str = "CURRENT_STATE.md"  # the working memory: never a card
    state_budget: int = 1500  # characters of the working memory
    embedding: str | None = None  # "wordllama": `cards search` reorders with it (the `[embed]` extra)


_KEYS = {
    "index_file",
    "index_budget",
    "multi_valued_keys",
    "archive_dir",
    "templates",
    "repo",
    "llm",
    "max_age",
    "forget_after",
    "lint",
    "log_dir",
    "state_file",
    "state_budget",
    "embedding",
}
EMBEDDINGS = ("wordllama",)
_LINT_KEYS = {"select", "ignore", "extend_select", "per_card_ignore"}


def load_config(root: Path) -> Config:
    """Read `root/.cardindex.yaml`; a missing file means all defaults."""
    data = read_settings(root / CONFIG_FILE, CONFIG_FILE)
    return Config() if data is None else _from_mapping(data)


def read_settings(path: Path, label: str) -> dict[str, Any] | None:
    """The mapping in a settings file, read as safely as a card; None when there is no file.

    A pulled repository's config is input from someone else: it is at most 64 KB of
    UTF-8, holds no YAML anchors or aliases (which can expand exponentially once the
    value is walked, as the cache digest does), and no key twice (YAML would keep the
    last silently). `label` names the file in errors. Also reads the user's own config.
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a link to /dev/tty or a FIFO would block the read
            raise ConfigError("not a regular file", path=label)
        with path.open("rb") as fh:
            raw = fh.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read config: {exc.strerror or exc}", path=label) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"the config is over {MAX_CONFIG_BYTES // 1024} KB; settings are a few lines", path=label)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"not UTF-8 (byte {raw[exc.start]:#04x})", path=label, line=line) from None
    if _only_comments(text):  # what `cards init` writes: every setting commented out
        return None
    from cardindex.store import settings_memo

    data = settings_memo.recall(path, raw)  # parsed before from these very bytes: no YAML imported
    if data is not None:
        return data
    data = _safe_yaml(text, label)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ConfigError("the config must be a mapping of settings", path=label)
    settings_memo.keep(path, raw, data)
    return data


def _safe_yaml(text: str, label: str) -> Any:
    if _only_comments(text):  # what `cards init` writes: every setting commented out, so no YAML is imported
        return None
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if "&" in text or "*" in text:
            for event in yaml.parse(text, Loader=loader_class):
                if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                    line = event.start_mark.line + 1 if event.start_mark else None
                    raise ConfigError("YAML anchors and aliases are not allowed in the config", path=label, line=line)
        loader = loader_class(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _no_duplicate_keys(node, label)
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise ConfigError(f"invalid YAML: {problem}", path=label, line=mark.line + 1 if mark else None) from None
    except (ValueError, OverflowError) as exc:  # a date YAML recognises but cannot build: 2026-02-30
        raise ConfigError(f"invalid value: {exc}", path=label) from None
    except RecursionError:  # the pure-Python loader (no libyaml) on deeply nested brackets
        raise ConfigError("invalid YAML: nested too deeply", path=label) from None


def _only_comments(text: str) -> bool:
    """Whether YAML would read `text` as an empty document: only blank and comment lines, of
    characters it accepts (anything else, a BOM or a control character, goes to the parser)."""
    return all(
        not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()
    ) and all(c.isprintable() or c in "\t\r\n" for c in text)


def _no_duplicate_keys(node: Any, label: str) -> None:
    """Refuse a mapping that names one key twice, at any depth (no aliases: the tree is small)."""
    import yaml

    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            seen: set[tuple[str, str]] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    ident = (key.tag, key.value)
                    if ident in seen:
                        raise ConfigError(f"the setting {key.value!r} is given twice", path=label,
                                          line=key.start_mark.line + 1)
                    seen.add(ident)
                stack += [key, value]
        elif isinstance(current, yaml.SequenceNode):
            stack += current.value


def _from_mapping(data: Mapping[Any, Any]) -> Config:
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise ConfigError(
            f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})", path=CONFIG_FILE
        )
    kwargs: dict[str, Any] = {}
    if data.get("repo") is False:
        kwargs["repo"] = ""
    for key in ("index_file", "archive_dir", "templates", "repo", "llm", "log_dir", "state_file"):
        if data.get(key) is not None and data.get(key) is not False:
            kwargs[key] = _text(data[key], key)
    if "index_file" in kwargs and ("/" in kwargs["index_file"] or not kwargs["index_file"].endswith(".md")):
        raise ConfigError("'index_file' must be a file name ending in .md, such as MEMORY.md", path=CONFIG_FILE)
    if "archive_dir" in kwargs and (kwargs["archive_dir"].startswith((".", "/")) or ".." in kwargs["archive_dir"]):
        raise ConfigError("'archive_dir' must be a folder inside the vault", path=CONFIG_FILE)
    if "log_dir" in kwargs and (kwargs["log_dir"].startswith((".", "/")) or ".." in kwargs["log_dir"].split("/")
                                or not kwargs["log_dir"].strip("/")):
        raise ConfigError("'log_dir' must be a folder inside the vault", path=CONFIG_FILE)
    if "state_file" in kwargs and ("/" in kwargs["state_file"] or not kwargs["state_file"].endswith(".md")
                                   or kwargs["state_file"].startswith(".")):
        raise ConfigError("'state_file' must be a file name ending in .md, such as CURRENT_STATE.md", path=CONFIG_FILE)
    state_budget = data.get("state_budget")
    if state_budget is not None:
        if isinstance(state_budget, bool) or not isinstance(state_budget, int) or not 200 <= state_budget <= 100_000:
            raise ConfigError("'state_budget' must be a number of characters from 200 to 100000", path=CONFIG_FILE)
        kwargs["state_budget"] = state_budget
    embedding = data.get("embedding")
    if embedding is not None and embedding is not False and embedding != "off":
        if embedding not in EMBEDDINGS:
            raise ConfigError(f"'embedding' must be {' or '.join(EMBEDDINGS)} (or off)", path=CONFIG_FILE)
        kwargs["embedding"] = embedding
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
    for key in ("max_age", "forget_after"):
        days = data.get(key)
        if days is not None:
            if not isinstance(days, dict) or not all(
                k in CARD_TYPES and isinstance(v, int) and not isinstance(v, bool) and v > 0 for k, v in days.items()
            ):
                raise ConfigError(f"'{key}' maps a card type to a number of days", path=CONFIG_FILE)
            kwargs[key] = dict(days)
    lint = data.get("lint")
    if lint is not None:
        if not isinstance(lint, dict) or set(lint) - _LINT_KEYS:
            raise ConfigError(f"'lint' takes {', '.join(sorted(_LINT_KEYS))}", path=CONFIG_FILE)
        kwargs["lint"] = _lint_settings(lint)
    return Config(**kwargs)


_SELECTOR = re.compile(r"[A-Za-z]+[0-9]*")  # a code (S101), a prefix (S, S1), a category (session) or ALL


def _lint_settings(lint: Mapping[str, Any]) -> dict[str, Any]:
    """The `lint:` settings with every value's type checked (which codes exist is the linter's to say)."""
    out: dict[str, Any] = {}
    for key in ("select", "ignore", "extend_select"):
        if lint.get(key) is not None:
            out[key] = _selectors(lint[key], f"lint.{key}")
    per_card = lint.get("per_card_ignore")
    if per_card is not None:
        if not isinstance(per_card, dict) or not all(isinstance(k, str) and k for k in per_card):
            raise ConfigError("'lint.per_card_ignore' maps a card id to the rule codes it ignores", path=CONFIG_FILE)
        out["per_card_ignore"] = {k: _selectors(v, f"lint.per_card_ignore.{k}") for k, v in per_card.items()}
    return out


def _selectors(value: object, key: str) -> list[str]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
        raise ConfigError(f"'{key}' must be a list of rule codes or categories, such as [S101, secret]",
                          path=CONFIG_FILE)
    parts = [part.strip() for item in items for part in item.split(",")]
    bad = next((part for part in parts if not _SELECTOR.fullmatch(part)), None)
    if bad is not None:
        raise ConfigError(f"'{key}': {bad[:40]!r} is not a rule code or category, such as S101 or secret",
                          path=CONFIG_FILE)
    return list(items)


def _text(value: object, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"'{key}' must be text", path=CONFIG_FILE)
    return value
