"""`cards trust`: click options only; the work is in `cardindex.commands.trust`."""

from __future__ import annotations

import click


@click.command("trust")
@click.option("--revoke", is_flag=True, help="Stop trusting this vault's llm command.")
@click.option("--list", "show_list", is_flag=True, help="List the trusted vaults.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format (with --list).")
@click.pass_obj
def trust_vault(obj: object, revoke: bool, show_list: bool, output_format: str) -> None:
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
    from cardindex.commands import trust as command

    if revoke and show_list:
        raise click.UsageError("--revoke and --list do not go together")
    if show_list:
        code = command.run_list(output_format=output_format)
    else:
        vault = obj.open()  # type: ignore[attr-defined]
        code = command.run_revoke(vault=vault) if revoke else command.run_trust(vault=vault)
    click.get_current_context().exit(code)
