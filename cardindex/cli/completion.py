"""`cards completion SHELL`: the shell completion script, completing commands, options and card ids."""

from __future__ import annotations

from typing import Any

import click

SHELLS = ("bash", "zsh", "fish")


def card_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Card ids of the vault the command line names (or the one found from here) that start with `incomplete`.

    Runs while the user presses Tab, so it never fails loudly: no vault, no completions.
    """
    from click.shell_completion import CompletionItem

    from cardindex.errors import CardIndexError
    from cardindex.store.vault import Vault, find_root

    vault_option = ctx.find_root().params.get("vault")
    try:
        vault = Vault(find_root(vault_option))
        ids = [rel[:-3] for rel in vault.card_paths()]
    except (CardIndexError, OSError):
        return []
    return [CompletionItem(i) for i in ids if i.startswith(incomplete)][:200]


def job_ids(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
    """Journal job ids, newest first, that start with `incomplete`."""
    from click.shell_completion import CompletionItem

    from cardindex.errors import CardIndexError
    from cardindex.store.journal import Journal
    from cardindex.store.vault import Vault, find_root

    try:
        vault = Vault(find_root(ctx.find_root().params.get("vault")))
        jobs = [str(j.get("id")) for j in reversed(Journal(vault.state_dir).jobs())]
    except (CardIndexError, OSError):
        return []
    return [CompletionItem(j, help=None) for j in jobs if j.startswith(incomplete)][:50]


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
def completion_command(shell: str) -> None:
    """Print the completion script for SHELL: commands, options and card ids.

    \b
    Examples:
      cards completion bash > ~/.local/share/bash-completion/completions/cards
      cards completion zsh > "${fpath[1]}/_cards"
      cards completion fish > ~/.config/fish/completions/cards.fish
      eval "$(cards completion bash)"          # this shell only
    """
    from click.shell_completion import get_completion_class

    root = click.get_current_context().find_root().command  # the `cards` group (not imported: no import circle)
    kind = get_completion_class(shell)
    assert kind is not None  # the three shells click ships
    click.echo(kind(root, {}, "cards", "_CARDS_COMPLETE").source())
