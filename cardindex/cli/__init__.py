"""The command line: click only. The `cards` group, its global options, the error translation, one module per command.

`main` holds the group and turns the core's `CardIndexError`s (and what the system
refuses) into one line and an exit code; `options` holds what every command shares;
each other module parses one command's (or command group's) options, calls the core and
prints through `output` (the redacting echo). The core is imported inside the commands,
so `cards --help` loads only click. May import every layer below; nothing below imports
this package or click.
"""

from __future__ import annotations

from cardindex.cli.main import cli, main

__all__ = ["cli", "main"]
