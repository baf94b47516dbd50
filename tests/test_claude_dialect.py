"""An unquoted `: ` in a description is Claude Code's own dialect: no F006 in a Claude Code memory directory.

Claude Code writes `description: Reset the host key: ssh-keygen -R` and reads it back; so does
cards (leniently, as text). Strict YAML tools do not, so F006 warns in a vault of our own;
in a folder whose index is MEMORY.md (`index_file: MEMORY.md`) it would flag a quarter of a
real vault for a form its one reader accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result

CARD = ("---\nname: host key reset\ndescription: After a rebuild: clear the old host key first\ntype: feedback\n---\n"
        "Rebuilt machines keep their name but not their key, so ssh refuses until the entry is removed.\n")


def _codes(invoke: Callable[..., Result], vault: Path) -> set[str]:
    import json

    done = invoke("--vault", str(vault), "lint", "--format", "json")
    return {f["code"] for f in json.loads(done.stdout)}


def test_warned_in_a_vault_of_our_own(invoke: Callable[..., Result], tmp_path: Path) -> None:
    vault = tmp_path / "mem"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("{}\n", encoding="utf-8")
    (vault / "host-key.md").write_text(CARD, encoding="utf-8")
    assert "F006" in _codes(invoke, vault)


def test_silent_in_a_claude_code_memory_directory(invoke: Callable[..., Result], tmp_path: Path) -> None:
    vault = tmp_path / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("index_file: MEMORY.md\n", encoding="utf-8")
    (vault / "host-key.md").write_text(CARD, encoding="utf-8")
    assert "F006" not in _codes(invoke, vault)


def test_silent_in_a_claude_code_directory_found_without_config(invoke: Callable[..., Result], tmp_path: Path) -> None:
    """A Claude Code memory folder as Claude Code leaves it: MEMORY.md, cards, no .cardindex.yaml."""
    vault = tmp_path / "memory"
    vault.mkdir()
    (vault / "MEMORY.md").write_text("- [Host key reset](host-key.md) — after a rebuild\n", encoding="utf-8")
    (vault / "host-key.md").write_text(CARD, encoding="utf-8")
    assert "F006" not in _codes(invoke, vault)


def test_warned_where_an_index_of_our_own_sits_beside_a_memory_file(invoke: Callable[..., Result],
                                                                   tmp_path: Path) -> None:
    vault = tmp_path / "mem"
    vault.mkdir()
    (vault / "INDEX.md").write_text("", encoding="utf-8")
    (vault / "MEMORY.md").write_text("- [Host key reset](host-key.md)\n", encoding="utf-8")
    (vault / "host-key.md").write_text(CARD, encoding="utf-8")
    assert "F006" in _codes(invoke, vault)
