"""Readers for what a repo's own files record, beside its code and docs: one `Record` per fact.

A record is a slot and the value the repo gives it: a `package.json` script and its
command, a Makefile target and its recipe, a CI job or step and what it runs, a tool
setting (`tool.ruff.line-length = 100`), a runtime version (`.nvmrc`, `requires-python`,
`engines.node`), the owners CODEOWNERS gives a path, a constant and its literal value.
The derivable rules compare what a card states with these; each reader is a pure
function of one file's text, so `repo_facts` reads a file once and caches the records.
"""

from __future__ import annotations

import ast
import json
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from cardindex.lazy import lazy_pattern


class Record(NamedTuple):
    """One fact a repo file records: `kind` is script, target, ci, setting, version, owner or constant."""

    path: str
    line: int
    kind: str
    subject: str
    value: str


def _line_of(text: str, needle: str, start: int = 0) -> int:
    at = text.find(needle, start)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


# ------------------------------------------------------------------ package.json


def package_json(path: str, text: str) -> Iterator[Record]:
    """Scripts, `engines` and `packageManager` of a package.json."""
    try:
        data = json.loads(text)
    except ValueError:
        return
    if not isinstance(data, dict):
        return
    scripts = data.get("scripts")
    if isinstance(scripts, dict):
        at = text.find('"scripts"')
        for name, command in scripts.items():
            if isinstance(name, str) and isinstance(command, str):
                yield Record(path, _line_of(text, json.dumps(name), at), "script", name, command)
    engines = data.get("engines")
    if isinstance(engines, dict):
        for name, version in engines.items():
            if isinstance(version, str):
                yield Record(path, _line_of(text, json.dumps(name), text.find('"engines"')), "version", name, version)
    manager = data.get("packageManager")
    if isinstance(manager, str) and "@" in manager:
        name, _, version = manager.partition("@")
        yield Record(path, _line_of(text, '"packageManager"'), "version", name, version.split("+")[0])


# ------------------------------------------------------------------ Makefile

_TARGET = lazy_pattern(r"^([A-Za-z0-9][\w./-]*)\s*:(?![:=])([^\n]*)$", re.MULTILINE)


def makefile(path: str, text: str) -> Iterator[Record]:
    """Each target of a Makefile with its recipe (the tab-indented lines under it), and what its help or comment says."""
    lines = text.splitlines()
    for m in _TARGET.finditer(text):
        number = text.count("\n", 0, m.start()) + 1
        recipe = []
        for line in lines[number:]:
            if not line.startswith("\t"):
                break
            recipe.append(line.strip().lstrip("@-"))
        prerequisites, _, help_text = m.group(2).partition("##")
        yield Record(path, number, "target", m.group(1), " ; ".join(recipe) or prerequisites.strip())
        # What the Makefile says the target is for: `migrate: ## apply the migrations`, or comments just above it.
        above: list[str] = []
        for line in reversed(lines[:number - 1]):
            if not line.startswith("#"):
                break
            above.insert(0, line.lstrip("#").strip())
        said = help_text.strip() or " ".join(above)
        if len(re.findall(r"[A-Za-z]{2,}", said)) >= 2:
            yield Record(path, number, "target", m.group(1), said)


# ------------------------------------------------------------------ CI workflows


def _yaml(text: str) -> Any:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError:
        return None


def _steps(path: str, text: str, job: str, steps: Any) -> Iterator[Record]:
    if not isinstance(steps, list):
        return
    for step in steps:
        if isinstance(step, str):
            yield Record(path, _line_of(text, step), "ci", job, step)
            continue
        if not isinstance(step, dict):
            continue
        name = step.get("name")
        run = step.get("run") or step.get("uses") or ""
        subject = f"{job}: {name}" if isinstance(name, str) else job
        given = step.get("with")
        # What an action is given is what the step does: `setup-node` with `node-version: 22`.
        inputs = " ".join(f"{k} {v}" for k, v in given.items() if isinstance(v, (str, int, float))) if isinstance(given, dict) else ""
        if isinstance(run, str):
            value = f"{run.strip()} {inputs}".strip()
            yield Record(path, _line_of(text, run.splitlines()[0] if run else str(name)), "ci", subject, value)


