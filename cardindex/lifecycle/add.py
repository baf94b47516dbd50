"""Add a card: write it through the write gate, supersede what its key replaces, update the index.

The one core operation behind `cards add`, the MCP `add` tool and `cards import`. Prints
nothing; raises `GateRefused` with the findings when the gate refuses the card.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from cardindex.errors import Refused, UsageError
from cardindex.index import after_add, templates
from cardindex.index import build as index
from cardindex.store.card import MAX_BYTES, Card, id_value, lineage
from cardindex.store.jobs import Done, Step, apply, free_name
from cardindex.store.journal import Action
from cardindex.store.os_errors import all_or_nothing
from cardindex.store.vault import Vault, today

if TYPE_CHECKING:
    from cardindex.lint.finding import Finding
MAX_SLUG = 60  # a file name given by --name
MIN_DERIVED_SLUG = 24  # one made from the description is cut to leave room in the index line, not below this
MAX_DERIVED_DESCRIPTION = 100
INDEX_LINE = 150  # what lint I103 allows an INDEX.md line


def slugify(text: str) -> str:
    """A file name stem from a title: lowercase words joined by '-', never a path.

    Accents fold to ASCII (Ünïcode → unicode); scripts without an ASCII form keep
    their letters.
    """
    import unicodedata

    # Long tokens mixing letters and digits are ids or keys: never put them in a file name.
    text = " ".join(w for w in text.split() if not (len(w) >= 16 and re.search(r"\d", w) and re.search(r"[A-Za-z]", w)))
    folded = unicodedata.normalize("NFKD", text.casefold())
    ascii_slug = re.sub(r"[^a-z0-9]+", "-", folded.encode("ascii", "ignore").decode()).strip("-")
    letters = len(re.findall(r"\w", text))
    if ascii_slug and len(ascii_slug.replace("-", "")) * 2 >= letters:
        slug = ascii_slug
    else:
        slug = re.sub(r"[\W_]+", "-", unicodedata.normalize("NFC", text.casefold())).strip("-")
    return slug[:MAX_SLUG].rstrip("-")


def derive_description(text: str) -> str:
    """The first line of the text, without Markdown markers, cut at a word boundary."""
    first = next(line for line in text.splitlines() if line.strip())
    first = re.sub(r"^\s*(?:#+|[-*+]|\d+[.)])\s+", "", first).strip()
    if len(first) <= MAX_DERIVED_DESCRIPTION:
        return first
    cut = first[:MAX_DERIVED_DESCRIPTION].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "…"


def derived_stem(description: str) -> str:
    """A file name stem from a description, cut at a word so that the card's index line
    keeps room for the whole description: the description is what an agent reads, the stem
    only names the file, so it stays short enough to type (at most half of what the line leaves)."""
    longest = max(MIN_DERIVED_SLUG, min(MAX_SLUG, (INDEX_LINE - len("- []() — .md") - len(description)) // 2))
    slug = slugify(description) or "card"
    if len(slug) > longest:
        slug = slug[: longest + 1].rsplit("-", 1)[0] or slug[:longest]
    return slug


def fit_description(description: str, rel: str, title: str | None = None) -> str:
    """A derived description, cut so the card's INDEX.md line stays within 150 characters (lint I103).

    The line is `- [NAME](PATH) — DESCRIPTION`, or `- [DESCRIPTION](PATH)` without a name
    (`index.build.entry`): the path and the name count.
    """
    room = INDEX_LINE - len(f"- [{title}]() — " if title else "- []()") - len(rel)
    if len(description) <= room:
        return description
    return description[: room - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"


def _one_line(value: str | None, option: str) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not value:
        raise UsageError(f"{option} is empty")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # bytes the shell passed through from a Latin-1 terminal or file
        raise UsageError(f"{option} is not valid UTF-8; nothing written") from None
    if "\n" in value or "\r" in value:
        raise UsageError(f"{option} must be one line")
    return value


class GateRefused(Refused):
    """The write gate refused the card; nothing was written."""

    def __init__(self, message: str, *, name: str, findings: Sequence[Finding]) -> None:
        super().__init__(message)
        self.name = name  # the file name the card would have had
        self.findings = tuple(findings)


class Added(NamedTuple):
    """What `add_card` wrote: the new card, and what its key did to other cards."""

    card: Card
    key: str | None
    superseded: list[str]  # ids of the live key holders it replaced (archived)
    retired: list[Done]  # where each of them went
    conflicts_with: list[str]  # ids of locked key holders: the new card is a conflict
    job: str | None
    indexed: index.IndexResult  # what regenerating the index found
    contradicts: tuple[Finding, ...] = ()  # the gate's contradictions: the card was written, the user should know

    @property
    def status(self) -> str:
        return "conflict" if self.conflicts_with else "active"


def add_card(
    *,
    vault: Vault,
    text: str,
    description: str | None = None,
    card_type: str = "project",
    key: str | None = None,
    scope: str | None = None,
    name: str | None = None,
    lock: bool = False,
    source: str | None = None,
    expires: dt.date | None = None,
    tags: Sequence[str] = (),
    force: bool = False,
) -> Added:
    """Write a new card from `text` through the write gate, supersede what its key replaces, update the index.

    Prints nothing (the MCP server calls it too). Raises `GateRefused`, with the
    findings, when the gate refuses the card and `force` is not set.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError("card text is not valid UTF-8; nothing written") from None
    if "\0" in text:
        raise UsageError("card text contains NUL bytes (binary data?); nothing written")
    body = text.strip("\n").rstrip()
    if not body.strip():
        raise UsageError("empty card text; nothing written")
    if len(body.encode("utf-8")) > MAX_BYTES // 2:
        raise UsageError(f"card text is {len(body.encode('utf-8')):,} bytes; a card holds one fact, not a document")
    given = _one_line(description, "--description")
    description = given or derive_description(body)
    key = _one_line(key, "--key")
    scope = _one_line(scope, "--scope")
    name = _one_line(name, "--name")
    source = _one_line(source, "--source")
    for tag in tags:
        _one_line(tag, "--tag")
    slug = slugify(name or "") or derived_stem(description)
    now = today()

    with vault.lock(), all_or_nothing(vault) as jobs:  # an index that cannot be written undoes the card
        index.ensure_replaceable(vault, index.read_index(vault))
        was = after_add.before(vault, now)  # before anything is written or loaded: the vault as found
        rel = free_name(vault, slug)
        if not given:
            description = fit_description(description, rel, name)
        holders = _key_holders(vault, key, now)
        locked = [c for c in holders if c.locked]
        fields: list[tuple[str, Any]] = [
            ("name", name),
            ("description", description),
            ("type", card_type),
            ("key", key),
            ("scope", scope),
            ("created", now),
            ("verified", now),
            ("expires", expires),
            ("source", source),
            ("lock", True if lock else None),
            ("tags", list(tags) or None),
            ("status", "conflict" if locked else None),
            ("conflicts_with", id_value([c.id for c in locked]) if locked else None),
            ("supersedes", None if locked or not holders else id_value(_replaced(holders))),
        ]
        card_text = render_card(vault, fields, body)
        contradicts: tuple[Finding, ...] = ()
        if not force:
            from cardindex.lint import gate  # the lint rules: imported only when the gate runs

            checker = gate.Gate(vault)
            findings = checker.review(Card.from_text(rel, card_text))
            contradicts = tuple(checker.reported)
            if findings:
                raise GateRefused(
                    f"card refused by the write gate ({', '.join(sorted({f.category for f in findings}))}); "
                    "nothing written. Use --force to add it anyway",
                    name=rel,
                    findings=findings,
                )
        new = Card.from_text(rel, card_text)
        also = []
        if locked:
            also.append(
                Action("conflict", new.id, f"key {key!r} is held by locked card(s) {', '.join(c.id for c in locked)}")
            )
        steps = [Step(new, "create", {}, "add", "cards add")] + [
            Step(old, "archive", {"status": "superseded", "superseded_by": new.id}, "supersede",
                 f"newer value for key {key!r} from {new.id}")
            for old in (holders if not locked else [])
        ]
        job, done = apply(vault, steps, command="add", also=also)
        jobs.add(job)
        done = [d for d in done if d.step.op == "archive"]
        fast = None if holders and not locked else after_add.index_after_add(vault, now, was, new)
        result = fast if fast is not None else index.write(vault, now)
        if not force or key:
            from cardindex.lint.gate_postings import keep

            keep(vault, new)  # the postings the gate paired from, with the new card: the next add loads neither

    return Added(new, key, [c.id for c in holders] if not locked else [], done, [c.id for c in locked], job, result,
                 contradicts)


def _key_holders(vault: Vault, key: str | None, now: dt.date) -> list[Card]:
    """Live cards holding the same single-valued key."""
    if not key or key in vault.config.multi_valued_keys:
        return []
    from cardindex.lint.gate_postings import holders  # the vault's postings: only the holders are loaded

    found = holders(vault, key, now)
    return found if found is not None else [c for c in vault.cards if c.key == key and c.live(now)]


def _replaced(holders: Sequence[Card]) -> list[str]:
    """What a card that takes the key over replaces: the holders, and what they had replaced."""
    return list(dict.fromkeys(i for c in holders for i in (c.id, *lineage(c.fields))))


def render_card(vault: Vault, fields: list[tuple[str, Any]], body: str) -> str:
    override = vault.root / vault.config.templates if vault.config.templates else None
    text = templates.render("card.md.j2", override, fields=[(k, v) for k, v in fields if v is not None], body=body)
    return text if text.endswith("\n") else text + "\n"
