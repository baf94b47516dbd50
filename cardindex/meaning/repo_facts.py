"""What the repo around a vault already records: files, code names, doc sentences, commits.

The derivable rules compare cards against this. The vault's own files are left out.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.meaning.words import words
from cardindex.store.parse_cache import RACY_NS

MAX_FILES = 20_000
MAX_FILE_BYTES = 256_000
MAX_COMMITS = 2_000
_SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "dist", "build", ".mypy_cache",
              ".pytest_cache", ".cardindex", "target", "vendor"}
_CODE = {".py", ".js", ".ts", ".tsx", ".jsx", ".go", ".rs", ".java", ".kt", ".rb", ".php", ".c", ".h", ".cpp", ".cs", ".swift", ".scala", ".sh"}
_DOC_NAMES = re.compile(r"(?i)^(readme|contributing|architecture|changelog|design)[^/]*\.(md|rst|txt)$")
_SYMBOL_PATTERNS = [
    re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:def|function|fn|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)", re.MULTILINE),
    re.compile(r"^\s*(?:export\s+)?(?:pub\s+)?(?:abstract\s+)?(?:class|struct|enum|trait|interface|type)\s+([A-Za-z_]\w*)", re.MULTILINE),
    re.compile(r"^\s*(?:export\s+)?(?:pub\s+)?(?:const\s+|final\s+|static\s+)*([A-Z][A-Z0-9_]{2,})\s*(?::[^=\n]*)?=", re.MULTILINE),
]
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?!\s|$))+[.!?]?")


class Symbol(NamedTuple):
    path: str
    line: int
    kind: str


class DocSentence(NamedTuple):
    path: str
    line: int
    text: str  # normalized words


class RepoFacts(NamedTuple):
    root: Path
    files: frozenset[str]
    dirs: frozenset[str]
    symbols: dict[str, Symbol]
    docs: list[DocSentence]
    doc_index: dict[str, list[int]]  # rare word -> indexes into docs
    commits: list[tuple[str, str]]  # (hash, subject)
    subjects: list[tuple[str, str, str, frozenset[str]]]  # (hash, subject, normalized, its words)
    subject_index: dict[str, list[int]]  # word -> indexes into subjects
    by_name: dict[str, list[str]]  # last path component -> files and folders with it


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _list_files(root: Path, vault: Path) -> list[str]:
    listed = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
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
    if vault_rel in (None, "."):
        return files[:MAX_FILES] if vault_rel is None else []
    return [f for f in files if not f.startswith(vault_rel + "/")][:MAX_FILES]


def _kind(rel: str) -> str | None:
    """"doc" or "code" for a file whose text the derivable rules read, else None."""
    suffix = os.path.splitext(rel)[1].lower()
    if _DOC_NAMES.match(rel.rsplit("/", 1)[-1]) or (rel.startswith("docs/") and suffix in (".md", ".rst", ".txt")):
        return "doc"
    return "code" if suffix in _CODE else None


def _log(root: Path) -> str:
    return _git(root, "log", f"-n{MAX_COMMITS}", "--format=%H%x00%s") or ""


def repo_stamp(root: Path, vault: Path) -> bytes:
    """A digest of everything `load_repo_facts` reads, mostly from git and stat alone.

    A file is read only when it changed in the last two seconds: it may change again
    within its mtime's resolution, unseen, so its content counts instead of its stat
    (git's rule for racily clean files).
    """
    h = hashlib.blake2b(digest_size=16)
    racy = time.time_ns() - RACY_NS
    for rel in _list_files(root, vault):
        h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        if _kind(rel) is None:
            continue
        try:
            st = (root / rel).stat()
            if max(st.st_mtime_ns, st.st_ctime_ns) >= racy:
                h.update(b"content " + hashlib.blake2b((root / rel).read_bytes(), digest_size=16).digest())
                continue
        except OSError:
            continue
        h.update(f"{st.st_mtime_ns} {st.st_ctime_ns} {st.st_size} {st.st_ino}\0".encode())
    h.update(_log(root).encode("utf-8", "surrogateescape"))
    return h.digest()


def load_repo_facts(root: Path, vault: Path) -> RepoFacts:
    files = _list_files(root, vault)
    dirs = {f.rsplit("/", i)[0] for f in files for i in range(1, f.count("/") + 1)}
    symbols: dict[str, Symbol] = {}
    docs: list[DocSentence] = []
    for rel in files:
        kind = _kind(rel)
        if kind is None:
            continue
        is_doc = kind == "doc"
        try:
            path = root / rel
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if is_doc:
            for number, line in enumerate(text.splitlines(), 1):
                for m in _SENTENCE.finditer(line):
                    normalized = words(m.group()).text
                    if normalized.count(" ") >= 4:
                        docs.append(DocSentence(rel, number, normalized))
        else:
            for pattern in _SYMBOL_PATTERNS:
                for m in pattern.finditer(text):
                    name = m.group(1)
                    if len(name) >= 4 and name not in symbols:
                        symbols[name] = Symbol(rel, text.count("\n", 0, m.start(1)) + 1, "code")
    frequency: dict[str, int] = defaultdict(int)
    for doc in docs:
        for token in set(doc.text.split()):
            frequency[token] += 1
    doc_index: dict[str, list[int]] = defaultdict(list)
    for i, doc in enumerate(docs):
        for _, token in sorted((frequency[t], t) for t in set(doc.text.split()))[:4]:
            doc_index[token].append(i)
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
    return RepoFacts(root, frozenset(files), frozenset(dirs), symbols, docs, dict(doc_index), pairs, subjects,
                     dict(subject_index), dict(by_name))


def facts_digest(facts: RepoFacts | None, part: str) -> bytes:
    """A digest of one part of what the derivable rules read ("files", "symbols", "docs" or "commits").

    A rule's cached hits hold while the part it reads is unchanged: moving a function
    does not make the rule about commit subjects run again.
    """
    if facts is None:
        return b"no repo"
    value: object = {
        "files": (sorted(facts.files), sorted(facts.dirs)),
        "symbols": sorted(facts.symbols.items()),
        "docs": facts.docs,
        "commits": facts.commits,
    }[part]
    return hashlib.blake2b(repr(value).encode("utf-8", "surrogateescape"), digest_size=16).digest()


def plain_facts(facts: RepoFacts) -> tuple[Any, ...]:
    """`facts` in marshal's types, for the lint cache."""
    return (str(facts.root), sorted(facts.files), sorted(facts.dirs), {k: tuple(v) for k, v in facts.symbols.items()},
            [tuple(d) for d in facts.docs], facts.doc_index, facts.commits, facts.subjects, facts.subject_index,
            facts.by_name)


def facts_of_plain(plain: tuple[Any, ...]) -> RepoFacts:
    root, files, dirs, symbols, docs, doc_index, commits, subjects, subject_index, by_name = plain
    return RepoFacts(Path(root), frozenset(files), frozenset(dirs), {k: Symbol(*v) for k, v in symbols.items()},
                     [DocSentence(*d) for d in docs], doc_index, [tuple(c) for c in commits],
                     [tuple(x) for x in subjects], subject_index, by_name)
