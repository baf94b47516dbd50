"""`cards init`: make a folder a vault."""

from __future__ import annotations

from pathlib import Path

from .. import index, templates
from ..atomic import create_new
from ..config import CONFIG_FILE
from ..vault import STATE_DIR, Vault, today


def run(*, root: Path, index_file: str | None = None) -> int:
    """Write the config (commented defaults), `.cardindex/.gitignore` and the index."""
    root.mkdir(parents=True, exist_ok=True)
    existed = (root / CONFIG_FILE).exists()
    if not existed:
        name = index_file or ("MEMORY.md" if (root / "MEMORY.md").exists() and not (root / "INDEX.md").exists() else "INDEX.md")
        text = templates.render("config.yaml.j2", index_file=name)
        if index_file:
            text += f"\nindex_file: {index_file}\n"
        create_new(root / CONFIG_FILE, text)
    create_new(root / STATE_DIR / ".gitignore", "# cardindex local state: never committed\n*\n")
    vault = Vault(root)
    result = index.write(vault, today())
    verb = "Reinitialized existing" if existed else "Initialized"
    count = f"{result.shown} card{'' if result.shown == 1 else 's'}"
    print(f"{verb} cards vault in {root} ({count} in {result.path})")
    return 0
