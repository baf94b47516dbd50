"""`cards mcp`: the real server, started as a subprocess and driven over stdio by the SDK's client.

Each test starts `python -m cardindex --vault VAULT mcp` with `stdio_client` and talks to it
through a `ClientSession`, as an agent's MCP client would, then checks what the tools
answered against the vault on disk (and, where the CLI has the same view, against the CLI's
own output). The server's stderr goes to a file: a traceback there fails the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import Result
from conftest import TODAY
from mcp import Client, ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.types import CallToolResult

pytestmark = pytest.mark.anyio

TOOLS = {"search", "read", "context", "add", "supersede", "lint", "archive", "changes", "status", "log", "state"}
SESSION_NOTE = "Currently halfway through the refactor, next step is the tests"
SESSION_SLUG = "currently-halfway-through-the-refactor"
SDK_MISSING = ("error: cards mcp needs the MCP SDK: pip install 'mcp>=2.3,<3' into this Python, "
               "or reinstall cardindex with its extra: pip install '/path/to/cardindex[mcp]'\n")
SPEC_KEYS = ["path", "line", "code", "category", "severity", "message", "related", "fix"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def serve(vault: Path, home: Path, *options: str, modern: bool = False) -> AsyncIterator[Any]:
    """A session with `cards --vault VAULT [OPTIONS] mcp`, run as a subprocess over stdio.

    By default a `ClientSession` with the initialize handshake, as today's clients do;
    `modern=True` uses the SDK's `Client`, which negotiates the newest protocol version.
    """
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "cardindex", "--vault", str(vault), *options, "mcp"],
        env={"HOME": str(home), "CARDS_TODAY": TODAY, "PYTHONUNBUFFERED": "1"},  # a stray print shows at once
        cwd=vault.parent,
    )
    log = vault.parent / "server-stderr.log"
    with log.open("w", encoding="utf-8") as errlog, anyio.fail_after(60):
        if modern:
            async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=30) as client:
                yield client
        else:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write, read_timeout_seconds=30) as session,
            ):
                await session.initialize()
                yield session
    # Nothing in the server prints: while it serves, the SDK points fd 1 at stderr, so a
    # stray print would land in this log (not corrupt the protocol), as would a traceback.
    assert log.read_text(encoding="utf-8") == ""


def data(result: CallToolResult) -> dict[str, Any]:
    """The structured result of a successful call; its text content is the same JSON."""
    assert not result.is_error, result.content
    assert result.structured_content is not None
    assert json.loads(text(result)) == result.structured_content
    return result.structured_content


def text(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    return block.text


def error(result: CallToolResult) -> str:
    """The one line of a tool error."""
    assert result.is_error
    assert result.structured_content is None
    message = text(result)
    assert "\n" not in message
    return message


@pytest.fixture
def cards(vault: Path, write_card: Callable[..., Path], make_card: Callable[..., str],
          invoke: Callable[..., Result]) -> Path:
    """The `vault` fixture with a few hand-written cards (one in a subfolder, one locked), indexed."""
    write_card(vault, "deploy-day.md", make_card(
        "Which weekday production deploys happen", key="deploy-day", verified="2026-09-14",
        body="Deploy to production on Thursdays only.\n\n**Why:** Tuesday deploys collided with the billing batch."))
    write_card(vault, "billing/owner.md", make_card(
        "Who owns the billing service", type="reference", key="billing-owner", scope="path:services/billing",
        body="The payments team owns billing; page them through #payments-oncall."))
    write_card(vault, "tabs.md", make_card(
        "Indentation the user wants in Go code", type="user", lock=True, body="Tabs, never spaces, in Go code."))
    result = invoke("index")
    assert result.exit_code == 0, result.stderr
    return vault


# --------------------------------------------------------------------------- listing and reading


async def test_tools_and_resources_are_listed_and_read_the_vault(
    cards: Path, fake_home: Path, invoke: Callable[..., Result]
) -> None:
    (cards / "archive").mkdir()
    (cards / "archive" / "deploy-day-tuesday.md").write_text(
        "---\ndescription: Which weekday production deploys happen\ntype: project\nstatus: superseded\n"
        "superseded_by: deploy-day\n---\nDeploy on Tuesdays.\n", encoding="utf-8")
    async with serve(cards, fake_home) as session:
        assert session.server_info is not None and session.server_info.name == "cardindex"
        tools = {t.name: t for t in (await session.list_tools()).tools}
        resources = (await session.list_resources()).resources
        templates = (await session.list_resource_templates()).resource_templates
        found = data(await session.call_tool("search", {"query": "deploy production"}))
        typed = data(await session.call_tool("search", {"query": "deploy production", "type": "user"}))
        scoped = data(await session.call_tool("search", {"query": "billing", "scope": "services/billing/api"}))
        elsewhere = data(await session.call_tool("search", {"query": "billing", "scope": "web"}))
        owner = data(await session.call_tool("read", {"id": "billing/owner"}))
        by_path = data(await session.call_tool("read", {"id": "billing/owner.md"}))
        archived = data(await session.call_tool("read", {"id": "deploy-day-tuesday"}))
        unknown = await session.call_tool("read", {"id": "nope"})
        full = await session.call_tool("context", {})
        narrow = await session.call_tool("context", {"scope": "src/web", "budget": 200})
        index = await session.read_resource("cards://index")
        card = await session.read_resource("cards://card/billing/owner")
        with pytest.raises(MCPError, match="no card 'nope'"):
            await session.read_resource("cards://card/nope")

    assert set(tools) == TOOLS

    def params(name: str) -> tuple[dict[str, Any], list[str]]:
        schema = tools[name].input_schema
        assert schema["type"] == "object"
        return schema["properties"], schema.get("required", [])

    props, required = params("search")
    assert (set(props), required) == ({"query", "type", "scope", "limit", "archived"}, ["query"])
    assert props["query"]["type"] == "string"
    assert props["type"]["anyOf"][0]["enum"] == ["user", "feedback", "project", "reference"]
    assert (props["limit"]["type"], props["limit"]["minimum"], props["limit"]["default"]) == ("integer", 1, 10)
    props, required = params("read")
    assert (set(props), required) == ({"id"}, ["id"])
    props, required = params("context")
    assert (set(props), required) == ({"scope", "budget", "query"}, [])
    assert (props["budget"]["type"], props["budget"]["minimum"], props["budget"]["default"]) == ("integer", 200, 6000)
    props, required = params("add")
    assert (set(props), required) == (
        {"text", "description", "type", "key", "scope", "name", "source", "tags", "force"}, ["text"])
    assert props["type"]["enum"] == ["user", "feedback", "project", "reference"]
    assert props["type"]["default"] == "project"
    assert props["tags"]["anyOf"][0] == {"items": {"type": "string"}, "type": "array"}
    assert (props["force"]["type"], props["force"]["default"]) == ("boolean", False)
    props, required = params("supersede")
    assert (set(props), required) == ({"old", "new"}, ["old", "new"])
    props, required = params("lint")
    assert (set(props), required) == ({"paths"}, [])

    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 80, name  # tells an agent when to use it
        for prop in tool.input_schema["properties"].values():
            assert prop.get("description"), (name, prop)
    assert "write gate" in (tools["add"].description or "")
    assert "session" in (tools["context"].description or "")
    read_only = {n for n, t in tools.items() if t.annotations and t.annotations.read_only_hint}
    assert read_only == {"search", "read", "context", "lint", "changes", "status"}
    assert tools["add"].output_schema is not None
    assert {"written", "findings", "id", "path"} <= set(tools["add"].output_schema["properties"])
    assert tools["context"].output_schema is None  # plain text

    assert [(str(r.uri), r.mime_type) for r in resources] == [("cards://index", "text/markdown")]
    assert [(t.uri_template, t.mime_type) for t in templates] == [("cards://card/{+id}", "text/markdown")]

    hits = found["hits"]
    assert [h["id"] for h in hits] == ["deploy-day"]  # the archived Tuesday card is not searched
    assert hits[0] == {
        "id": "deploy-day", "path": "deploy-day.md", "description": "Which weekday production deploys happen",
        "type": "project", "status": "active", "fact": "Deploy to production on Thursdays only.",
        "score": hits[0]["score"], "matched": "description", "weak": False, "conflict_with": [], "vault": None,
    }
    assert 40 <= hits[0]["score"] <= 100
    assert typed == {"hits": []}
    assert [h["id"] for h in scoped["hits"]] == ["billing/owner", "deploy-day"]  # global cards apply anywhere
    assert [h["id"] for h in elsewhere["hits"]] == ["deploy-day"]  # billing/owner is scoped to its service

    assert owner == by_path
    assert owner["text"] == (cards / "billing" / "owner.md").read_text(encoding="utf-8")
    assert owner["file"] == str((cards / "billing" / "owner.md").resolve())
    assert (owner["id"], owner["path"], owner["type"], owner["key"], owner["scope"]) == (
        "billing/owner", "billing/owner.md", "reference", "billing-owner", "path:services/billing")
    assert (owner["archived"], owner["status"], owner["lock"], owner["problems"]) == (False, "active", False, [])
    assert owner["fields"]["description"] == "Who owns the billing service"
    assert owner["body"].startswith("The payments team owns billing")
    assert (archived["path"], archived["archived"], archived["status"]) == (
        "archive/deploy-day-tuesday.md", True, "superseded")
    assert error(unknown) == f"error: no card 'nope' in {cards.resolve()}"

    assert not full.is_error and full.structured_content is None
    assert text(full) == invoke("context").stdout  # the same text as `cards context`
    assert "Tabs, never spaces" in text(full)
    assert text(narrow) == invoke("context", "--scope", "src/web", "--budget", "200").stdout

    assert [(str(c.uri), c.mime_type) for c in index.contents] == [("cards://index", "text/markdown")]
    assert index.contents[0].text == (cards / "INDEX.md").read_text(encoding="utf-8")
    assert card.contents[0].text == (cards / "billing" / "owner.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- writing

def without_cache(files: dict[str, bytes]) -> dict[str, bytes]:
    """A vault snapshot without `.cardindex/cache/`: what a command may refresh without writing anything."""
    return {rel: data for rel, data in files.items() if not rel.startswith(".cardindex/cache/")}


async def test_add_writes_through_the_gate_and_updates_the_index(
    cards: Path, fake_home: Path, snapshot: Callable[..., dict[str, bytes]],
    write_card: Callable[..., Path], make_card: Callable[..., str],
) -> None:
    write_card(cards, "timezone.md", make_card("The user's timezone", type="user", key="timezone", lock=True,
                                               body="Europe/Berlin."))
    facts = [
        "The ledger service is written in Rust.",
        "Customer data must stay in the eu-west-1 region.",
        "Code review needs two approvals before merging to main.",
        "The design system lives in Figma, owned by the Atlas team.",
    ]
    concurrent: list[dict[str, Any]] = []
    async with serve(cards, fake_home) as session:
        added = data(await session.call_tool("add", {
            "text": "Staging is reset every Monday at 06:00 UTC.",
            "description": "When the staging environment is wiped",
            "type": "reference", "key": "staging-reset", "tags": ["staging", "ops"],
            "source": "user said",
        }))
        index_on_disk = (cards / "INDEX.md").read_text(encoding="utf-8")
        index_resource = (await session.read_resource("cards://index")).contents[0]

        # The parse cache may be refreshed by any read (an entry stored while its card's mtime was too
        # recent to trust is stored again once it is not, which a slow machine reaches mid-test);
        # the cards, INDEX.md and the journal must not change.
        before = without_cache(snapshot(cards))
        refused = data(await session.call_tool("add", {"text": SESSION_NOTE}))
        unchanged = without_cache(snapshot(cards))
        forced = data(await session.call_tool("add", {"text": SESSION_NOTE, "force": True}))

        replaced = data(await session.call_tool("add", {
            "text": "Deploy to production on Wednesdays only, from 2026-12.",
            "description": "Which weekday production deploys happen from December", "key": "deploy-day",
        }))
        conflict = data(await session.call_tool("add", {
            "text": "America/New_York.", "key": "timezone", "type": "user",
            "description": "The user's timezone since the move",
        }))

        async def add(fact: str) -> None:
            concurrent.append(data(await session.call_tool("add", {"text": fact})))

        async with anyio.create_task_group() as group:
            for fact in facts:
                group.start_soon(add, fact)

    # A durable fact: written, indexed, journalled.
    path = cards / "when-the-staging-environment-is-wiped.md"
    assert added == {
        "written": True, "message": "added when-the-staging-environment-is-wiped "
                                    "(when-the-staging-environment-is-wiped.md)",
        "id": "when-the-staging-environment-is-wiped", "path": "when-the-staging-environment-is-wiped.md",
        "file": str(path.resolve()), "status": "active", "superseded": [], "conflicts_with": [],
        "job": added["job"], "findings": [], "warnings": [],
    }
    assert added["job"]
    card = path.read_text(encoding="utf-8")
    assert "key: staging-reset\n" in card and "source: user said\n" in card and "type: reference\n" in card
    assert card.endswith("---\nStaging is reset every Monday at 06:00 UTC.\n")
    assert "- [When the staging environment is wiped](when-the-staging-environment-is-wiped.md)" in index_on_disk
    assert index_resource.text == index_on_disk

    # Session-only: refused with the session category and every finding; nothing written.
    assert refused["written"] is False
    assert refused["message"].startswith("refused by the write gate (session); nothing written.")
    assert refused["findings"] and {f["category"] for f in refused["findings"]} == {"session"}
    first = refused["findings"][0]
    assert list(first) == SPEC_KEYS
    assert (first["path"], first["code"], first["severity"]) == (f"{SESSION_SLUG}.md", "S101", "error")
    assert "Currently" in first["message"]
    assert (refused["id"], refused["path"], refused["job"]) == (None, None, None)
    assert unchanged == before

    # force writes it anyway.
    assert forced["written"] is True and forced["id"] == SESSION_SLUG
    assert (cards / f"{SESSION_SLUG}.md").read_text(encoding="utf-8").endswith(f"---\n{SESSION_NOTE}\n")

    # A new value for a live key supersedes the old card at once.
    assert replaced["superseded"] == [{"id": "deploy-day", "archived_as": "archive/deploy-day.md"}]
    assert not (cards / "deploy-day.md").exists()
    assert f"superseded_by: {replaced['id']}\n" in (cards / "archive" / "deploy-day.md").read_text(encoding="utf-8")

    # A key held by a locked card: the new card is a conflict, the locked one stays.
    assert (conflict["written"], conflict["status"]) == (True, "conflict")
    assert (conflict["conflicts_with"], conflict["superseded"]) == (["timezone"], [])
    assert "conflict: key 'timezone' belongs to locked card timezone" in conflict["message"]
    assert "status: conflict\n" in (cards / conflict["path"]).read_text(encoding="utf-8")
    assert (cards / "timezone.md").is_file()

    # Calls made at once are served one at a time: nothing lost.
    assert [r["written"] for r in concurrent] == [True] * len(facts), concurrent
    index = (cards / "INDEX.md").read_text(encoding="utf-8")
    assert "(deploy-day.md)" not in index
    for path_ in [replaced["path"], f"{SESSION_SLUG}.md", conflict["path"], *(r["path"] for r in concurrent)]:
        assert (cards / path_).is_file() and f"({path_})" in index


async def test_supersede_and_errors_come_back_as_tool_errors(
    cards: Path, fake_home: Path, write_card: Callable[..., Path], make_card: Callable[..., str],
    invoke: Callable[..., Result], snapshot: Callable[..., dict[str, bytes]],
) -> None:
    write_card(cards, "deploy-day-tuesday.md", make_card("Which weekday deploys happened before", body="Tuesdays."))
    async with serve(cards, fake_home, "--no-cache") as session:
        before = snapshot(cards, state=False)
        empty = await session.call_tool("add", {"text": "  \n"})
        two_lines = await session.call_tool("add", {"text": "A fact.", "description": "one\ntwo"})
        bad_type = await session.call_tool("add", {"text": "A fact.", "type": "diary"})
        no_query = await session.call_tool("search", {})
        zero = await session.call_tool("search", {"query": "deploy", "limit": 0})
        small = await session.call_tool("context", {"budget": 10})
        locked = await session.call_tool("supersede", {"old": "tabs", "new": "deploy-day"})
        missing = await session.call_tool("supersede", {"old": "nope", "new": "deploy-day"})
        same = await session.call_tool("supersede", {"old": "deploy-day", "new": "deploy-day.md"})
        after_errors = snapshot(cards, state=False)

        done = data(await session.call_tool("supersede", {"old": "deploy-day-tuesday", "new": "deploy-day"}))
        again = await session.call_tool("supersede", {"old": "deploy-day-tuesday", "new": "deploy-day"})
        archived = data(await session.call_tool("read", {"id": "deploy-day-tuesday"}))

    # Errors: one line each, nothing written, and the server keeps serving.
    assert error(empty) == "error: empty card text; nothing written"
    assert error(two_lines) == "error: --description must be one line"
    for result in (bad_type, no_query, zero, small):  # the SDK checks the input schema
        assert result.is_error and result.structured_content is None
    assert error(locked) == "error: tabs.md is locked (stated by the user); use --force to change it anyway"
    assert error(missing) == f"error: no card 'nope' in {cards.resolve()}"
    assert error(same) == "error: OLD and NEW are the same card"
    assert after_errors == before

    assert done == {
        "message": "superseded deploy-day-tuesday by deploy-day; archived as archive/deploy-day-tuesday.md "
                   f"(job {done['job']})",
        "old": "deploy-day-tuesday", "new": "deploy-day", "archived_as": "archive/deploy-day-tuesday.md",
        "job": done["job"], "warnings": [],
    }
    assert not (cards / "deploy-day-tuesday.md").exists()
    old = (cards / "archive" / "deploy-day-tuesday.md").read_text(encoding="utf-8")
    assert "status: superseded\n" in old and "superseded_by: deploy-day\n" in old
    assert "supersedes: deploy-day-tuesday\n" in (cards / "deploy-day.md").read_text(encoding="utf-8")
    assert "deploy-day-tuesday" not in (cards / "INDEX.md").read_text(encoding="utf-8")
    assert (archived["archived"], archived["status"]) == (True, "superseded")
    assert error(again) == "error: archive/deploy-day-tuesday.md is already in the archive"
    assert done["job"] in invoke("journal").stdout


# --------------------------------------------------------------------------- lint


async def test_lint_returns_the_findings_of_cards_lint_json(
    cards: Path, fake_home: Path, write_card: Callable[..., Path], make_card: Callable[..., str],
    invoke: Callable[..., Result],
) -> None:
    write_card(cards, "progress.md", make_card("Where the refactor stands", body=SESSION_NOTE))
    # `cards lint --format json` adds which vault to each finding (README, the path convention);
    # the MCP server serves one vault, so its findings are SPEC §6's keys alone
    expected = [{k: v for k, v in f.items() if k != "vault"} for f in json.loads(invoke("lint", "--format", "json").stdout)]
    async with serve(cards, fake_home, modern=True) as session:
        assert session.server_info.name == "cardindex"
        everything = data(await session.call_tool("lint", {}))
        one = data(await session.call_tool("lint", {"paths": ["progress"]}))
        clean = data(await session.call_tool("lint", {"paths": ["billing/owner.md"]}))
        unknown = await session.call_tool("lint", {"paths": ["nope"]})

    assert everything == {"findings": expected}
    codes = {(f["path"], f["category"]) for f in everything["findings"]}
    assert ("progress.md", "session") in codes
    assert ("INDEX.md", "index") in codes  # progress.md is not in the index yet
    assert all(list(f) == SPEC_KEYS for f in everything["findings"])
    assert one["findings"] and {f["path"] for f in one["findings"]} == {"progress.md"}
    assert clean == {"findings": []}
    assert error(unknown) == f"error: no card 'nope' in {cards.resolve()}"


# --------------------------------------------------------------------------- the command


def test_without_the_sdk_cards_mcp_fails_with_one_line(vault: Path, fake_home: Path) -> None:
    probe = "import sys; sys.modules['mcp'] = None; from cardindex.cli import main; raise SystemExit(main(sys.argv[1:]))"
    result = subprocess.run(
        [sys.executable, "-c", probe, "--vault", str(vault), "mcp"],
        env={"HOME": str(fake_home), "CARDS_TODAY": TODAY, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (2, "", SDK_MISSING)


def test_cards_mcp_checks_the_vault_before_serving(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    result = run_cli("--vault", str(tmp_path / "missing"), "mcp")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: no such vault folder: {tmp_path / 'missing'}\n"
