"""Claims that restate several records of one block of a repo file: a CI job, a tool's settings, CODEOWNERS.

A card rarely copies one record. "CI runs on ubuntu-24.04: the web job uses Node 22 and
runs lint, typecheck and vitest" restates four steps of one job; "ruff: line-length 100,
target py312, ignore E501" three settings of one table; "`/apps/web/` → @frontend,
`/services/api/` → @backend" two lines of CODEOWNERS; "`make lint` → eslint + ruff"
one target whose recipe runs a package script. So a sentence is also covered by a
*block*: the records of one file that belong together (the steps of one CI job, the
settings of one tool, the targets of one Makefile, the scripts of one package.json, the
lines of one CODEOWNERS), read as one passage. It must restate at least two of the
block's records (or name one record's subject and give most of what it runs), and leave
next to nothing of its own: a reason, a person, a platform, a preference are words the
block does not hold.

What a step runs is read through: a CI step or a Makefile recipe that runs
`npm run lint` (or `pnpm test`, `yarn build`, `make check`) also holds the words of that
script or target, which is what a card says it runs ("CI runs vitest"). Pure functions of
the repo's records, built once per set of facts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_facts import quantities
from cardindex.meaning.repo_files import Record

_SCRIPT_CALL = lazy_pattern(r"\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?(?:--?[\w-]+(?:[ =]\S+)?\s+)*([\w:.-]+)")
_MAKE_CALL = lazy_pattern(r"\bmake\s+(?:-\S+\s+)*([A-Za-z0-9][\w./-]*)")
_NOT_SCRIPTS = frozenset({"ci", "install", "i", "exec", "dlx", "x", "add", "remove", "workspace", "--workspace", "-w"})
# What a card calls a tool whose config file is named otherwise.
_TOOL_WORDS = {"tsconfig": "typescript ts compiler", "prettier": "format formatting formatter"}
_OFF = frozenset(content_stems("no not off disabled"))  # what a card says of a setting that is `false`
_MAX_BLOCK = 60  # records of one block read as one passage, at most


def commands(records: Sequence[Record]) -> dict[tuple[str, str], str]:
    """What each package script and Makefile target runs: ("script" | "target", name) -> command."""
    out: dict[tuple[str, str], str] = {}
    for r in records:
        if r.kind in ("script", "target"):
            key = (r.kind, r.subject)
            out[key] = f"{out[key]} ; {r.value}" if key in out else r.value
    return out


def runs(record: Record, known: dict[tuple[str, str], str]) -> str:
    """The commands of the scripts and targets `record` (a CI step, a target, a script) invokes, one level deep."""
    if record.kind not in ("ci", "target", "script") or not known:
        return ""
    found: list[str] = []
    for m in _SCRIPT_CALL.finditer(record.value):
        name = m.group(1)
        if name not in _NOT_SCRIPTS and ("script", name) in known and not (record.kind == "script" and name == record.subject):
            found.append(known[("script", name)])
    for m in _MAKE_CALL.finditer(record.value):
        name = m.group(1)
        if ("target", name) in known and not (record.kind == "target" and name == record.subject):
            found.append(known[("target", name)])
    return " ; ".join(found)


def block_of(record: Record) -> str:
    """The block a record belongs to in its file: a CI job, a tool's settings, the whole file otherwise."""
    if record.kind == "ci":
        return f"ci {record.subject.split(':', 1)[0]}"
    if record.kind == "setting":
        parts = record.subject.split(".")
        return "setting " + (".".join(parts[:2]) if parts[0] == "tool" and len(parts) > 2 else parts[0])
    return record.kind


class Block(NamedTuple):
    path: str
    line: int  # the first record's line
    name: str  # "ci web", "setting tool.ruff", "owner"
    members: tuple[frozenset[str], ...]  # each record's own stems (slot, value and what it runs)
    subjects: tuple[frozenset[str], ...]  # each record's subject stems
    stems: frozenset[str]  # every member's stems and the words for the kind of record
    common: frozenset[str]  # stems every member holds (the job's name, the tool's)


