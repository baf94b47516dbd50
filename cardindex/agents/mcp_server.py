"""`cards mcp`: the vault served to agents over MCP (stdio), on the official `mcp` SDK.

Tools: `search`, `read`, `context`, `add` (through the write gate of `cards add`),
`supersede` and `lint`, and the lifecycle tools of `mcp_lifecycle` (`archive`,
`changes`, `status`, `log`, `state`); resources: the index (`cards://index`) and each card
(`cards://card/{id}`). Only `cards mcp` imports this module (the SDK is an extra).

stdout is the protocol channel, so nothing here prints: the commands' cores return
data. Every call opens the vault anew (a person or another process may have changed it
since the last call), and calls are served one at a time; writes take the vault lock
as the CLI does. What the CLI reports as `error: MESSAGE` (a `CardIndexError`: an
unknown card, a bad argument, a locked card) comes back as a tool error (`isError`)
with that one line. A card the write gate refuses is not an error but the normal
result of `add`: `written: false` and every finding, for the agent to read and act on.

Every answer passes the one redaction in `answer` (and the resources in theirs):
secrets become `[redacted]` and control characters are escaped in every string of a
result, an error line, the index and a card file. The index and `context` withhold a
card with a secret altogether, as `cards index` and `cards context` do.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from cardindex import __version__
from cardindex.agents.context import render as render_context
from cardindex.agents.facts import fact
from cardindex.agents.mcp_lifecycle import register as register_lifecycle
from cardindex.agents.search import find_layered, layers
from cardindex.agents.summary import jsonable, summary
from cardindex.errors import CardIndexError, NotFound, UsageError
from cardindex.index import build as card_index
from cardindex.lifecycle.add import GateRefused, add_card
from cardindex.lifecycle.retire import supersede_card
from cardindex.lint.finding import Finding
from cardindex.lint.registry import selected
from cardindex.lint.runner import lint as lint_cards
from cardindex.redaction import shown, shown_data
from cardindex.store.os_errors import failure
from cardindex.store.vault import Vault, today

CardType = Literal["user", "feedback", "project", "reference"]

INSTRUCTIONS = """\
This server is the agent's long-term memory: a vault of Markdown cards, one durable fact
per card, with a generated index.
- At the start of a session, call `context` (optionally with the scope you work in) and
  read it: locked and conflicting facts come first.
- Before answering from memory or adding a fact, `search` for it; `read` shows a card.
- `add` stores one durable fact per call: what will still hold in a later session
  (decisions, preferences, conventions, where things are). It refuses notes true only in
  this session, what the code or git history already records, duplicates and secrets,
  and says why; rewrite the fact or leave it out. A `key` names the slot a fact fills: a
  new value for a key replaces the old card at once.
- When a card is wrong or outdated, `supersede` it with the card that replaces it;
  `archive` what no longer holds at all.
- Progress, next steps and what you tried go to `log` (the raw daily log), not `add`;
  `state` rewrites the bounded working memory from it. `changes` shows what changed in
  memory recently, `status` the backlog.
