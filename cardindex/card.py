"""A card: one Markdown file with YAML frontmatter. Parse, validate, rewrite losslessly.

Parsing never raises for bad input: what is wrong with a card becomes a `Problem` on it,
so one broken card never hides the others. Rewriting patches only the lines of the
fields that change; everything else (order, comments, quoting, the body) stays byte for
byte.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

TYPES = ("user", "feedback", "project", "reference")
STATUSES = ("active", "conflict", "stale", "superseded", "archived")
LIVE_STATUSES = ("active", "conflict")
MAX_BYTES = 1_000_000

_DATE_FIELDS = ("created", "verified", "expires")
_TEXT_FIELDS = ("name", "key", "scope", "source")
_ID_LIST_FIELDS = ("supersedes", "superseded_by", "merged_from", "tags", "lint-ignore")


class Problem(NamedTuple):
    """Something wrong with a card. An `error` makes the card unusable."""

    line: int | None
    message: str
    severity: str = "error"
    fix: str | None = None
    kind: str = "field"  # unreadable, frontmatter, yaml, alias, field, lenient: which lint rule reports it


class Parsed(NamedTuple):
    """What parsing a card's text yields; cached by content hash."""

    meta: dict[str, Any]
    body_offset: int
    problems: tuple[Problem, ...]


class Card(NamedTuple):
    """One card as read from disk. Immutable: operations return new text, not new state."""

    path: str  # vault-relative POSIX path, with ".md"
    text: str
    meta: Mapping[str, Any]
    body_offset: int
    problems: tuple[Problem, ...] = ()

    @classmethod
    def from_text(cls, path: str, text: str) -> Card:
        return cls(path, text, *parse(text))

    @property
    def id(self) -> str:
        return self.path.removesuffix(".md")

    @property
    def usable(self) -> bool:
        return not any(p.severity == "error" for p in self.problems)

    @property
    def body(self) -> str:
        return self.text[self.body_offset :]

    @property
    def description(self) -> str:
        value = self.meta.get("description")
        return " ".join(value.split()) if isinstance(value, str) else ""

    @property
    def type(self) -> str | None:
        return card_type(self.meta)

    @property
    def name(self) -> str | None:
        value = self.meta.get("name")
        return value if isinstance(value, str) and value.strip() else None

    @property
    def title(self) -> str:
        return self.name or self.id.rsplit("/", 1)[-1]

    @property
    def key(self) -> str | None:
        value = self.meta.get("key")
        return value if isinstance(value, str) and value else None

    @property
    def scope(self) -> str:
        value = self.meta.get("scope")
        return value if isinstance(value, str) and value else "global"

    @property
    def status(self) -> str:
        value = self.meta.get("status")
        return value if value in STATUSES else "active"

    @property
    def locked(self) -> bool:
        return self.meta.get("lock") is True

    @property
    def created(self) -> dt.date | None:
        return as_date(self.meta.get("created"))

    @property
    def verified(self) -> dt.date | None:
        return as_date(self.meta.get("verified"))

    @property
    def expires(self) -> dt.date | None:
        return as_date(self.meta.get("expires"))

    @property
    def modified(self) -> dt.date | None:
        """Claude Code's `modified` (top level, or under `metadata:` in newer versions)."""
        value = self.meta.get("modified")
        if value is None and isinstance(self.meta.get("metadata"), dict):
            value = self.meta["metadata"].get("modified")
        return as_date(value)

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
    value = meta.get("type")
    if value is None and isinstance(meta.get("metadata"), dict):
        value = meta["metadata"].get("type")
    return value if isinstance(value, str) else None


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
    meta, problems = _load_fields(fm_lines)
    if meta is None:
        return Parsed({}, body_offset, tuple(problems))
    problems.extend(validate(meta, fm_lines))
    problems.sort(key=lambda p: p.line or 0)
    return Parsed(meta, body_offset, tuple(problems))


def frontmatter_span(lines: list[str]) -> int | None:
    """Index of the closing fence line, or None when there is no closed frontmatter."""
    if not lines or not _is_fence(lines[0]):
        return None
    for i in range(1, len(lines)):
        if _is_fence(lines[i]) or lines[i].rstrip() == "...":
            return i
    return None


def _is_fence(line: str) -> bool:
    return line.lstrip("\ufeff").rstrip() == "---"


def field_line(fm_lines: list[str], key: str) -> int | None:
    """File line (1-based) of a top-level field, counting the opening fence as line 1."""
    pattern = re.compile(rf"{re.escape(key)}\s*:")
    for i, line in enumerate(fm_lines):
        if pattern.match(line):
            return i + 2
    return None


