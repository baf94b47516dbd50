"""The user's own settings, and which vaults' `llm` command the user has trusted (SPEC §7).

A vault's `.cardindex.yaml` arrives with `git pull`: whoever can push to the repository
writes it. So its `llm:` line, a command line cards would run, is run only once the
user has looked at it and said so with `cards trust`. That records the vault's real path
and a hash of the `llm:` value in the user's state file; a later change to the value
(another pull) makes the vault untrusted again until `cards trust` is run again.

Files, both outside every vault:

- the user config, `$XDG_CONFIG_HOME/cardindex/config.yaml` (default
  `~/.config/cardindex/config.yaml`): `llm: COMMAND`, the user's own command, trusted
  everywhere; `user_vault: PATH`, a vault of the user's own that `cards search`,
  `cards context` and the MCP server read beside the project's (`~` expanded, a
  relative path taken from the config's folder). Read by the same safe loader as a
  vault's config.
- the trust store, `$XDG_STATE_HOME/cardindex/trusted.json` (default
  `~/.local/state/cardindex/trusted.json`), written only by `cards trust`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.errors import ConfigError
from cardindex.store.atomic import write_atomic
from cardindex.store.config import read_settings

USER_KEYS = frozenset({"llm", "user_vault"})
MAX_STORE_BYTES = 1024 * 1024


class UserConfig(NamedTuple):
    llm: str | None = None
    user_vault: Path | None = None  # a vault of the user's own (preferences, personal rules) read beside each project's


class Trusted(NamedTuple):
    """One vault the user trusted: its real path, the sha256 of its `llm:` value then, and when."""

    path: str
    llm_sha256: str
    since: str


def _base(variable: str, default: str) -> Path:
    value = os.environ.get(variable, "")
    # The XDG spec: a relative path is invalid and must be ignored.
    return Path(value) if value and os.path.isabs(value) else Path(os.path.expanduser(default))


def user_config_path() -> Path:
    return _base("XDG_CONFIG_HOME", "~/.config") / "cardindex" / "config.yaml"


def store_path() -> Path:
    return _base("XDG_STATE_HOME", "~/.local/state") / "cardindex" / "trusted.json"


def user_config() -> UserConfig:
    """The user's own settings; a missing file means none."""
    path = user_config_path()
    data = read_settings(path, str(path))
    if data is None:
        return UserConfig()
    unknown = sorted(str(k) for k in data if k not in USER_KEYS)
    if unknown:
        raise ConfigError(f"unknown setting {unknown[0]!r} (known: {', '.join(sorted(USER_KEYS))})", path=str(path))
    llm = data.get("llm")
    if llm is not None and (not isinstance(llm, str) or not llm.strip()):
        raise ConfigError("'llm' must be text: a command line", path=str(path))
    folder = data.get("user_vault")
    if folder is not None and (not isinstance(folder, str) or not folder.strip()):
        raise ConfigError("'user_vault' must be text: the path of a vault folder", path=str(path))
    user_vault = path.parent / Path(os.path.expanduser(folder.strip())) if folder else None
    return UserConfig(llm=llm, user_vault=user_vault)


def fingerprint(llm: str) -> str:
    return hashlib.sha256(llm.encode("utf-8", "surrogatepass")).hexdigest()


def trusted() -> dict[str, Trusted]:
    """Every trusted vault by real path (an unreadable store is an error: it is the user's to fix)."""
    path = store_path()
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_STORE_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read the trust store: {exc.strerror or exc}", path=str(path)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
        if len(raw) > MAX_STORE_BYTES or not isinstance(data, dict) or not isinstance(data.get("vaults"), dict):
            raise ValueError("not a cards trust store")
        return {p: Trusted(p, str(v["llm_sha256"]), str(v.get("since", ""))) for p, v in data["vaults"].items()}
    except (ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"the trust store is damaged ({exc}); remove it and run `cards trust` again",
                          path=str(path)) from None


def _save(entries: dict[str, Trusted]) -> None:
    data: dict[str, Any] = {
        "version": 1,
        "vaults": {p: {"llm_sha256": t.llm_sha256, "since": t.since} for p, t in sorted(entries.items())},
    }
    write_atomic(store_path(), json.dumps(data, indent=1) + "\n")


def trust(real_root: Path, llm: str, now: dt.datetime | None = None) -> Trusted:
    """Record that the user trusts the vault at `real_root` to run `llm`."""
    entries = trusted()
    moment = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
    entry = entries[str(real_root)] = Trusted(str(real_root), fingerprint(llm), moment)
    _save(entries)
    return entry


def revoke(real_root: Path) -> bool:
    """Forget the vault at `real_root`; False when it was not trusted."""
    entries = trusted()
    if entries.pop(str(real_root), None) is None:
        return False
    _save(entries)
    return True


def state(real_root: Path, llm: str | None) -> str:
    """`trusted`, `changed` (trusted with another `llm:` value) or `untrusted`."""
    entry = trusted().get(str(real_root))
    if entry is None or llm is None:
        return "untrusted"
    return "trusted" if entry.llm_sha256 == fingerprint(llm) else "changed"
