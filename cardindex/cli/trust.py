"""`cards trust`: let a vault's own `llm:` command run, for this exact command only."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from cardindex.store import trust
    from cardindex.store.vault import Vault


def run_trust(*, vault: Vault) -> int:
    from cardindex.errors import Refused
    from cardindex.redaction import shown
    from cardindex.store import trust
    from cardindex.store.config import CONFIG_FILE

    command = vault.config.llm
    if not command:
        raise Refused(f"nothing to trust: {CONFIG_FILE} of {vault.root} names no llm command")
    entry = trust.trust(vault.real_root, command)
    print(f"trusted {entry.path}: `cards consolidate` and `cards import --from-log` may run its llm command")
    print(f"    {shown(command)}")
    print("a change to that command makes the vault untrusted again; `cards trust --revoke` undoes this")
    return 0


def run_revoke(*, vault: Vault) -> int:
    from cardindex.store import trust

    if trust.revoke(vault.real_root):
        print(f"revoked: the llm command of {vault.real_root} no longer runs")
    else:
        print(f"{vault.real_root} was not trusted; nothing to revoke")
    return 0


def run_list(*, output_format: str = "text") -> int:
    import json

    from cardindex.store import trust

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
    from cardindex.errors import CardIndexError
    from cardindex.store import trust
    from cardindex.store.config import load_config

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


@click.command("trust")
@click.option("--revoke", is_flag=True, help="Stop trusting this vault's llm ")
@click.option("--list", "show_list", is_flag=True, help="List the trusted vaults.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format (with --list).")
@click.pass_obj
def trust_vault_command(obj: object, revoke: bool, show_list: bool, output_format: str) -> None:
    """Allow this vault's `llm:` command to run (it never runs untrusted).

    A vault's .cardindex.yaml comes with `git pull`, so its `llm:` line is run by
    `cards consolidate` and `cards import --from-log` only after you have read it and
    trusted it here. The trust is for the vault's real path and that exact command: a
    pull that changes the command makes the vault untrusted again. Your own command in
    ~/.config/cardindex/config.yaml, or --llm CMD, needs no trust.

    \b
    Examples:
      cards trust                  # show the command and trust it
      cards trust --list
      cards trust --revoke
    """
    if revoke and show_list:
        raise click.UsageError("--revoke and --list do not go together")
    if show_list:
        code = run_list(output_format=output_format)
    else:
        vault = obj.open()  # type: ignore[attr-defined]
        code = run_revoke(vault=vault) if revoke else run_trust(vault=vault)
    click.get_current_context().exit(code)
