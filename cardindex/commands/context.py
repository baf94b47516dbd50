"""`cards context`: what an agent reads at session start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardindex.agents.context import render
from cardindex.errors import UsageError
from cardindex.store.atomic import write_atomic
from cardindex.store.vault import Vault


def run(*, vault: Vault, output: str | None = None, **options: Any) -> int:
    """Print the context (`options` as for `render`), or write it to `output` atomically."""
    text = render(vault, **options)
    if output:
        target = Path(output)
        if target.is_dir() or not target.name:
            raise UsageError(f"{output}: is a folder; --output takes a file")
        write_atomic(target, text)  # an OSError is one line from the CLI: exit 1 (full disk), 2 (bad name)
    else:
        print(text, end="")
    return 0


