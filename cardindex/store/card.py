"""A card: one Markdown file with YAML frontmatter. Parse, validate, rewrite losslessly.

Parsing never raises for bad input: what is wrong with a card becomes a `Problem` on it,
so one broken card never hides the others. Rewriting patches only the lines of the
fields that change; everything else (order, comments, quoting, the body) stays byte for
byte. Fields live at the top level or under `metadata:` (see `fields.py`); reading the
frontmatter text is `yamlfields.py`, finding and patching its lines `frontmatter.py`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from cardindex.store.fields import (
    STATUSES,
    TYPES,
    Problem,
    as_date,
    both_places,
    effective,
    id_list,
    keeps_nested,
    line_of,
    validate,
)
from cardindex.store.frontmatter import _is_fence, field_line, frontmatter_span, quote, yaml_value
from cardindex.store.yamlfields import fast_fields as _fast_fields
from cardindex.store.yamlfields import load_fields

LIVE_STATUSES = ("active", "conflict")
MAX_BYTES = 1_000_000
UNSAFE_TO_REWRITE = ("duplicate", "control")  # problems that stop every rewrite until fixed

__all__ = [
    "LIVE_STATUSES",
    "MAX_BYTES",
    "STATUSES",
    "TYPES",
    "Card",
    "Parsed",
    "Problem",
    "_fast_fields",
    "as_date",
    "card_type",
    "decode",
    "field_line",
    "frontmatter_span",
    "id_list",
    "id_value",
    "lineage",
    "links",
    "parse",
    "quote",
    "set_fields",
    "yaml_value",
]


# The fields of nested cards, built once per frontmatter: properties read them often. Keyed
# by id() while the entry holds the frontmatter itself, so an id is never reused under it.
_FIELDS: dict[int, tuple[Mapping[str, Any], Mapping[str, Any]]] = {}
_FIELDS_MAX = 50_000


class Parsed(NamedTuple):
    """What parsing a card's text yields; cached by content hash."""

    meta: dict[str, Any]
    body_offset: int
    problems: tuple[Problem, ...]


