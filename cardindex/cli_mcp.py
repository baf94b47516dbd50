"""`cards mcp`: click options only; the server is in `cardindex.mcp_server`."""

from __future__ import annotations

import click


@click.command()
@click.pass_obj
def mcp(obj: object) -> None:
    """Serve the vault to agents over MCP (stdio): search, read, context, add, supersede, lint.

    \b
    Examples:
      cards --vault memory mcp
      claude mcp add cards -- cards --vault ~/work/proj/memory mcp
    """
    from .errors import UsageError

    raise UsageError("cards mcp is not built yet")
