"""`cards import FILE...`: bring existing memory in, one candidate card per fact, through the write gate.

Every candidate is rendered exactly as `cards add` would write it and reviewed by the
same write gate, against the vault and against the candidates this import already
accepted (so a file that says one thing twice yields one card). Nothing is written
without `--apply`; with it, the accepted cards are one journalled job that one
`cards undo` removes.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardindex.agents.import_log import extract_log, numbered, parse_llm_answer
from cardindex.agents.import_review import (
    Input,
    Outcome,
    review,
    write_accepted,
)
from cardindex.agents.importer import (
    Candidate,
    Skipped,
    index_lines,
    split_markdown,
)
from cardindex.commands.output import echo, echo_json
from cardindex.errors import UsageError
from cardindex.index import build as index
from cardindex.index import templates
from cardindex.lifecycle.llm import LlmCommand, ask, chosen
from cardindex.lint.finding import Finding
from cardindex.store.card import MAX_BYTES
from cardindex.store.jobs import recover
from cardindex.store.os_errors import all_or_nothing
from cardindex.store.vault import Vault, escaped, today, valid_name

STDIN = "-"
_DAILY_LOG_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}\b.*\.(?:md|markdown|txt|log)$", re.IGNORECASE)






def run(
    *,
    vault: Vault,
    files: Sequence[str],
    apply: bool = False,
    from_log: bool = False,
    card_type: str | None = None,
    use_llm: bool = True,
    exit_zero: bool = False,
    output_format: str = "text",
    llm: str | None = None,
) -> int:
    """Import FILES into the vault (only report, unless `apply`). Returns the exit code."""
    if not files:
        raise UsageError("no FILE given; name a memory file, or '-' for stdin")
    if list(files).count(STDIN) > 1:
        raise UsageError("'-' (stdin) can be given only once")
    inputs = [_read(name) for name in files]  # every input is checked before anything happens
    own_index = [i for i in inputs if i.path is not None and _same_file(i.path, vault.index_path)]
    now = today()
    candidates, skipped, log_lines = _collect(vault, inputs, from_log=from_log, card_type=card_type,
                                              use_llm=use_llm, quiet=own_index, llm=llm)

    job: str | None = None
    replaced_index = False
    with vault.lock() if apply else contextlib.nullcontext():  # a report alone blocks no writer
        if apply:
            recover(vault)
            if not own_index:
                index.ensure_replaceable(vault, index.read_index(vault))
        outcomes = review(vault, candidates, now, inputs)
        accepted = [o for o in outcomes if o.accepted]
        if apply and (accepted or own_index):
            with all_or_nothing(vault) as jobs:  # an index that cannot be written undoes the import
                job, replaced_index = write_accepted(vault, accepted, now, replace_index=bool(own_index))
                jobs.add(job)
                index.write(vault, now)

    summary = _summary(inputs, outcomes, skipped, from_log, log_lines)
    if output_format == "json":
        echo_json({
            "files": [i.source for i in inputs],
            "applied": apply,
            "job": job,
            "index_replaced": replaced_index,
            "candidates": [_as_json(o) for o in outcomes],
            "skipped": [{"source": s.source, "line": s.line, "reason": s.reason} for s in skipped],
            "summary": summary,
        })
    else:
        for line in _text_report(outcomes, skipped):
            echo(line)
        echo(_summary_line(summary, apply, job))
    if own_index:
        refused = summary["refused"]
        dropped = f"; its {refused} refused line(s) are not kept" if refused else ""
        if replaced_index:
            print(f"note: {vault.index_name} was the vault's hand-kept index: replaced by the generated one, its facts "
                  f"now in cards{dropped} (`cards undo` restores the file)", file=sys.stderr)
        elif not apply:
            print(f"note: {vault.index_name} is the vault's own index: with --apply it is replaced by the generated "
                  f"one once its facts are cards{dropped} (the journal keeps it; `cards undo` restores it)",
                  file=sys.stderr)
    return 1 if summary["refused"] and not exit_zero else 0


def _collect(vault: Vault, inputs: list[Input], *, from_log: bool, card_type: str | None, use_llm: bool,
             quiet: list[Input], llm: str | None = None) -> tuple[list[Candidate], list[Skipped], int]:
    """The candidates of every input, in order; what was skipped; how many log lines were read."""
    command = chosen(vault, llm) if from_log and use_llm else None
    candidates: list[Candidate] = []
    skipped: list[Skipped] = []
    log_lines = 0
    for item in inputs:
        if from_log:
            found, count = extract_log(item.text, item.source, card_type)
            log_lines += count
            candidates.extend(found)
            if command is not None:
                candidates.extend(_llm_candidates(vault, command, item, found, card_type or "project"))
        else:
            found, passed_over = split_markdown(item.text, item.source, card_type or "project")
            candidates.extend(found)
            skipped.extend(passed_over)
            if item not in quiet:  # links in the vault's own index point to its cards, as they should
                _hints(item, passed_over, found)
    return candidates, skipped, log_lines


# --------------------------------------------------------------------------- reading inputs


def _read(name: str) -> Input:
    """Read one input file (or stdin) as text; any problem is one clear error naming it."""
    if name == STDIN:
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        return Input("stdin", _decode(data, "stdin"), None)
    path = Path(name)
    if path.is_dir():
        raise UsageError(f"is a folder; pass the files in it (cards import {name.rstrip('/')}/*.md)", path=name)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise UsageError("no such file", path=name) from None
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", path=name) from None
    if size > MAX_BYTES:
        raise UsageError(_too_big(size), path=name)
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror}", path=name) from None
    return Input(name if valid_name(name) else escaped(name), _decode(data, name), path)  # `source:` is YAML text


def _too_big(size: int) -> str:
    return (f"is {size:,} bytes, over the {MAX_BYTES // 1_000_000} MB limit; split it into smaller files "
            "first (memory that large is a log, not a set of facts)")


def _decode(data: bytes, name: str) -> str:
    if len(data) > MAX_BYTES:
        raise UsageError(_too_big(len(data)), path=name)
    if b"\0" in data:
        raise UsageError("binary file (it holds NUL bytes); cards import reads Markdown or plain text", path=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UsageError(f"not UTF-8 (byte 0x{data[exc.start]:02x}); convert it first, "
                         "e.g. iconv -f latin1 -t utf-8", path=name, line=line) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _hints(item: Input, skipped: list[Skipped], found: list[Candidate]) -> None:
    links = index_lines(skipped)
    if links and links >= len(found):
        folder = item.path.parent if item.path is not None else Path(".")
        name = item.path.name if item.path is not None else "MEMORY.md"
        print(f"note: {item.source} is mostly an index ({links} line(s) linking to card files): those facts live "
              f"in the cards it links to. If they sit next to it, make that folder a vault instead: "
              f"cards init {folder} --index-file {name}", file=sys.stderr)
    elif links:
        print(f"note: {item.source} holds {links} index line(s) linking to card files; those facts live in the "
              "cards they link to: import or copy those files instead", file=sys.stderr)
    if item.path is not None and _DAILY_LOG_NAME.match(item.path.name):
        print(f"note: {item.source} looks like a daily log; `cards import --from-log` takes only its corrections, "
              "decisions, preferences and 'remember that' requests", file=sys.stderr)


# --------------------------------------------------------------------------- the gate












# --------------------------------------------------------------------------- writing




# --------------------------------------------------------------------------- the optional llm




# --------------------------------------------------------------------------- output


def _summary(inputs: list[Input], outcomes: list[Outcome], skipped: list[Skipped], from_log: bool,
             log_lines: int) -> dict[str, Any]:
    categories: dict[str, int] = {}
    for o in outcomes:
        for category in sorted({f.category for f in o.findings}):
            categories[category] = categories.get(category, 0) + 1
    return {
        "files": len(inputs),
        "candidates": len(outcomes),
        "accepted": sum(1 for o in outcomes if o.accepted),
        "refused": sum(1 for o in outcomes if not o.accepted),
        "refused_by_category": dict(sorted(categories.items())),
        "skipped": len(skipped),
        **({"log_lines": log_lines} if from_log else {}),
    }


def _shown_description(o: Outcome) -> str | None:
    return None if o.secret else o.description


def _as_json(o: Outcome) -> dict[str, Any]:
    c = o.candidate
    return {
        "source": c.source,
        "line": c.line or None,
        "verdict": "accept" if o.accepted else "refuse",
        "type": c.type,
        "description": _shown_description(o),
        "text": None if o.secret else c.text,
        "withheld": o.secret,
        "section": c.section or None,
        "origin": c.origin,
        "kind": c.kind or None,
        "path": o.path if o.accepted else None,
        "findings": [
            {"code": f.code, "category": f.category, "severity": f.severity, "message": f.message,
             "related": list(f.related)}
            for f in o.findings
        ],
    }


def _text_report(outcomes: list[Outcome], skipped: list[Skipped]) -> list[str]:
    rows: list[tuple[str, int, int, list[str]]] = []  # source, line, order, lines
    for order, o in enumerate(outcomes):
        c = o.candidate
        where = c.where
        via = " (from the llm command)" if c.origin == "llm" else ""
        if o.accepted:
            rows.append((c.source, c.line, order, [f"{where}: accept [{c.type}] {o.description} -> {o.path}{via}"]))
        else:
            shown = _shown_description(o) or "(text withheld: it holds a secret)"
            lines = [f"{where}: refuse [{c.type}] {shown}{via}"]
            lines += [f"    {f.code} {f.category}: {f.message}{_related(f, o)}" for f in _distinct(o.findings)]
            rows.append((c.source, c.line, order, lines))
    for order, s in enumerate(skipped, len(outcomes)):
        rows.append((s.source, s.line, order, [f"{s.where}: skip {s.reason}"]))
    files = {source: i for i, (source, _, _, _) in reversed(list(enumerate(rows)))}
    rows.sort(key=lambda r: (files[r[0]], r[1] or sys.maxsize, r[2]))  # the llm's line-less ones last
    return [line for row in rows for line in row[3]]


def _distinct(findings: tuple[Finding, ...]) -> list[Finding]:
    """One line per code and message (a secret in the description and the body is one secret)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for f in findings:
        if (f.code, f.message) not in seen:
            seen.add((f.code, f.message))
            out.append(f)
    return out


