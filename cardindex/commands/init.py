"""`cards init`: make a folder a vault."""

from __future__ import annotations

import re
from pathlib import Path

from .. import index, templates
from ..atomic import create_new
from ..config import CONFIG_FILE
from ..errors import Refused
from ..vault import STATE_DIR, Vault, today


def claude_memory_dir(project: Path) -> Path:
    """The memory directory Claude Code keeps for a project: its path with every
    character other than a letter or digit turned into '-', under ~/.claude/projects/."""
    slug = re.sub(r"[^A-Za-z0-9]", "-", str(project.resolve()))
    return Path.home() / ".claude" / "projects" / slug / "memory"


def run(*, root: Path, index_file: str | None = None, claude: bool = False) -> int:
    """Write the config (commented defaults), `.cardindex/.gitignore` and the index."""
    existed = (root / CONFIG_FILE).exists()
    name = index_file or ("MEMORY.md" if (root / "MEMORY.md").exists() and not (root / "INDEX.md").exists() else "INDEX.md")
    if not existed:
        _refuse_hand_kept(root, name)
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
    kind = "Claude Code memory directory as a cards vault" if claude else "cards vault"
    print(f"{verb} {kind} in {root} ({count} in {result.path})")
    return 0


def _refuse_hand_kept(root: Path, name: str) -> None:
    """Before anything is written: an index file kept by hand would be refused later anyway."""
    try:
        text = (root / name).read_bytes().decode("utf-8", "replace")
    except OSError:
        return
    if index.GENERATED_MARK in text.split("\n", 1)[0]:
        return
    paths = {p.relative_to(root).as_posix() for p in root.rglob("*.md")}
    kept = index.hand_kept_lines(text, paths)
    if kept:
        raise Refused(
            f"holds {len(kept)} line(s) of its own (facts, not links to cards), first at line {kept[0]}; "
            f"regenerating it would lose them. Nothing was written. Move them into cards first: "
            f"cards --vault {root} import {root / name}, then run cards init again",
            path=str(root / name),
        )
