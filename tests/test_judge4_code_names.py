"""Code names of C# and Java (issue 14, class 7): declarations with modifiers are symbols the derivable rules know.

`public sealed class LanternQueue` and `public int Drain(...)` were not read, so a card
describing them was never derivable. A small C# repo for a lighthouse keepers' rota; the
hard negatives name the same class while describing another system, or give a reason.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardindex.cli.main import cli
from cardindex.meaning.repo_facts import load_repo_facts

CODE = (
    "namespace Lighthouse.Rota\n{\n    public sealed class LanternQueue\n    {\n"
    "        // Hands out the queued watches, oldest first, and empties the queue.\n"
    "        public IReadOnlyList<Watch> DrainWatches(int limit)\n        {\n"
    "            var oldest = _watches.OrderBy(w => w.Queued).Take(limit).ToList();\n"
    "            _watches.Clear();\n            return oldest;\n        }\n    }\n\n"
    "    internal record KeeperShift(string Keeper, int Hours);\n}\n"
)
CARDS = {
    "drain": "`LanternQueue.DrainWatches()` returns the queued watches oldest first and empties the queue.",
    "vendor-api": "The harbour authority's Rota API also has a `DrainWatches()` endpoint, but theirs returns newest first.",
    "why-limit": "Keep the `DrainWatches` limit at 12 because the tower radio drops longer messages.",
}


def _git(root: Path, *args: str) -> None:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root), "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lighthouse")
    (root / "src").mkdir()
    (root / "src" / "LanternQueue.cs").write_text(CODE, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Rota queue")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, body in CARDS.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: {name}\ntype: reference\n---\n{body}\n", encoding="utf-8")
    return root


def test_csharp_declarations_with_modifiers_are_symbols(repo: Path) -> None:
    facts = load_repo_facts(repo, repo / "memory")
    assert {"LanternQueue", "DrainWatches", "KeeperShift"} <= facts.symbols.keys()
    assert facts.symbols["DrainWatches"].line == 6
    assert "OrderBy" not in facts.symbols and "ToList" not in facts.symbols  # calls are not declarations


def test_a_card_describing_a_csharp_method_is_derivable_and_the_others_are_not(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["--vault", str(repo / "memory"), "lint", "--select", "derivable", "--format", "json"])
    found = {f["path"]: f["code"] for f in json.loads(result.stdout)}
    assert found == {"drain.md": "D102"}
