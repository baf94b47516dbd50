"""Helpers shared by the search tests: write a card by its parts, and read `cards search`'s hits."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str, **fields: Any) -> None:
    lines = ["---", f"description: {description}", f"type: {fields.pop('type', 'project')}"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join([*lines, "---", body, ""]), encoding="utf-8")


def hits(invoke: Invoke, *args: str) -> list[dict[str, Any]]:
    result = invoke("search", *args, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout or "[]")  # type: ignore[no-any-return]


def ids(invoke: Invoke, *args: str) -> list[str]:
    return [h["id"] for h in hits(invoke, *args)]
