"""`cards watch` as a real process, driven the way editors save files.

Each test starts `python -m cardindex --vault V watch` with its output in files, waits
for its "watching" line, changes the vault as an editor or a shell would, and polls
INDEX.md (up to TIMEOUT seconds: CI machines are slow) instead of sleeping a fixed
time. Where the index must be right, the oracle is `cards index --check`: the watcher's
INDEX.md must be byte for byte what `cards index` would write.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cardindex.cli import main
from cardindex.store.lock import VaultLock

TODAY = "2026-11-30"
TIMEOUT = 10.0
OLD = "Which weekday production deploys happen"
NEW = "The one weekday on which production deploys are allowed"
CLK_TCK = os.sysconf("SC_CLK_TCK")


def card(description: str, body: str = "Deploy to production on Thursdays only.", type: str = "project") -> str:
    return f"---\ndescription: {description}\ntype: {type}\n---\n{body}\n"


def index_check(vault: Path) -> int:
    """`cards index --check`, in-process: 0 when INDEX.md is exactly what `cards index` writes."""
    return main(["--vault", str(vault), "index", "--check"])


class Watch:
    """A running `cards watch` whose stdout and stderr land in files."""

    def __init__(self, vault: Path, tmp_path: Path, *args: str) -> None:
        self.vault = vault
        self.out_path = tmp_path / "watch.out"
        self.err_path = tmp_path / "watch.err"
        home = tmp_path / "watch-home"
        home.mkdir(exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH")}
        env.update(HOME=str(home), CARDS_TODAY=TODAY)
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardindex", "--vault", str(vault), "watch", *args],
                cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            )

    @property
    def stdout(self) -> str:
        return self.out_path.read_text(encoding="utf-8")

    @property
    def stderr(self) -> str:
        return self.err_path.read_text(encoding="utf-8")

    def passes(self) -> list[str]:
        """The `index: ...` lines printed after start-up, one per pass."""
        lines = [line for line in self.stderr.splitlines() if line.startswith("index: ")]
        return lines[1:]

    def wait_for(self, what: str, ok: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not ok():
            if self.proc.poll() is not None:
                pytest.fail(f"cards watch exited ({self.proc.returncode}) while waiting for {what}; stderr: {self.stderr!r}")
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout:g} s waiting for {what}; stderr: {self.stderr!r}; "
                            f"stdout: {self.stdout!r}; INDEX.md: {self.index()!r}")
            time.sleep(0.02)

    def wait_started(self) -> None:
        self.wait_for("the 'watching' line", lambda: "\nwatching " in "\n" + self.stderr)

    def index(self) -> str:
        try:
            return (self.vault / "INDEX.md").read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""

    def wait_index(self, *present: str, absent: tuple[str, ...] = ()) -> str:
        def ok() -> bool:
            text = self.index()
            return all(p in text for p in present) and not any(a in text for a in absent)

        self.wait_for(f"INDEX.md with {present} and without {absent}", ok)
        return self.index()

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime

    def stop(self, signum: int = signal.SIGINT) -> int:
        self.proc.send_signal(signum)
        return self.proc.wait(timeout=TIMEOUT)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=TIMEOUT)


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    """A vault with one card, deploy-day.md, and an up-to-date INDEX.md."""
    root = tmp_path / "vault"
    assert main(["init", str(root)]) == 0
    (root / "deploy-day.md").write_text(card(OLD), encoding="utf-8")
    (root / "billing").mkdir()
    (root / "billing" / "owner.md").write_text(
        card("Who owns the billing service", "The payments team owns billing."), encoding="utf-8")
    assert main(["--vault", str(root), "index"]) == 0
    return root


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Watch]]:
    """`start(vault, *args)`: a started `cards watch`; killed at the end if still running."""
    started: list[Watch] = []

    def run(vault: Path, *args: str) -> Watch:
        watch = Watch(vault, tmp_path, *args)
        started.append(watch)
        watch.wait_started()
        return watch

    yield run
    for watch in started:
        watch.kill()


# --------------------------------------------------------------------------- how editors save

def save_in_place(path: Path, text: str) -> None:
    """Truncate and write the same inode (nano, `>` in a shell, editors with backupcopy=yes)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def save_rename_over(path: Path, text: str) -> None:
    """Write a temp file beside it, then rename it over the card (most atomic savers)."""
    tmp = path.with_name(path.name + ".tmp8d1f")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_delete_create(path: Path, text: str) -> None:
    """Delete the card, then create it again a moment later."""
    path.unlink()
    time.sleep(0.03)
    path.write_text(text, encoding="utf-8")


