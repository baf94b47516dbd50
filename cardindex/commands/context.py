"""`cards context`: what an agent reads at session start."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from cardindex.agents import context
from cardindex.errors import UsageError
from cardindex.store.atomic import write_atomic
from cardindex.store.remembered import Memo, digest
from cardindex.store.vault import Vault, today


def render(
    vault: Vault,
    *,
    scope: str | None = None,
    budget: int = context.DEFAULT_BUDGET,
    as_of: dt.date | None = None,
    output_format: str = "text",
) -> str:
    """The session-start context as text or JSON: what `cards context` prints and the MCP tool returns."""
    day = as_of or today()
    memo = None
    if as_of is None:  # an unchanged vault answers from the memo without loading a card
        fingerprint = vault.fingerprint()
        key = None if fingerprint is None else digest(fingerprint, day.isoformat(), vault.config, scope, budget,
                                                      output_format, str(vault.root))
        memo = Memo(vault.state_dir / "cache" / "context.marshal", key)
        remembered = memo.get()
        if isinstance(remembered, str):
            return remembered
    if as_of is not None:
        from cardindex.lifecycle.asof import live_at

        cards = live_at(vault, as_of)
    else:
        cards = vault.cards
    when = f"as of {day.isoformat()}" if as_of else day.isoformat()
    where = f", scope {scope}" if scope else ""
    header = f"# Memory (cards context, {when}{where})\n"
    built = context.build(cards, today=day, scope=scope, budget=budget, max_age=vault.config.max_age,
                          repo_name=_repo_name(vault), header=header, state_dir=vault.state_dir)
    text = json.dumps(context.as_json(built), indent=1, ensure_ascii=False) + "\n" if output_format == "json" else built.text
    if memo is not None:
        memo.put(text)
    return text


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


def _repo_name(vault: Vault) -> str | None:
    root = vault.repo_root()
    return root.name if root else None
