"""`cards import FILE...`: bring existing memory in, one candidate card per fact, through the write gate.

Every candidate is rendered exactly as `cards add` would write it and reviewed by the
same write gate, against the vault and against the candidates this import already
accepted (so a file that says one thing twice yields one card). Nothing is written
without `--apply`; with it, the accepted cards are one journalled job that one
`cards undo` removes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardindex.cli.options import TYPES

if TYPE_CHECKING:
    from cardindex.agents.import_review import Input, Outcome
    from cardindex.agents.importer import Candidate, Skipped
    from cardindex.lifecycle.llm import LlmCommand
    from cardindex.lint.finding import Finding
    from cardindex.store.vault import Vault


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
    import contextlib

    from cardindex.agents.import_review import review, write_accepted
    from cardindex.cli.output import echo, echo_json
    from cardindex.cli.progress import Progress
    from cardindex.errors import UsageError
    from cardindex.index import build as index
    from cardindex.store.jobs import recover
    from cardindex.store.os_errors import all_or_nothing
    from cardindex.store.vault import today

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
    with Progress("import"), vault.lock() if apply else contextlib.nullcontext():  # a report alone blocks no writer
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
    from cardindex.agents.import_log import extract_log
    from cardindex.agents.importer import split_markdown
    from cardindex.lifecycle.llm import chosen

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
    from cardindex.agents.import_review import Input
    from cardindex.errors import UsageError
    from cardindex.store.card import MAX_BYTES
    from cardindex.store.vault import escaped, valid_name

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
    from cardindex.store.card import MAX_BYTES

    return (f"is {size:,} bytes, over the {MAX_BYTES // 1_000_000} MB limit; split it into smaller files "
            "first (memory that large is a log, not a set of facts)")


def _decode(data: bytes, name: str) -> str:
    from cardindex.errors import UsageError
    from cardindex.store.card import MAX_BYTES

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
    from cardindex.agents.importer import index_lines

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
            shown = _shown_description(o) or ("(text withheld: it holds a secret)" if o.secret else "(no text)")
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
    from cardindex.agents.import_log import numbered, parse_llm_answer
    from cardindex.index import templates
    from cardindex.lifecycle.llm import ask

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


@click.command("import")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--apply", is_flag=True, help="Write the accepted cards, as one journalled job (default: only report).")
@click.option("--from-log", is_flag=True,
              help="FILES are daily raw logs: take only explicit corrections, decisions, preferences and "
                   "'remember that' requests (and ask the configured llm command for more).")
@click.option("-t", "--type", "card_type", type=click.Choice(TYPES),
              help="Type for candidates whose section heading suggests none (default: project); with "
                   "--from-log, the type of every statement (default: by kind: corrections and 'always/never' "
                   "feedback, 'I prefer' user, decisions project).")
@click.option("--no-llm", is_flag=True, help="With --from-log, do not ask the configured llm ")
@click.option("--llm", "llm", metavar="CMD", help="With --from-log, ask this command (instead of the configured one).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when candidates were refused.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format.")
@click.pass_obj
def import_cards_command(obj: object, files: tuple[str, ...], apply: bool, from_log: bool, card_type: str | None,
                 no_llm: bool, llm: str | None, exit_zero: bool, output_format: str) -> None:
    """Split existing memory into one candidate card per fact, through the write gate.

    A monolithic MEMORY.md, CLAUDE.md or notes file is split into facts: each bullet
    (with its continuation lines, nested bullets and the code block it introduces) and
    each paragraph. Headings give the type ("Preferences": user, "Feedback": feedback,
    "References": reference, else project), and `source:` records FILE:LINE. Every
    candidate passes the write gate of `cards add`, against the vault and against the
    candidates accepted before it: session notes, secrets, what the repo already says and
    duplicates are refused, with the reason. Link lines of an existing index
    (`- [Title](card.md) — hook`), tables and lone code blocks are skipped, with a note.
    A file that is already a card (a memory of another Claude Code memory folder:
    frontmatter with a description, name, type or metadata) is one candidate, copied
    byte for byte under its own file name when that is free.

    Nothing is written without --apply. With it, the accepted cards are written as one
    journalled job (`cards undo` removes them all) and INDEX.md is updated; an existing
    card is never overwritten. Importing the vault's own hand-kept MEMORY.md replaces it
    with the generated index (the journal keeps the old file).

    With --from-log, a daily raw log stays raw: only explicit corrections ("actually,
    …", "no, use …"), decisions ("we decided", "going forward"), preferences ("I
    prefer", "always …", "never …") and "remember that …" requests are taken. An llm
    command (--llm CMD, your own config, or a vault you trusted with `cards trust`)
    also gets the log (prompt: templates/import-log-prompt.md.j2, on stdin) and answers
    one statement per line; its statements pass the same gate.

    FILE may be '-' for stdin. Exit 0 when every candidate was accepted, 1 when any was
    refused (the accepted ones are still written with --apply; --exit-zero makes it 0),
    2 for a missing, binary, non-UTF-8 or over-1-MB file (then nothing is imported from any FILE).

    \b
    Examples:
      cards import CLAUDE.md                     # what would become cards, and what not
      cards import CLAUDE.md notes.md --apply    # write the accepted ones
      cards import --from-log memory/2026-11-03.md --format json
      pbpaste | cards import - --type feedback
      cards undo                                 # remove what the last import wrote
    """
    vault = obj.open("recover" if apply else "warn")  # type: ignore[attr-defined]
    code = run(vault=vault, files=list(files), apply=apply, from_log=from_log,
                       card_type=card_type, use_llm=not no_llm, exit_zero=exit_zero, output_format=output_format,
                       llm=llm)
    click.get_current_context().exit(code)
