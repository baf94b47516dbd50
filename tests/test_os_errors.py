"""What the system refuses is one line and an exit code, and a failed command leaves nothing behind.

A full disk (a small tmpfs, filled to several levels), a read-only vault (a read-only
bind mount), names over the limit (ENAMETOOLONG), too many open files (EMFILE): every
command exits non-zero with one `error:` line and no traceback; a command that reports
failure wrote no card (its job is rolled back: `os_errors.all_or_nothing`); every card
file parses and no temp file is left. Readers keep working on a read-only vault.

The tmpfs and bind-mount tests need root (and a kernel that lets it mount here); they
skip cleanly elsewhere. The in-process tests simulate ENOSPC and EMFILE by patching the
writer, so they run everywhere.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result
from conftest import snapshot_tree, temp_files
from test_subprocess import cards, cli_env

from cardindex.store import atomic
from cardindex.store.card import Card
from cardindex.store.os_errors import describe, failure

TEXT_CARDS = {
    "deploy-day.md": "---\ndescription: Which weekday production deploys happen\ntype: project\nkey: deploy-day\n"
                     "verified: 2026-09-01\n---\nDeploy to production on Thursdays only.\n",
    "billing-owner.md": "---\ndescription: Who owns billing\ntype: project\nverified: 2026-09-01\n---\n"
                        "Billing is owned by the payments team.\n",
    "python-linter.md": "---\ndescription: Which linter the Python code uses\ntype: project\nverified: 2026-09-01\n"
                        "---\nUse ruff for linting the Python code.\n",
    "python-linter-copy.md": "---\ndescription: Which linter the Python code uses\ntype: project\n"
                             "verified: 2026-09-02\n---\nUse ruff for linting the Python code.\n",
    "release-branch.md": "---\ndescription: Releases: tagged from main\ntype: project\nverified: 2026-09-01\n---\n"
                         "Release tags are cut from the main branch.\n",
}
FILL_LEVELS_KB = (0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 64, 256)


def _can_mount() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("mount") is not None


def _mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True, check=False)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs under tmp_path (root only; skipped where mounting is not allowed)."""
    where = tmp_path / "disk"
    where.mkdir()
    if not _can_mount() or not _mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)):
        pytest.skip("cannot mount a tmpfs here (needs root and a kernel that allows it)")
    try:
        yield where
    finally:
        _umount(where)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A vault with cards, a journal (one add) and an import file, built once on the normal disk."""
    base = tmp_path_factory.mktemp("template")
    env = cli_env(base / "home")
    root = base / "vault"
    assert cards("init", root, cwd=base, env=env).returncode == 0
    for name, text in TEXT_CARDS.items():
        (root / name).write_text(text, encoding="utf-8")
    done = cards("--vault", root, "add", "The staging database is refreshed from production every Sunday.",
                 "-d", "When staging gets fresh data", cwd=base, env=env)
    assert done.returncode == 0, done.stderr
    (base / "notes.md").write_text("# Notes\n\n- We decided to keep the API versioned in the URL path.\n",
                                   encoding="utf-8")
    # A vault in use: a lint has kept the synonym tables in its cache (about 1.5 MB, hence the 4 MB disk),
    # so each run below reads them instead of building them again where they cannot be kept.
    assert cards("--vault", root, "lint", "--exit-zero", cwd=base, env=env).returncode == 0
    assert (root / ".cardindex" / "cache" / "built-synonyms.marshal").is_file()
    return base


COMMANDS: dict[str, Callable[[Path, Path], list[object]]] = {
    "init": lambda vault, base: ["init", vault.parent / "fresh"],
    "add": lambda vault, base: ["--vault", vault, "add", "Code review needs two approvals before a merge.",
                                "-d", "How many approvals a merge needs"],
    "add --key": lambda vault, base: ["--vault", vault, "add", "Deploy to production on Wednesdays only.",
                                      "-d", "Which weekday production deploys happen now", "--key", "deploy-day"],
    "index": lambda vault, base: ["--vault", vault, "index"],
    "lint --fix": lambda vault, base: ["--vault", vault, "lint", "--fix", "--exit-zero"],
    "consolidate": lambda vault, base: ["--vault", vault, "consolidate", "--all"],
    "supersede": lambda vault, base: ["--vault", vault, "supersede", "python-linter", "python-linter-copy"],
    "archive": lambda vault, base: ["--vault", vault, "archive", "billing-owner"],
    "rm": lambda vault, base: ["--vault", vault, "rm", "billing-owner"],
    "import --apply": lambda vault, base: ["--vault", vault, "import", "--apply", base / "notes.md"],
    "undo": lambda vault, base: ["--vault", vault, "undo"],
    "context --output": lambda vault, base: ["--vault", vault, "context", "--output", vault.parent / "context.md"],
}


def _fill(disk: Path, leave_kb: int) -> None:
    """Fill the tmpfs with one file until `leave_kb` KB are free."""
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    size = max(0, free - leave_kb * 1024)
    with open(disk / "filler", "wb") as fh:
        try:
            fh.write(b"\0" * size)
            fh.flush()
        except OSError:
            pass


def _cards_parse(root: Path) -> list[str]:
    """Card files under root that do not parse (a half-written card would be one)."""
    bad = []
    for path in root.rglob("*.md"):
        if ".cardindex" in path.parts or path.name in ("INDEX.md", "MEMORY.md", "context.md"):
            continue
        card = Card.from_text(path.name, path.read_bytes().decode("utf-8"))
        if not card.usable:
            bad.append(str(path))
    return bad


def _standing_jobs(vault: Path) -> set[str]:
    """Ids of the journal's jobs that stand: not rolled back, nor marked interrupted (the next command rolls it back)."""
    import json

    pending = vault / ".cardindex" / "pending"
    interrupted = pending.read_text(encoding="ascii").strip() if pending.exists() else None
    found = set()
    for path in (vault / ".cardindex" / "journal").glob("*.json"):
        entry = json.loads(path.read_text(encoding="utf-8"))
        if not entry.get("rolled_back") and entry["id"] != interrupted:
            found.add(entry["id"])
    return found