def save_vim(path: Path, text: str) -> None:
    """vim (writebackup, backupcopy=no): the `4913` probe, `.X.swp`, rename to `X~`, write, delete `X~`."""
    swap = path.with_name(f".{path.name}.swp")
    swap.write_bytes(b"b0VIM 9.0\0" + b"\0" * 100)
    probe = path.with_name("4913")
    probe.write_bytes(b"")
    probe.unlink()
    backup = path.with_name(path.name + "~")
    os.rename(path, backup)
    path.write_text(text, encoding="utf-8")
    backup.unlink()
    swap.unlink()


def save_jetbrains(path: Path, text: str) -> None:
    """JetBrains "safe write": `X___jb_tmp___`, the card to `X___jb_old___`, tmp to the card, delete old."""
    tmp = path.with_name(path.name + "___jb_tmp___")
    old = path.with_name(path.name + "___jb_old___")
    tmp.write_text(text, encoding="utf-8")
    os.rename(path, old)
    os.rename(tmp, path)
    old.unlink()


def save_gedit(path: Path, text: str) -> None:
    """gedit/GIO: write `.goutputstream-XXXXXX`, keep a `X~` backup, rename the stream over the card."""
    stream = path.with_name(".goutputstream-Q2X7KZ")
    stream.write_text(text, encoding="utf-8")
    shutil.copy2(path, path.with_name(path.name + "~"))
    os.replace(stream, path)


def save_emacs(path: Path, text: str) -> None:
    """Emacs: a `.#X` lock symlink while editing, the old file renamed to `X~`, a new file written."""
    lock = path.with_name(f".#{path.name}")
    os.symlink("user@host.4242:1700000000", lock)
    os.rename(path, path.with_name(path.name + "~"))
    path.write_text(text, encoding="utf-8")
    lock.unlink()


SAVES = {
    "in-place": save_in_place,
    "rename-over": save_rename_over,
    "delete-create": save_delete_create,
    "vim": save_vim,
    "jetbrains": save_jetbrains,
    "gedit": save_gedit,
    "emacs": save_emacs,
}


@pytest.mark.parametrize("style", list(SAVES))
def test_editor_saves_end_in_a_correct_index(vault: Path, start: Callable[..., Watch], style: str) -> None:
    watch = start(vault)
    SAVES[style](vault / "deploy-day.md", card(NEW))
    watch.wait_index(f"- [{NEW}](deploy-day.md)", absent=(OLD,))
    assert index_check(vault) == 0
    assert "Traceback" not in watch.stderr


# --------------------------------------------------------------------------- the vault's shape changing

def test_start_brings_a_stale_index_up_to_date(vault: Path, start: Callable[..., Watch]) -> None:
    (vault / "staging.md").write_text(card("When staging is reset", "Staging resets on Sundays."), encoding="utf-8")
    assert index_check(vault) == 1
    watch = start(vault)
    assert "- [When staging is reset](staging.md)" in watch.index()
    assert index_check(vault) == 0
    assert watch.stderr.splitlines()[0] == "index: 3 cards, INDEX.md updated"


