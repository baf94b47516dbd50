"""The memo of a whole lint run: its findings, under a key of everything they were computed from.

A warm `cards lint` in a vault where nothing changed gives the findings of the last run
without loading a card or running a rule. The key is made from stat and git alone:

- every file and folder name under the vault (dot files too: the settings, the secrets
  baseline), with each file's mtime, ctime, size and inode; `.cardindex/` and `.git/`
  are left out, and a vault holding a symlink is never memoized (its target may change
  unseen);
- the settings as loaded (`Config`, which the user's own config feeds too), a
  templates override folder, the rules selected, the date, the paths linted and the
  cards compared (`universe`);
- the repo: `repo_facts.repo_stamp` (its files' stat, its commits), and every path the
  rules looked up under the repo root in the last run (a `scope: path:` that must exist,
  a file a card names), with what stat said of it then;
- the code: the stat of every source file of the package and of the shipped templates.

Like the parse cache, a file changed less than two seconds before the memo was written
is not trusted by stat (it may change again within its mtime's resolution): the next
run computes the findings again, and the one after that is answered from the memo.
A changed card costs a full run, which answers from the lint cache (`lint/cache.py`):
only the changed card's own rules, and its pairs, are computed again.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import stat
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from cardindex import __version__
from cardindex.lint.finding import Finding
from cardindex.store.parse_cache import RACY_NS
from cardindex.store.vault import STATE_DIR, Vault

FORMAT = 1
SKIPPED = {".git"}  # never read by a rule; the state folder is skipped at the top only
MAX_PROBES = 50_000  # more repo paths looked up than this: not worth remembering

if sys.platform == "win32":  # pragma: no cover - the tests run on Linux
    from pathlib import WindowsPath as _ConcretePath
else:
    from pathlib import PosixPath as _ConcretePath


class Unknown(Exception):
    """The inputs cannot be known from stat: no memo this run."""


def probing(root: Path, seen: set[str]) -> Path:
    """`root`, as a path that adds to `seen` every path made from it with `/` (what the rules look up)."""

    class Probed(_ConcretePath):
        def __truediv__(self, key: str | os.PathLike[str]) -> Probed:
            child = super().__truediv__(key)
            seen.add(os.fspath(child))
            return child

    return Probed(root)


def probe(path: str) -> tuple[int, ...] | None:
    """What stat says of `path` (following links): type, mtime, ctime, size, inode; None when absent."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (stat.S_IFMT(st.st_mode), st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


