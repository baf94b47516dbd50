"""`cards init`: make a folder a vault."""

from __future__ import annotations

import os
from pathlib import Path

import click

from cardindex.cli.options import Options, exit_with


def claude_memory_dir(project: Path) -> Path:
    """The memory directory Claude Code keeps for a project: its path with every
    character other than a letter or digit turned into '-', under ~/.claude/projects/."""
    import re

    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project.resolve()))
    return Path.home() / ".claude" / "projects" / slug / "memory"


def run(*, root: Path, index_file: str | None = None, claude: bool = False, dry_run: bool = False) -> int:
    """Write the config (commented defaults), `.cardindex/.gitignore` and the index.

    An index file kept by hand that links only to files is taken over (journalled, said);
    one with lines of its own is refused before anything is written.
    """
    from cardindex.cli.index import report_takeover
    from cardindex.index import build as index
    from cardindex.index import templates
    from cardindex.store.atomic import create_new
    from cardindex.store.config import CONFIG_FILE
    from cardindex.store.vault import STATE_DIR, Vault, today

    existed = (root / CONFIG_FILE).exists()
    name = index_file or ("MEMORY.md" if (root / "MEMORY.md").exists() and not (root / "INDEX.md").exists() else "INDEX.md")
    if not existed:
        _refuse_hand_kept(root, name)
    if dry_run:
        return _dry_run(root, name if not existed else None)
    root.mkdir(parents=True, exist_ok=True)
    if not existed:
        text = templates.render("config.yaml.j2", index_file=name)
        if index_file:
            text += f"\nindex_file: {index_file}\n"
        create_new(root / CONFIG_FILE, text)
    create_new(root / STATE_DIR / ".gitignore", "# cardindex local state: never committed\n*\n")
    vault = Vault(root)
    result = index.write(vault, today())
    verb = "Reinitialized existing" if existed else "Initialized"
    count = f"{result.shown} card{'' if result.shown == 1 else 's'}"
    count += f", {result.notes} note{'' if result.notes == 1 else 's'}" if result.notes else ""
    kind = "Claude Code memory directory as a cards vault" if claude else "cards vault"
    print(f"{verb} {kind} in {root} ({count} in {result.path})")
    report_takeover(result.takeover)
    return 0


def _dry_run(root: Path, name: str | None) -> int:
    """What init would write to the index, as a diff; nothing is written (not even the config)."""
    from cardindex.cli.index import show_preview
    from cardindex.store.vault import Vault

    vault = Vault(root, use_cache=False)
    if name is not None:  # the config init would write names the index file
        vault.config = vault.config._replace(index_file=name)
    return show_preview(vault)


def _refuse_hand_kept(root: Path, name: str) -> None:
    """Before anything is written: an index file kept by hand would be refused later anyway."""
    from cardindex.errors import Refused
    from cardindex.index.takeover import advice, describe, is_generated, stray_lines

    try:
        text = (root / name).read_bytes().decode("utf-8", "replace")
    except OSError:
        return
    if is_generated(text):
        return
    kept = stray_lines(root, text)
    if kept:
        raise Refused(
            f"holds {len(kept)} line(s) of its own (not links to files in the vault): {describe(kept)}; "
            f"regenerating it would lose them. Nothing was written. To let cards take it over, {advice(kept)} "
            f"(cards --vault {root} import {root / name}), then run cards init again",
            path=str(root / name),
        )


@click.command("init")
@click.argument("directory", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option("--index-file", metavar="NAME", help="Index file name, e.g. MEMORY.md for a Claude Code memory dir.")
@click.option("--claude", is_flag=True,
              help="Manage a Claude Code memory directory: MEMORY.md as the index; without DIRECTORY, the one "
                   "Claude Code uses for the current project (~/.claude/projects/<project>/memory).")
@click.option("-n", "--dry-run", is_flag=True, help="Show the index it would write as a diff; write nothing.")
@click.pass_obj
def init_command(obj: Options, directory: Path | None, index_file: str | None, claude: bool, dry_run: bool) -> None:
    """Make a folder a vault: .cardindex.yaml, .cardindex/ and INDEX.md.

    Safe to run again: existing settings and cards are kept. A MEMORY.md kept by hand
    that only links to files is taken over (journalled: `cards undo` restores it).

    \b
    Examples:
      cards init
      cards init memory/
      cards init --claude                 # this project's Claude Code memory directory
      cards init ~/.claude/projects/-home-me-proj/memory --claude
      cards init --claude --dry-run       # the MEMORY.md it would write, as a diff
    """
    if claude:
        if index_file not in (None, "MEMORY.md"):
            raise click.UsageError("--claude uses MEMORY.md as the index file")
        root = directory or (Path(obj.vault) if obj.vault else claude_memory_dir(Path.cwd()))
        exit_with(run(root=root, index_file="MEMORY.md", claude=True, dry_run=dry_run))
    root = directory or Path(obj.vault or os.environ.get("CARDS_VAULT") or ".")
    exit_with(run(root=root, index_file=index_file, dry_run=dry_run))
