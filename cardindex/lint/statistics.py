"""`cards lint --statistics`: findings counted per rule, in every output format.

One count for every format, from the same findings the summary line counts, so the
table and the summary always agree: each row is a rule with how many findings it has,
how many of them are errors and how many this run's `--fix` would fix.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import NamedTuple, TextIO

from cardindex.lint.finding import SAFE_FIXES, Finding
from cardindex.lint.formatters import sarif_rules, workflow_escape, write_sarif
from cardindex.lint.registry import RULES


class Count(NamedTuple):
    """One rule's row: its code, category, summary, and how many findings (`total`; errors; fixable)."""

    code: str
    category: str
    summary: str
    total: int
    errors: int
    fixable: int

    def as_json(self) -> dict[str, object]:
        return {"code": self.code, "category": self.category, "summary": self.summary, "count": self.total,
                "errors": self.errors, "warnings": self.total - self.errors, "fixable": self.fixable}


def counts(findings: Sequence[Finding], *, fixes: Collection[str] = SAFE_FIXES) -> list[Count]:
    """Rows per rule, most findings first, then by code."""
    rows: dict[str, list[int]] = {}
    for f in findings:
        row = rows.setdefault(f.code, [0, 0, 0])
        row[0] += 1
        row[1] += f.severity == "error"
        row[2] += f.fix in fixes
    out = [Count(code, RULES[code].category, RULES[code].summary, n, e, x) for code, (n, e, x) in rows.items()]
    return sorted(out, key=lambda c: (-c.total, c.code))


def write(rows: Sequence[Count], out: TextIO, output_format: str, roots: Sequence[Path]) -> None:
    """Write the table in `output_format` (the formats of `cards lint --format`)."""
    if output_format == "text":
        for c in rows:
            mark = "[*] " if c.fixable else ""
            out.write(f"{c.total:>6}  {c.code}  {mark}[{c.category}] {c.summary}\n")
    elif output_format == "json":
        out.write(json.dumps([c.as_json() for c in rows], indent=1, ensure_ascii=False) + "\n")
    elif output_format == "json-lines":
        for c in rows:
            out.write(json.dumps(c.as_json(), ensure_ascii=False) + "\n")
    elif output_format == "github":
        for c in rows:
            level = "error" if c.errors else "warning"
            out.write(f"::{level} title={c.code}::{workflow_escape(f'{c.code} {c.total} x {c.summary}')}\n")
    else:  # sarif: the rules, each with its counts as properties, and no results
        rules = sarif_rules([c.code for c in rows])
        for rule, c in zip(rules, rows, strict=True):
            rule["properties"] = {"count": c.total, "errors": c.errors, "fixable": c.fixable}
        bases = {"VAULT" if i == 0 else f"VAULT{i + 1}": root for i, root in enumerate(roots)}
        write_sarif(out, rules, [], bases)
