"""Values a card gives that a repo file sets: a constant's literal, a tool setting's number.

Same value: the card is a copy of what the code or config records. Another value in the
same slot: the copy went stale, or was never right; the file is the record either way,
so both are reported by the derivable rules, saying which value each side gives.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import NamedTuple

from cardindex.lazy import lazy_pattern
from cardindex.meaning.content import content_stems, numbers
from cardindex.meaning.repo_files import Record

# Time and size units a card may give a constant's value in: its value in the unit's base.
_UNITS = {"ms": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "s": 1, "sec": 1, "secs": 1, "second": 1,
          "seconds": 1, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600,
          "hour": 3600, "hours": 3600, "day": 86400, "days": 86400, "kb": 1024, "kib": 1024, "mb": 1 << 20,
          "mib": 1 << 20, "gb": 1 << 30, "gib": 1 << 30}
_STATED = r"`?\s*(?:\)|\s)*(?:is|=|==|:|equals|of|at|to|defaults? to|is set to|set to|stays? at|holds?)\s*`?\s*"
_NUMBER_AFTER = r"(-?\d[\d_,]*(?:\.\d+)?)\s*([A-Za-z]+)?"
_STRING_AFTER = r"[\"'`]([^\"'`\n]{1,80})[\"'`]"


class Stated(NamedTuple):
    record: Record
    same: bool
    stated: str  # the value as the card gives it


def _scales(unit: str | None) -> set[float]:
    factor = _UNITS.get((unit or "").lower())
    if factor is None:
        return {1.0}
    # The code may keep the value in the unit's base, in thousandths of it, or in larger units.
    return {1.0, factor, factor * 1000, factor / 1000, factor / 60, factor / 3600, factor / 1024, factor / (1 << 20)}


def _equal(stated: float, unit: str | None, value: float) -> bool:
    return any(abs(stated * scale - value) <= 1e-14 * max(1.0, abs(value)) for scale in _scales(unit))


def _as_number(text: str) -> float | None:
    try:
        return float(text.replace("_", "").replace(",", ""))
    except ValueError:
        return None


_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"])}
_NUMBER_WORD = lazy_pattern(r"(?i)\b(" + "|".join(_NUMBER_WORDS) + r")\b")


def constant_values(sentence: str, constants: dict[str, list[Record]]) -> Iterator[Stated]:
    """Each constant `sentence` names together with a value: the code's value, or another one."""
    if _NUMBER_WORD.search(sentence):
        sentence = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group().lower()], sentence)  # "five times": 5
    for name in dict.fromkeys(re.findall(r"[A-Za-z_][\w]*", sentence)):
        records = constants.get(name)
        if not records:
            continue
        record = records[0]
        rest = re.sub(rf"\b{re.escape(name)}\b", " ", sentence)
        value = _as_number(record.value)
        after = re.search(rf"\b{re.escape(name)}\b{_STATED}{_NUMBER_AFTER}", sentence)
        if value is not None:
            for m in re.finditer(_NUMBER_AFTER, rest):
                stated = _as_number(m.group(1))
                if stated is not None and _equal(stated, m.group(2), value):
                    yield Stated(record, True, m.group(1))
                    break
            else:
                if after is not None:
                    stated = _as_number(after.group(1))
                    if stated is not None and not _equal(stated, after.group(2), value):
                        yield Stated(record, False, after.group(1) + (f" {after.group(2)}" if after.group(2) else ""))
            continue
        if record.value.lower() == name.lower():
            continue  # an enum-like constant named by its own value says nothing more
        if len(record.value) >= 2 and re.search(rf"(?<![\w-]){re.escape(record.value)}(?![\w-])", rest):
            yield Stated(record, True, record.value)
            continue
        quoted = re.search(rf"\b{re.escape(name)}\b{_STATED}{_STRING_AFTER}", sentence)
        if quoted is not None and quoted.group(1) != record.value:
            yield Stated(record, False, quoted.group(1))


@functools.lru_cache(maxsize=4096)
def _setting_words(subject: str) -> tuple[frozenset[str], frozenset[str]]:
    """The stems that name a setting: its tool (`ruff`) and its key (`line length`)."""
    parts = subject.split(".")
    tool = parts[1] if parts[0] == "tool" and len(parts) > 2 else parts[0]
    return frozenset(content_stems(tool)), frozenset(content_stems(parts[-1], split_camel=True))