def _run_at(disk: Path, template: Path, command: str, leave_kb: int) -> tuple[subprocess.CompletedProcess[str], dict[str, bytes], Path]:
    vault = disk / "vault"
    if vault.exists():
        shutil.rmtree(vault)
    for leftover in ("filler", "fresh", "context.md"):
        target = disk / leftover
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    shutil.copytree(template / "vault", vault, symlinks=True)
    if command == "index":  # a card edited by hand: the index is out of date
        path = vault / "billing-owner.md"
        path.write_text(path.read_text(encoding="utf-8").replace("Who owns billing", "Which team owns billing"),
                        encoding="utf-8")
    before = snapshot_tree(vault, state=False)
    _fill(disk, leave_kb)
    args = COMMANDS[command](vault, template)
    done = cards(*args, cwd=template, env=cli_env(template / "home"))
    return done, before, vault


@pytest.mark.parametrize("command", list(COMMANDS))
def test_full_disk_is_one_line_and_leaves_no_card_behind(disk: Path, template: Path, command: str) -> None:
    outcomes = []
    for leave_kb in FILL_LEVELS_KB:
        jobs_before = _standing_jobs(template / "vault")
        done, before, vault = _run_at(disk, template, command, leave_kb)
        where = f"{command} with {leave_kb} KB free: rc={done.returncode} stderr={done.stderr!r}"
        assert "Traceback" not in done.stderr, where
        assert done.returncode in (0, 1, 2), where
        assert temp_files(disk) == [], where
        assert _cards_parse(disk) == [], where
        if done.returncode != 0:
            errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
            assert len(errors) == 1, where
            assert done.stderr.rstrip("\n").splitlines()[-1].startswith("error:"), where
            if command != "init":  # a failed command wrote no card, no index, and no job for undo to trip on
                assert snapshot_tree(vault, state=False) == before, where
                assert _standing_jobs(vault) == jobs_before, where
            assert not (disk / "context.md").exists(), where
        outcomes.append(done.returncode)
    # The levels span "nothing fits" to "everything fits": the test saw both.
    assert outcomes[0] != 0, f"{command}: succeeded on a full disk?"
    assert outcomes[-1] == 0, f"{command}: failed with 256 KB free: {outcomes}"


# ----------------------------------------------------------------------------- read-only vault


@pytest.fixture
def read_only_vault(tmp_path: Path, template: Path) -> Iterator[Path]:
    """The template vault behind a read-only bind mount (chmod does not stop root)."""
    source = tmp_path / "source"
    shutil.copytree(template / "vault", source, symlinks=True)
    where = tmp_path / "ro"
    where.mkdir()
    if not _can_mount() or not _mount("--bind", str(source), str(where)):
        pytest.skip("cannot bind-mount here (needs root)")
    if not _mount("-o", "remount,ro,bind", str(where)):
        _umount(where)
        pytest.skip("cannot remount read-only here")
    try:
        yield where
    finally:
        _umount(where)


