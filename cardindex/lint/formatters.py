"""Output formats for findings: one small class each over one sorted stream.

`Formatter.write` passes every finding through the one redaction first (message:
`shown`; paths: `printable`, since a file name can hold an escape too), so no format
prints a secret or a raw control character, whoever built the finding.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from json.encoder import encode_basestring as _json_string  # C, when available
from pathlib import Path
from typing import TextIO

from cardindex.lint.finding import SAFE_FIXES, Finding
from cardindex.lint.registry import RULES
from cardindex.redaction import printable, shown


class Formatter:
    """Writes findings; `shown` turns a vault-relative path into what the user sees."""

    def __init__(self, out: TextIO, root: Path) -> None:
        self.out = out
        self.root = root

    def shown(self, path: str) -> str:
        return os.path.relpath(self.root / path)

    def write(self, findings: Sequence[Finding]) -> None:
        """Write `findings`, each redacted."""
        self.emit([_clean(f) for f in findings])

    def emit(self, findings: Sequence[Finding]) -> None:
        raise NotImplementedError


def _clean(f: Finding) -> Finding:
    return f._replace(path=printable(f.path), message=shown(f.message), related=tuple(map(printable, f.related)),
                      fix=None if f.fix is None else printable(f.fix))


class Text(Formatter):
    """`path:line: CODE message`, like ruff's concise output."""

    def emit(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            related = f" (see {', '.join(self.shown(r) for r in f.related)})" if f.related and f.related[0] not in f.message else ""
            self.out.write(f"{self.shown(f.path)}:{f.line}: {f.code} {f.message}{related}\n")


class Json(Formatter):
    """A JSON array of findings, exactly the keys of SPEC §6; paths relative to the vault.

    The text is what `json.dump(..., indent=1, ensure_ascii=False)` writes, built as one
    string: json's indenting encoder is pure Python and writes each token separately,
    which took a second for 10,000 findings.
    """

    def emit(self, findings: Sequence[Finding]) -> None:
        if not findings:
            self.out.write("[]\n")
            return
        self.out.write("[\n" + ",\n".join(map(_json_object, findings)) + "\n]\n")


def _json_object(f: Finding) -> str:
    """`f.as_json()` as an element of an array indented by one space per level."""
    s = _json_string
    related = "[\n" + ",\n".join("   " + s(r) for r in f.related) + "\n  ]" if f.related else "[]"
    return (f' {{\n  "path": {s(f.path)},\n  "line": {int(f.line)},\n  "code": {s(f.code)},\n'
            f'  "category": {s(f.category)},\n  "severity": {s(f.severity)},\n  "message": {s(f.message)},\n'
            f'  "related": {related},\n  "fix": {"null" if f.fix is None else s(f.fix)}\n }}')


class JsonLines(Formatter):
    """One JSON object per line."""

    def emit(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            self.out.write(json.dumps(f.as_json(), ensure_ascii=False) + "\n")


class GitHub(Formatter):
    """GitHub Actions workflow commands, shown as annotations on the pull request."""

    def emit(self, findings: Sequence[Finding]) -> None:
        for f in findings:
            level = "error" if f.severity == "error" else "warning"
            message = f.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            self.out.write(f"::{level} file={self.shown(f.path)},line={f.line},title={f.code}::{f.code} {message}\n")


class Sarif(Formatter):
    """SARIF 2.1.0, for code scanning dashboards."""

    def emit(self, findings: Sequence[Finding]) -> None:
        from cardindex import __version__

        used = sorted({f.code for f in findings})
        rules = [
            {
                "id": code,
                "name": RULES[code].category,
                "shortDescription": {"text": RULES[code].summary},
                "fullDescription": {"text": RULES[code].doc},
                "defaultConfiguration": {"level": "error" if RULES[code].severity == "error" else "warning"},
            }
            for code in used
        ]
        results = [
            {
                "ruleId": f.code,
                "level": "error" if f.severity == "error" else "warning",
                "message": {"text": f.message},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path, "uriBaseId": "VAULT"},
                                                    "region": {"startLine": f.line}}}],
                "relatedLocations": [{"physicalLocation": {"artifactLocation": {"uri": r, "uriBaseId": "VAULT"}}}
                                     for r in f.related],
            }
            for f in findings
        ]
        doc = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "cards", "version": __version__, "informationUri": "https://pypi.org/project/cardindex/", "rules": rules}},
                "originalUriBaseIds": {"VAULT": {"uri": self.root.resolve().as_uri() + "/"}},
                "results": results,
            }],
        }
        json.dump(doc, self.out, indent=1, ensure_ascii=False)
        self.out.write("\n")


FORMATTERS: dict[str, type[Formatter]] = {
    "text": Text,
    "json": Json,
    "json-lines": JsonLines,
    "github": GitHub,
    "sarif": Sarif,
}


def summary(findings: Sequence[Finding], cards: int, *, fixed: bool = False) -> str:
    """The one line that ends a text run, like ruff's: what failed, what only warns, what --fix can do."""
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = len(findings) - errors
    checked = f"{cards} card{'s' if cards != 1 else ''} checked"
    if not findings:
        return f"All checks passed! {checked}."
    fixable = 0 if fixed else sum(1 for f in findings if f.fix in SAFE_FIXES)
    notes = [f"{warnings} warning{'s' if warnings != 1 else ''}"] if warnings else []
    notes += [f"{fixable} fixable with --fix"] if fixable else []
    if not errors:
        return f"No errors, {', '.join(notes)}; {checked}."
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"Found {errors} error{'s' if errors != 1 else ''}{extra}."


def statistics(findings: Sequence[Finding], out: TextIO) -> None:
    """Counts per rule, most frequent first (ruff's --statistics)."""
    counts = Counter(f.code for f in findings)
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        rule = RULES[code]
        out.write(f"{count:>6}  {code}  [{rule.category}] {rule.summary}\n")