_FLAG = lazy_pattern(r"--?[A-Za-z][\w-]*|\b[A-Z]{1,4}\d{2,4}\b")


def _text_setting(sentence: str, said: set[str], record: Record) -> Stated | None:
    """A tool setting whose value is flags or codes (`addopts = "-ra --strict-markers"`, `ignore = ["E501"]`), given whole.

    The sentence names the tool, writes every flag or code of the value as the file
    does, and says little else: "pytest always runs with -ra and --strict-markers".
    """
    flags = {f.lower() for f in _FLAG.findall(record.value)}
    if not flags or not flags <= {f.lower() for f in _FLAG.findall(sentence)}:
        return None
    tool, _ = _setting_words(record.subject)
    if not tool <= said:
        return None
    if _extra(sentence, record, "setting set configured config option tool default defaults always every run runs") > 3:
        return None
    return Stated(record, True, record.value)


def _setting(sentence: str, said: set[str], stated: frozenset[str], record: Record, alone: bool = False) -> Stated | None:
    """A tool setting named by its tool and key (`ruff` … `line length`), with the number the sentence gives.

    The key alone names it when no other setting of the repo has that key (`alone`):
    "line-length is 100" when only ruff's table sets a line length.
    """
    tool, key = _setting_words(record.subject)
    if not key or not key <= said or not (tool <= said or alone):
        return None
    value = numbers(record.value)
    if not stated or len(value) != 1:
        return None
    if _extra(sentence, record, "setting set configured config option tool") > 3:
        return None  # the setting of something else, or more than the setting
    if not tool <= said and not stated & value:
        return None  # the key alone, with another number: maybe of another tool's key
    return Stated(record, bool(stated & value), " ".join(sorted(stated)))


_VERSION = r"\s*(?:v|version\s*|@|>=|>|\^|~|=)?\s*(\d+(?:\.\d+)*)\b"
_RUNTIME_SPELLINGS = {"node": r"node(?:\.?js)?", "go": r"go(?:lang)?", "python": r"(?:c?python)", "rust": r"rust(?:c)?"}


_VERSION_WORDS = "version versions runtime require requires required need needs newer older later least minimum use uses run runs"
_RANGE = lazy_pattern(r"[<>^~*]|\|\|")


def _extra(sentence: str, record: Record, words: str) -> int:
    """How many of the sentence's content stems are not the record's slot, value, file name or `words`."""
    known = content_stems(f"{record.subject} {record.value} {record.path.rsplit('/', 1)[-1]} {words}")
    return len(set(content_stems(sentence)) - set(known))


def _version(sentence: str, record: Record) -> Stated | None:
    """A runtime version (`Node 20`, `Python 3.12`) next to the runtime's name, in a sentence about little else.

    Only the same version counts: "the kiosk tools use Python 3.10" may be about another
    program, and a version inside a range (`>=3.10`) is no other value.
    """
    if record.subject in ("package", "rust edition"):
        return None
    spelled = _RUNTIME_SPELLINGS.get(record.subject.lower(), re.escape(record.subject))
    m = re.search(rf"(?i)(?<![\w/.-]){spelled}\b{_VERSION}", sentence)
    wanted = re.search(r"\d+(?:\.\d+)*", record.value)
    if m is None or wanted is None:
        return None
    said, value = m.group(1), wanted.group()
    if not (said == value or value.startswith(said + ".") or (said.startswith(value + ".") and not _RANGE.search(record.value))):
        return None
    return Stated(record, True, said) if _extra(sentence, record, f"{_VERSION_WORDS} {said}") <= 3 else None


_OWNING = "owner owners own owns owned review reviews reviewed reviewer reviewers approve approves approval code changes change team"


