"""The field model: which fields a card has, where each lives, and whether its values are valid (SPEC §2).

Claude Code (since 2.1.146) moves every frontmatter key but `name`, `description` and
`metadata` under `metadata:`. So every card field is read from the top level or from
`metadata:`; `effective()` is the one place that decides, and everything that reads a
card's fields (the `Card` properties, validation, lint, consolidation, index, context,
search) reads what it returns. Both places holding one field with different values is
a structure problem of its own, since nothing can tell which one the writer meant.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, NamedTuple

from cardindex.store.frontmatter import NESTED, field_line, nested_line

TYPES = ("user", "feedback", "project", "reference")
STATUSES = ("active", "conflict", "stale", "superseded", "archived")

DATE_FIELDS = ("created", "verified", "expires")
TEXT_FIELDS = ("name", "key", "scope", "source")
ID_LIST_FIELDS = ("supersedes", "superseded_by", "merged_from", "merged_into", "conflicts_with", "tags", "lint-ignore")

# Every field cards reads, wherever it lives. `name` and `description` stay at the top
# level in Claude Code's form; they are read from `metadata:` too when absent there.
CARD_FIELDS = frozenset(
    ("name", "description", "type", "key", "scope", "status", "lock", "created", "verified", "expires",
     "supersedes", "superseded_by", "merged_from", "merged_into", "conflicts_with", "source", "tags",
     "confidence", "lint-ignore", "modified")
)
# Where a new field goes is decided by where the card keeps these (not by name,
# description, or Claude Code's own `modified`).
PLACED = CARD_FIELDS - {"name", "description", "modified"}


class Problem(NamedTuple):
    """Something wrong with a card. An `error` makes the card unusable."""

    line: int | None
    message: str
    severity: str = "error"
    fix: str | None = None
    kind: str = "field"  # unreadable, frontmatter, yaml, alias, field, lenient, both, duplicate, control


def nested(meta: Mapping[str, Any]) -> dict[str, Any] | None:
    value = meta.get(NESTED)
    return value if isinstance(value, dict) else None


def effective(meta: Mapping[str, Any]) -> Mapping[str, Any]:
    """The card's fields: each from the top level, else from `metadata:`. Other keys as they are."""
    inner = nested(meta)
    if not inner:
        return meta
    merged: dict[str, Any] | None = None
    for key, value in inner.items():
        if key in CARD_FIELDS and key not in meta:
            if merged is None:
                merged = dict(meta)
            merged[key] = value
    return meta if merged is None else merged


def keeps_nested(meta: Mapping[str, Any]) -> bool:
    """Whether the card keeps its fields under `metadata:`, where a new field then goes too."""
    inner = nested(meta)
    if not inner:
        return False
    below = sum(1 for key in inner if key in PLACED)
    above = sum(1 for key in meta if key in PLACED)
    return below > above


def line_of(meta: Mapping[str, Any], fm_lines: list[str], key: str) -> int:
    """File line of a field where it lives (the top level first), else 1."""
    if key in meta:
        return field_line(fm_lines, key) or 1
    inner = nested(meta)
    if inner is not None and key in inner:
        return nested_line(fm_lines, key)
    return 1


def as_date(value: object) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def id_list(value: object) -> list[str]:
    """Read a field that holds one id or a list of ids."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _same(key: str, a: object, b: object) -> bool:
    if key in DATE_FIELDS or key == "modified":
        da, db = as_date(a), as_date(b)
        if da is not None or db is not None:
            return da == db
    if key in ID_LIST_FIELDS and isinstance(a, (str, list)) and isinstance(b, (str, list)):
        return id_list(a) == id_list(b)
    return type(a) is type(b) and a == b


def both_places(meta: Mapping[str, Any], fm_lines: list[str]) -> list[Problem]:
    """A field at the top level and under `metadata:` with different values."""
    inner = nested(meta)
    if not inner:
        return []
    out = []
    for key, value in inner.items():
        if key in CARD_FIELDS and key in meta and not _same(key, meta[key], value):
            top, below = field_line(fm_lines, key) or 1, nested_line(fm_lines, key)
            out.append(Problem(
                top,
                f"'{key}' is {_shown(meta[key])} here and {_shown(value)} under metadata (line {below}); "
                "keep one of them",
                kind="both",
            ))
    return out


def _shown(value: object) -> str:
    text = repr(value.isoformat() if isinstance(value, dt.date) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def validate(meta: Mapping[str, Any], fm_lines: list[str]) -> list[Problem]:
    """Check the fields of SPEC §2 wherever they live. Every problem names the line of its field."""
    fields = effective(meta)
    problems: list[Problem] = []

    def bad(key: str, message: str) -> None:
        problems.append(Problem(line_of(meta, fm_lines, key), message))

    description = fields.get("description")
    if "description" not in fields:
        problems.append(Problem(1, "missing required field 'description': one line saying what the fact is for"))
    elif not isinstance(description, str):
        bad("description", f"'description' must be one line of text, got {_kind(description)}")
    elif not description.strip():
        bad("description", "'description' is empty")
    elif "\n" in description.strip():
        bad("description", "'description' must be one line")

    raw_type = fields.get("type")
    if raw_type is None:
        problems.append(Problem(1, f"missing required field 'type': one of {', '.join(TYPES)}"))
    elif raw_type not in TYPES:
        bad("type", f"unknown type {raw_type!r}: expected one of {', '.join(TYPES)}")

    status = fields.get("status")
    if status is not None and status not in STATUSES:
        bad("status", f"unknown status {status!r}: expected one of {', '.join(STATUSES)}")
    for key in DATE_FIELDS:
        value = fields.get(key)
        if value is not None and as_date(value) is None:
            bad(key, f"'{key}' must be an ISO date (YYYY-MM-DD), got {value!r}")
    for key in TEXT_FIELDS:
        value = fields.get(key)
        if value is not None and not isinstance(value, str):
            bad(key, f"'{key}' must be text, got {_kind(value)}")
    for key in ID_LIST_FIELDS:
        value = fields.get(key)
        if value is not None and not _str_or_str_list(value):
            bad(key, f"'{key}' must be text or a list of text, got {_kind(value)}")
    if "lock" in fields and not isinstance(fields["lock"], bool):
        bad("lock", f"'lock' must be true or false, got {fields['lock']!r}")
    confidence = fields.get("confidence")
    if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float, str))):
        bad("confidence", f"'confidence' must be a number or a word, got {_kind(confidence)}")
    return problems


def _str_or_str_list(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _kind(value: object) -> str:
    if isinstance(value, list):
        odd = next((v for v in value if not isinstance(v, str)), None)
        if isinstance(odd, bool):  # YAML reads a bare yes/no/on/off as true/false
            return f"a list holding {str(odd).lower()} (YAML reads a bare yes, no, on or off so: quote the id)"
        return "a list" if odd is None and value else f"a list holding {_kind(odd)}"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"
