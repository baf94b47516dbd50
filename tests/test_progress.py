"""The progress line (`cli/progress.py`): drawn on a terminal only, erased at the end, silent otherwise.

Real subprocesses whose stderr is a pseudo-terminal (`pty`), so `isatty()` is true as
it is for a person; `CARDS_PROGRESS_DELAY=0` makes the line appear at once instead of
after a second, so a small vault shows it.
"""

from __future__ import annotations

import io
import os
import re
import pty
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from cardindex.cli import progress as progress_module
from cardindex.cli.progress import Progress
from cardindex.store.progress import report

TODAY = "2026-11-30"
CARDS = 400


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CARDS_VAULT", "CARDS_TODAY", "CI", "NO_COLOR", "TERM", "PYTHONPATH", "CARDS_PROGRESS_DELAY")}
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), CARDS_TODAY=TODAY, TERM="xterm", CARDS_PROGRESS_DELAY="0", COLUMNS="100")
    env.update(extra)
    return env


def _vault(tmp_path: Path, cards: int = CARDS) -> Path:
    root = tmp_path / "orchard"
    subprocess.run([sys.executable, "-m", "cardindex", "init", str(root)], check=True, capture_output=True,
                   env=_env(tmp_path))
    for n in range(cards):
        (root / f"tree-{n:03}.md").write_text(
            f"---\ndescription: Which rootstock tree {n} in row {n % 17} grows on\ntype: reference\n---\n"
            f"Tree {n} grows on rootstock M{n % 27 + 1} and was grafted in spring.\n", encoding="utf-8")
    return root