def _owner(sentence: str, record: Record) -> Stated | None:
    """An owner CODEOWNERS names for a path, with that path, in one sentence."""
    path = record.subject.strip("/*").replace("/**", "")
    if not path:
        return None
    lowered = sentence.lower()
    handles = [h.lower() for h in record.value.split()]
    named = [h for h in handles if re.search(rf"(?<![\w@/-]){re.escape(h.lstrip('@'))}(?![\w-])", lowered.replace("@", " "))]
    if not named or re.search(rf"(?<![\w.-]){re.escape(path.lower())}(?![\w-])", lowered) is None:
        return None
    # Ownership and little else: "@ines owns internal/wire", not "@ines is away; ask @joao about wire".
    extra = set(content_stems(sentence)) - set(content_stems(f"{path} {record.value} {_OWNING}"))
    return Stated(record, True, named[0]) if len(extra) <= 2 else None


_INVOKED = {"script": re.compile(r"\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:.-]+)"),
            "target": re.compile(r"\bmake\s+(?:-\S+\s+)*([A-Za-z0-9][\w./-]*)")}
_RUNNING = "script run runs ran command npm yarn pnpm bun make target start starts does executes calls invokes"


def _invoked(sentence: str, record: Record) -> Stated | None:
    """A package script or Makefile target called as one runs it (`pnpm test`, `make db`) with what it runs.

    "`pnpm test` runs the unit tests once with vitest" gives every word of the script's
    command (`vitest run`) and little else: what package.json says. A sentence that
    brings a reason, a fault or a step of its own ("when `pnpm test` fails only in CI,
    clear the cache") has more words than the record and is left alone.
    """
    pattern = _INVOKED.get(record.kind)
    if pattern is None or not any(m.group(1).rstrip(".:") == record.subject for m in pattern.finditer(sentence)):
        return None
    command = set(content_stems(record.value)) - set(content_stems(_RUNNING))
    if not command or not command <= set(content_stems(sentence)):
        return None
    return Stated(record, True, record.value) if _extra(sentence, record, _RUNNING) <= 3 else None


_ON = frozenset(content_stems("true on enabled enable turned yes"))
_OFF = frozenset(content_stems("false off disabled disable not no"))


def _switch(sentence: str, said: set[str], record: Record, alone: bool) -> Stated | None:
    """A setting that is on or off (`strict = true`), named by its key and its tool (or its key alone), as the file sets it.

    "mypy runs in strict mode" or "strict mode is on" for `[tool.mypy] strict = true`: the
    key's words, the tool's unless no other setting has the key, no "not" or "off"
    against a true value (nor "on" against a false one), and little else.
    """
    tool, key = _setting_words(record.subject)
    if not key or not key <= said or not (tool <= said or alone) or (len(key) == 1 and len(next(iter(key))) < 4):
        return None
    on = record.value.lower() == "true"
    if said & (_OFF if on else _ON - {"on"}):
        return None  # another value, or not said as the file sets it
    if _extra(sentence, record, "setting set configured config option tool mode on enabled enable turned run runs") > 2:
        return None
    return Stated(record, True, record.value)


class _Table(NamedTuple):
    """The records of one repo filed for `record_values`, made once per list of records.

    A setting can only match a sentence that holds every stem of its key (`_setting`,
    `_switch`) or of its tool (`_text_setting`), so it is filed under one stem of each,
    the one the fewest settings share; a script or target only a sentence that runs it
    by its name (`_INVOKED`). Versions and owners, few and matched by spelling, are
    looked at for every sentence. Candidates are tried in the records' order, so the
    first record a sentence gives is the one a scan of every record would give.
    """

    by_stem: dict[str, tuple[int, ...]]  # a stem: the settings filed under it
    by_name: dict[tuple[str, str], tuple[int, ...]]  # (kind, name): the scripts or targets of that name
    always: tuple[int, ...]  # versions and owners
    numeric: tuple[bool, ...]  # per record: a setting whose value holds a number
    alone: tuple[bool, ...]  # per record: a setting no other setting of the repo shares its key with


