"""The package's layers: imports point down only, click stays in the command line, no circles.

Every module's imports are read with `ast`, those inside functions too (a lazy import is
still a dependency). The order, top to bottom, is the one `cardindex/__init__.py` states.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "cardindex"

# Top to bottom. A module may import its own layer and the layers below it.
LAYERS = (
    ("cli", ("cardindex.cli", "cardindex.__main__")),
    ("agents", ("cardindex.agents",)),
    ("lifecycle", ("cardindex.lifecycle",)),
    ("lint", ("cardindex.lint",)),
    ("index", ("cardindex.index",)),
    ("meaning", ("cardindex.meaning",)),
    ("store", ("cardindex.store",)),
    ("gitmerge", ("cardindex.gitmerge",)),
    ("base", ("cardindex.errors", "cardindex.redaction", "cardindex.secrets", "cardindex")),
)


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


@functools.cache
def import_statements(text: str) -> tuple[tuple[int, str | None, tuple[str, ...]], ...]:
    """Each import statement of a module's text, anywhere in it: (level, module, names); level -1 for
    `import a, b`. Kept by text: the copies of the package the tests below make parse only the file
    they change."""
    found: list[tuple[int, str | None, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found.append((-1, None, tuple(a.name for a in node.names)))
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module, tuple(a.name for a in node.names)))
    return tuple(found)


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of the package (and click) that module `name` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for level, module, names in import_statements(path.read_text(encoding="utf-8")):
        if level == -1:
            targets = list(names)
        else:
            base = module or ""
            if level:
                parts = package.split(".")[: len(package.split(".")) - level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{a}" if f"{base}.{a}" in known else base for a in names]
        for target in targets:
            if target.split(".")[0] == "click":
                found.add("click")
                continue
            while target not in known and "." in target:
                target = target.rpartition(".")[0]
            if target in known and target != name:
                found.add(target)
    return found


def graph(root: Path) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def layer_of(name: str) -> int:
    best = (-1, len(LAYERS))
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best[0]:
                best = (len(prefix), rank)
    return best[1]


def upward(deps: dict[str, set[str]]) -> list[str]:
    """Each import of a higher layer, and each import of click outside the command line."""
    bad = []
    for name, targets in sorted(deps.items()):
        for target in sorted(targets):
            if target == "click":
                if layer_of(name) != 0:
                    bad.append(f"{name} imports click")
            elif layer_of(target) < layer_of(name):
                bad.append(f"{name} ({LAYERS[layer_of(name)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})")
    return bad


def cycles(deps: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in deps.get(v, ()):
            if w not in deps:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def test_every_module_has_a_layer() -> None:
    assert [name for name in modules(PACKAGE) if layer_of(name) == len(LAYERS)] == []


def test_imports_point_down_and_click_stays_in_the_cli() -> None:
    assert upward(graph(PACKAGE)) == []


def test_no_import_circles() -> None:
    assert cycles(graph(PACKAGE)) == []


def test_every_subpackage_says_what_it_holds_and_may_import() -> None:
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "import" in doc, f"{init.parent.name}/__init__.py: no docstring naming what it may import"


def test_the_order_is_written_in_the_package_docstring() -> None:
    doc = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert " → ".join(name for name, _ in LAYERS) in doc


@pytest.mark.parametrize(
    ("where", "text", "expected"),
    [
        ("store/bad.py", "from cardindex.lint import runner\n", "upward"),
        ("store/bad.py", "def f():\n    from cardindex.cli import main\n", "upward"),
        ("index/bad.py", "import click\n", "upward"),
        ("meaning/bad.py", "from ..index import build\n", "upward"),
        ("store/one.py", "from cardindex.store import two\n", "cycle"),
    ],
)
def test_the_checks_catch_a_bad_import(tmp_path: Path, where: str, text: str, expected: str) -> None:
    """A copy of the package with one deliberately bad import fails the check it should."""
    import shutil

    root = tmp_path / "cardindex"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    assert upward(graph(root)) == [] and cycles(graph(root)) == []
    (root / where).write_text(text, encoding="utf-8")
    if expected == "cycle":
        (root / "store" / "two.py").write_text("from cardindex.store import one\n", encoding="utf-8")
        assert cycles(graph(root)) == [["cardindex.store.one", "cardindex.store.two"]]
    else:
        assert upward(graph(root)) != []
