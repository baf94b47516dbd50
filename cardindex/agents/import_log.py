"""Reading daily logs for durable statements, and an LLM's answer into candidates.

`extract_log` keeps only explicit durable statements of a raw log: corrections,
decisions, preferences and "remember that" requests. `parse_llm_answer` reads the
candidates a trusted `llm` command proposed. Pure functions of text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from cardindex.agents.importer import ATX, FENCE, TYPES, Candidate, frontmatter_end

# A log line's prefix: a bullet, a time or timestamp, a speaker. What follows is what was said.
_LOG_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,4}[.)])\s+(?:\[[ xX]\]\s+)?")
_LOG_TIME = re.compile(
    r"^\s*(?:\*\*|__)?[\[(]?(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|"
    r"\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?)[\])]?(?:\*\*|__)?\s*(?:[-\u2013\u2014|:]\s*)?"
)
_SPEAKER = re.compile(r"^(\*\*|__)?([A-Za-z][\w.-]{0,24})\1?\s*:\s+")
_QUOTE = re.compile(r"^>\s?")

# Speakers whose words are the agent's, not a statement of the user's.
_AGENT_SPEAKERS = frozenset({"assistant", "agent", "claude", "ai", "bot", "system", "tool", "model", "gpt", "llm"})

# Words that look like a speaker label but start the statement itself ("Decision: …").
_NOT_SPEAKERS = frozenset({
    "actually", "correction", "decision", "decided", "agreed", "note", "remember", "preference", "update",
    "important", "fyi", "reminder", "rule", "policy", "no", "nope", "wrong", "fix", "todo", "why", "reason",
})


# A sentence ends at . ! or ? before a space and a capital (not inside "3.9" or "e.g. the").
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'`(*])")

# The sentence after a statement that says why it holds is kept with it.
_WHY = re.compile(r"^(?:because|since|that's why|that is why|the reason|reason:|why:|otherwise)\b", re.IGNORECASE)
_NO_CHATTER = re.compile(
    r"^(?:that'?s|that is|thanks|thank|problem|worries|idea|clue|need|way|biggie|rush|luck|worry|it'?s fine|ok|okay)\b",
    re.IGNORECASE,
)
_MIN_WORDS = 3  # words a statement needs to be one ("no, thanks" is not)


class _LogLine(NamedTuple):
    number: int
    text: str


def _log_lines(text: str) -> Iterator[_LogLine]:
    """The lines of a log that can hold a statement: no code, comments, headings or frontmatter."""
    lines = text.splitlines()
    i = frontmatter_end(lines)
    fenced: str | None = None
    in_comment = False
    for number in range(i + 1, len(lines) + 1):
        line = lines[number - 1]
        fence = FENCE.match(line)
        if fenced is not None:
            if fence and fence.group(1)[0] == fenced:
                fenced = None
            continue
        if fence:
            fenced = fence.group(1)[0]
            continue
        if in_comment or line.lstrip().startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if ATX.match(line) or not line.strip():
            continue
        yield _LogLine(number, line)


def _said(line: str) -> str | None:
    """What a log line says, without its bullet, time and speaker; None when the agent said it."""
    text = _LOG_BULLET.sub("", line, count=1)
    text = _LOG_TIME.sub("", text, count=1)
    text = _LOG_BULLET.sub("", text, count=1)
    text = _QUOTE.sub("", text, count=1)
    speaker = _SPEAKER.match(text)
    if speaker and speaker.group(2).casefold() not in _NOT_SPEAKERS:
        if speaker.group(2).casefold() in _AGENT_SPEAKERS:
            return None
        text = text[speaker.end():]
    return _QUOTE.sub("", text.strip(), count=1).strip()


def statement(said: str) -> tuple[str, str, str] | None:
    """(kind, type, text) when `said` holds an explicit durable statement, else None."""
    sentences = [part.strip() for part in _SENTENCE_END.split(said) if part.strip()]
    for position, sentence in enumerate(sentences):
        for kind, card_type, pattern in _STATEMENTS:
            m = pattern.search(sentence)
            if m is None:
                continue
            body = m.group("rest").strip() if "rest" in pattern.groupindex else sentence
            if len(body.split()) < _MIN_WORDS or (kind == "correction" and _NO_CHATTER.match(body)):
                continue
            follow = sentences[position + 1] if position + 1 < len(sentences) else ""
            if follow and _WHY.match(follow):
                body = f"{body} {follow}"
            return kind, card_type, body[0].upper() + body[1:]
    return None


def extract_log(text: str, source: str, default_type: str | None = None) -> tuple[list[Candidate], int]:
    """The explicit durable statements of a daily log, and how many lines it has.

    Everything else (progress, chatter, plans, what the agent said) stays in the log.
    `default_type` replaces the type a statement's kind suggests, when given.
    """
    found: list[Candidate] = []
    for number, line in _log_lines(text):
        said = _said(line)
        if not said:
            continue
        hit = statement(said)
        if hit is not None:
            kind, card_type, body = hit
            found.append(Candidate(source, number, body, default_type or card_type, "", "log", kind))
    return found, len(text.splitlines())


def numbered(text: str) -> str:
    """The text with line numbers, for a prompt that should cite lines."""
    return "\n".join(f"{n:>4}| {line}" for n, line in enumerate(text.splitlines(), 1))


def parse_llm_answer(answer: str, source: str, line_count: int, default_type: str) -> tuple[list[Candidate], list[str]]:
    """Candidates from the llm command's answer, and what was wrong with the lines left out.

    The answer is one fact per line: either a JSON object `{"text": "...", "type":
    "feedback", "line": 12}` (type and line optional) or plain text. A leading bullet is
    dropped; blank lines and `NONE` are nothing.
    """
    import json

    out: list[Candidate] = []
    problems: list[str] = []
    for raw in answer.splitlines():
        line = raw.strip()
        if not line or line.upper() in ("NONE", "NONE.") or line.startswith("```"):
            continue
        card_type, number, text = default_type, 0, line
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except ValueError:
                problems.append(f"not JSON: {line[:60]!r}")
                continue
            if not isinstance(data, dict) or not isinstance(data.get("text"), str) or not data["text"].strip():
                problems.append(f"a JSON line without \"text\": {line[:60]!r}")
                continue
            text = data["text"].strip()
            if data.get("type") in TYPES:
                card_type = data["type"]
            if isinstance(data.get("line"), int) and not isinstance(data["line"], bool) and 1 <= data["line"] <= line_count:
                number = data["line"]
        else:
            text = _LOG_BULLET.sub("", line, count=1).strip()
        if text:
            out.append(Candidate(source, number, text, card_type, "", "llm", "llm"))
    return out, problems


# (kind, card type, pattern). A pattern with a `rest` group drops the marker from the card text.
_STATEMENTS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("correction", "feedback", re.compile(
        r"^(?:correction|to correct (?:that|myself)|fix(?:ed)? that)(?:\s*[:,]|\s+[\u2014\u2013-])\s*(?P<rest>.+)", re.IGNORECASE)),
    ("correction", "feedback", re.compile(r"^actually(?:\s*[,:]|\s+[\u2014\u2013-])\s*(?P<rest>.+)", re.IGNORECASE)),
    ("correction", "feedback", re.compile(r"^(?:no|nope|wrong)(?:\s*[,:!]|\s+[\u2014\u2013-])\s*(?P<rest>.+)", re.IGNORECASE)),
    ("decision", "project", re.compile(r"^(?:decision|decided|agreed)\s*:\s*(?P<rest>.+)", re.IGNORECASE)),
    ("decision", "project", re.compile(
        r"\b(?:we|I|the team|they)(?:\s+(?:have|'ve|just|finally|all))?\s+(?:decided|agreed|settled on)\b",
        re.IGNORECASE)),
    ("decision", "project", re.compile(r"\b(?:going forward|from now on|from here on|henceforth)\b", re.IGNORECASE)),
    ("preference", "user", re.compile(
        r"\bI(?:'d|\u2019d| would) (?:much )?rather\b|\bI\s+(?:(?:really|strongly|much|generally|usually|always)\s+)?prefer\b")),
    ("preference", "feedback", re.compile(r"^(?:please\s+)?(?:always|never)\b", re.IGNORECASE)),
    ("preference", "feedback", re.compile(r"\b(?:you|we)\s+(?:should\s+|must\s+)?(?:always|never)\b", re.IGNORECASE)),
    ("remember", "project", re.compile(
        r"^(?:please\s+)?(?:remember|keep in mind|for future reference|don'?t forget|do not forget|note for the future)"
        r"(?:\s+that\b|\s*[,:])\s*(?P<rest>.+)", re.IGNORECASE)),
    ("remember", "feedback", re.compile(
        r"^(?:please\s+)?(?:remember|don'?t forget|do not forget) to\s+\S+(?:\s+\S+){3}", re.IGNORECASE)),
)
