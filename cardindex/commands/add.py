"""`cards add`: write one new card, supersede what it replaces, update the index."""

from __future__ import annotations

import json
import sys
from typing import Any

from cardindex.commands.index import report_takeover
from cardindex.lifecycle.add import (
    GateRefused,
    add_card,
)
from cardindex.store.vault import Vault


def run(*, vault: Vault, output_format: str = "text", **options: Any) -> int:
    """Add a card (`options` as for `add_card`); print its path. Returns the exit code."""
    try:
        added = add_card(vault=vault, **options)
    except GateRefused as refused:
        for f in refused.findings:
            print(f"{refused.name}:{f.line}: {f.code} {f.message}", file=sys.stderr)
        raise
    new, key = added.card, added.key
    shown = str(vault.path_of(new.path))
    if output_format == "json":
        print(json.dumps({
            "path": shown,
            "id": new.id,
            "status": added.status,
            "superseded": added.superseded,
            "conflicts_with": added.conflicts_with,
            "job": added.job,
        }))
    else:
        print(shown)
    for d in added.retired:
        print(f"superseded {d.step.card.id} (same key {key!r}); archived as {d.path}", file=sys.stderr)
    if added.conflicts_with:
        print(
            f"conflict: key {key!r} belongs to locked card {added.conflicts_with[0]}; the new card is marked conflict",
            file=sys.stderr,
        )
    report_takeover(added.indexed.takeover)  # its MEMORY.md was kept by hand until now: say what was kept
    broken = added.indexed.broken
    if broken:
        print(f"warning: {len(broken)} unreadable card(s) left out of {added.indexed.path}; run `cards index`",
              file=sys.stderr)
    return 0









