"""`cards import`: click options only; the work is in `cardindex.commands.import_`."""

from __future__ import annotations

import click

TYPES = ("user", "feedback", "project", "reference")


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
@click.option("--no-llm", is_flag=True, help="With --from-log, do not ask the configured llm command.")
@click.option("--llm", "llm", metavar="CMD", help="With --from-log, ask this command (instead of the configured one).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when candidates were refused.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format.")
@click.pass_obj
def import_cards(obj: object, files: tuple[str, ...], apply: bool, from_log: bool, card_type: str | None,
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
    from cardindex.commands import import_ as command

    vault = obj.open("recover" if apply else "warn")  # type: ignore[attr-defined]
    code = command.run(vault=vault, files=list(files), apply=apply, from_log=from_log,
                       card_type=card_type, use_llm=not no_llm, exit_zero=exit_zero, output_format=output_format,
                       llm=llm)
    click.get_current_context().exit(code)
