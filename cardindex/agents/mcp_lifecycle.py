"""The MCP tools for the rest of a memory's life: archive, recent changes, status, the raw log and the working memory.

Each does what its command does, through the same core (the same checks, the same
journal): `archive` is `cards archive`, `changes` reads `cards journal`, `status` is
`cards status --format json`, `log` is `cards log`, `state` is `cards state`. A write
through MCP is as safe as one from the shell: the vault lock, one journalled job, undo.
`mcp_server.build` registers them; every answer passes its redaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, Field

from cardindex.store.vault import Vault


class ArchiveResult(BaseModel):
    message: str
    archived: dict[str, str | None] = Field(description="Each card id and where it went in the archive.")
    job: str | None = Field(description="The journal job (`cards undo JOB` reverts it).")


class Change(BaseModel):
    action: str = Field(description="add, merge, supersede, conflict, archive, remove, state, ...")
    card: str
    reason: str


class Job(BaseModel):
    id: str
    time: str
    command: str
    undone: bool = Field(description="Whether a later `cards undo` reverted it.")
    changes: list[Change]


class ChangesResult(BaseModel):
    jobs: list[Job] = Field(description="Newest first.")


class StatusResult(BaseModel):
    status: dict[str, Any] = Field(description="What `cards status --format json` prints.")


class LogResult(BaseModel):
    message: str
    path: str = Field(description="The day's log file, relative to the vault.")
    line: int


class StateResult(BaseModel):
    message: str
    path: str
    job: str | None = Field(description="The journal job holding the previous version (None: unchanged).")
    characters: int
    budget: int
    text: str = Field(description="The working memory as written.")
    dropped: list[str] = Field(description="Lines of the previous version that are no longer in it.")


def register(server: MCPServer, vault: Callable[[], Vault], answer: Callable[[Callable[[], BaseModel | str]],
                                                                            CallToolResult]) -> None:
    """Add the lifecycle tools to `server` (`vault` opens the vault per call; `answer` redacts and reports errors)."""
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                                             open_world_hint=False))
    def archive(
        ids: Annotated[list[str], Field(description="Ids of the cards that no longer hold.")],
        reason: Annotated[str | None, Field(description="Why, for the journal.")] = None,
    ) -> Annotated[CallToolResult, ArchiveResult]:
        """Move cards that no longer hold to the archive (kept, never indexed; journalled, undoable).

        Use `supersede` instead when a newer card replaces one. Locked cards are refused.
        """
        return answer(lambda: _archive(vault(), ids, reason))

    @server.tool(annotations=read_only)
    def changes(
        limit: Annotated[int, Field(description="How many jobs, newest first.", ge=1, le=200)] = 20,
    ) -> Annotated[CallToolResult, ChangesResult]:
        """What changed in the memory recently: the journal's jobs (adds, merges, supersessions, archives) with reasons."""
        return answer(lambda: _changes(vault(), limit))

    @server.tool(annotations=read_only)
    def status() -> Annotated[CallToolResult, StatusResult]:
        """The memory's backlog: cards changed since the last consolidation, open conflicts, unread log
        entries, the working memory's age, the index budget, the last job."""
        return answer(lambda: StatusResult(status=_status(vault())))

    @server.tool(annotations=writes)
    def log(
        text: Annotated[str, Field(description="What happened: progress, what was tried, where work stopped.")],
    ) -> Annotated[CallToolResult, LogResult]:
        """Append a note to today's raw log (never a card). For what is true only in this session —
        progress, next steps — which `add` refuses. Nightly consolidation turns its durable
        statements (decisions, corrections) into cards."""
        return answer(lambda: _log(vault(), text))

    @server.tool(annotations=writes)
    def state(
        budget: Annotated[int | None, Field(description="Characters (default: the vault's state_budget).",
                                            ge=200, le=100_000)] = None,
    ) -> Annotated[CallToolResult, StateResult]:
        """Rewrite the working memory (CURRENT_STATE.md): open work and next focus from the log, recent
        learnings, key cards, within its budget. The previous version stays in the journal."""
        return answer(lambda: _state(vault(), budget))


def _archive(vault: Vault, ids: list[str], reason: str | None) -> ArchiveResult:
    from cardindex.errors import UsageError
    from cardindex.lifecycle.retire import archive_cards

    if not ids:
        raise UsageError("name at least one card id to archive")
    done = archive_cards(vault=vault, refs=ids, reason=f"mcp archive: {reason}" if reason else "mcp archive")
    archived = {d.step.card.id: d.path for d in done.done}
    return ArchiveResult(message=f"archived {len(archived)} card(s) (job {done.job})", archived=archived, job=done.job)


def _changes(vault: Vault, limit: int) -> ChangesResult:
    from cardindex.lifecycle.undo import undone
    from cardindex.store.journal import Journal

    jobs = Journal(vault.state_dir).jobs()
    reverted = undone(jobs)
    out = []
    for job in reversed(jobs[-limit:] if limit else jobs):
        if job.get("rolled_back"):
            continue
        out.append(Job(id=str(job.get("id")), time=str(job.get("time")), command=str(job.get("command")),
                       undone=str(job.get("id")) in reverted,
                       changes=[Change(action=str(a.get("action")), card=str(a.get("card")), reason=str(a.get("reason")))
                                for a in job.get("actions") or []]))
    return ChangesResult(jobs=out)


def _status(vault: Vault) -> dict[str, Any]:
    from cardindex.agents.status_report import report

    return report(vault)


def _log(vault: Vault, text: str) -> LogResult:
    from cardindex.store.daily_log import log_to, utc_now

    entry = log_to(vault.log_folder(), text, utc_now())
    rel = vault.rel(entry.path)
    return LogResult(message=f"logged to {rel}:{entry.line}", path=rel, line=entry.line)


def _state(vault: Vault, budget: int | None) -> StateResult:
    from cardindex.agents.state import write
    from cardindex.store.daily_log import utc_now

    done = write(vault, utc_now(), budget)
    limit = budget or vault.config.state_budget
    text = done.state.text
    message = (f"wrote {done.path}: {len(text)} of {limit} characters (job {done.job})" if done.job
               else f"{done.path} is up to date")
    return StateResult(message=message, path=done.path, job=done.job, characters=len(text), budget=limit, text=text,
                       dropped=done.dropped)
