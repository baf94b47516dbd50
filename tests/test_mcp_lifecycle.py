"""The MCP lifecycle tools — archive, changes, status, log, state — through a real MCP client over stdio.

Each must do what its command does, with the same checks and journal: an archive is
undone by `cards undo`, a log entry holding a secret is refused, the working memory
stays within its budget and its previous version is in the journal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from test_mcp import data, error, serve

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def put(vault: Path, name: str, description: str, body: str, **fields: str) -> None:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    (vault / name).write_text(f"---\ndescription: {description}\ntype: project\n{extra}---\n{body}\n", encoding="utf-8")


async def test_archive_changes_status_log_and_state(vault: Path, fake_home: Path,
                                                    invoke: Callable[..., Result]) -> None:
    put(vault, "deploy-day.md", "Which weekday production deploys go out", "Deploys go out on Tuesdays.")
    put(vault, "old-host.md", "Where staging ran before the move", "Staging ran on stg-01.")
    put(vault, "tabs.md", "Indentation in Go code", "Tabs, never spaces.", lock="true")
    assert invoke("index").exit_code == 0
    token = "ghp_" + "Zq9" * 12
    async with serve(vault, fake_home) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        archived = data(await session.call_tool("archive", {"ids": ["old-host"], "reason": "staging moved"}))
        locked = error(await session.call_tool("archive", {"ids": ["tabs"]}))
        logged = data(await session.call_tool("log", {"text": "Halfway through the export screen"}))
        secret = error(await session.call_tool("log", {"text": f"the CI token is {token}"}))
        state = data(await session.call_tool("state", {"budget": 400}))
        changes = data(await session.call_tool("changes", {"limit": 5}))
        status = data(await session.call_tool("status", {}))
    assert {"archive", "changes", "status", "log", "state"} <= set(tools)
    read_only = {n for n, t in tools.items() if t.annotations and t.annotations.read_only_hint}
    assert {"changes", "status"} <= read_only and not {"archive", "log", "state"} & read_only

    assert archived["archived"] == {"old-host": "archive/old-host.md"} and archived["job"]
    assert not (vault / "old-host.md").exists() and (vault / "archive" / "old-host.md").exists()
    assert "locked" in locked and (vault / "tabs.md").exists()

    assert logged["path"].startswith("log/") and logged["line"] == 3
    assert "Halfway through the export screen" in (vault / logged["path"]).read_text(encoding="utf-8")
    assert "secret" in secret and token not in secret

    assert state["characters"] <= 400 and state["job"] and "Halfway through the export screen" in state["text"]
    assert (vault / "CURRENT_STATE.md").read_text(encoding="utf-8") == state["text"]

    jobs = changes["jobs"]
    assert [j["command"] for j in jobs][:2] == ["state", "archive"]
    archive_job = next(j for j in jobs if j["command"] == "archive")
    assert archive_job["changes"] == [{"action": "archive", "card": "old-host", "reason": "mcp archive: staging moved"}]

    assert status["status"]["live"] == 2 and status["status"]["tiers"]["log"]["unread_entries"] == 1
    assert status["status"]["tiers"]["state"]["written"] is not None

    undone = invoke("undo")  # the newest job: the state; then the archive
    assert undone.exit_code == 0 and not (vault / "CURRENT_STATE.md").exists()
    assert invoke("undo").exit_code == 0 and (vault / "old-host.md").exists()
    listed = json.loads(invoke("list", "--format", "json").stdout)
    assert sorted(c["id"] for c in listed) == ["deploy-day", "old-host", "tabs"]