READERS = [["list"], ["list", "--format", "json"], ["show", "deploy-day"], ["search", "deploy"], ["context"],
           ["lint"], ["lint", "--format", "json"], ["status"], ["journal"], ["index", "--check"], ["index"]]
WRITERS = [["add", "Code review needs two approvals before a merge.", "-d", "How many approvals a merge needs"],
           ["consolidate", "--all"], ["supersede", "python-linter", "python-linter-copy"],
           ["archive", "billing-owner"], ["rm", "billing-owner"], ["undo"], ["import", "--apply", "NOTES"],
           ["context", "--output", "VAULT/context.md"], ["init", "VAULT"], ["lint", "--fix"]]


def test_readers_work_on_a_read_only_vault(read_only_vault: Path, template: Path) -> None:
    env = cli_env(template / "home")
    before = snapshot_tree(read_only_vault)
    for args in READERS:
        done = cards("--vault", read_only_vault, *args, cwd=template, env=env)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode in (0, 1), (args, done.stderr)  # lint exits 1 for the duplicate pair
        assert "error:" not in done.stderr, (args, done.stderr)
    assert snapshot_tree(read_only_vault) == before


def test_writers_on_a_read_only_vault_are_one_line(read_only_vault: Path, template: Path) -> None:
    env = cli_env(template / "home")
    before = snapshot_tree(read_only_vault)
    for args in WRITERS:
        args = [str(a).replace("VAULT", str(read_only_vault)).replace("NOTES", str(template / "notes.md"))
                for a in args]
        done = cards("--vault", read_only_vault, *args, cwd=template, env=env)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode == 1, (args, done.stderr)
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("error: ") and "read-only file system (EROFS)" in last, (args, done.stderr)
    assert snapshot_tree(read_only_vault) == before


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder others can enter (pytest's tmp_path is private to its owner)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cards-os-errors-"))
    os.chmod(folder, 0o755)
    try:
        yield folder
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(folder)], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def test_permission_denied_for_an_unprivileged_user(open_folder: Path, template: Path) -> None:
    """chmod -R a-w, run as `nobody` (as root, chmod alone would not stop the writes)."""
    import sys

    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the CLI as an unprivileged user")
    root = open_folder / "shared"
    shutil.copytree(template / "vault", root, symlinks=True)
    home = open_folder / "nobody-home"
    home.mkdir()
    os.chmod(home, 0o777)
    subprocess.run(["chmod", "-R", "a+rX,a-w", str(root)], check=True)
    before = snapshot_tree(root)

    def as_nobody(*args: str) -> subprocess.CompletedProcess[str]:
        env = cli_env(home)
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
        return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                               "-m", "cardindex", "--vault", str(root), *args],
                              capture_output=True, text=True, env=env, cwd=home, check=False, timeout=60)

    probe = as_nobody("list")
    if probe.returncode != 0 and ("Permission denied" in probe.stderr or "No module named" in probe.stderr):
        pytest.skip("the unprivileged user cannot run the test's python or read the checkout")
    assert probe.returncode == 0, probe.stderr
    for args in (["index", "--check"], ["lint"], ["context"]):
        done = as_nobody(*args)
        assert "Traceback" not in done.stderr and "error:" not in done.stderr, (args, done.stderr)
    for args in (["add", "Merges need two approvals.", "-d", "How many approvals a merge needs"],
                 ["archive", "billing-owner"], ["consolidate", "--all"]):
        done = as_nobody(*args)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.strip().splitlines()[-1].startswith("error: ")
        assert "permission denied (EACCES)" in done.stderr, (args, done.stderr)
    assert snapshot_tree(root) == before


# ----------------------------------------------------------------------------- names over the limit


LONG = "x" * 300