def _nested_line(fm_lines: list[str], parent: str, key: str) -> int:
    """File line of `parent:` → `  key:`, else of `parent:`, else 1."""
    start = field_line(fm_lines, parent)
    if start is None:
        return 1
    pattern = re.compile(rf"\s+{re.escape(key)}\s*:")
    for i in range(start - 1, len(fm_lines)):
        line = fm_lines[i]
        if line.strip() and not line[0].isspace():
            break
        if pattern.match(line):
            return i + 2
    return start


def _load_fields(fm_lines: list[str]) -> tuple[dict[str, Any] | None, list[Problem]]:
    fast = _fast_fields(fm_lines)
    if fast:
        return fast, []
    text = "".join(fm_lines)
    problems: list[Problem] = []
    try:
        meta = _yaml_load(text)
    except _YamlProblem as first:
        lenient = _quote_colon_values(fm_lines)
        if not lenient:
            return None, [Problem(first.line, first.message, kind=first.kind)]
        fixed_lines, warnings = lenient
        try:
            meta = _yaml_load("".join(fixed_lines))
        except _YamlProblem:
            return None, [Problem(first.line, first.message, kind=first.kind)]
        problems.extend(warnings)
    if meta is None:
        return None, [Problem(1, "frontmatter is empty: add at least 'description' and 'type'", kind="frontmatter")]
    if not isinstance(meta, dict):
        kind = "a list" if isinstance(meta, list) else f"a single {type(meta).__name__} value"
        return None, [Problem(2, f"frontmatter must be a mapping of fields, got {kind}", kind="frontmatter")]
    for key in meta:
        if not isinstance(key, str):
            line = field_line(fm_lines, str(key).lower() if isinstance(key, bool) else str(key))
            return None, [Problem(line, f"field name {key!r} is not text; quote it")]
    return meta, problems


class _YamlProblem(Exception):
    def __init__(self, line: int | None, message: str, kind: str = "yaml") -> None:
        message = " ".join(message.split())  # one line, whatever YAML said
        super().__init__(message)
        self.line = line
        self.message = message
        self.kind = kind


