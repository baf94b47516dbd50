"""The built wheel works on its own: installed into a fresh venv, run outside the source tree.

No network: the wheel is built with the hatchling of the running environment
(`--no-build-isolation`), installed with `--no-deps --no-index`, and the runtime
dependencies are made importable by a `.pth` file that points at this environment's
site-packages. The new venv's own site-packages comes first on sys.path, so
`cardindex` itself is the installed copy, never the source tree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from cardindex.index.build import HEADER

ROOT = Path(__file__).resolve().parents[1]
TODAY = "2026-11-30"
TEMPLATES = ("card.md.j2", "config.yaml.j2", "index.md.j2")


def run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, cwd=cwd, env=env, check=False, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{cmd}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


def clean_env(home: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV")
    }
    home.mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(home),
        CARDS_TODAY=TODAY,
        PIP_NO_CACHE_DIR="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def pip_supports_python_option(env: dict[str, str], cwd: Path) -> bool:
    """pip >= 22.3 can install into another interpreter (`pip --python`): no ensurepip needed."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--version"],
        cwd=cwd,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if result.returncode != 0:
        return False
    major, minor = (int(x) for x in result.stdout.split()[1].split(".")[:2])
    return (major, minor) >= (22, 3)


def test_wheel_installs_and_runs_outside_the_source_tree(tmp_path: Path) -> None:
    tools_env = clean_env(tmp_path / "tools-home")  # pip may write here; cards must not touch tmp/home
    dist = tmp_path / "dist"
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(ROOT)],
        cwd=tmp_path,
        env=tools_env,
        timeout=180,
    )
    wheels = sorted(dist.glob("cardindex-*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0]
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        entry_points = next(zf.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    for name in TEMPLATES:
        assert f"cardindex/templates/{name}" in names
    assert "cardindex/__init__.py" in names
    for package in ("cli", "agents", "lifecycle", "lint", "index", "meaning", "store"):  # the layers (test_layers.py)
        assert f"cardindex/{package}/__init__.py" in names, package
    assert not any(n.startswith(("tests/", "sample-vault/", "templates/")) for n in names)
    assert "cards = cardindex.cli:main" in entry_points

    venv = tmp_path / "venv"
    py = venv / "bin" / "python"
    if pip_supports_python_option(tools_env, tmp_path):
        run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path, env=tools_env)
        run(
            [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "-q", str(wheel)],
            cwd=tmp_path,
            env=tools_env,
            timeout=180,
        )
    else:
        run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=tools_env, timeout=180)
        run(
            [str(py), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
            cwd=tmp_path,
            env=tools_env,
            timeout=180,
        )

    # The runtime dependencies, from this environment, after the venv's own site-packages.
    site = Path(
        run(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp_path, env=tools_env
        ).stdout.strip()
    )
    here = sysconfig.get_paths()
    (site / "_cardindex_test_deps.pth").write_text(
        "\n".join(dict.fromkeys([here["purelib"], here["platlib"]])) + "\n", encoding="utf-8"
    )

    env = clean_env(tmp_path / "home")
    cards = str(venv / "bin" / "cards")
    where = json.loads(
        run(
            [
                str(py),
                "-c",
                (
                    "import json, cardindex, cardindex.index.templates as t; "
                    "print(json.dumps({'file': cardindex.__file__, 'templates': str(t.shipped_dir()), "
                    "'version': cardindex.__version__}))"
                ),
            ],
            cwd=tmp_path,
            env=env,
        ).stdout
    )
    package = Path(where["file"]).resolve().parent
    assert package == (site / "cardindex").resolve()
    assert ROOT not in package.parents
    assert Path(where["templates"]).resolve() == package / "templates"
    for name in TEMPLATES:
        assert (package / "templates" / name).is_file()

    assert run([cards, "--version"], cwd=tmp_path, env=env).stdout == f"cards, version {where['version']}\n"
    init = run([cards, "init", "v"], cwd=tmp_path, env=env)
    assert "Initialized" in init.stdout
    config = (tmp_path / "v" / ".cardindex.yaml").read_text(encoding="utf-8")
    assert "# index_file: INDEX.md" in config  # rendered from the installed config template

    fact = "Deploy to production on Thursdays only."
    added = run(
        [cards, "--vault", "v", "add", fact, "--key", "deploy-day", "-d", "Which weekday production deploys happen"],
        cwd=tmp_path,
        env=env,
    )
    card_path = (tmp_path / added.stdout.strip()).resolve()
    assert card_path == (tmp_path / "v" / "which-weekday-production-deploys-happen.md").resolve()
    card = card_path.read_text(encoding="utf-8")
    assert card.startswith("---\n") and card.endswith(f"---\n{fact}\n")
    assert "key: deploy-day\n" in card

    run([cards, "--vault", "v", "index", "--check"], cwd=tmp_path, env=env)
    run([cards, "--vault", "v", "index"], cwd=tmp_path, env=env)
    index = (tmp_path / "v" / "INDEX.md").read_text(encoding="utf-8")
    lines = index.splitlines()
    assert lines[0] == f"<!-- {HEADER} -->"
    assert "- [Which weekday production deploys happen](which-weekday-production-deploys-happen.md)" in lines
    listed = json.loads(run([cards, "--vault", "v", "list", "--format", "json"], cwd=tmp_path, env=env).stdout)
    assert [row["id"] for row in listed] == ["which-weekday-production-deploys-happen"]
    assert list((tmp_path / "home").iterdir()) == []
