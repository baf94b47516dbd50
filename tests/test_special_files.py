"""`--output` (and every write) to what is not a regular file: written into, or refused, never replaced.

As root, `cards context --output /dev/null` used to rename a regular file over the
system's /dev/null, and `--output` to a named pipe replaced the pipe. `write_atomic` now
renames only over regular files: a FIFO or a character device is written into (as a
shell's `>` does), a symlink is followed (the link stays), a block device or a socket is
refused with one line. These tests never touch the real /dev/null: they make their own
FIFO and, where mknod is allowed, their own device node under tmp_path.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from test_subprocess import cli_env

from cardindex.store import atomic
from cardindex.errors import Refused

CARD = "---\ndescription: Which weekday production deploys happen\ntype: project\n---\nDeploy on Thursdays only.\n"


@pytest.fixture
def deploy(vault: Path) -> Path:
    (vault / "deploy-day.md").write_text(CARD, encoding="utf-8")
    return vault


def _reader(fifo: Path, into: list[bytes]) -> threading.Thread:
    def read() -> None:
        with open(fifo, "rb") as fh:
            into.append(fh.read())

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def test_output_to_a_fifo_writes_into_it(invoke: Callable[..., Result], deploy: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _reader(fifo, got)
    result = invoke("context", "--output", str(fifo))
    reader.join(timeout=10)
    assert result.exit_code == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe
    assert got and b"Deploy on Thursdays only." in got[0]
    assert got[0].decode("utf-8") == invoke("context").stdout
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pipe")] == []  # no temp file beside it


def test_output_to_a_fifo_in_a_real_process(deploy: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = _reader(fifo, got)
    done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(deploy), "context", "--output", str(fifo)],
                          capture_output=True, text=True, env=cli_env(tmp_path / "home"), cwd=tmp_path, timeout=60,
                          check=False)
    reader.join(timeout=10)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and b"Thursdays" in got[0]


def _device(tmp_path: Path, name: str, kind: int, major: int, minor: int) -> Path:
    node = tmp_path / name
    try:
        os.mknod(node, kind | 0o666, os.makedev(major, minor))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot mknod here: {exc}")
    return node


def test_output_to_a_character_device_writes_into_it(invoke: Callable[..., Result], deploy: Path,
                                                     tmp_path: Path) -> None:
    null = _device(tmp_path, "null", stat.S_IFCHR, 1, 3)  # a /dev/null of our own
    try:
        os.close(os.open(null, os.O_WRONLY))
    except OSError as exc:
        pytest.skip(f"device nodes cannot be opened here (nodev?): {exc}")
    result = invoke("context", "--output", str(null))
    assert result.exit_code == 0, result.stderr
    st = os.lstat(null)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)  # still the device, not a file
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".null")) == []


def test_a_block_device_is_refused_with_one_line(invoke: Callable[..., Result], deploy: Path, tmp_path: Path) -> None:
    node = _device(tmp_path, "disk", stat.S_IFBLK, 240, 250)  # an unassigned (local use) number: no such disk
    result = invoke("context", "--output", str(node))
    assert result.exit_code == 1
    assert result.stderr == (f"error: {node}: a block device; cards writes only regular files, FIFOs and character "
                             "devices. Nothing written\n")
    assert stat.S_ISBLK(os.lstat(node).st_mode)


def test_a_socket_is_refused_with_one_line(invoke: Callable[..., Result], deploy: Path, tmp_path: Path) -> None:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        result = invoke("context", "--output", str(path))
    finally:
        server.close()
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}: a socket;") and result.stderr.count("\n") == 1
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_symlink_to_dev_stdout_writes_to_stdout(deploy: Path, tmp_path: Path) -> None:
    link = tmp_path / "out.md"
    link.symlink_to("/dev/stdout")
    for stdout in (subprocess.PIPE, None):  # a pipe, then a regular file
        if stdout is None:
            target = open(tmp_path / "captured.txt", "wb")  # noqa: SIM115
        done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(deploy), "context", "--output",
                               str(link)], stdout=stdout if stdout else target, stderr=subprocess.PIPE,
                              env=cli_env(tmp_path / "home"), cwd=tmp_path, timeout=60, check=False)
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
        text = done.stdout if stdout else (target.close(), (tmp_path / "captured.txt").read_bytes())[1]
        assert b"Deploy on Thursdays only." in text
        assert link.is_symlink() and os.readlink(link) == "/dev/stdout"


def test_a_symlink_to_a_regular_file_keeps_the_link(invoke: Callable[..., Result], deploy: Path,
                                                   tmp_path: Path) -> None:
    real = tmp_path / "shared" / "context.md"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    os.chmod(real, 0o640)
    link = tmp_path / "context.md"
    link.symlink_to(real)
    result = invoke("context", "--output", str(link))
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "Thursdays" in real.read_text(encoding="utf-8")
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640  # the real file keeps its mode


def test_a_dangling_symlink_gets_its_file(tmp_path: Path) -> None:
    link = tmp_path / "link.md"
    link.symlink_to("made.md")
    atomic.write_atomic(link, "text\n")
    assert link.is_symlink() and (tmp_path / "made.md").read_text(encoding="utf-8") == "text\n"


def test_an_index_that_is_a_symlink_stays_one(invoke: Callable[..., Result], deploy: Path) -> None:
    """INDEX.md linked to a file elsewhere in the repo (say docs/INDEX.md): regenerated through the link."""
    shared = deploy.parent / "docs"
    shared.mkdir()
    (shared / "INDEX.md").write_bytes((deploy / "INDEX.md").read_bytes())
    (deploy / "INDEX.md").unlink()
    (deploy / "INDEX.md").symlink_to(shared / "INDEX.md")
    result = invoke("index")
    assert result.exit_code == 0, result.stderr
    assert (deploy / "INDEX.md").is_symlink()
    assert "deploy-day.md" in (shared / "INDEX.md").read_text(encoding="utf-8")
    assert invoke("index", "--check").exit_code == 0


def test_write_atomic_refuses_a_socket_without_writing(tmp_path: Path) -> None:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        with pytest.raises(Refused, match="a socket"):
            atomic.write_atomic(path, "text")
    finally:
        server.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "sock"]  # home: the fake home


def test_a_regular_file_is_still_replaced_atomically(tmp_path: Path) -> None:
    target = tmp_path / "card.md"
    target.write_text("old\n", encoding="utf-8")
    inode = os.stat(target).st_ino
    atomic.write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert os.stat(target).st_ino != inode  # renamed over, not written in place