@functools.lru_cache(maxsize=1)
def code_stamp() -> bytes:
    """A digest of the stat of every source file of the package and of the shipped templates."""
    from cardindex.index.templates import shipped_dir

    package = Path(__file__).resolve().parent.parent
    h = hashlib.blake2b(__version__.encode(), digest_size=16)
    for top in (str(package), str(shipped_dir())):
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith((".py", ".j2", ".md", ".txt", ".json", ".yaml")):
                    try:
                        st = os.stat(os.path.join(folder, name))
                    except OSError:
                        continue
                    h.update(f"{folder}/{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode("utf-8", "surrogateescape"))
    return h.digest()


def _tree(top: str, h: Any, skip_top: frozenset[str]) -> int:
    """Hash every name under `top` with each file's stat; the newest mtime or ctime seen. Raises Unknown."""
    newest = 0
    parts: list[str] = []
    stack = [(top, "")]
    while stack:
        folder, rel = stack.pop()
        try:
            entries = os.scandir(folder)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise Unknown(str(exc)) from None
        with entries:
            for entry in entries:
                name = entry.name
                if name in SKIPPED or (not rel and name in skip_top):
                    continue
                try:
                    if entry.is_symlink():
                        raise Unknown(f"{rel}{name} is a symlink")
                    if entry.is_dir(follow_symlinks=False):
                        parts.append(f"{rel}{name}/")
                        stack.append((entry.path, f"{rel}{name}/"))
                        continue
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    raise Unknown(f"cannot stat {rel}{name}") from None
                m, c = st.st_mtime_ns, st.st_ctime_ns
                if m > newest or c > newest:
                    newest = max(m, c)
                parts.append(f"{rel}{name}\0{m} {c} {st.st_size} {st.st_ino}")
    parts.sort()
    h.update("\0\0".join(parts).encode("utf-8", "surrogateescape"))
    return newest


def canonical(value: Any) -> Any:
    """`value` as text that is the same in every process (sets sorted: their order follows the hash seed)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(repr(canonical(v)) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{canonical(k)!r}:{canonical(v)!r}" for k, v in value.items())) + "}"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(repr(canonical(v)) for v in value) + ")"
    return repr(value)


class RunMemo:
    """The memo of one kind of run (the whole vault, or some of its cards): `get`, else run and `put`."""

    def __init__(self, vault: Vault, selection: object, *, today: str, repo_root: Path | None,
                 paths: Collection[str] | None, universe: Collection[str] | None) -> None:
        """`selection`: what chose the rules, as plain values (the codes, or the command line's selectors)."""
        self.started = time.time_ns()
        self.folder = vault.state_dir / "cache"
        self.path = self.folder / f"lint-run-{__version__}-{FORMAT}-{'all' if paths is None else 'some'}.marshal"
        self.probed: set[str] = set()
        self.repo_stamp: bytes | None = None  # computed for the key: the lint cache asks for it too
        # When the findings this run has were remembered (`get` answered) or kept (`put`): the reports
        # printed of them are kept under it, so they are never those of other findings under one key.
        self.written: int | None = None
        self.answered = False  # `get` answered: the findings are the memo's
        self.key: bytes | None
        try:
            self.key, self.newest = self._key(vault, selection, today, repo_root, paths, universe)
        except Unknown:
            self.key, self.newest = None, 0

    def _key(self, vault: Vault, selection: object, today: str, repo_root: Path | None,
             paths: Collection[str] | None, universe: Collection[str] | None) -> tuple[bytes, int]:
        from cardindex.lint.cache import sources_digest

        h = hashlib.blake2b(digest_size=16)
        h.update(code_stamp() + sources_digest())  # the lint cache's own, so what drops it drops this
        h.update(canonical((str(vault.real_root), today, selection, str(repo_root) if repo_root else None,
                            sorted(paths) if paths is not None else None,
                            sorted(universe) if universe is not None else None,
                            tuple(vault.config), vault.index_name)).encode("utf-8", "surrogateescape"))
        stamped: list[bytes] = []
        thread = None
        if repo_root is not None:  # git runs on the other core while this one walks the vault
            import threading

            from cardindex.meaning.repo_facts import repo_stamp

            thread = threading.Thread(target=lambda: stamped.append(repo_stamp(repo_root, vault.real_root)), daemon=True)
            thread.start()
        try:
            newest = _tree(str(vault.root), h, frozenset({STATE_DIR}))
            if vault.config.templates:
                override = vault.root / vault.config.templates
                h.update(b"\0templates\0")
                if override.is_dir():
                    newest = max(newest, _tree(str(override), h, frozenset()))
        finally:
            if thread is not None:
                thread.join()
        if repo_root is not None:
            if not stamped:
                raise Unknown("the repo could not be read")
            self.repo_stamp = stamped[0]
            h.update(b"\0repo\0" + self.repo_stamp)
        return h.digest(), newest

    def get(self) -> list[Finding] | None:
        """The findings of the last run when nothing they depend on changed since, else None."""
        if self.key is None or self.newest >= self.started - RACY_NS:
            return None
        try:
            key, written, probes, found = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if key != self.key or not isinstance(written, int) or self.newest >= written - RACY_NS:
            return None
        try:
            for path, then in probes:
                now = probe(path)
                if (tuple(then) if then is not None else None) != now or (now and max(now[1], now[2]) >= written - RACY_NS):
                    return None
            findings = [Finding(p, line, code, cat, sev, msg, tuple(rel), fix) for p, line, code, cat, sev, msg, rel, fix in found]
        except (TypeError, ValueError):
            return None
        self.answered, self.written = True, written
        return findings

    def put(self, findings: list[Finding]) -> None:
        """Remember `findings` under this run's key, with what the rules looked up in the repo."""
        if self.key is None or len(self.probed) > MAX_PROBES or not self.folder.is_dir():
            return
        from cardindex.store.atomic import write_atomic

        probes = [(p, probe(p)) for p in sorted(self.probed)]
        plain = [(f.path, f.line, f.code, f.category, f.severity, f.message, f.related, f.fix) for f in findings]
        try:
            write_atomic(self.path, marshal.dumps((self.key, self.started, probes, plain)), durable=False)
            self.written = self.started
        except (OSError, ValueError):
            pass  # a memo that cannot be written only costs speed

    # The printed report of these findings, as the formatter wrote it (redacted: `Formatter.write`
    # passes every finding through `shown`), for each way it was asked for (`how`: the format, the
    # fixes it marks, the folder paths are relative to). Kept beside the findings under their key
    # and the time they were written, so it is only ever the report of the findings `get` returns;
    # the code stamp in the key means the same formatter and redaction made it. A warm run prints
    # it instead of formatting again.

    def output(self, how: object) -> str | None:
        """The report last printed of this run's findings, asked for as `how`, or None."""
        if not self.answered or self.key is None:
            return None
        try:
            key, written, reports = marshal.loads(self._output_path().read_bytes())
            mine = key == self.key and written == self.written and isinstance(reports, dict)
            text = reports.get(_how(how)) if mine else None
        except (OSError, EOFError, ValueError, TypeError, AttributeError):
            return None
        return text if isinstance(text, str) else None

    def put_output(self, how: object, text: str) -> None:
        """Keep `text`, the report of this run's findings asked for as `how` (a few ways at most)."""
        if self.written is None or self.key is None or len(text) > MAX_REPORT:
            return
        from cardindex.store.atomic import write_atomic

        try:
            key, written, reports = marshal.loads(self._output_path().read_bytes())
            if key != self.key or written != self.written or not isinstance(reports, dict):
                reports = {}
        except (OSError, EOFError, ValueError, TypeError):
            reports = {}
        if len(reports) >= MAX_REPORTS:
            reports = {}
        reports[_how(how)] = text
        try:
            write_atomic(self._output_path(), marshal.dumps((self.key, self.written, reports)), durable=False)
        except (OSError, ValueError):
            pass

    def _output_path(self) -> Path:
        return self.path.with_name(self.path.stem + "-report.marshal")


MAX_REPORTS = 4  # ways of printing one run's findings kept at once (text, json, ...)
MAX_REPORT = 64_000_000  # characters: a bigger report is formatted each time


def _how(how: object) -> bytes:
    return hashlib.blake2b(canonical(how).encode("utf-8", "surrogateescape"), digest_size=16).digest()