def _on_pty(args: list[str], env: dict[str, str], *, stdin_tty: bool = False, timeout: float = 60) -> tuple[int, str, str]:
    """Run `cards ARGS` with stderr (and, if asked, stdin) on a pseudo-terminal; (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    stdout = tempfile.TemporaryFile()  # a file, not a pipe: a long stdout never blocks the child
    proc = subprocess.Popen([sys.executable, "-m", "cardindex", *args], stdout=stdout, stderr=slave,
                            stdin=slave if stdin_tty else subprocess.DEVNULL, env=env)
    os.close(slave)
    got = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        elif proc.poll() is not None:
            # drain what is left
            while select.select([master], [], [], 0.05)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                got += chunk
            break
    code = proc.wait(timeout=timeout)
    os.close(master)
    stdout.seek(0)
    out = stdout.read().decode("utf-8")
    stdout.close()
    return code, out, got.decode("utf-8", "replace")


def test_a_cold_index_draws_progress_on_a_terminal_and_erases_it(tmp_path: Path) -> None:
    root = _vault(tmp_path, 3000)  # a few tenths of a second of parsing: the count is drawn a few times
    code, _out, term = _on_pty(["--no-cache", "--vault", str(root), "index"], _env(tmp_path))
    assert code == 0, term
    assert "\rindex: reading cards" in term
    assert "/3,000" in term  # count/total
    drawn = term.split("wrote ", 1)[0]
    last = drawn.rsplit("\r", 2)
    assert last[-1] == "" and last[-2].strip() == "", "the line is blanked, then the cursor goes back"
    assert "wrote INDEX.md (" in term


@pytest.mark.parametrize("setting", [["-q"], ["--quiet"], "CI", "NO_COLOR", "TERM"])
def test_quiet_ci_no_color_and_a_dumb_terminal_draw_nothing(tmp_path: Path, setting: list[str] | str) -> None:
    root = _vault(tmp_path)
    flags = setting if isinstance(setting, list) else []
    extra = {} if isinstance(setting, list) else {"CI": "true", "NO_COLOR": "1", "TERM": "dumb"}[setting]
    env = _env(tmp_path, **({setting: extra} if isinstance(setting, str) else {}))
    code, _out, term = _on_pty([*flags, "--no-cache", "--vault", str(root), "index"], env)
    assert code == 0, term
    assert "\r" not in term.replace("\r\n", "\n")
    assert "reading cards" not in term and "wrote INDEX.md" in term


def test_no_terminal_no_progress(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    done = subprocess.run([sys.executable, "-m", "cardindex", "--no-cache", "--vault", str(root), "index"],
                          capture_output=True, text=True, env=_env(tmp_path), check=False)
    assert done.returncode == 0
    assert done.stderr.startswith("wrote INDEX.md (") and "\r" not in done.stderr


def test_work_shorter_than_the_delay_shows_nothing(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    code, _out, term = _on_pty(["--vault", str(root), "list"], _env(tmp_path, CARDS_PROGRESS_DELAY="30"))
    assert code == 0 and "\r" not in term.replace("\r\n", "\n")
    code, _out, term = _on_pty(["--no-cache", "--vault", str(root), "index"], _env(tmp_path, CARDS_PROGRESS_DELAY="30"))
    assert code == 0 and "reading cards" not in term


def test_consolidate_and_its_undo_show_their_phases(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    for n in range(0, CARDS, 2):  # every other tree gets a newer value of the same key: a supersession each
        (root / f"tree-{n:03}.md").write_text(
            f"---\ndescription: Rootstock of tree {n}\ntype: reference\nkey: rootstock-{n}\nverified: 2026-01-01\n---\n"
            f"Tree {n} grows on rootstock M9.\n", encoding="utf-8")
        (root / f"tree-{n:03}-new.md").write_text(
            f"---\ndescription: Rootstock of tree {n}\ntype: reference\nkey: rootstock-{n}\nverified: 2026-06-01\n---\n"
            f"Tree {n} grows on rootstock M26.\n", encoding="utf-8")
    env = _env(tmp_path)
    code, out, term = _on_pty(["--no-cache", "--vault", str(root), "consolidate"], env)
    assert code == 0, term
    assert "\rconsolidate: planning over 600 cards" in term
    assert "consolidate: writing files" in term
    assert out.splitlines()[-1].startswith("job ")
    code, out, term = _on_pty(["--vault", str(root), "undo"], env)
    assert code == 0, term
    assert out.startswith("undid job ")
    listed = term.replace("\r\n", "\n")  # the restored files are listed on the terminal, ten and a count
    more = re.search(r"and (\d+) more file", listed)
    restored = len(re.findall(r"^restored |\rrestored ", listed, re.MULTILINE)) + (int(more.group(1)) if more else 0)
    # 200 supersessions, each a moved card (its live path and its archive path) and an edited
    # winner. No conflicts: the trees without a key ("Which rootstock tree 17 in row 0 grows on" /
    # "… tree 51 …") name which tree by number, so each is its own slot (`slots.named_apart`).
    assert restored == 600, restored
    assert "\rundo: restoring files" in term and f"/{restored}" in term  # the total is every file the job wrote or moved


# ------------------------------------------------------------------ the line itself


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_is_redrawn_in_place_and_erased(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDS_PROGRESS_DELAY", "0")
    for var in ("CI", "NO_COLOR"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(progress_module, "QUIET", False)
    term = FakeTerminal()
    with Progress("import", term) as shown:
        shown.phase("checking candidates")
        report("checking candidates", 3, 1200)
        time.sleep(0.3)
        assert shown.line() == "import: checking candidates 3/1,200"
        report("checking candidates", 1200, 1200)
        time.sleep(0.3)
    text = term.getvalue()
    assert "\rimport: checking candidates 3/1,200" in text
    assert text.count("\rimport: checking candidates 3/1,200") == 1  # an unchanged line is not redrawn
    assert "\rimport: checking candidates 1,200/1,200" in text
    assert text.endswith("\r" + " " * len("import: checking candidates 1,200/1,200") + "\r")
    report("checking candidates", 5, 10)  # after the block nobody listens: nothing drawn
    assert term.getvalue() == text


def test_quiet_module_flag_and_a_pipe_disable_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(progress_module, "QUIET", True)
    assert not Progress("lint", FakeTerminal()).enabled
    monkeypatch.setattr(progress_module, "QUIET", False)
    assert Progress("lint", FakeTerminal()).enabled
    assert not Progress("lint", io.StringIO()).enabled


def test_a_long_line_is_cut_to_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDS_PROGRESS_DELAY", "0")
    monkeypatch.setenv("COLUMNS", "30")
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(progress_module, "QUIET", False)
    term = FakeTerminal()
    with Progress("consolidate", term) as shown:
        shown.phase("planning over 10,000 cards with a very long description")
        time.sleep(0.25)
    drawn = [part for part in term.getvalue().split("\r") if part.strip()]
    assert drawn and all(len(part) <= 29 for part in drawn)