def _filed(records: list[Record]) -> _Table:
    found = _tables.get(id(records))
    if found is not None and found[0] is records:
        return found[1]
    counts: dict[frozenset[str], int] = {}
    for record in records:
        if record.kind == "setting":
            key = _setting_words(record.subject)[1]
            counts[key] = counts.get(key, 0) + 1
    needs: list[list[frozenset[str]]] = []  # per record: stem sets, one of which a matching sentence holds whole
    always: list[int] = []
    by_name: dict[tuple[str, str], list[int]] = {}
    numeric: list[bool] = []
    alone: list[bool] = []
    for i, record in enumerate(records):
        need: list[frozenset[str]] = []
        is_number = record.kind == "setting" and bool(numbers(record.value))
        numeric.append(is_number)
        alone.append(False)
        if record.kind == "setting":
            tool, key = _setting_words(record.subject)
            alone[-1] = counts.get(key) == 1
            if key and (is_number or record.value.lower() in ("true", "false")):
                need.append(key)  # `_setting` or `_switch`
            if record.value.lower() not in ("true", "false") and _FLAG.search(record.value):
                if not tool:
                    always.append(i)  # `_text_setting` with no tool word to ask for
                    need = []
                else:
                    need.append(tool)
        elif record.kind in _INVOKED:
            by_name.setdefault((record.kind, record.subject), []).append(i)
        elif record.kind in ("version", "owner"):
            always.append(i)
        needs.append(need)
    shared: dict[str, int] = {}
    for need in needs:
        for stems in need:
            for stem in stems:
                shared[stem] = shared.get(stem, 0) + 1
    by_stem: dict[str, list[int]] = {}
    for i, need in enumerate(needs):
        for stem in dict.fromkeys(min(stems, key=lambda s: (shared[s], s)) for stems in need):
            by_stem.setdefault(stem, []).append(i)
    table = _Table({k: tuple(v) for k, v in by_stem.items()}, {k: tuple(v) for k, v in by_name.items()},
                   tuple(always), tuple(numeric), tuple(alone))
    _tables.clear()
    _tables[id(records)] = (records, table)
    return table


_tables: dict[int, tuple[list[Record], _Table]] = {}


def _candidates(sentence: str, said: set[str], table: _Table) -> list[int]:
    """The records `sentence` may give a value for, in the records' order: all others give none."""
    picked = set(table.always)
    for stem in said:
        picked.update(table.by_stem.get(stem, ()))
    if table.by_name:
        for kind, pattern in _INVOKED.items():
            for m in pattern.finditer(sentence):
                picked.update(table.by_name.get((kind, m.group(1).rstrip(".:")), ()))
    return sorted(picked)


def record_values(sentence: str, records: list[Record]) -> Iterator[Stated]:
    """Each config record `sentence` gives a value for: a tool setting, a runtime version, a path's owners, a script's command."""
    said = set(content_stems(sentence, split_camel=True))
    lowered = sentence.lower()
    digits = any(ch.isdigit() for ch in sentence)
    stated = numbers(sentence) if digits else frozenset()
    table = _filed(records)
    for i in _candidates(sentence, said, table):
        record = records[i]
        if record.kind == "setting" and digits and table.numeric[i]:
            found = _setting(sentence, said, stated, record, table.alone[i])
        elif record.kind == "setting" and record.value.lower() in ("true", "false"):
            found = _switch(sentence, said, record, table.alone[i])
        elif record.kind == "setting" and (digits or "-" in sentence):
            found = _text_setting(sentence, said, record)
        elif record.kind == "version" and digits and record.subject.lower()[:2] in lowered:
            found = _version(sentence, record)
        elif record.kind == "owner" and any(h.lstrip("@").lower() in lowered for h in record.value.split()):
            found = _owner(sentence, record)
        elif record.kind in _INVOKED and record.subject.lower() in lowered:
            found = _invoked(sentence, record)
        else:
            continue
        if found is not None:
            yield found


# Words of a constant's name that qualify its value rather than name what it is: MAX_RETRIES is "retries".
_QUALIFIERS = frozenset(content_stems("max maximum min minimum default defaults limit num number count total interval "
                                      "period delay size ttl timeout window threshold"))
# A unit at the end of a name says what the value is kept in: SWEEP_INTERVAL_SECONDS = 300.
_NAME_UNITS = {"ms": "ms", "millis": "ms", "milliseconds": "ms", "msec": "ms", "s": "s", "sec": "s", "secs": "s",
               "seconds": "s", "mins": "min", "minutes": "min", "hours": "h", "hrs": "h", "days": "day",
               "bytes": "", "kb": "kb", "mb": "mb", "gb": "gb"}
