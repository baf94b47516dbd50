"""The README's install lines that need no network work exactly as written, in a fresh venv.

Each `pip install` line that names `/path/to/cardindex` is run with that path replaced by
a git snapshot of the project (a clone's stand-in), into a new venv, offline: pip gets
`--no-deps --no-index --no-build-isolation` added, and the dependencies come from this
environment through a `.pth` file (as in test_wheel.py). What is checked is that the
line's own syntax — the path or `git+file://` URL, the extra's name — installs a `cards`
that runs, and that the README's local pre-commit hooks run that `cards`.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml
from test_precommit import commit_all, git, project_files
from test_wheel import clean_env, pip_supports_python_option, run

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLACEHOLDER = "/path/to/cardindex"


def install_lines() -> list[str]:
    lines = []
    for line in README.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line.startswith("pip install") and PLACEHOLDER in line:
            lines.append(line)
    return lines


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cardindex-clone")
    for rel in project_files():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)
    git(root, "init", "-q")
    commit_all(root, "snapshot")
    return root


def fresh_venv(tmp_path: Path, env: dict[str, str]) -> Path:
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path, env=env)
    py = venv / "bin" / "python"
    site = Path(run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    cwd=tmp_path, env=env).stdout.strip())
    here = sysconfig.get_paths()
    (site / "_cardindex_test_deps.pth").write_text(
        "\n".join(dict.fromkeys([here["purelib"], here["platlib"]])) + "\n", encoding="utf-8")
    return venv


def test_the_readme_has_path_and_git_install_lines() -> None:
    lines = install_lines()
    assert any("git+file://localhost/" in line for line in lines) and any(line.startswith("pip install '/") for line in lines)
    assert "pip install 'cardindex[mcp]'" not in README  # no such distribution anywhere a user can reach


@pytest.mark.parametrize("line", install_lines())
def test_each_install_line_installs_a_working_cards(tmp_path: Path, snapshot: Path, line: str) -> None:
    env = clean_env(tmp_path / "tools-home")
    if not pip_supports_python_option(env, tmp_path):
        pytest.skip("pip older than 22.3 cannot install into another interpreter")
    venv = fresh_venv(tmp_path, env)
    words = shlex.split(line.replace(PLACEHOLDER, str(snapshot)))
    assert words[:2] == ["pip", "install"]
    run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps", "--no-index",
         "--no-build-isolation", "-q", *words[2:]], cwd=tmp_path, env=env, timeout=300)
    cards = venv / "bin" / "cards"
    vault = tmp_path / "memory"
    run([str(cards), "init", str(vault)], cwd=tmp_path, env=env)
    done = run([str(cards), "--vault", str(vault), "add", "Deploys go out on Tuesdays."], cwd=tmp_path, env=env)
    assert done.stdout.strip().endswith(".md")
    where = run([str(venv / "bin" / "python"), "-c", "import cardindex; print(cardindex.__file__)"],
                cwd=tmp_path, env=env).stdout
    assert str(venv) in where  # the installed copy, not the source tree


def test_the_readme_local_pre_commit_hooks_run_cards(tmp_path: Path) -> None:
    configs = [yaml.safe_load(body) for lang, body in re.findall(r"```(\w*)\n(.*?)```", README, re.DOTALL)
               if lang == "yaml" and "repo: local" in body]
    assert len(configs) == 1
    if shutil.which("pre-commit") is None and not (Path(sys.executable).parent / "pre-commit").exists():
        pytest.skip("pre-commit is not installed")
    repo = tmp_path / "proj"
    (repo / "memory").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(configs[0]), encoding="utf-8")
    bin_dir = str(Path(sys.executable).parent)
    env = {**clean_env(tmp_path / "tools-home"), "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
           "PRE_COMMIT_HOME": str(tmp_path / "pc-home"), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    run([str(Path(bin_dir) / "cards"), "init", str(repo / "memory")], cwd=repo, env=env)
    (repo / "memory" / "progress.md").write_text(
        "---\ndescription: Where the export work stands\ntype: project\n---\n"
        "Currently halfway through the export screen; next step is the CSV toggle.\n", encoding="utf-8")
    git(repo, "add", "-A")
    pre_commit = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    failed = subprocess.run(pre_commit, cwd=repo, env=env, capture_output=True, text=True, check=False, timeout=300)
    assert failed.returncode == 1 and "S101" in failed.stdout, failed.stdout + failed.stderr
    (repo / "memory" / "progress.md").unlink()
    run([str(Path(bin_dir) / "cards"), "--vault", str(repo / "memory"), "index"], cwd=repo, env=env)
    git(repo, "add", "-A")
    passed = subprocess.run(pre_commit, cwd=repo, env=env, capture_output=True, text=True, check=False, timeout=300)
    assert passed.returncode == 0, passed.stdout + passed.stderr