def test_a_card_moved_to_another_folder(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    (vault / "ops").mkdir()
    os.rename(vault / "billing" / "owner.md", vault / "ops" / "owner.md")
    watch.wait_index("](ops/owner.md)", absent=("](billing/owner.md)",))
    assert index_check(vault) == 0


def test_a_deleted_card_leaves_the_index(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    (vault / "deploy-day.md").unlink()
    watch.wait_index("(billing/owner.md)", absent=("(deploy-day.md)",))
    assert index_check(vault) == 0


def test_a_new_subfolder_with_cards(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    folder = vault / "teams" / "infra"
    folder.mkdir(parents=True)
    (folder / "oncall.md").write_text(card("Who is on call for infra", "The infra rota is in PagerDuty."))
    watch.wait_index("- [Who is on call for infra](teams/infra/oncall.md)")
    assert index_check(vault) == 0


def test_folders_moved_in_out_and_deleted(vault: Path, start: Callable[..., Watch], tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "search"
    outside.mkdir(parents=True)
    (outside / "engine.md").write_text(card("Which search engine the site uses", "OpenSearch 2."))
    (outside / "reindex.md").write_text(card("When the search index is rebuilt", "Nightly at 02:00 UTC."))
    watch = start(vault)

    os.rename(outside, vault / "search")  # arrives full: one event for the folder, none for its cards
    watch.wait_index("](search/engine.md)", "](search/reindex.md)")
    assert index_check(vault) == 0

    os.rename(vault / "search", tmp_path / "elsewhere" / "search-again")  # leaves: one event for the folder
    watch.wait_index("(deploy-day.md)", absent=("](search/",))
    assert index_check(vault) == 0

    shutil.rmtree(vault / "billing")
    watch.wait_index("(deploy-day.md)", absent=("](billing/",))
    assert index_check(vault) == 0


# --------------------------------------------------------------------------- broken cards, findings

def test_a_card_broken_mid_edit_keeps_its_last_good_entry(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    path = vault / "deploy-day.md"
    broken = '---\ndescription: "Which weekday production\ntype: project\n---\nDeploy on Thu\n'
    save_in_place(path, broken)
    watch.wait_for("a finding for the broken card", lambda: "deploy-day.md:" in watch.stdout)
    assert " F003 " in watch.stdout
    assert "1 broken (last good entry kept)" in watch.stderr
    assert f"- [{OLD}](deploy-day.md)" in watch.index()
    assert path.read_text(encoding="utf-8") == broken  # reported, never touched

    save_rename_over(path, card(NEW))  # fixed: the new entry replaces the kept one
    watch.wait_index(f"- [{NEW}](deploy-day.md)", absent=(OLD,))
    assert index_check(vault) == 0
    assert watch.proc.poll() is None


def test_findings_for_a_changed_card_are_what_cards_lint_prints(
    vault: Path, start: Callable[..., Watch], tmp_path: Path
) -> None:
    watch = start(vault)
    path = vault / "release.md"
    path.write_text(card("Release status", "Currently fixing the release script, next step is the changelog."))
    watch.wait_for("findings for release.md", lambda: "release.md:" in watch.stdout)
    watch.wait_for("a pass line", lambda: watch.passes() != [])
    lint = subprocess.run(
        [sys.executable, "-m", "cardindex", "lint", "vault/release.md"],
        cwd=tmp_path, env={**os.environ, "CARDS_TODAY": TODAY}, capture_output=True, text=True, check=False,
    )
    assert lint.returncode == 1, lint.stderr
    assert lint.stdout.startswith("vault/release.md:")
    assert watch.stdout == lint.stdout
    assert watch.passes() == ["index: 1 added, INDEX.md updated"]


def test_json_lines_findings(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault, "--format", "json-lines")
    (vault / "wip.md").write_text(card("Work in progress", "Currently fixing the login page."))
    watch.wait_for("a finding", lambda: watch.stdout.endswith("\n"))
    findings = [json.loads(line) for line in watch.stdout.splitlines()]
    assert {f["path"] for f in findings} == {"wip.md"}
    assert "S101" in {f["code"] for f in findings}


# --------------------------------------------------------------------------- quiet, own writes, the lock

IGNORED = [
    ".deploy-day.md.swp", "4913", "deploy-day.md~", "deploy-day.md___jb_tmp___", ".goutputstream-AB12CD",
    "notes.txt", ".INDEX.md.0a1b2c3d.cards-tmp", ".cardindex/scratch", "billing/.owner.md.swp", "README.md",
]


def test_quiet_vault_no_rewrites_no_passes_no_cpu(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    index_path = vault / "INDEX.md"
    before = index_path.stat()
    for name in IGNORED:  # what editors and cards itself leave around: none of it is a card
        (vault / name).write_text("x\n", encoding="utf-8")
    cpu = watch.cpu_seconds()
    time.sleep(1.5)
    assert watch.cpu_seconds() - cpu < 0.15  # idle: no pass loop, no busy wait
    after = index_path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert watch.passes() == []

    save_rename_over(vault / "deploy-day.md", card(NEW))  # one change: one pass; our own writes do not retrigger
    watch.wait_index(NEW)
    time.sleep(1.0)
    assert watch.passes() == ["index: 1 changed, INDEX.md updated"]


def test_a_body_edit_does_not_rewrite_the_index(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    before = (vault / "INDEX.md").stat()
    save_rename_over(vault / "deploy-day.md", card(OLD, "Deploy to production on Thursdays, never Fridays."))
    watch.wait_for("a pass", lambda: watch.passes() != [])
    assert watch.passes() == ["index: 1 changed, INDEX.md unchanged"]
    after = (vault / "INDEX.md").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_burst_of_saves_is_one_pass(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault, "--debounce", "0.6")
    for i in range(5):  # a script, a `git checkout`: many files within the debounce
        (vault / f"fact-{i}.md").write_text(card(f"Benchmark fact number {i} about the release train"))
    watch.wait_for("the pass", lambda: watch.passes() != [])
    time.sleep(0.8)
    assert watch.passes() == ["index: 5 added, INDEX.md updated"]
    assert index_check(vault) == 0


def test_waits_for_the_vault_lock(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    with VaultLock(vault / ".cardindex", timeout=5):  # what `cards add` or `cards consolidate` hold
        save_rename_over(vault / "deploy-day.md", card(NEW))
        time.sleep(0.8)
        assert NEW not in watch.index()
        assert watch.passes() == []
    watch.wait_index(NEW)
    assert index_check(vault) == 0


def test_cards_add_while_watching(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault)
    assert main(["--vault", str(vault), "add", "Staging is reset every Sunday night.", "-d",
                 "When staging is reset", "--force"]) == 0
    watch.wait_for("the pass for the added card", lambda: watch.passes() != [])
    assert watch.passes() == ["index: 1 added, INDEX.md unchanged"]  # `cards add` wrote the index already
    assert index_check(vault) == 0


# --------------------------------------------------------------------------- stopping, polling, --once

@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_signals_stop_cleanly(vault: Path, start: Callable[..., Watch], signum: int) -> None:
    watch = start(vault)
    save_rename_over(vault / "deploy-day.md", card(NEW))
    watch.wait_index(NEW)
    code = watch.stop(signum)
    assert code == 0, watch.stderr
    assert "Traceback" not in watch.stderr
    assert watch.stderr.splitlines()[-1] == f"stopped watching {vault}", watch.stderr


def test_poll_mode(vault: Path, start: Callable[..., Watch]) -> None:
    watch = start(vault, "--poll")
    assert f"watching {vault} (polling every 1 s)" in watch.stderr
    save_vim(vault / "deploy-day.md", card(NEW))
    watch.wait_index(f"- [{NEW}](deploy-day.md)", absent=(OLD,))
    assert index_check(vault) == 0


@pytest.mark.parametrize("fails_at", ["construction", "start"])
def test_inotify_limits_fall_back_to_polling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails_at: str
) -> None:
    import watchdog.observers
    from watchdog.observers.polling import PollingObserver

    from cardindex.agents.watch import start_observer

    class Exhausted(PollingObserver):
        def __init__(self, **kwargs: object) -> None:
            if fails_at == "construction":
                raise OSError(errno.EMFILE, "inotify instance limit reached")
            super().__init__()

        def start(self) -> None:
            raise OSError(errno.ENOSPC, "inotify watch limit reached")

    monkeypatch.setattr(watchdog.observers, "Observer", Exhausted)
    poked: list[int] = []
    observer, why = start_observer(tmp_path, lambda: poked.append(1), index_name="INDEX.md", poll=False)
    try:
        assert type(observer) is PollingObserver
        assert why is not None
        assert "polling every 1 s" in why
        assert "fs.inotify.max_user_watches" in why
        (tmp_path / "new.md").write_text(card("A new card"), encoding="utf-8")
        deadline = time.monotonic() + TIMEOUT
        while not poked and time.monotonic() < deadline:
            time.sleep(0.05)
        assert poked
    finally:
        observer.stop()
        observer.join(timeout=TIMEOUT)


def test_once_updates_the_index_prints_findings_and_exits_1(vault: Path, tmp_path: Path) -> None:
    (vault / "wip.md").write_text(card("Work in progress", "Currently fixing the login page."))
    assert index_check(vault) == 1
    done = subprocess.run(
        [sys.executable, "-m", "cardindex", "--vault", "vault", "watch", "--once"],
        cwd=tmp_path, env={**os.environ, "CARDS_TODAY": TODAY}, capture_output=True, text=True, check=False,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("vault/wip.md:")
    assert all(line.startswith("vault/wip.md:") for line in done.stdout.splitlines())
    assert done.stderr.splitlines()[0] == "index: 3 cards, INDEX.md updated"
    assert index_check(vault) == 0


def test_once_on_a_clean_vault_exits_0(vault: Path) -> None:
    assert main(["--vault", str(vault), "watch", "--once"]) == 0
    assert index_check(vault) == 0


def test_a_lost_events_warning_from_watchdog_triggers_a_pass() -> None:
    import logging

    from cardindex.agents.watch import WatchdogLog

    poked: list[int] = []
    said: list[str] = []
    log = WatchdogLog(lambda: poked.append(1), said.append)
    logger = logging.getLogger("watchdog.observers.inotify_c")
    logging.getLogger("watchdog").addHandler(log)
    try:
        logger.warning("Inotify queue overflowed; filesystem events were lost")
        assert poked == [1]
        assert said == ["warning: watchdog: Inotify queue overflowed; filesystem events were lost"]
        log.quiet = True  # while watchdog's threads shut down
        logger.error("InotifyEmitter.queue_events() called when the thread is inactive")
        assert len(said) == 1
    finally:
        logging.getLogger("watchdog").removeHandler(log)


def test_once_does_not_import_watchdog(vault: Path, tmp_path: Path) -> None:
    probe = (
        "import sys\nfrom cardindex.cli import main\ncode = main(sys.argv[1:])\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'watchdog'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, "--vault", str(vault), "watch", "--once"],
        cwd=tmp_path, env={**os.environ, "CARDS_TODAY": TODAY}, capture_output=True, text=True, check=False,
        timeout=60,
    )
    assert done.stdout == "0 []\n", done.stderr


@pytest.mark.parametrize("many", [False, True], ids=["one-changed", "many-changed"])
def test_duplicates_of_changed_cards_are_found_as_cards_lint_finds_them(tmp_path: Path, many: bool) -> None:
    import datetime as dt

    from cardindex.lint.registry import selected
    from cardindex.lint.runner import lint
    from cardindex.store.vault import Vault
    from cardindex.lint.context import FOCUSED_PAIRS_MAX
    from cardindex.agents.watch import lint_cards

    root = tmp_path / "v"
    root.mkdir()
    (root / "deploy-day.md").write_text(card(OLD, "Deploy to production on Thursdays only."))
    (root / "deploy-thursday.md").write_text(card("The weekday production deploys happen on",
                                                  "Production deploys happen on Thursdays only."))
    for i in range(FOCUSED_PAIRS_MAX + 2):
        (root / f"fact-{i}.md").write_text(card(f"Team {i} owns service number {i} alone", f"Service {i} is team {i}'s."))
    vault = Vault(root, use_cache=False)
    today = dt.date.fromisoformat(TODAY)
    targets = vault.cards if many else [c for c in vault.cards if c.path == "deploy-thursday.md"]
    found = lint_cards(vault, vault.cards, targets, today)
    assert ("U101", ("deploy-day.md",)) in {(f.code, f.related) for f in found if f.path == "deploy-thursday.md"}
    assert found == lint(vault, selected(), today=today, paths={c.path for c in targets})
