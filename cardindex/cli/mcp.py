"""`cards mcp`: click options only; the server is in `cardindex.agents.mcp_server`."""

from __future__ import annotations

import click

from cardindex.cli.options import Options

SDK_MISSING = ("cards mcp needs the MCP SDK: pip install 'mcp>=2.3,<3' into this Python, "
               "or reinstall cardindex with its extra: pip install '/path/to/cardindex[mcp]'")


@click.command("mcp")
@click.pass_obj
def mcp_command(obj: Options) -> None:
    """Serve the vault to agents over MCP (stdio): search, read, context, add, supersede, lint.

    Tools: search, read, context, add (through the same write gate as `cards add`),
    supersede and lint; resources: cards://index and cards://card/{id}. An MCP client
    starts it; it serves until the client closes stdin. Needs the `mcp` extra.

    \b
    Examples:
      cards mcp                              # the vault in the current folder
      cards --vault ~/work/proj/memory mcp
      claude mcp add memory -- cards --vault ~/work/proj/memory mcp
    """
    from cardindex.errors import UsageError

    try:
        from cardindex.agents import mcp_server
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "mcp_types"):
            raise
        raise UsageError(SDK_MISSING) from None
    vault = obj.open()  # a missing folder or a bad config fails here, before serving
    click.get_current_context().exit(mcp_server.serve(vault.root, use_cache=vault.use_cache))
