"""Layered vaults for `cards context` and the MCP `context` tool (issue 15).

A user-level vault (preferences, personal rules) is read beside the project's: named with
`--with-vault`, `$CARDS_USER_VAULT`, or `user_vault:` in the user's own config
(`$XDG_CONFIG_HOME/cardindex/config.yaml`). Its cards share the ranking and the budget,
each named after its vault's folder; writes still go to the project vault.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from test_search_engine import put

Invoke = Callable[..., Result]


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    root = tmp_path / "mine"
    put(root, "tabs.md", "How the user indents shell scripts", "The user indents shell scripts with two spaces.",
        type="user")
    put(root, "brevity.md", "How long answers should be", "Answer in three sentences or fewer unless asked.",
        type="feedback")
    return root


@pytest.fixture
def project(vault: Path) -> Path:
    put(vault, "greenhouse.md", "When the greenhouse vents open", "The greenhouse vents open above 28 degrees.")
    put(vault, "sensors.md", "Which sensors the greenhouse uses", "Humidity comes from SHT45 sensors on each bench.")
    return vault


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def configure(config_home: Path, text: str) -> Path:
    path = config_home / "cardindex" / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_with_vault_adds_its_cards_each_named_by_its_vault(invoke: Invoke, project: Path, mine: Path) -> None:
    result = invoke("context", "--with-vault", str(mine))
    assert result.exit_code == 0, result.stderr
    assert "mine:tabs.md" in result.stdout and "mine:brevity.md" in result.stdout
    assert "(project: greenhouse.md)" in result.stdout and ", with mine)" in result.stdout.splitlines()[0]
    alone = invoke("context")
    assert "mine:" not in alone.stdout


def test_the_user_config_names_the_user_vault(invoke: Invoke, project: Path, mine: Path, xdg: Path) -> None:
    configure(xdg, f"user_vault: {mine}\n")
    data = json.loads(invoke("context", "--format", "json").stdout)
    ids = [c["id"] for item in data["items"] for c in item["cards"]]
    assert "mine:tabs" in ids and "greenhouse" in ids
    found = json.loads(invoke("search", "indent shell scripts", "--format", "json").stdout)
    assert found[0]["id"] == "tabs" and found[0]["vault"] == str(mine)
    added = invoke("add", "The greenhouse misting runs every 40 minutes in summer.", "--key", "misting")
    assert added.exit_code == 0, added.stderr
    assert (project / "misting.md").exists() or any(project.glob("*misting*.md"))
    assert not any(p.name.startswith("the-greenhouse") or "misting" in p.name for p in mine.iterdir())


def test_a_query_ranks_the_cards_of_both_vaults_together(invoke: Invoke, project: Path, mine: Path) -> None:
    result = invoke("context", "--with-vault", str(mine), "--query", "how long should my answers be",
                    "--budget", "400")
    assert result.exit_code == 0, result.stderr
    body = [line for line in result.stdout.splitlines() if line.startswith("- ")]
    assert body and "mine:brevity.md" in body[0]


def test_a_bad_user_vault_setting_is_one_line(invoke: Invoke, project: Path, xdg: Path) -> None:
    configure(xdg, "user_vault: [1, 2]\n")
    result = invoke("context")
    assert result.exit_code == 2 and "user_vault" in result.stderr and "Traceback" not in result.stderr
    configure(xdg, f"user_vault: {project.parent / 'nowhere'}\n")
    result = invoke("context")
    assert result.exit_code == 2 and "no such vault folder" in result.stderr


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_mcp_context_tool_reads_the_user_vault(project: Path, mine: Path, fake_home: Path) -> None:
    pytest.importorskip("mcp")
    from test_mcp import serve, text

    config = configure(fake_home / ".config", f"user_vault: {mine}\n")  # the server's ~/.config
    try:
        async with serve(project, fake_home) as session:
            result: Any = await session.call_tool("context", {"query": "indenting a shell script", "budget": 800})
            said = text(result)
            assert "mine:tabs.md" in said and "greenhouse" in said
            found: Any = await session.call_tool("search", {"query": "shell script indentation"})
            assert "tabs" in text(found)
    finally:
        shutil.rmtree(fake_home / ".config")
    assert not config.exists()