# What a sentence giving a constant's value in words says besides its name and value.
_WORDED_EXTRA = 3
_LIGHT_WORDS = frozenset(content_stems(
    "at most least up to no more than after every each once per time times value set is are run runs take takes "
    "limit limited cap capped wait waits try tries retry retries"))
_NUMBER_UNIT = lazy_pattern(r"(?<![\w.])(-?\d[\d_,]*(?:\.\d+)?)\s*([A-Za-z]+)?")


class Worded(NamedTuple):
    core: frozenset[str]  # the stems that name what the value is (MAX_RETRIES: retri)
    unit: str  # the unit the name keeps the value in ("" when it names none)
    value: float
    record: Record


@functools.lru_cache(maxsize=64)
def _name_core(name: str) -> tuple[frozenset[str], str]:
    words = [w.lower() for w in re.split(r"_+|(?<=[a-z0-9])(?=[A-Z])", name) if w]
    unit = _NAME_UNITS.get(words[-1], "") if len(words) > 1 else ""
    if len(words) > 1 and words[-1] in _NAME_UNITS:
        words = words[:-1]
    stems = frozenset(content_stems(" ".join(words)))
    return (stems - _QUALIFIERS) or stems, unit


def worded_table(constants: dict[str, list[Record]]) -> dict[str, list[Worded]]:
    """The repo's numeric constants by each stem of what their name says they are (not MAX, not the unit)."""
    out: dict[str, list[Worded]] = {}
    for name, records in constants.items():
        value = _as_number(records[0].value)
        if value is None or value in (0, 1):
            continue  # a flag or an identity: any sentence gives one
        core, unit = _name_core(name)
        if not core:
            continue
        entry = Worded(core, unit, value, records[0])
        for stem in core:
            out.setdefault(stem, []).append(entry)
    return out


def _holds(said: set[str], stem: str) -> bool:
    """Whether `said` has `stem` or a word of its family (`sweeper` for SWEEP): one begins the other, a short suffix apart."""
    return stem in said or (len(stem) >= 4 and any(
        (s.startswith(stem) or stem.startswith(s)) and len(s) >= 4 and abs(len(s) - len(stem)) <= 3 for s in said))


@functools.cache
def _unit_stems() -> frozenset[str]:
    """The stems of every unit word (`_UNITS`), made once: a unit beside the value is no extra word."""
    return frozenset(content_stems(" ".join(_UNITS)))


def worded_values(sentence: str, table: dict[str, list[Worded]]) -> Iterator[Stated]:
    """A constant the sentence gives in words: what its name says it is, and the same value (number words too).

    "An import is capped at twenty thousand rows" does not name MAX_ROWS, but says its
    value in its words: the name's words (MAX and a unit suffix aside) and the value, with
    little else (`_WORDED_EXTRA` stems). Only the same value counts: another number in
    prose may be of something else.
    """
    if _NUMBER_WORD.search(sentence):
        sentence = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group().lower()], sentence)
    stated = [(n, u) for n, u in ((_as_number(m.group(1)), m.group(2)) for m in _NUMBER_UNIT.finditer(sentence))
              if n is not None]
    if not stated:
        return
    said = set(content_stems(sentence, split_camel=True))
    seen: set[Record] = set()
    keys = {stem[:n] for stem in said for n in range(max(4, len(stem) - 3), len(stem))} | said  # `sweeper`: SWEEP
    for stem in keys:
        for entry in table.get(stem, ()):
            if entry.record in seen or not all(_holds(said, s) for s in entry.core):
                continue
            seen.add(entry.record)
            match = next((n for n, u in stated if _equal(n, u, entry.value)
                          or (entry.unit and u is None and n == entry.value)), None)
            if match is None:
                continue
            numbers_said = {s for s in said if s[:1].isdigit()}
            extra = {s for s in said - numbers_said - _unit_stems() - _LIGHT_WORDS - _QUALIFIERS
                     if not _holds(set(entry.core), s)}
            if len(extra) <= _WORDED_EXTRA:
                yield Stated(entry.record, True, f"{match:g}")
