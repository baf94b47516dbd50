"""`cards trust`: let a vault's own `llm:` command run, for this exact command only."""

from __future__ import annotations

import json
from pathlib import Path

from cardindex.errors import CardIndexError, Refused
from cardindex.redaction import shown
from cardindex.store import trust
from cardindex.store.config import CONFIG_FILE, load_config
from cardindex.store.vault import Vault


def run_trust(*, vault: Vault) -> int:
    command = vault.config.llm
    if not command:
        raise Refused(f"nothing to trust: {CONFIG_FILE} of {vault.root} names no llm command")
    entry = trust.trust(vault.real_root, command)
    print(f"trusted {entry.path}: `cards consolidate` and `cards import --from-log` may run its llm command")
    print(f"    {shown(command)}")
    print("a change to that command makes the vault untrusted again; `cards trust --revoke` undoes this")
    return 0


def run_revoke(*, vault: Vault) -> int:
    if trust.revoke(vault.real_root):
        print(f"revoked: the llm command of {vault.real_root} no longer runs")
    else:
        print(f"{vault.real_root} was not trusted; nothing to revoke")
    return 0


def run_list(*, output_format: str = "text") -> int:
    rows = [{"vault": t.path, "since": t.since, "state": _state(t)} for t in trust.trusted().values()]
    if output_format == "json":
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    if not rows:
        print(f"no trusted vaults ({trust.store_path()})")
    for row in rows:
        print(f"{row['vault']}  since {row['since']}  ({row['state']})")
    return 0


def _state(entry: trust.Trusted) -> str:
    """What holds now: `trusted`, `changed since` (not run until trusted again), `no llm`, `gone`."""
    root = Path(entry.path)
    if not root.is_dir():
        return "gone"
    try:
        llm = load_config(root).llm
    except CardIndexError:
        return "config unreadable"
    if llm is None:
        return "no llm command"
    return "trusted" if trust.fingerprint(llm) == entry.llm_sha256 else "changed since: not run until trusted again"