class BlockCover(NamedTuple):
    block: Block
    share: float  # of the sentence's stems the block holds
    missing: frozenset[str]


class BlockIndex:
    """The repo's config records grouped into blocks, with an inverted index from stem to block."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = blocks
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, block in enumerate(blocks):
            for stem in block.stems:
                self.postings[stem].append(i)

    def best(self, stems: Iterable[str], kind_words: frozenset[str]) -> BlockCover | None:
        """The block that restates the sentence of `stems`, if one does (see the module's doc)."""
        wanted = frozenset(stems)
        if len(wanted) < 3:
            return None
        shared_by = Counter(i for s in wanted for i in self.postings.get(s, ()))
        best: BlockCover | None = None
        for i, n in shared_by.items():
            if n < 3 or n < 0.6 * len(wanted):
                continue
            block = self.blocks[i]
            missing = wanted - block.stems
            allowed = max(1, len(wanted) // 5)
            if allowed < len(missing) <= allowed + 2:  # `semi` is "semicolons", `ws` is "websocket"
                missing = frozenset(w for w in missing if not any(len(b) >= 4 and w.startswith(b) for b in block.stems))
            if len(missing) > allowed:
                continue  # the sentence says something the block does not
            # Each record restated by a word of its own, not by the job's or tool's name.
            told = [m for m in block.members if (m & wanted) - block.common - kind_words]
            named = any(s and s <= wanted and (len((m & wanted) - s) >= 2 or len(s) >= 2)
                        for m, s in zip(block.members, block.subjects, strict=True))
            if len(told) < 2 and not named:
                continue
            share = (len(wanted) - len(missing)) / len(wanted)
            if best is None or share > best.share:
                best = BlockCover(block, share, missing)
        return best


def blocks(records: Sequence[Record], known: dict[tuple[str, str], str], kind_words: dict[str, str]) -> list[Block]:
    """The blocks of `records` (config records, not constants), each with what its members run."""
    grouped: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for r in records:
        if r.kind != "constant":
            grouped[(r.path, block_of(r))].append(r)
    # A workflow's triggers hold for each of its jobs: "on every pull request CI lints" restates the web job.
    triggers = {r.path: frozenset(content_stems(r.value.split(";", 1)[0])) for r in records
                if r.kind == "ci" and r.line == 1 and r.value.startswith("on ")}
    out: list[Block] = []
    for (path, name), members in grouped.items():
        if len(members) > _MAX_BLOCK:
            continue
        # Each name both whole and split at its capitals: a card writes `noUncheckedIndexedAccess` or "no unchecked access".
        own = tuple(frozenset(quantities(content_stems(f"{r.subject} {r.value} {runs(r, known)}", split_camel=True)))
                    | frozenset(quantities(content_stems(f"{r.subject} {r.value}")))
                    | (_OFF if r.value.lower() == "false" else frozenset()) for r in members)
        subjects = tuple(frozenset(content_stems(r.subject.removeprefix("tool."), split_camel=True)) for r in members)
        common = frozenset.intersection(*own) if len(own) > 1 else frozenset()
        kinds = {r.kind for r in members}
        words = frozenset(s for k in kinds for s in content_stems(kind_words.get(k, "")))
        words |= frozenset(content_stems(_TOOL_WORDS.get(name.split(" ", 1)[-1], "")))
        # Where the file lives says whose records they are ("services/api/pyproject.toml": the API's settings).
        words |= frozenset(content_stems(path.rsplit("/", 1)[0].replace("/", " "))) if "/" in path else frozenset()
        if name.startswith("ci ") and not any(r.line == 1 for r in members):
            words |= triggers.get(path, frozenset())
        out.append(Block(path, min(r.line for r in members), name, own, subjects, frozenset().union(*own) | words, common))
    return out
