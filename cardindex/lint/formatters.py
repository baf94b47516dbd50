"""Output formats for findings: one small class each over one sorted stream.

`Formatter.write` passes every finding through the one redaction first (message:
`shown`; paths: `printable`, since a file name can hold an escape too), so no format
prints a secret or a raw control character, whoever built the finding.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Sequence
from json.encoder import encode_basestring as _json_string  # C, when available
from pathlib import Path
from typing import TextIO

from cardindex.lint.finding import SAFE_FIXES, Finding
from cardindex.redaction import printable, shown

Item = tuple[Path, Finding]  # the vault a finding is in, and the finding (its paths relative to that vault)


class Formatter:
    """Writes findings of one or more vaults.

    One path convention (README, `cards lint`): what a person reads (text, github) names
    files relative to the current folder, so a terminal or a pull request can open them;
    machine formats keep SPEC §6's vault-relative `path` and `related` and say which vault
    (`vault` in JSON, SARIF's `VAULT` base URI), so a consumer joins the two.
    `fixable`: the fixes this run's `--fix` would apply (text marks them `[*]`).
    """

    def __init__(self, out: TextIO, root: Path, *, fixable: Collection[str] = SAFE_FIXES) -> None:
        self.out = out
        self.root = root
        self.fixable = frozenset(fixable)

    def shown(self, path: str, root: Path | None = None) -> str:
        return os.path.relpath((self.root if root is None else root) / path)

    def write(self, findings: Sequence[Finding]) -> None:
        """Write `findings` of the vault at `root`, each redacted."""
        self.write_groups([(self.root, findings)])

    def write_groups(self, groups: Sequence[tuple[Path, Sequence[Finding]]]) -> None:
        """Write the findings of several vaults as one report (one JSON array, one SARIF run)."""
        self.emit([(root, _clean(f)) for root, findings in groups for f in findings])

    def emit(self, items: Sequence[Item]) -> None:
        raise NotImplementedError


def _clean(f: Finding) -> Finding:
    return f._replace(path=printable(f.path), message=shown(f.message), related=tuple(map(printable, f.related)),
                      fix=None if f.fix is None else printable(f.fix))


def vault_name(root: Path) -> str:
    """The vault as machine formats name it: its absolute path (the output may be read from elsewhere)."""
    return printable(str(root.resolve()))


class Text(Formatter):
    """`path:line: CODE message`, like ruff's concise output; `[*]` before a message `--fix` fixes."""

    def emit(self, items: Sequence[Item]) -> None:
        for root, f in items:
            related = (f" (see {', '.join(self.shown(r, root) for r in f.related)})"
                       if f.related and f.related[0] not in f.message else "")
            mark = "[*] " if f.fix in self.fixable else ""
            self.out.write(f"{self.shown(f.path, root)}:{f.line}: {f.code} {mark}{f.message}{related}\n")


class Json(Formatter):
    """A JSON array of findings: the keys of SPEC §6 (paths relative to the vault), then `vault`.

    The text is what `json.dump(..., indent=1, ensure_ascii=False)` writes, built as one
    string: json's indenting encoder is pure Python and writes each token separately,
    which took a second for 10,000 findings.
    """

    def emit(self, items: Sequence[Item]) -> None:
        if not items:
            self.out.write("[]\n")
            return
        vaults = {root: _json_string(vault_name(root)) for root in {root for root, _ in items}}
        self.out.write("[\n" + ",\n".join(_json_object(f, vaults[root]) for root, f in items) + "\n]\n")


def _json_object(f: Finding, vault: str) -> str:
    """`as_json(f, vault)` as an element of an array indented by one space per level (`vault` JSON-encoded)."""
    s = _json_string
    related = "[\n" + ",\n".join("   " + s(r) for r in f.related) + "\n  ]" if f.related else "[]"
    return (f' {{\n  "path": {s(f.path)},\n  "line": {int(f.line)},\n  "code": {s(f.code)},\n'
            f'  "category": {s(f.category)},\n  "severity": {s(f.severity)},\n  "message": {s(f.message)},\n'
            f'  "related": {related},\n  "fix": {"null" if f.fix is None else s(f.fix)},\n  "vault": {vault}\n }}')


def as_json(f: Finding, root: Path) -> dict[str, object]:
    """What `--format json` and `json-lines` print of a finding: SPEC §6's keys and the vault."""
    return {**f.as_json(), "vault": vault_name(root)}


class JsonLines(Formatter):
    """One JSON object per line."""

    def emit(self, items: Sequence[Item]) -> None:
        for root, f in items:
            self.out.write(json.dumps(as_json(f, root), ensure_ascii=False) + "\n")


class GitHub(Formatter):
    """GitHub Actions workflow commands, shown as annotations on the pull request."""

    def emit(self, items: Sequence[Item]) -> None:
        for root, f in items:
            level = "error" if f.severity == "error" else "warning"
            self.out.write(f"::{level} file={self.shown(f.path, root)},line={f.line},title={f.code}::{f.code} "
                           f"{workflow_escape(f.message)}\n")


def workflow_escape(text: str) -> str:
    """A workflow command's message: `%`, CR and LF escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


class Sarif(Formatter):
    """SARIF 2.1.0, for code scanning dashboards."""

    def emit(self, items: Sequence[Item]) -> None:
        findings = [f for _, f in items]
        roots = list(dict.fromkeys(root for root, _ in items)) or [self.root]
        base = {root: "VAULT" if i == 0 else f"VAULT{i + 1}" for i, root in enumerate(roots)}
        rules = sarif_rules(sorted({f.code for f in findings}))
        results: list[dict[str, object]] = [
            {
                "ruleId": f.code,
                "level": "error" if f.severity == "error" else "warning",
                "message": {"text": f.message},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path, "uriBaseId": base[root]},
                                                    "region": {"startLine": f.line}}}],
                "relatedLocations": [{"physicalLocation": {"artifactLocation": {"uri": r, "uriBaseId": base[root]}}}
                                     for r in f.related],
            }
            for root, f in items
        ]
        write_sarif(self.out, rules, results, {name: root for root, name in base.items()})


def sarif_rules(codes: Sequence[str]) -> list[dict[str, object]]:
    """SARIF's descriptions of the rules `codes`."""
    from cardindex.lint.registry import RULES  # every rule's module: only SARIF needs them here

    return [
        {
            "id": code,
            "name": RULES[code].category,
            "shortDescription": {"text": RULES[code].summary},
            "fullDescription": {"text": RULES[code].doc},
            "defaultConfiguration": {"level": "error" if RULES[code].severity == "error" else "warning"},
        }
        for code in codes
    ]


def write_sarif(out: TextIO, rules: list[dict[str, object]], results: list[dict[str, object]],
                bases: dict[str, Path]) -> None:
    """One SARIF 2.1.0 document with one run; `bases`: each base URI id's vault folder."""
    from cardindex import __version__

    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cards", "version": __version__, "informationUri": "https://pypi.org/project/cardindex/", "rules": rules}},
            "originalUriBaseIds": {name: {"uri": root.resolve().as_uri() + "/"} for name, root in bases.items()},
            "results": results,
        }],
    }
    json.dump(doc, out, indent=1, ensure_ascii=False)
    out.write("\n")


FORMATTERS: dict[str, type[Formatter]] = {
    "text": Text,
    "json": Json,
    "json-lines": JsonLines,
    "github": GitHub,
    "sarif": Sarif,
}


def fixable(findings: Sequence[Finding], fixes: Collection[str] = SAFE_FIXES) -> int:
    """How many of `findings` a `--fix` of this run fixes (`[*]` in text; the summary and statistics count them)."""
    return sum(1 for f in findings if f.fix in fixes)


def summary(findings: Sequence[Finding], cards: int, *, fixed: bool = False,
            fixes: Collection[str] = SAFE_FIXES) -> str:
    """The one line that ends a text run, like ruff's: what failed, what only warns, what --fix can do."""
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = len(findings) - errors
    checked = f"{cards} card{'s' if cards != 1 else ''} checked"
    if not findings:
        return f"All checks passed! {checked}."
    can_fix = 0 if fixed else fixable(findings, fixes)
    notes = [f"{warnings} warning{'s' if warnings != 1 else ''}"] if warnings else []
    notes += [f"{can_fix} fixable with --fix"] if can_fix else []
    if not errors:
        return f"No errors, {', '.join(notes)}; {checked}."
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"Found {errors} error{'s' if errors != 1 else ''}{extra}."