class Card(NamedTuple):
    """One card as read from disk. Immutable: operations return new text, not new state."""

    path: str  # vault-relative POSIX path, with ".md"
    text: str
    meta: Mapping[str, Any]  # the frontmatter as written; read fields through `fields`
    body_offset: int
    problems: tuple[Problem, ...] = ()

    @classmethod
    def from_text(cls, path: str, text: str) -> Card:
        return cls(path, text, *parse(text))

    @property
    def fields(self) -> Mapping[str, Any]:
        """Every card field, from the top level or else from `metadata:` (Claude Code's nested form)."""
        meta = self.meta
        if not isinstance(meta.get("metadata"), dict):
            return meta
        found = _FIELDS.get(id(meta))
        if found is None or found[0] is not meta:
            if len(_FIELDS) >= _FIELDS_MAX:
                _FIELDS.clear()
            found = _FIELDS[id(meta)] = (meta, effective(meta))
        return found[1]

    def line_of(self, key: str) -> int:
        """The file line of field `key`, wherever it lives (1 when the card has none)."""
        return line_of(self.meta, self.text[: self.body_offset].splitlines(keepends=True)[1:], key)

    @property
    def id(self) -> str:
        return self.path.removesuffix(".md")

    @property
    def usable(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    @property
    def rewritable(self) -> bool:
        """False while the card holds repeated keys or control characters: no command rewrites it."""
        return not any(p.kind in UNSAFE_TO_REWRITE for p in self.problems)

    @property
    def body(self) -> str:
        return self.text[self.body_offset :]

    @property
    def description(self) -> str:
        value = self.fields.get("description")
        return " ".join(value.split()) if isinstance(value, str) else ""

    @property
    def type(self) -> str | None:
        value = self.fields.get("type")
        return value if isinstance(value, str) else None

    @property
    def name(self) -> str | None:
        value = self.fields.get("name")
        return value if isinstance(value, str) and value.strip() else None

    @property
    def title(self) -> str:
        return self.name or self.id.rsplit("/", 1)[-1]

    @property
    def key(self) -> str | None:
        value = self.fields.get("key")
        return value if isinstance(value, str) and value else None

    @property
    def scope(self) -> str:
        value = self.fields.get("scope")
        return value if isinstance(value, str) and value else "global"

    @property
    def status(self) -> str:
        value = self.fields.get("status")
        return value if value in STATUSES else "active"

    @property
    def locked(self) -> bool:
        return self.fields.get("lock") is True

    @property
    def created(self) -> dt.date | None:
        return as_date(self.fields.get("created"))

    @property
    def verified(self) -> dt.date | None:
        return as_date(self.fields.get("verified"))

    @property
    def expires(self) -> dt.date | None:
        return as_date(self.fields.get("expires"))

    @property
    def modified(self) -> dt.date | None:
        """Claude Code's `modified` (top level, or under `metadata:` in newer versions)."""
        return as_date(self.fields.get("modified"))

    @property
    def evidence(self) -> dt.date | None:
        """When the fact was last known true: `verified`, else `created`, else Claude Code's `modified`."""
        return self.verified or self.created or self.modified

    def expired(self, today: dt.date) -> bool:
        return self.expires is not None and self.expires < today

    def live(self, today: dt.date) -> bool:
        """Whether the card belongs in INDEX.md: usable, active or conflict, not expired."""
        return self.usable and self.status in LIVE_STATUSES and not self.expired(today)

    def with_fields(self, updates: Mapping[str, Any]) -> str:
        """Return this card's text with `updates` applied (None removes a field)."""
        return set_fields(self.text, updates, path=self.path)


def card_type(meta: Mapping[str, Any]) -> str | None:
    value = effective(meta).get("type")
    return value if isinstance(value, str) else None


# --------------------------------------------------------------------------- reading


def decode(data: bytes) -> tuple[str | None, Problem | None]:
    """Turn a card file's bytes into text, or say why it cannot be read."""
    if not data.strip():
        return None, Problem(None, "empty file", kind="unreadable")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, Problem(None, "not UTF-8: the file is UTF-16 (byte order mark); save it as UTF-8", kind="unreadable")
    if b"\0" in data:
        return None, Problem(None, "binary file, not a Markdown card", kind="unreadable")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return None, Problem(line, f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded; save the file as UTF-8", kind="unreadable")


def parse(text: str) -> Parsed:
    """Split a card into frontmatter fields and body, and validate the fields (SPEC §2)."""
    lines = text.splitlines(keepends=True)
    span = frontmatter_span(lines)
    if span is None:
        if lines and _is_fence(lines[0]):
            return Parsed({}, 0, (Problem(1, "frontmatter is never closed: add a '---' line after the fields", kind="frontmatter"),))
        return Parsed({}, 0, (Problem(1, "no frontmatter: a card starts with a '---' line, its fields, and '---'", kind="frontmatter"),))
    close = span
    fm_lines = lines[1:close]
    body_offset = sum(len(line) for line in lines[: close + 1])
    from cardindex.store.controls import control_problem, has_raw_control, readable

    raw = has_raw_control(text)
    meta, problems = load_fields(readable(fm_lines) if raw else fm_lines)
    control = control_problem(text, meta, fm_lines, raw=raw)
    if meta is None:
        return Parsed({}, body_offset, tuple(control or problems))
    problems.extend(validate(meta, fm_lines))
    problems.extend(both_places(meta, fm_lines))
    problems.extend(control)
    problems.sort(key=lambda p: p.line or 0)
    return Parsed(meta, body_offset, tuple(problems))


# --------------------------------------------------------------------------- writing


def set_fields(text: str, updates: Mapping[str, Any], *, path: str | None = None) -> str:
    """Rewrite only the frontmatter lines of `updates`, where each field lives; keep every other byte.

    A value of None removes the field (from the top level and from `metadata:`). A new
    field goes where the card keeps its others: under `metadata:` in Claude Code's
    nested form, else last before the closing fence. Refuses (CardError) a card with
    repeated keys or control characters: whatever it wrote could be read otherwise.
    The result ends with a newline.
    """
    from cardindex.errors import CardError
    from cardindex.store.fields import CARD_FIELDS, nested
    from cardindex.store.frontmatter import nested_block, patch_fields

    lines = text.splitlines(keepends=True)
    close = frontmatter_span(lines)
    if close is None:
        raise CardError("cannot update a card without closed frontmatter", path=path, line=1)
    before = parse(text)
    for problem in before.problems:
        if problem.kind in UNSAFE_TO_REWRITE:
            raise CardError(f"not rewritten: {problem.message}", path=path, line=problem.line)
    inner = nested(before.meta)
    if inner is not None and nested_block(lines, close) is None:
        flow = [k for k in updates if k in CARD_FIELDS and k in inner]
        if flow:
            raise CardError(f"cannot rewrite '{flow[0]}' inside the flow mapping `metadata: {{...}}`; "
                            "write metadata as an indented block", path=path, line=field_line(lines[1:close], "metadata"))
    out = patch_fields(text, updates, nestable=CARD_FIELDS, home_nested=keeps_nested(before.meta))
    if before.meta:  # a card that could be read must read back as asked, and no less clearly
        after = parse(out)
        fields = effective(after.meta)
        for key, value in updates.items():
            have = fields if key in CARD_FIELDS else after.meta
            if (key in have) if value is None else (key not in have or _written(have[key]) != _written(value)):
                raise CardError(f"not rewritten: '{key}' would not read back as written", path=path)
        # Control characters after it can only be in the values written (escaped): the caller's to judge.
        kinds = [p.kind for p in after.problems]
        if "duplicate" in kinds or kinds.count("both") > [p.kind for p in before.problems].count("both"):
            problem = next(p for p in after.problems if p.kind in ("duplicate", "both"))
            raise CardError(f"not rewritten, the result would be wrong: {problem.message}", path=path)
    return out


def _written(value: Any) -> str:
    try:
        return yaml_value(value)
    except TypeError:
        return repr(value)


def id_value(ids: Sequence[str]) -> str | list[str]:
    """How a field of ids is written: one id as a string, several as a list (see `id_list`)."""
    return ids[0] if len(ids) == 1 else list(ids)


def lineage(meta: Mapping[str, Any]) -> list[str]:
    """The ids of every card this one replaced or absorbed (`supersedes`, `merged_from`), once each.

    Both fields are kept transitive: a card that takes another's place also takes over
    what that one had replaced, so how often a fact was restated survives its rewording.
    """
    return list(dict.fromkeys([*id_list(meta.get("supersedes")), *id_list(meta.get("merged_from"))]))


def links(body: str) -> list[str]:
    """Targets of the `[[links]]` in a card body, in order."""
    return [m.strip() for m in re.findall(r"\[\[([^\]\n|#]+)(?:[|#][^\]\n]*)?\]\]", body)]