def _matrix(job: dict[Any, Any]) -> str:
    """What a job's matrix runs it on (`python-version 3.11 3.12`): the versions a card says CI tests."""
    strategy = job.get("strategy")
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if not isinstance(matrix, dict):
        return ""
    parts = [f"{k} {' '.join(str(v) for v in values if isinstance(v, (str, int, float)))}"
             for k, values in matrix.items() if isinstance(k, str) and isinstance(values, list)]
    return f"matrix {' '.join(parts)}" if parts else ""


def github_workflow(path: str, text: str) -> Iterator[Record]:
    """A GitHub Actions workflow: its name and triggers, each job, each step's name and command."""
    data = _yaml(text)
    if not isinstance(data, dict):
        return
    title = data.get("name")
    triggers = data.get(True, data.get("on"))  # YAML 1.1 reads a bare `on:` as True
    jobs = data.get("jobs")
    if not isinstance(jobs, dict):
        jobs = {}
    # The workflow as a whole: when it runs and which jobs it has ("CI runs lint and tests on every PR").
    events = " ".join(map(str, triggers)) if isinstance(triggers, (dict, list)) else str(triggers or "")
    names = " ".join(str(j.get("name") or k) if isinstance(j, dict) else str(k) for k, j in jobs.items())
    yield Record(path, 1, "ci", str(title or path.rsplit("/", 1)[-1]), f"on {events}; jobs {names}".strip())
    for job_id, job in jobs.items():
        if not isinstance(job, dict):
            continue
        job_name = str(job.get("name") or job_id)
        yield Record(path, _line_of(text, f"{job_id}:"), "ci", job_name, f"{job.get('runs-on') or ''} {_matrix(job)}".strip())
        yield from _steps(path, text, job_name, job.get("steps"))


_GITLAB_RESERVED = {"stages", "variables", "default", "include", "workflow", "image", "services", "cache", "before_script",
                    "after_script"}


def gitlab_ci(path: str, text: str) -> Iterator[Record]:
    """A .gitlab-ci.yml: each job with its stage and each line of its script."""
    data = _yaml(text)
    if not isinstance(data, dict):
        return
    jobs = [j for j, body in data.items()
            if isinstance(j, str) and j not in _GITLAB_RESERVED and not j.startswith(".") and isinstance(body, dict)]
    yield Record(path, 1, "ci", "GitLab CI", f"jobs {' '.join(jobs)}")
    for job, body in data.items():
        if job not in jobs:
            continue
        yield Record(path, _line_of(text, f"{job}:"), "ci", job, str(body.get("stage") or ""))
        for key in ("before_script", "script", "after_script"):
            yield from _steps(path, text, job, body.get(key) if isinstance(body.get(key), list) else None)


# ------------------------------------------------------------------ TOML and INI settings

_SECTION = lazy_pattern(r"^\s*\[+\s*([^\]]+?)\s*\]+\s*(?:#.*)?$")
_ASSIGN = lazy_pattern(r"^\s*([\"']?[\w.-]+[\"']?)\s*[=:]\s*(.*?)\s*$")


