"""What the repo around a vault already records: files, code names and constants, docs passages, config records, commits.

The derivable rules compare cards against this. Left out: the vault's own files, other
memory vaults in the repo (a folder holding MEMORY.md or .cardindex.yaml), vendored and
generated folders, lockfiles and files over 256 kB. `repo_files` reads the config files
(package.json, Makefile, CI workflows, pyproject and tool config, version files,
CODEOWNERS) and the constants in code; docs are cut into passages of content stems.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import subprocess
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from cardindex.lazy import lazy_pattern
from cardindex.meaning import doc_blocks, repo_configs, repo_files
from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_comments import comment_blocks
from cardindex.meaning.repo_files import Record, constants
from cardindex.meaning.words import words
from cardindex.store.parse_cache import RACY_NS

T = TypeVar("T")
MAX_FILES = 20_000
MAX_FILE_BYTES = 256_000
MAX_COMMITS = 2_000
MAX_UNITS = 60_000  # code comments and docstrings kept as passages
# Docs passages kept: a repo of plugins or skills keeps thousands of docs (one had 2,000 files, 211,000
# passages), and a card that copies one of the last of them is as derivable as one copying the README.
MAX_DOC_UNITS = 300_000
MAX_UNIT_STEMS = 40  # a longer docs paragraph is cut into runs of sentences about this long
_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "dist", "build", ".mypy_cache",
              ".pytest_cache", ".cardindex", "target", "vendor", "third_party", "third-party", "bower_components",
              ".next", ".nuxt", "coverage", "site-packages", "agent-memory", "memory-bank"}
# Files that say what tools resolved, not what people decided: never compared.
_LOCKFILES = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "poetry.lock", "uv.lock", "Gemfile.lock",
              "composer.lock", "go.sum", "Pipfile.lock", "bun.lockb", "npm-shrinkwrap.json"}
# A folder holding one of these is another memory vault (a copy of this one, a subagent's): not what the repo records.
_VAULT_MARKERS = {"MEMORY.md", ".cardindex.yaml"}
_CODE = {".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".tsx", ".jsx", ".go", ".rs", ".java", ".kt", ".rb", ".php", ".c",
         ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".scala", ".sh", ".zig", ".dart", ".ex", ".exs", ".lua", ".vue",
         ".svelte"}
_DOC_SUFFIXES = {".md", ".markdown", ".rst", ".mdc", ".adoc"}
_DOC_NAMES = lazy_pattern(r"(?i)^(readme|contributing|architecture|changelog|design|claude|agents)[^/]*\.(md|rst|txt)$")
_TEST_PATH = lazy_pattern(r"(?i)(?:^|/)(?:tests?|__tests__|spec)/|(?:^|/)test_[^/]*$|[._-](?:test|spec)\.[a-z]+$")
_SYMBOL_PATTERNS = [
    lazy_pattern(r"^\s*(?:export\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:def|function|fn|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)", re.MULTILINE),
    # Declarations with any of the modifiers C#, Java, Kotlin, Swift and TypeScript put first.
    lazy_pattern(r"^\s*(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|sealed|abstract|partial|"
               r"final|open|data|readonly|unsafe|file)\s+)*(?:class|struct|enum|trait|interface|type|record)\s+([A-Za-z_]\w*)",
               re.MULTILINE),
    # A method of C# or Java: modifiers, a return type, the name and its parameters.
    lazy_pattern(r"^\s*(?:(?:public|private|protected|internal|static|override|virtual|abstract|async|sealed|final|"
               r"synchronized)\s+)+(?:[\w.]+(?:<[^>\n]*>)?(?:\[\])?\??\s+)([A-Za-z_]\w*)\s*(?:<[^>\n]*>)?\(", re.MULTILINE),
    lazy_pattern(r"^\s*(?:export\s+)?(?:pub\s+)?(?:const\s+|final\s+|static\s+)*([A-Z][A-Z0-9_]{2,})\s*(?::[^=\n]*)?=", re.MULTILINE),
]
_SENTENCE = lazy_pattern(r"(?:[^.!?\n]|[.!?](?!\s|$))+[.!?]?")
_FENCE = lazy_pattern(r"^\s*(```|~~~)")
_BLOCK_START = lazy_pattern(r"^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>|---)")
# What each kind of record is called in prose: these words of a card restate the file kind, not something new.
KIND_WORDS = {
    "script": "script run command npm yarn pnpm bun package json",
    "target": "make makefile target run command",
    "ci": "ci workflow job step pipeline run runs use uses github actions gitlab check",
    "setting": "setting settings config configured configuration option set mode enabled on off true false turned run runs",
    "version": "version runtime require requires required need needs",
    "owner": "owner owners own owns review reviews reviewer codeowners",
    "docker": "docker dockerfile image container build builds built base based from expose exposes port ports run runs",
    "env": "environment env variable variables var vars read reads set config configured",
}


# A measure is one value however it is written: "two seconds", "2 seconds" and `2s` are one number and one unit
# to the passages and to the cards compared with them. A number word counts as its digits before a unit only: "two
# jobs, unit and lint" counts what it names, and "one" is a stop word (as often a pronoun).
_UNIT_SUFFIXES = ("ms", "s", "sec", "m", "min", "h", "d")


@functools.cache
def _measure_words() -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """The number words' stems with their digits, the unit suffixes' stems, and the stems of the units (made when first asked)."""
    from cardindex.meaning.value_forms import NUMBER_WORDS

    numbers = {stem: str(n) for word, n in NUMBER_WORDS.items() for stem in content_stems(word)}
    units = dict(zip(_UNIT_SUFFIXES, content_stems("millisecond second second minute minute hour day"), strict=True))
    measures = frozenset(content_stems("milliseconds seconds minutes hours days weeks months years percent bytes "
                                       "kilobytes megabytes gigabytes"))
    return numbers, units, measures


_WITH_UNIT = lazy_pattern(r"^(\d+(?:\.\d+)?)(ms|s|sec|m|min|h|d)$")
# Whether a number with a unit suffix is among some stems (joined by spaces): most passages have none.
_SUFFIXED = lazy_pattern(r"\d(?:ms|sec|min|s|m|h|d)(?![^ ])")


def quantities(stems: Sequence[str]) -> Sequence[str]:
    """`stems` with each measure as a number and a unit: a number word before a unit as its digits, `5m` as 5 minutes.

    A card says "a five minute timeout" of `--timeout 5m`, "every 2 seconds" of "every two
    seconds": both sides of a comparison are read through this, so the number is one stem.
    """
    numbers, units, measures = _measure_words()
    if numbers.keys().isdisjoint(stems) and not _SUFFIXED.search(" ".join(stems)):
        return stems
    out: list[str] = []
    for i, stem in enumerate(stems):
        if stem[:1].isdigit():
            m = _WITH_UNIT.match(stem)
            if m is not None:
                out += (m.group(1), units[m.group(2)])
                continue
        elif stem in numbers and i + 1 < len(stems) and stems[i + 1] in measures:
            stem = numbers[stem]
        out.append(stem)
    return out


class Symbol(NamedTuple):
    path: str
    line: int
    kind: str


class Unit(NamedTuple):
    """A passage of a docs file, or one record of a config file, as the docs rule compares it."""

    path: str
    line: int
    stems: str  # its content stems, each once, space-separated
    label: str  # "" for a docs passage; what a record is ("script lint") otherwise
    core: str = ""  # a record's own stems (its slot and value), without the words for its kind


class RepoFacts(NamedTuple):
    root: Path
    files: frozenset[str]
    dirs: frozenset[str]
    symbols: dict[str, Symbol]
    units: list[Unit]  # docs passages and config records
    records: list[Record]  # config records and constants
    code_digest: bytes  # of every code file read: D102 reads a symbol's definition
    commits: list[tuple[str, str]]  # (hash, subject)
    subjects: list[tuple[str, str, str, frozenset[str]]]  # (hash, subject, normalized, its words)
    subject_index: dict[str, list[int]]  # word -> indexes into subjects
    by_name: dict[str, list[str]]  # last path component -> files and folders with it
    comments: list[Unit]  # code comments and docstrings as passages (`repo_comments`), read by `repo_retrieval` only


def _git(root: Path, *args: str) -> str | None:
    return _git_output(_git_started(root, *args))


def _git_started(root: Path, *args: str) -> subprocess.Popen[str] | None:
    """`git -C root ARGS` started, to be read by `_git_output` (None: git cannot be run)."""
    try:
        return subprocess.Popen(["git", "-C", str(root), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL, text=True)
    except (OSError, subprocess.SubprocessError):
        return None


def _git_output(proc: subprocess.Popen[str] | None) -> str | None:
    """What a started git printed, if it succeeded within 20 s (None otherwise)."""
    if proc is None:
        return None
    try:
        out, _ = proc.communicate(timeout=20)
    except (OSError, subprocess.SubprocessError):
        proc.kill()
        proc.communicate()
        return None
    return out if proc.returncode == 0 else None


def _list_files(root: Path, vault: Path) -> list[str]:
    """The repo's files the derivable rules may read: not the vault's, not vendored, not lockfiles, not other vaults."""
    listed = _git(root, *_LS_FILES)
    return _kept_files(root, vault, listed)


_LS_FILES = ("ls-files", "-z", "--cached", "--others", "--exclude-standard")


def _kept_files(root: Path, vault: Path, listed: str | None) -> list[str]:
    """`_list_files` of what `git ls-files` printed (None: not a git repo, so the folders are walked)."""
    if listed is not None:
        files = [f for f in listed.split("\0") if f]
    else:
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".")]
            rel = os.path.relpath(folder, root)
            files.extend(n if rel == "." else f"{rel}/{n}".replace(os.sep, "/") for n in names)
            if len(files) > MAX_FILES:
                break
    try:
        vault_rel = vault.relative_to(root).as_posix()
    except ValueError:
        vault_rel = None
    if vault_rel == ".":
        return []
    others = {f.rsplit("/", 1)[0] + "/" for f in files if "/" in f and f.rsplit("/", 1)[1] in _VAULT_MARKERS}
    skipped = tuple(sorted(others | ({vault_rel + "/"} if vault_rel else set())))
    out = []
    for f in files:
        parts = f.split("/")
        if f.startswith(skipped) or parts[-1] in _LOCKFILES or not _SKIP_DIRS.isdisjoint(parts[:-1]):
            continue
        out.append(f)
        if len(out) >= MAX_FILES:
            break
    return out


def reader(rel: str) -> Callable[[str, str], Iterator[Record]] | None:
    """The reader of a config file of the repo, by its path: `repo_files`' kinds, then `repo_configs`'."""
    return repo_files.reader(rel) or repo_configs.reader(rel)


def _kind(rel: str) -> str | None:
    """"doc", "config" or "code" for a file whose text the derivable rules read, else None."""
    base = rel.rsplit("/", 1)[-1]
    suffix = os.path.splitext(base)[1].lower()
    if reader(rel) is not None:
        return "config"
    if suffix in _DOC_SUFFIXES or _DOC_NAMES.match(base) or (rel.startswith("docs/") and suffix == ".txt"):
        return "doc"
    return "code" if suffix in _CODE else None


_LOG = ("log", f"-n{MAX_COMMITS}", "--format=%H%x00%s")


def _log(root: Path) -> str:
    return _git(root, *_LOG) or ""


def repo_stamp(root: Path, vault: Path) -> bytes:
    """A digest of everything `load_repo_facts` reads, mostly from git and stat alone.

    A file is read only when it changed in the last two seconds: it may change again
    within its mtime's resolution, unseen, so its content counts instead of its stat
    (git's rule for racily clean files).
    """
    h = hashlib.blake2b(digest_size=16)
    log = _git_started(root, *_LOG)  # the two gits run side by side
    files = _list_files(root, vault)
    racy = time.time_ns() - RACY_NS
    top = str(root) + os.sep
    for rel in files:
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        if _kind(rel) is None:
            continue
        path = top + rel  # a str, not a Path: this loop runs for every file of the repo in every `cards add`
        try:
            st = os.stat(path)
            if max(st.st_mtime_ns, st.st_ctime_ns) >= racy:
                with open(path, "rb") as f:
                    h.update(b"content " + hashlib.blake2b(f.read(), digest_size=16).digest())
                continue
        except OSError:
            continue
        h.update(f"{st.st_mtime_ns} {st.st_ctime_ns} {st.st_size} {st.st_ino}\0".encode())
    h.update((_git_output(log) or "").encode("utf-8", "surrogateescape"))
    return h.digest()


def passages(text: str) -> Iterator[tuple[int, str]]:
    """The passages of a docs file with their first line: paragraphs, list items, table rows, headings, code blocks."""
    buffer: list[str] = []
    first = 0
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            if buffer:
                yield first, "\n".join(buffer)
            buffer, fenced = [], not fenced
            continue
        if not line.strip() or (not fenced and _BLOCK_START.match(line)):
            if buffer:
                yield first, "\n".join(buffer)
            buffer = []
            if not line.strip():
                continue
        if not buffer:
            first = number
        buffer.append(line)
    if buffer:
        yield first, "\n".join(buffer)


def _doc_units(rel: str, text: str) -> Iterator[Unit]:
    for first, passage, whole in doc_blocks.read(passages(text)):
        found = quantities(content_stems(passage))
        if len(set(found)) < 3:
            continue
        if len(found) <= MAX_UNIT_STEMS or (whole and len(found) <= 2 * MAX_UNIT_STEMS):
            yield Unit(rel, first, " ".join(dict.fromkeys(found)), "")
            continue
        run: list[str] = []
        line = first
        for m in _SENTENCE.finditer(passage):
            if not run:
                line = first + passage.count("\n", 0, m.start())
            run.extend(quantities(content_stems(m.group())))
            if len(run) >= MAX_UNIT_STEMS // 2:
                yield Unit(rel, line, " ".join(dict.fromkeys(run)), "")
                run = []
        if len(set(run)) >= 3:
            yield Unit(rel, line, " ".join(dict.fromkeys(run)), "")


def _comment_units(rel: str, text: str) -> Iterator[Unit]:
    """A code file's comment blocks and docstrings as docs passages (`repo_comments`), at their lines."""
    for first, block in comment_blocks(rel, text):
        for unit in _doc_units(rel, block):
            yield unit._replace(line=first + unit.line - 1)


def record_unit(record: Record) -> Unit:
    """A config record as a passage: its slot, its value and what its kind of file calls such a thing.

    What a record runs (a step's `npm test` is the script's `vitest run`) is read by the
    blocks of `repo_groups`, not here: a sentence that restates one record is told the
    record it names.
    """
    core = quantities(content_stems(f"{record.subject} {record.value}"))
    stems = dict.fromkeys((*core, *content_stems(KIND_WORDS.get(record.kind, ""))))
    return Unit(record.path, record.line, " ".join(stems), f"{record.kind} {record.subject}", " ".join(dict.fromkeys(core)))


def load_repo_facts(root: Path, vault: Path) -> RepoFacts:
    files = _list_files(root, vault)
    dirs = {f.rsplit("/", i)[0] for f in files for i in range(1, f.count("/") + 1)}
    symbols: dict[str, Symbol] = {}
    units: list[Unit] = []
    comments: list[Unit] = []  # read after the docs: a cap on passages keeps the docs
    records: list[Record] = []
    code = hashlib.blake2b(digest_size=16)
    for rel in files:
        kind = _kind(rel)
        if kind is None:
            continue
        try:
            path = root / rel
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if kind == "doc":
            if len(units) < MAX_DOC_UNITS:
                units.extend(_doc_units(rel, text))
        elif kind == "config":
            read = reader(rel)
            records.extend(read(rel, text) if read is not None else ())
        else:
            code.update(rel.encode("utf-8", "surrogateescape") + b"\0" + text.encode("utf-8", "surrogateescape"))
            if not _TEST_PATH.search(rel):
                records.extend(constants(rel, text))
                if len(comments) < MAX_UNITS:
                    comments.extend(_comment_units(rel, text))
            for pattern in _SYMBOL_PATTERNS:
                for m in pattern.finditer(text):
                    name = m.group(1)
                    if len(name) >= 4 and name not in symbols:
                        symbols[name] = Symbol(rel, text.count("\n", 0, m.start(1)) + 1, "code")
    # The config records come after the docs and are never cut by the docs' cap.
    del units[MAX_DOC_UNITS:]
    units.extend(record_unit(r) for r in records if r.kind != "constant")
    log = _log(root)
    commits = [tuple(line.split("\0", 1)) for line in log.splitlines() if "\0" in line]
    pairs = [(h, s) for h, s in commits]
    subjects = [(h, s, words(s).text, frozenset(words(s).tokens)) for h, s in pairs]
    subject_index: dict[str, list[int]] = defaultdict(list)
    for i, (_, _, _, tokens) in enumerate(subjects):
        for token in tokens:
            subject_index[token].append(i)
    by_name: dict[str, list[str]] = defaultdict(list)
    for name in [*files, *dirs]:
        by_name[name.rsplit("/", 1)[-1]].append(name)
    return RepoFacts(root, frozenset(files), frozenset(dirs), symbols, units, records, code.digest(), pairs,
                     subjects, dict(subject_index), dict(by_name), comments[:MAX_UNITS])


def facts_digest(facts: RepoFacts | None, part: str) -> bytes:
    """A digest of one part of what the derivable rules read ("files", "symbols", "docs" or "commits").

    A rule's cached hits hold while the part it reads is unchanged: moving a function
    does not make the rule about commit subjects run again.
    """
    if facts is None:
        return b"no repo"
    value: object = {
        "files": (sorted(facts.files), sorted(facts.dirs)),
        "symbols": (sorted(facts.symbols.items()), [r for r in facts.records if r.kind == "constant"], facts.code_digest),
        "docs": (facts.units, [r for r in facts.records if r.kind != "constant"], facts.comments),
        "commits": facts.commits,
    }[part]
    return hashlib.blake2b(repr(value).encode("utf-8", "surrogateescape"), digest_size=16).digest()


_named: list[tuple[list[Record], dict[str, list[Record]]]] = []


def constants_named(facts: RepoFacts) -> dict[str, list[Record]]:
    """The repo's constants by name (a name may be defined in more than one file), made once per set of facts."""
    if _named and _named[0][0] is facts.records:
        return _named[0][1]
    out: dict[str, list[Record]] = defaultdict(list)
    for record in facts.records:
        if record.kind == "constant":
            out[record.subject].append(record)
    _named[:] = [(facts.records, dict(out))]
    return _named[0][1]


_VOUCHED: list[tuple[RepoFacts, bytes]] = []  # the facts of this process's repo and the key they were read under


def vouch(facts: RepoFacts, key: bytes) -> None:
    """Say that `facts` are what the repo gives under `key`: the code's digest and the repo's stamp.

    The lint cache and the write gate vouch for the facts they read or remembered under
    the repo's stamp; tables made from them (`derived`) are then kept under that key too.
    """
    _VOUCHED[:] = [(facts, key)]


def derived(facts: RepoFacts, name: str, make: Callable[[], T], plain: Callable[[T], Any],
            of_plain: Callable[[Any], T]) -> T:
    """`make()`, a table made from `facts` alone, or the one made from the same facts by an earlier process.

    Only facts someone vouched for (`vouch`) are looked up or kept, in the vault's cache
    (`store.built.keyed`), under their key and `name`: an unchanged repo and unchanged
    code give the same facts, so the same table. `plain(table)` must be marshal-able and
    `of_plain` its inverse; a kept table it cannot read is made again.
    """
    from cardindex.store import built

    key = next((k for f, k in _VOUCHED if f is facts), None)
    if key is None:
        return make()
    kept = built.remembered(f"repo-{name}", key)
    if kept is not None:
        try:
            return of_plain(kept)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            pass  # not what this code keeps (a truncated or foreign file): made again
    table = make()
    built.keep(f"repo-{name}", key, plain(table))
    return table


def plain_facts(facts: RepoFacts) -> tuple[Any, ...]:
    """`facts` in marshal's types, for the lint cache."""
    return (str(facts.root), sorted(facts.files), sorted(facts.dirs), {k: tuple(v) for k, v in facts.symbols.items()},
            [tuple(u) for u in facts.units], [tuple(r) for r in facts.records], facts.code_digest, facts.commits,
            facts.subjects, facts.subject_index, facts.by_name, [tuple(u) for u in facts.comments])


def facts_of_plain(plain: tuple[Any, ...], key: bytes | None = None) -> RepoFacts:
    """The facts `plain_facts` gave; `key`: the key they were remembered under, vouched for (`vouch`)."""
    facts = _of_plain(plain)
    if key is not None:
        vouch(facts, key)
    return facts


def _of_plain(plain: tuple[Any, ...]) -> RepoFacts:
    root, files, dirs, symbols, units, records, code_digest, commits, subjects, subject_index, by_name, comments = plain
    return RepoFacts(Path(root), frozenset(files), frozenset(dirs), {k: Symbol(*v) for k, v in symbols.items()},
                     [Unit(*u) for u in units], [Record(*r) for r in records], code_digest, [tuple(c) for c in commits],
                     [tuple(x) for x in subjects], subject_index, by_name, [Unit(*u) for u in comments])