"""


# ----------------------------------------------------------------------------- results


class LintFinding(BaseModel):
    """A lint finding, key for key the JSON of `cards lint --format json` (SPEC §6)."""

    path: str = Field(description="The card's path, relative to the vault.")
    line: int
    code: str = Field(description="The rule code; `cards rule CODE` explains it.")
    category: str = Field(
        description="structure, derivable, session, duplicate, contradiction, stale, secret or index."
    )
    severity: str = Field(description="error or warning.")
    message: str
    related: list[str] = Field(description="The other card(s) of a duplicate or contradiction.")
    fix: str | None = Field(description="What `cards lint --fix` would do, if anything.")

    @classmethod
    def of(cls, finding: Finding) -> LintFinding:
        return cls.model_validate(finding.as_json())


class SearchHit(BaseModel):
    id: str = Field(description="The card id: pass it to `read` or `supersede`.")
    path: str = Field(description="The card's path, relative to the vault.")
    description: str = Field(description="What the fact is for.")
    type: str | None
    status: str
    fact: str = Field(description="The fact itself, in one paragraph (without its Why/How lines).")
    score: float = Field(description="0-100: the share of the query found, higher is better.")
    matched: str = Field(description="Where the query matched best: title, description, key, tags or body.")
    weak: bool = Field(description="True when the best hit holds little of the query: the vault may not know it.")
    conflict_with: list[str] = Field(description="The other sides, when this card is one side of a conflict.")
    vault: str | None = Field(default=None, description="The user-level vault holding it; None: this vault.")


class SearchResult(BaseModel):
    hits: list[SearchHit] = Field(description="Best first; empty when nothing matches.")


class CardView(BaseModel):
    id: str
    path: str = Field(description="The card's path, relative to the vault.")
    file: str = Field(description="The card's absolute file path.")
    archived: bool = Field(description="True for a retired card in the archive folder.")
    status: str = Field(description="active, conflict, superseded, archived, stale, expired or invalid.")
    name: str | None
    description: str
    type: str | None
    key: str | None
    scope: str
    lock: bool = Field(description="Stated by the user; never changed by the tools.")
    created: str | None
    verified: str | None
    expires: str | None
    tags: list[Any]
    fields: dict[str, Any] = Field(description="Every frontmatter field, as written.")
    body: str = Field(description="The Markdown body: the fact, and its Why/How lines.")
    text: str = Field(description="The whole file as it is on disk, secrets shown as [redacted].")
    problems: list[str] = Field(description="Why the card cannot be used, when it is broken.")


class Retired(BaseModel):
    id: str = Field(description="The card that held the same key before.")
    archived_as: str | None = Field(description="Where it went in the archive.")


class AddResult(BaseModel):
    written: bool = Field(description="False when the write gate refused the card: nothing was written.")
    message: str = Field(description="One line: what happened.")
    id: str | None = Field(default=None, description="The new card's id.")
    path: str | None = Field(default=None, description="The new card's path, relative to the vault.")
    file: str | None = Field(default=None, description="The new card's absolute file path.")
    status: str | None = Field(
        default=None, description="active, or conflict when a locked card holds the same key."
    )
    superseded: list[Retired] = Field(default_factory=list, description="Cards the new one replaced (same key).")
    conflicts_with: list[str] = Field(default_factory=list, description="Locked cards holding the same key.")
    job: str | None = Field(default=None, description="The journal job (`cards undo JOB` reverts it).")
    findings: list[LintFinding] = Field(default_factory=list, description="Why the write gate refused the card.")
    warnings: list[str] = Field(default_factory=list)


class SupersedeResult(BaseModel):
    message: str
    old: str = Field(description="The superseded card's id.")
    new: str = Field(description="The card that replaces it.")
    archived_as: str | None = Field(description="Where the old card went in the archive.")
    job: str | None = Field(description="The journal job (`cards undo JOB` reverts it).")
    warnings: list[str] = Field(default_factory=list)


class LintResult(BaseModel):
    findings: list[LintFinding] = Field(description="Sorted by path and line; empty when the cards are clean.")


# ----------------------------------------------------------------------------- the server

Query = Annotated[str, Field(description="A few words; typos and other word forms are found too.")]
CardId = Annotated[str, Field(description="A card id (billing/owner) or its path in the vault (billing/owner.md).")]
Scope = Annotated[
    str | None,
    Field(description="Where the agent works: a path (src/api), path:..., repo:NAME or a free-text scope."),
]


def build(root: Path, *, use_cache: bool = True) -> MCPServer:
    """The MCP server for the vault at `root` (not yet running)."""
    root = root.resolve()
    serial = threading.Lock()  # tools run on worker threads: one call at a time

    def vault() -> Vault:
        return Vault(root, use_cache=use_cache)

    def answer(work: Callable[[], BaseModel | str]) -> CallToolResult:
        with serial:
            try:
                result = work()
            except (CardIndexError, OSError) as exc:  # a full disk, a read-only vault: one line, and serve on
                problem = exc if isinstance(exc, CardIndexError) else failure(exc)
                return CallToolResult(content=[TextContent(type="text", text=f"error: {shown(str(problem))}")],
                                      is_error=True)
        if isinstance(result, str):
            return CallToolResult(content=[TextContent(type="text", text=shown(result))])
        data: dict[str, Any] = shown_data(result.model_dump(mode="json"))  # type: ignore[assignment]
        return CallToolResult(
            content=[TextContent(type="text", text=json.dumps(data, indent=1, ensure_ascii=False))],
            structured_content=data,
        )

    server = MCPServer(
        "cardindex",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def search(
        query: Query,
        type: Annotated[CardType | None, Field(description="Only cards of this type.")] = None,
        scope: Annotated[
            str | None, Field(description="Only cards that apply to this scope (global ones always do).")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=50, description="At most this many hits.")] = 10,
        archived: Annotated[
            bool, Field(description="Search superseded and archived cards too (each hit says its status).")
        ] = False,
    ) -> Annotated[CallToolResult, SearchResult]:
        """Find live cards by ranked match over titles, descriptions, keys, tags and bodies, best first.

        Ask in your own words (word forms, compounds, typos are found); `weak` hits mean the
        vault probably does not know. Use it before answering from memory, and before `add`,
        to see whether the fact is known (then update it through its `key` or `supersede`).
        """
        return answer(lambda: _search(vault(), query, type, scope, limit, archived))

    @server.tool(annotations=read_only)
    def read(id: CardId) -> Annotated[CallToolResult, CardView]:
        """Read one card: its full text, frontmatter fields and status, archived ones too.

        Use it when a `search` hit or a line of the index is not enough.
        """
        return answer(lambda: _read(vault(), id))

    @server.tool(annotations=read_only, structured_output=False)
    def context(
        scope: Scope = None,
        budget: Annotated[int, Field(ge=200, description="At most this many characters.")] = 6000,
        query: Annotated[
            str | None, Field(description="The task at hand: the cards that match it come first.")
        ] = None,
    ) -> CallToolResult:
        """What to read at the start of a session: the live facts that matter here, within a budget.

        Locked, conflicting, user and feedback cards first, then the newest evidence; a
        conflict shows every side, marked "verify before acting". The same text as
        `cards context`.
        """
        return answer(lambda: _context(vault(), scope, budget, query))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                             open_world_hint=False))
    def add(
        text: Annotated[
            str,
            Field(description="The fact: one durable fact, in a sentence or two; optional **Why:** and "
                              "**How to apply:** lines after it."),
        ],
        description: Annotated[
            str | None,
            Field(description="One line: what the fact is for (what the index shows). Default: the first line."),
        ] = None,
        type: Annotated[
            CardType,
            Field(description="user (who the user is, their preferences), feedback (how the user wants the agent "
                              "to work), project (decisions, conventions, state of the project), reference "
                              "(where things are)."),
        ] = "project",
        key: Annotated[
            str | None,
            Field(description="The slot this fact fills (deploy-day, timezone): a live card with the same key "
                              "is superseded at once, unless it is locked."),
        ] = None,
        scope: Scope = None,
        name: Annotated[str | None, Field(description="A short title; also names the file.")] = None,
        source: Annotated[
            str | None, Field(description="Where the fact came from: a URL, a log line, 'user said'.")
        ] = None,
        tags: Annotated[list[str] | None, Field(description="Tags.")] = None,
        force: Annotated[
            bool, Field(description="Write even when the write gate refuses. Only when the user asks for it.")
        ] = False,
    ) -> Annotated[CallToolResult, AddResult]:
        """Remember one durable fact as a new card, through the same write gate as `cards add`.

        The gate refuses notes true only in this session (progress, plans, "currently",
        "next step"), what the code, docs or git history already record, duplicates of
        live cards and secrets. A refusal is a normal result with `written: false` and
        every finding (code, category, message): rewrite the fact as something that will
        still hold later, or leave it out. Search first; one fact per call.
        """
        return answer(lambda: _add(vault(), text, description=description, card_type=type, key=key, scope=scope,
                                   name=name, source=source, tags=tags or [], force=force))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                                             open_world_hint=False))
    def supersede(
        old: Annotated[str, Field(description="The id of the card that no longer holds.")],
        new: Annotated[str, Field(description="The id of the card that replaces it (add it first).")],
    ) -> Annotated[CallToolResult, SupersedeResult]:
        """Mark the card OLD as replaced by NEW and move it to the archive (journalled, undoable).

        Use it when a fact changed or was wrong and the new fact is already a card. Locked
        cards (stated by the user) are refused.
        """
        return answer(lambda: _supersede(vault(), old, new))

    @server.tool(annotations=read_only)
    def lint(
        paths: Annotated[
            list[str] | None, Field(description="Card ids or paths to check (default: the whole vault).")
        ] = None,
    ) -> Annotated[CallToolResult, LintResult]:
        """Check cards for what does not belong: session notes, copies of the code, duplicates,
        contradictions, stale facts, secrets, broken cards, a stale index.

        Findings have the shape of `cards lint --format json`. Changes nothing.
        """
        return answer(lambda: _lint(vault(), paths or []))

    register_lifecycle(server, vault, answer)

    @server.resource("cards://index", name="index", title=vault().index_name, mime_type="text/markdown",
                     description="The index of the live cards, one line each, grouped by type: what "
                                 "`cards index` writes.")
    def index_resource() -> str:
        with serial:
            try:
                v = vault()
                return card_index.render(v, v.cards, today()).text
            except CardIndexError as exc:
                raise ResourceError(shown(str(exc))) from None
            except OSError as exc:
                raise ResourceError(shown(str(failure(exc)))) from None

    @server.resource("cards://card/{+id}", name="card", mime_type="text/markdown",
                     description="One card's file as it is on disk, by id (billing/owner); secrets shown as "
                                 "[redacted].")
    def card_resource(id: str) -> str:
        with serial:
            try:
                return shown(vault().find(id).text)
            except NotFound as exc:
                raise ResourceNotFoundError(shown(str(exc))) from None
            except CardIndexError as exc:
                raise ResourceError(shown(str(exc))) from None
            except OSError as exc:
                raise ResourceError(shown(str(failure(exc)))) from None

    return server


def serve(root: Path, *, use_cache: bool = True) -> int:
    """Serve the vault over stdio until the client closes the connection."""
    build(root, use_cache=use_cache).run("stdio")
    return 0


# ----------------------------------------------------------------------------- the tools' work


def _search(vault: Vault, query: str, card_type: str | None, scope: str | None, limit: int,
            archived: bool = False) -> SearchResult:
    return SearchResult(hits=[
        SearchHit(id=h.card.id, path=h.card.path, description=h.card.description, type=h.card.type,
                  status=h.status, fact=fact(h.card), score=h.score, matched=h.field, weak=h.weak,
                  conflict_with=list(h.conflict_with),
                  vault=str(h.vault) if h.vault is not None and h.vault != vault.root else None)
        for h in find_layered(layers(vault), query, card_type=card_type, scope=scope, limit=limit,
                              everything=archived)
    ])


def _read(vault: Vault, ref: str) -> CardView:
    card = vault.find(ref)
    data = summary(card, today())
    return CardView(
        **{k: data[k] for k in ("id", "path", "status", "name", "type", "key", "scope", "lock", "created", "verified",
                                "expires", "tags", "problems")},
        description=card.description,
        file=str(vault.path_of(card.path)),
        archived=card.path.startswith(vault.archive_dir + "/"),
        fields=jsonable(dict(card.meta)),
        body=card.body,
        text=card.text,
    )


def _context(vault: Vault, scope: str | None, budget: int, query: str | None = None) -> str:
    return render_context(vault, scope=scope, budget=budget, query=query, others=layers(vault)[1:])


def _add(vault: Vault, text: str, **options: Any) -> AddResult:
    try:
        added = add_card(vault=vault, text=text, **options)
    except GateRefused as refused:
        categories = ", ".join(sorted({f.category for f in refused.findings}))
        return AddResult(
            written=False,
            message=f"refused by the write gate ({categories}); nothing written. Rewrite it as a fact that will "
                    "still hold in a later session, or leave it out (force=true writes it anyway)",
            findings=[LintFinding.of(f) for f in refused.findings],
        )
    new = added.card
    said = [f"added {new.id} ({new.path})"]
    said += [f"superseded {d.step.card.id} (same key {added.key!r}), archived as {d.path}" for d in added.retired]
    if added.conflicts_with:
        said.append(f"conflict: key {added.key!r} belongs to locked card {added.conflicts_with[0]}; "
                    "the new card is marked conflict")
    return AddResult(
        written=True,
        message="; ".join(said),
        id=new.id,
        path=new.path,
        file=str(vault.path_of(new.path)),
        status=added.status,
        superseded=[Retired(id=d.step.card.id, archived_as=d.path) for d in added.retired],
        conflicts_with=added.conflicts_with,
        job=added.job,
        warnings=_index_warnings(added.indexed),
    )


def _supersede(vault: Vault, old: str, new: str) -> SupersedeResult:
    done = supersede_card(vault=vault, old=old, new=new)
    return SupersedeResult(
        message=f"superseded {done.old} by {done.new}; archived as {done.archived_as} (job {done.job})",
        old=done.old,
        new=done.new,
        archived_as=done.archived_as,
        job=done.job,
        warnings=_index_warnings(done.indexed),
    )


def _lint(vault: Vault, refs: list[str]) -> LintResult:
    paths = None
    if refs:
        paths = []
        for ref in refs:
            path = vault.find(ref).path
            if path.startswith(vault.archive_dir + "/"):
                raise UsageError(f"{path} is in the archive; lint checks live cards")
            paths.append(path)
    rules = selected(config=dict(vault.config.lint))
    repo_root = vault.repo_root()
    findings = lint_cards(vault, rules, today=today(), repo_root=repo_root, paths=paths)
    return LintResult(findings=[LintFinding.of(f) for f in findings])


def _index_warnings(result: card_index.IndexResult) -> list[str]:
    if not result.broken:
        return []
    return [f"{len(result.broken)} unreadable card(s) left out of {result.path}; run `cards index`"]