def _yaml_load(text: str) -> Any:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        if "&" in text or "*" in text:
            # Aliases can expand exponentially ("billion laughs") once the value is walked.
            anchor_line = None
            for event in yaml.parse(text, Loader=loader):
                line = event.start_mark.line + 2 if event.start_mark else None
                if isinstance(event, yaml.AliasEvent):
                    raise _YamlProblem(line, "YAML anchors and aliases are not allowed in a card", "alias")
                if anchor_line is None and getattr(event, "anchor", None):
                    anchor_line = line
            if anchor_line is not None:
                raise _YamlProblem(anchor_line, "YAML anchors and aliases are not allowed in a card", "alias")
        return yaml.load(text, Loader=loader)
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 2
        raise _YamlProblem(line, f"character {exc.character!r} is not allowed in YAML frontmatter") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark is not None else None
        raise _YamlProblem(line, f"invalid YAML in frontmatter: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise _YamlProblem(None, f"invalid YAML in frontmatter: {exc}") from None
    except (ValueError, OverflowError) as exc:  # a date YAML recognises but cannot build: 2026-02-30
        line, key, value = _impossible_date(text)
        raise _YamlProblem(line, f"'{key}' is not a real date: {value} ({exc})") from None


def _impossible_date(text: str) -> tuple[int | None, str, str]:
    """Where the date YAML could not build is, and its field."""
    for i, line in enumerate(text.splitlines()):
        m = re.match(r"\s*(?:- )?([^:#]+?)\s*:\s+(\d{4}-\d\d?-\d\d?(?:[Tt ][\d:.]+)?)\s*$", line)
        if m:
            value = m.group(2)
            try:
                dt.datetime.fromisoformat(value) if len(value) > 10 else dt.date.fromisoformat(value)
            except ValueError:
                return i + 2, m.group(1), value
    return None, "a date", "?"


_COLON_LINE = re.compile(r"([A-Za-z_][\w-]*):[ \t]+(\S.*?)\s*$")


def _quote_colon_values(fm_lines: list[str]) -> tuple[list[str], list[Problem]] | None:
    """Read `key: text with: colons` as `key: "text with: colons"`, as Claude Code does."""
    fixed = list(fm_lines)
    warnings = []
    for i, line in enumerate(fm_lines):
        m = _COLON_LINE.fullmatch(line.rstrip("\r\n"))
        if not m:
            continue
        key, value = m.groups()
        if value[0] in "'\"[{|>&*!#" or not (": " in value or value.endswith(":")):
            continue
        ending = line[len(line.rstrip("\r\n")) :]
        fixed[i] = f"{key}: {quote(value)}{ending}"
        warnings.append(
            Problem(i + 2, f"unquoted ': ' in '{key}' is invalid YAML; read as text", "warning", "quote the value", "lenient")
        )
    return (fixed, warnings) if warnings else None


# The fast path: most cards are flat `key: value` lines. Read those without YAML, and
# hand anything unusual to the YAML loader, so the result is always what YAML would give.
_FAST_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*?))? *")
_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_WORDS: dict[str, Any] = {
    **dict.fromkeys(("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
    **dict.fromkeys(("null", "Null", "NULL", "~"), None),
}
_RESOLVED_START = "-+.0123456789<=~"
_INDICATOR_START = "[]{}'\"&*!|>%@`#,?:-"
_NO = object()


def _fast_fields(fm_lines: list[str]) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for raw in fm_lines:
        line = raw.rstrip("\r\n")
        if not line.isprintable():  # tabs, control characters, odd spaces: YAML decides
            return None
        if not line.strip() or line[0] == "#":
            continue
        m = _FAST_LINE.fullmatch(line)
        if m is None:
            return None
        key, value = m.groups()
        if not value or key in _WORDS or key in out:
            return None
        result = _fast_value(value)
        if result is _NO:
            return None
        out[key] = result
    return out


def _fast_value(value: str) -> Any:
    first = value[0]
    if first == '"':
        inner = value[1:-1]
        if len(value) < 2 or value[-1] != '"' or "\\" in inner or '"' in inner:
            return _NO
        return inner
    if first == "'":
        inner = value[1:-1]
        if len(value) < 2 or value[-1] != "'" or "'" in inner:
            return _NO
        return inner
    if first == "[":
        if value[-1] != "]":
            return _NO
        inner = value[1:-1].strip()
        if not inner:
            return []
        items = [item.strip() for item in inner.split(",")]
        for item in items:
            if not item or any(c in item for c in "[]{}'\"") or _fast_value(item) is not item:
                return _NO
        return items
    return _plain(value)


def _plain(value: str) -> Any:
    if value[0] in _INDICATOR_START or " #" in value or ": " in value or value[-1] == ":" or not value.isprintable():
        return _NO
    if value[0] in _RESOLVED_START:
        if _DATE.fullmatch(value):
            try:
                return dt.date.fromisoformat(value)
            except ValueError:
                return _NO
        return _NO
    if value in _WORDS:
        return _WORDS[value]
    return value


# --------------------------------------------------------------------------- validation


def validate(meta: Mapping[str, Any], fm_lines: list[str]) -> list[Problem]:
    """Check the fields of SPEC §2. Every problem names the line of its field."""
    problems: list[Problem] = []

    def bad(key: str, message: str) -> None:
        problems.append(Problem(field_line(fm_lines, key) or 1, message))

    description = meta.get("description")
    if "description" not in meta:
        problems.append(Problem(1, "missing required field 'description': one line saying what the fact is for"))
    elif not isinstance(description, str):
        bad("description", f"'description' must be one line of text, got {_kind(description)}")
    elif not description.strip():
        bad("description", "'description' is empty")
    elif "\n" in description.strip():
        bad("description", "'description' must be one line")

    kind = card_type(meta)
    raw_type = meta.get("type")
    if raw_type is None and isinstance(meta.get("metadata"), dict):
        raw_type = meta["metadata"].get("type")
    if raw_type is None:
        problems.append(Problem(1, f"missing required field 'type': one of {', '.join(TYPES)}"))
    elif kind not in TYPES:
        message = f"unknown type {raw_type!r}: expected one of {', '.join(TYPES)}"
        if "type" in meta:
            bad("type", message)
        else:
            problems.append(Problem(_nested_line(fm_lines, "metadata", "type"), message))

    status = meta.get("status")
    if status is not None and status not in STATUSES:
        bad("status", f"unknown status {status!r}: expected one of {', '.join(STATUSES)}")
    for key in _DATE_FIELDS:
        value = meta.get(key)
        if value is not None and as_date(value) is None:
            bad(key, f"'{key}' must be an ISO date (YYYY-MM-DD), got {value!r}")
    for key in _TEXT_FIELDS:
        value = meta.get(key)
        if value is not None and not isinstance(value, str):
            bad(key, f"'{key}' must be text, got {_kind(value)}")
    for key in _ID_LIST_FIELDS:
        value = meta.get(key)
        if value is not None and not _str_or_str_list(value):
            bad(key, f"'{key}' must be text or a list of text, got {_kind(value)}")
    if "lock" in meta and not isinstance(meta["lock"], bool):
        bad("lock", f"'lock' must be true or false, got {meta['lock']!r}")
    confidence = meta.get("confidence")
    if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float, str))):
        bad("confidence", f"'confidence' must be a number or a word, got {_kind(confidence)}")
    return problems