@pytest.mark.parametrize("args", [
    ["show", LONG], ["archive", LONG], ["rm", LONG], ["supersede", LONG, "deploy-day"],
    ["supersede", "deploy-day", LONG], ["lint", f"{LONG}.md"], ["import", f"{LONG}.md"],
    ["context", "--output", f"{LONG}.md"],
])
def test_a_name_too_long_is_one_line_exit_2(invoke: Callable[..., Result], vault: Path, write_card: Callable[..., Path],
                                            make_card: Callable[..., str], args: list[str]) -> None:
    write_card(vault, "deploy-day.md", make_card("Which weekday production deploys happen"))
    result = invoke(*args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert "file name too long (ENAMETOOLONG)" in result.stderr
    assert len(result.stderr) < 300  # the name is cut in the middle, not printed whole


def test_a_vault_path_too_long_is_one_line_exit_2(run_cli: Callable[..., Result], tmp_path: Path) -> None:
    for args in (["--vault", str(tmp_path / LONG), "list"], ["init", str(tmp_path / LONG)]):
        result = run_cli(*args)
        assert result.exit_code == 2, (args, result.stderr)
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
        assert "file name too long (ENAMETOOLONG)" in result.stderr


def test_a_name_too_long_in_a_real_process(tmp_path: Path, template: Path) -> None:
    env = cli_env(template / "home")
    for args in (["--vault", template / "vault", "show", LONG], ["--vault", tmp_path / LONG, "index"]):
        done = cards(*args, cwd=tmp_path, env=env)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith("error: ") and "(ENAMETOOLONG)" in done.stderr


# ----------------------------------------------------------------------------- simulated, in process


def _failing_write(code: int, when: Callable[[str], bool]) -> Callable[[int], None]:
    """An `os.fsync` that fails with `code` (no file name, as the kernel reports it) for the files `when` picks."""
    real = os.fsync

    def fsync(fd: int) -> None:
        try:
            name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            name = ""
        if when(name):
            raise OSError(code, os.strerror(code))
        real(fd)

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc to tell which file is fsynced")
    return fsync


def _index_temp(name: str) -> bool:
    return name.startswith(".INDEX.md.") and name.endswith(atomic.TEMP_SUFFIX)


@pytest.mark.parametrize("command", [
    ["add", "Code review needs two approvals before a merge.", "-d", "How many approvals a merge needs"],
    ["archive", "billing-owner"], ["rm", "billing-owner"], ["supersede", "python-linter", "python-linter-copy"],
    ["consolidate", "--all"],
])
def test_a_command_whose_index_write_fails_rolls_its_job_back(
    invoke: Callable[..., Result], vault: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    for name, text in TEXT_CARDS.items():
        (vault / name).write_text(text, encoding="utf-8")
    assert invoke("index").exit_code == 0
    before = snapshot_tree(vault, state=False)
    monkeypatch.setattr(os, "fsync", _failing_write(errno.ENOSPC, _index_temp))
    result = invoke(*command)
    assert result.exit_code == 1, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ") and line.count("error:") == 1
    assert "INDEX.md: no space left on device (ENOSPC)" in line
    assert "rolled back job" in line and "the vault is as it was" in line
    assert snapshot_tree(vault, state=False) == before
    monkeypatch.undo()
    job = line.split("rolled back job ", 1)[1].split(";", 1)[0]
    journal = invoke("journal")
    assert f"{job}" in journal.stdout and "rolled back" in journal.stdout
    undo = invoke("undo")  # the rolled-back job needs no undo, and it was the only one
    assert undo.exit_code == 1 and "nothing to undo" in undo.stderr
    assert snapshot_tree(vault, state=False) == before


def test_a_rollback_that_cannot_be_written_is_finished_by_the_next_command(
    invoke: Callable[..., Result], vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, text in TEXT_CARDS.items():
        (vault / name).write_text(text, encoding="utf-8")
    assert invoke("index").exit_code == 0
    before = snapshot_tree(vault, state=False)
    full = _failing_write(errno.ENOSPC, lambda name: _index_temp(name) or name.startswith(".billing-owner.md."))
    monkeypatch.setattr(os, "fsync", full)
    result = invoke("rm", "billing-owner")  # the index fails, then putting the card back fails too
    assert result.exit_code == 1
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ") and "INDEX.md: no space left on device (ENOSPC)" in line
    assert "failed too (no space left on device (ENOSPC)); it stays marked interrupted" in line
    assert not (vault / "billing-owner.md").exists()
    monkeypatch.undo()
    done = invoke("add", "Code review needs two approvals.", "-d", "How many approvals a merge needs")
    assert done.exit_code == 0, done.stderr
    assert "recovered: job" in done.stderr
    assert (vault / "billing-owner.md").read_bytes() == before["billing-owner.md"]


def test_lint_fix_rolls_back_both_of_its_jobs(invoke: Callable[..., Result], vault: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """`lint --fix --unsafe-fixes` writes two jobs (quote, archive); an index that cannot be written undoes both."""
    for name, text in TEXT_CARDS.items():
        (vault / name).write_text(text, encoding="utf-8")
    (vault / "sprint.md").write_text("---\ndescription: What we are doing this sprint\ntype: project\n---\n"
                                     "Currently working on the login page; next step is the tests.\n",
                                     encoding="utf-8")
    assert invoke("index").exit_code == 0
    before = snapshot_tree(vault, state=False)
    monkeypatch.setattr(os, "fsync", _failing_write(errno.ENOSPC, _index_temp))
    result = invoke("lint", "--fix", "--unsafe-fixes")
    assert result.exit_code == 1, result.stderr
    assert "fixed release-branch.md" in result.stderr  # the quote job ran...
    assert "rolled back job" in result.stderr  # ...and was rolled back with the rest
    assert snapshot_tree(vault, state=False) == before


def test_undo_whose_index_write_fails_still_stands(invoke: Callable[..., Result], vault: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("add", "Code review needs two approvals.", "-d", "How many approvals a merge needs").exit_code == 0
    before_add = snapshot_tree(vault, state=False)
    monkeypatch.setattr(os, "fsync", _failing_write(errno.ENOSPC, _index_temp))
    result = invoke("undo")
    assert result.exit_code == 0, result.stderr
    assert "undid job" in result.stdout
    assert "warning: INDEX.md was not regenerated" in result.stderr and "(ENOSPC)" in result.stderr
    monkeypatch.undo()
    assert not (vault / "how-many-approvals-a-merge-needs.md").exists()
    assert invoke("index").exit_code == 0
    assert snapshot_tree(vault, state=False) != before_add  # the index changed back too
    assert invoke("index", "--check").exit_code == 0


def test_too_many_open_files_is_one_line(invoke: Callable[..., Result], vault: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", _failing_write(errno.EMFILE, lambda name: name.endswith(atomic.TEMP_SUFFIX)))
    result = invoke("add", "Code review needs two approvals.", "-d", "How many approvals a merge needs")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1].startswith("error: ")
    assert "too many open files (EMFILE)" in result.stderr
    assert sorted(p.name for p in vault.glob("*.md")) == ["INDEX.md"]


def test_describe_names_the_target_not_the_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left")))
    target = tmp_path / "card.md"
    with pytest.raises(OSError) as raised:
        atomic.write_atomic(target, "text")
    assert raised.value.filename == str(target)
    assert describe(raised.value) == f"{target}: no space left on device (ENOSPC); free some space and run it again"
    assert temp_files(tmp_path) == [] and not target.exists()


def test_failure_exit_codes() -> None:
    assert failure(OSError(errno.ENOSPC, "x", "/v/a.md")).exit_code == 1
    assert failure(OSError(errno.EROFS, "x", "/v/a.md")).exit_code == 1
    assert failure(OSError(errno.EACCES, "x", "/v/a.md")).exit_code == 1
    assert failure(OSError(errno.ENAMETOOLONG, "x", "/v/" + "a" * 400)).exit_code == 2
    long_line = str(failure(OSError(errno.ENAMETOOLONG, "x", "/v/" + "a" * 400)))
    assert len(long_line) < 200 and "(403 characters)" in long_line
    assert str(failure(OSError(errno.EACCES, "x", os.fsdecode(b"/v/caf\xe9.md")))) == \
        "/v/caf\\xe9.md: permission denied (EACCES)"


# ----------------------------------------------------------------------------- the MCP server


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_mcp_server_answers_an_os_error_as_a_tool_error(vault: Path, fake_home: Path) -> None:
    """A write the system refuses is one `error:` line with isError, and the server keeps serving."""
    pytest.importorskip("mcp")
    from test_mcp import data, error, serve

    (vault / "deploy-day.md").write_text(TEXT_CARDS["deploy-day.md"], encoding="utf-8")
    (vault / "INDEX.md").unlink()
    (vault / "INDEX.md").mkdir()  # what the index write meets: a folder in its place
    async with serve(vault, fake_home) as session:
        refused = await session.call_tool("add", {"text": "Merges need two approvals.",
                                                  "description": "How many approvals a merge needs"})
        hits = data(await session.call_tool("search", {"query": "deploy"}))
    assert error(refused) == f"error: {vault.resolve() / 'INDEX.md'}: is a folder (EISDIR)"
    assert [h["id"] for h in hits["hits"]] == ["deploy-day"]
    assert sorted(p.name for p in vault.glob("*.md")) == ["INDEX.md", "deploy-day.md"]
