"""Convert a card, or a whole vault, to the nested form Claude Code writes since 2.1.146.

Claude Code moves every frontmatter key except `name`, `description` and `metadata`
under `metadata:` and adds `node_type: memory`, `originSessionId` and `modified`. The
converter does the same, moving each field's lines verbatim (comments, quoting, block
values and all) and indenting them by two spaces.

`modified` is evidence (SPEC §2: `verified`, else `created`, else `modified`). Claude Code
stamps the time of its write; a converter that invented one would add evidence the flat
card does not have, and decisions would rightly differ. So `modified` is the card's own
evidence date (its `verified`, else its `created`) as a UTC timestamp, and is left out of
a card that has neither: the one choice under which nested and flat carry the same facts.
"""

from __future__ import annotations

import re
import shutil
import uuid
from pathlib import Path

from cardindex.store.card import Card

TOP = ("name", "description", "metadata")
CLAUDE_KEYS = ("node_type", "originSessionId", "modified")
_KEY = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)")


def to_nested(text: str, path: str) -> str:
    """`text` (a card at vault path `path`) in Claude Code's nested form; other files unchanged."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return text
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") in ("---", "...")), None)
    if close is None:
        return text
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    entries: list[tuple[str | None, list[str]]] = []
    for line in lines[1:close]:
        m = _KEY.match(line)
        if m:
            entries.append((m.group(1), [line]))
        elif entries and entries[-1][0] is not None and (line[:1] in (" ", "\t", "-") or not line.strip()):
            entries[-1][1].append(line)
        else:
            entries.append((None, [line]))  # a comment (or anything else) at column 0
    top: list[str] = []
    below: list[str] = []
    moved: list[str] = []
    for key, group in entries:
        if key == "metadata":
            if group[0].split(":", 1)[1].strip():
                return text  # a flow mapping `metadata: {...}`: left as it is
            below += group[1:]
        elif key in ("name", "description"):
            top += group
        else:
            moved += ["  " + line if line.strip() else line for line in group]
    card = Card.from_text(path, text)
    have = {m.group(1) for m in (re.match(r"  ([A-Za-z_][\w-]*):", line) for line in below + moved) if m}
    added = []
    if "node_type" not in have:
        added.append(f"  node_type: memory{newline}")
    if "originSessionId" not in have:
        added.append(f"  originSessionId: {uuid.uuid5(uuid.NAMESPACE_URL, path)}{newline}")
    evidence = card.verified or card.created
    if "modified" not in have and evidence is not None:
        added.append(f"  modified: {evidence.isoformat()}T09:41:07Z{newline}")
    block = below + moved + added
    out = [lines[0], *top, f"metadata:{newline}", *block, *lines[close:]] if block else lines
    return "".join(out)


def convert_vault(source: Path, target: Path) -> Path:
    """Copy the vault at `source` to `target` with every card in nested form (state folder left out)."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".cardindex"))
    for path in sorted(target.rglob("*.md")):
        rel = path.relative_to(target).as_posix()
        if path.name in ("INDEX.md", "MEMORY.md", "README.md", "CURRENT_STATE.md") or rel.startswith("log/"):
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        path.write_bytes(to_nested(text, rel).encode("utf-8"))
    return target