def _plain(value: str) -> str:
    value = re.sub(r"\s+#.*$", "", value).strip().rstrip(",")
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def settings(path: str, text: str) -> Iterator[Record]:
    """`key = value` lines under `[section]` headers (pyproject.toml, ruff.toml, setup.cfg, tox.ini, mypy.ini).

    A line-wise reading, on purpose: it gives line numbers, needs no TOML library on
    Python 3.10, and a value that spans lines is kept as its first line. The section
    names the tool (`tool.ruff`, `flake8`); `project.requires-python` is a version.
    """
    section = ""
    base = path.rsplit("/", 1)[-1]
    implied = {"ruff.toml": "tool.ruff", ".ruff.toml": "tool.ruff"}.get(base, "")
    for number, line in enumerate(text.splitlines(), 1):
        m = _SECTION.match(line)
        if m:
            section = m.group(1).strip("\"'")
            continue
        a = _ASSIGN.match(line)
        if a is None or (line[:1].isspace() and not section):
            continue
        key, value = a.group(1).strip("\"'"), _plain(a.group(2))
        if not value or value in ("[", "{", '"""'):
            continue
        where = ".".join(p for p in (implied, section) if p)
        if where == "project" and key == "requires-python":
            yield Record(path, number, "version", "python", value)
        elif where in ("project", "tool.poetry") and key == "version":
            yield Record(path, number, "version", "package", value)
        elif where in ("project.scripts", "tool.poetry.scripts"):
            yield Record(path, number, "script", key, value)
        elif where == "package" and base == "Cargo.toml" and key in ("rust-version", "edition"):
            yield Record(path, number, "version", "rust" if key == "rust-version" else "rust edition", value)
        elif where:
            yield Record(path, number, "setting", f"{where}.{key}", value)


# ------------------------------------------------------------------ versions and owners


def version_file(path: str, text: str) -> Iterator[Record]:
    """`.nvmrc`, `.node-version`, `.python-version`, `.tool-versions`, `go.mod`'s go line."""
    base = path.rsplit("/", 1)[-1]
    if base == "go.mod":
        m = re.search(r"^go\s+(\S+)", text, re.MULTILINE)
        if m:
            yield Record(path, _line_of(text, m.group()), "version", "go", m.group(1))
        return
    if base == ".tool-versions":
        for number, line in enumerate(text.splitlines(), 1):
            parts = line.split()
            if len(parts) >= 2 and not line.startswith("#"):
                yield Record(path, number, "version", {"nodejs": "node"}.get(parts[0], parts[0]), parts[1])
        return
    tool = {".nvmrc": "node", ".node-version": "node", ".python-version": "python", ".ruby-version": "ruby"}[base]
    first = text.strip().splitlines()[0].strip() if text.strip() else ""
    if first:
        yield Record(path, 1, "version", tool, first.lstrip("v"))


def codeowners(path: str, text: str) -> Iterator[Record]:
    """Each CODEOWNERS line: a path pattern and its owners."""
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 2:
            yield Record(path, number, "owner", parts[0], " ".join(parts[1:]))


# ------------------------------------------------------------------ constants in code

_NUMBER = lazy_pattern(r"^[-+]?(?:0x[0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][-+]?\d+)?)(?:u8|u16|u32|u64|usize|i32|i64|f32|f64|L|n)?$")
_LITERAL_STRING = lazy_pattern(r"^(?:[bru]?)([\"'`])((?:(?!\1)[^\\\n$]|\\.)*)\1$")
_CONSTANT_LINE = lazy_pattern(
    r"^(?P<indent>[ \t]*)(?:#define\s+(?P<macro>[A-Z][A-Z0-9_]{2,})\s+(?P<mvalue>[^\n]+?)"
    r"|(?:(?:export|pub(?:\([^)]*\))?|public|private|protected|internal|static|final|readonly|inline|comptime)\s+)*"
    r"(?P<decl>const|let|var|val)?\s*(?:[A-Za-z_][\w<>\[\]]*\s+(?=[A-Z]))?"
    r"(?P<name>[A-Za-z_][\w]*)\s*(?::\s*[^=\n]{1,60}?)?\s*:?=\s*(?P<value>[^=\n][^\n]*?))[ \t]*;?[ \t]*(?:[ \t](?://|#)[^\n]*)?$",
    re.MULTILINE,
)
_OPS: dict[type, Callable[[Any, Any], Any]] = {ast.Mult: operator.mul, ast.Add: operator.add, ast.Sub: operator.sub,
                                               ast.FloorDiv: operator.floordiv, ast.Div: operator.truediv,
                                               ast.Pow: operator.pow, ast.LShift: operator.lshift}