def _related(f: Finding, o: Outcome) -> str:
    """Name the candidates of this import a finding points to, by where they came from."""
    mine = [r for r in f.related if r in o.earlier]
    return f" (from {', '.join(mine)}, earlier in this import)" if mine else ""


def _summary_line(summary: dict[str, Any], apply: bool, job: str | None) -> str:
    parts = [f"{summary['candidates']} candidate(s)"]
    if "log_lines" in summary:
        parts[0] += f" from {summary['log_lines']} log line(s) (the rest stays in the log)"
    parts.append(f"{summary['accepted']} accepted")
    refused = f"{summary['refused']} refused"
    if summary["refused_by_category"]:
        refused += " (" + ", ".join(f"{k} {v}" for k, v in summary["refused_by_category"].items()) + ")"
    parts.append(refused)
    if summary["skipped"]:
        parts.append(f"{summary['skipped']} skipped")
    line = ", ".join(parts) + "."
    if apply and job:
        return f"{line} Wrote {summary['accepted']} card(s) as job {job}; `cards undo` removes them."
    if apply or not summary["accepted"]:
        return f"{line} Nothing written."
    return f"{line} Nothing written: run again with --apply to write the {summary['accepted']} accepted card(s)."


MAX_LLM_CANDIDATES = 100


def _llm_candidates(vault: Vault, command: LlmCommand, item: Input, found: list[Candidate], default_type: str) -> list[Candidate]:
    """More statements of a log, from the configured llm command (a warning when it fails)."""
    override = vault.root / vault.config.templates if vault.config.templates else None
    prompt = templates.render("import-log-prompt.md.j2", override, source=item.source, log=numbered(item.text),
                              found=[c.text for c in found])
    answer, problem = ask(vault, command, prompt)
    if problem or answer is None:
        print(f"warning: llm command for {item.source}: {problem}; only the statements found without it are used",
              file=sys.stderr)
        return []
    extra, problems = parse_llm_answer(answer, item.source, len(item.text.splitlines()), default_type)
    if problems:
        print(f"warning: llm command for {item.source}: {len(problems)} line(s) of its answer ignored "
              f"({problems[0]})", file=sys.stderr)
    if len(extra) > MAX_LLM_CANDIDATES:
        print(f"warning: llm command for {item.source}: {len(extra)} statements; only the first "
              f"{MAX_LLM_CANDIDATES} are used", file=sys.stderr)
    return extra[:MAX_LLM_CANDIDATES]