def _str_or_str_list(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"


def id_value(ids: Sequence[str]) -> str | list[str]:
    """How a field of ids is written: one id as a string, several as a list (see `id_list`)."""
    return ids[0] if len(ids) == 1 else list(ids)


def id_list(value: object) -> list[str]:
    """Read a field that holds one id or a list of ids."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def lineage(meta: Mapping[str, Any]) -> list[str]:
    """The ids of every card this one replaced or absorbed (`supersedes`, `merged_from`), once each.

    Both fields are kept transitive: a card that takes another's place also takes over
    what that one had replaced, so how often a fact was restated survives its rewording.
    """
    return list(dict.fromkeys([*id_list(meta.get("supersedes")), *id_list(meta.get("merged_from"))]))


# --------------------------------------------------------------------------- writing

def quote(text: str) -> str:
    """A YAML double-quoted scalar for `text` (JSON's escapes are YAML's too).

    Characters that are not printable, including the ones YAML reads as line breaks
    (NEL, LS, PS), are escaped, so the value stays on its line.
    """
    quoted = json.dumps(text, ensure_ascii=False)
    if quoted.isprintable():
        return quoted
    return "".join(c if c.isprintable() else _escape(c) for c in quoted)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def yaml_value(value: Any, *, flow: bool = False) -> str:
    """Serialize one field value the way a person would write it, and YAML reads it back."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value)
        if "e" in text and "." not in text:  # YAML 1.1 floats need a dot: 1.0e+16
            text = text.replace("e", ".0e", 1)
        return text
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_value(v, flow=True) for v in value) + "]"
    if isinstance(value, str):
        plain_ok = value == value.strip() and value and _plain(value) is value
        if plain_ok and flow and any(c in value for c in ",[]{}"):
            plain_ok = False
        return value if plain_ok else quote(value)
    raise TypeError(f"cannot write {type(value).__name__} to a card")


def set_fields(text: str, updates: Mapping[str, Any], *, path: str | None = None) -> str:
    """Rewrite only the frontmatter lines of `updates`; keep every other byte.

    A value of None removes the field. New fields go last, before the closing fence.
    The result ends with a newline.
    """
    from .errors import CardError

    lines = text.splitlines(keepends=True)
    close = frontmatter_span(lines)
    if close is None:
        raise CardError("cannot update a card without closed frontmatter", path=path, line=1)
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    for key, value in updates.items():
        start, end = _field_extent(lines, close, key, value is None)
        new = [] if value is None else [f"{key}: {yaml_value(value)}{newline}"]
        if start is None:
            lines[close:close] = new
            close += len(new)
        else:
            lines[start:end] = new
            close += len(new) - (end - start)
    out = "".join(lines)
    if not out.endswith("\n"):
        out += newline
    return out


def _field_extent(lines: list[str], close: int, key: str, removing: bool) -> tuple[int | None, int]:
    pattern = re.compile(rf"{re.escape(key)}[ \t]*:(?:[ \t]|$)")
    for i in range(1, close):
        if pattern.match(lines[i].rstrip("\r\n")):
            # Whitespace-only lines after a removed field would join the field above it
            # if that one ends in an indented block (a `|` scalar): they go with it.
            above = next((line for line in reversed(lines[1:i]) if line.strip()), "")
            removing = removing and above[:1] in (" ", "\t")
            end = i + 1
            last = end
            while end < close:
                line = lines[end].rstrip("\r\n")
                if not line.strip():
                    end += 1
                    if line and removing:
                        last = end
                    continue
                if line[0] in " \t" or line == "-" or line.startswith("- "):
                    end += 1
                    last = end
                    continue
                break
            return i, last
    return None, close


def links(body: str) -> list[str]:
    """Targets of the `[[links]]` in a card body, in order."""
    return [m.strip() for m in re.findall(r"\[\[([^\]\n|#]+)(?:[|#][^\]\n]*)?\]\]", body)]