def _arithmetic(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _arithmetic(node.left), _arithmetic(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 64):
            return None
        try:
            return float(_OPS[type(node.op)](left, right))
        except (ArithmeticError, ValueError):
            return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _arithmetic(node.operand)
        return None if inner is None else -inner
    return None


def literal(raw: str) -> str | None:
    """The value of a constant's right-hand side when it is a literal: a number (arithmetic folded), string or boolean."""
    raw = raw.strip().rstrip(";,").strip()
    if raw.lower() in ("true", "false"):
        return raw.lower()
    m = _LITERAL_STRING.match(raw)
    if m:
        return m.group(2)
    if _NUMBER.match(raw):
        raw = re.sub(r"(u8|u16|u32|u64|usize|i32|i64|f32|f64|L|n)$", "", raw)
    if not re.fullmatch(r"[\d_.xXa-fA-F+\-*/()<\s]+", raw) or not re.search(r"\d", raw):
        return None
    try:
        value = _arithmetic(ast.parse(raw.replace("_", ""), mode="eval").body)
    except (SyntaxError, ValueError):
        return None
    return None if value is None else number_text(value)


def number_text(value: float) -> str:
    """One spelling per number: `1800`, not `1800.0` or `1_800`."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def constants(path: str, text: str) -> Iterator[Record]:
    """Constants with a literal value: `NAME = 3`, `export const NAME = "x"`, `pub const NAME: u32 = 3;`, `#define NAME 3`.

    UPPER_CASE names at any depth (Rust and Zig keep them in blocks); other names only
    when declared `const` at the top of the file (TypeScript, JavaScript, Go, Zig).
    """
    for m in _CONSTANT_LINE.finditer(text):
        name = m.group("macro") or m.group("name")
        raw = m.group("mvalue") if m.group("macro") else m.group("value")
        if not name or raw is None:
            continue
        upper = re.fullmatch(r"[A-Z][A-Z0-9_]{2,}|__[a-z]+__", name) is not None
        if not upper and not (m.group("decl") == "const" and not m.group("indent") and len(name) >= 4):
            continue
        value = literal(raw)
        if value is not None and value.strip():
            yield Record(path, text.count("\n", 0, m.start()) + 1, "constant", name, value)
    if "env" in text:
        for m in _ENV_DEFAULT.finditer(text):
            value = literal(m.group("value"))
            if value is not None and value.strip():
                yield Record(path, text.count("\n", 0, m.start()) + 1, "constant", m.group("pname") or m.group("jname"), value)


# An environment variable read with a default: `os.getenv("REGION", "eu-west")`, `process.env.REGION ?? "eu-west"`.
# The default is the value the code gives the name, as a constant's literal is.
_ENV_DEFAULT = lazy_pattern(
    r"(?:\b(?:os\.)?(?:getenv|environ\.get)\(\s*[\"'](?P<pname>[A-Z][A-Z0-9_]{2,})[\"']\s*,\s*"
    r"|\bprocess\.env\.(?P<jname>[A-Z][A-Z0-9_]{2,})\s*(?:\?\?|\|\|)\s*)"
    r"(?P<value>[\"'][^\"'\n]{0,80}[\"']|-?\d[\d_.]*)"
)


# ------------------------------------------------------------------ which reader reads which file


def reader(rel: str) -> Callable[[str, str], Iterator[Record]] | None:
    """The reader for a repo file of the kinds above, by its path (None: not one of them)."""
    base = rel.rsplit("/", 1)[-1]
    if base == "package.json":
        return package_json
    if base in ("Makefile", "GNUmakefile", "makefile") or base.endswith(".mk"):
        return makefile
    if rel.startswith(".github/workflows/") and base.endswith((".yml", ".yaml")):
        return github_workflow
    if base == ".gitlab-ci.yml":
        return gitlab_ci
    if base in ("pyproject.toml", "ruff.toml", ".ruff.toml", "setup.cfg", "tox.ini", "mypy.ini", ".flake8", "pytest.ini",
                ".isort.cfg", "Cargo.toml"):
        return settings
    if base in (".nvmrc", ".node-version", ".python-version", ".ruby-version", ".tool-versions", "go.mod"):
        return version_file
    if base == "CODEOWNERS" and rel in ("CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS", ".gitlab/CODEOWNERS"):
        return codeowners
    return None
