"""`cards watch` passes that read only the card files the events named (speed8).

A pass given the files that changed (`Watcher.refresh(today, changed)`) reads those and keeps
every other card as the last pass left them. It must write exactly the INDEX.md a whole
listing would, and fall back to the whole listing whenever the names cannot say what
changed: a new file, a file gone, a folder, the config, a failed pass.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.agents.watch import EventFilter, Trigger, Watcher
from cardindex.index import build
from cardindex.store.vault import Vault

TODAY = dt.date(2026, 11, 30)  # conftest's CARDS_TODAY
Cli = Callable[..., Result]


def card(description: str, body: str, day: str = "2026-10-01") -> str:
    return f"---\ndescription: {description}\ntype: project\nverified: {day}\n---\n{body}\n"


def make_vault(root: Path, run_cli: Cli, n: int = 30) -> Path:
    assert run_cli("init", str(root)).exit_code == 0
    (root / "notes").mkdir()
    for i in range(n):
        folder = root / "notes" if i % 3 == 0 else root
        (folder / f"loom-{i:02d}.md").write_text(card(f"Loom {i} weaves the warp pattern {i}", f"Loom {i} uses {i} shafts."),
                                                 encoding="utf-8")
    return root


def save(path: Path, text: str) -> None:
    """As an editor saves: a temp file renamed over the card."""
    tmp = path.with_name(path.name + ".tmp~")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def whole(root: Path) -> str:
    """INDEX.md as a fresh process renders it from the whole vault."""
    vault = Vault(root, use_cache=False)
    return build.render(vault, vault.cards, TODAY).text


def index_text(root: Path) -> str:
    return (root / "INDEX.md").read_text(encoding="utf-8")


def test_a_named_edit_reads_one_file_and_writes_what_a_whole_listing_writes(tmp_path: Path, run_cli: Cli) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    save(root / "notes" / "loom-03.md", card("Loom 3 weaves the herringbone twill", "Loom 3 uses 8 shafts.", "2026-11-29"))
    _, cards, change = watcher.refresh(TODAY, {"notes/loom-03.md"})
    assert watcher.narrowed == 1
    assert change.changed == ["notes/loom-03.md"] and not change.added and not change.removed
    assert "herringbone twill" in index_text(root)
    assert index_text(root) == whole(root)
    assert [c.text for c in cards] == [c.text for c in Vault(root, use_cache=False).cards]


def test_an_edit_in_place_with_the_same_size_and_mtime_is_read(tmp_path: Path, run_cli: Cli) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    path = root / "loom-04.md"
    before = path.stat()
    old = path.read_text(encoding="utf-8")
    new = old.replace("warp pattern 4", "weft pattern 4")
    assert len(new) == len(old)
    with open(path, "r+", encoding="utf-8") as f:  # in place, as some tools write: no rename, no folder change
        f.write(new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    _, _, change = watcher.refresh(TODAY, {"loom-04.md"})
    assert watcher.narrowed == 1 and change.changed == ["loom-04.md"]
    assert "weft pattern 4" in index_text(root)
    assert index_text(root) == whole(root)


@pytest.mark.parametrize("how", ["new card", "card deleted", "moved away", "folder"])
def test_names_that_cannot_say_what_changed_list_the_whole_vault(tmp_path: Path, run_cli: Cli, how: str) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    named: set[str] = set()
    if how == "new card":
        (root / "loom-99.md").write_text(card("Loom 99 weaves the tapestry border", "Loom 99 uses 4 shafts."))
        named = {"loom-99.md"}
    elif how == "card deleted":
        (root / "loom-05.md").unlink()
        named = {"loom-05.md"}
    elif how == "moved away":
        os.replace(root / "loom-05.md", root / "loom-05-moved.md")
        named = {"loom-05.md"}  # the event's source only; the listing holds a new name
    else:
        (root / "more").mkdir()
        (root / "more" / "loom-77.md").write_text(card("Loom 77 weaves the satin band", "Loom 77 uses 5 shafts."))
        (root / "loom-07.md").write_text(card("Loom 7 weaves the gauze", "Loom 7 uses 2 shafts.", "2026-11-28"))
        named = {"loom-07.md"}  # a folder's event came with it: the trigger says None, the cards here are a subset
    _, _, change = watcher.refresh(TODAY, None if how == "folder" else named)
    assert watcher.narrowed == 0
    assert index_text(root) == whole(root)
    if how == "new card":
        assert change.added == ["loom-99.md"]
    elif how == "card deleted":
        assert change.removed == ["loom-05.md"]
    elif how == "moved away":
        assert change.added == ["loom-05-moved.md"] and change.removed == ["loom-05.md"]
    else:
        assert change.added == ["more/loom-77.md"] and change.changed == ["loom-07.md"]


def test_after_a_failed_pass_the_next_one_lists_the_whole_vault(tmp_path: Path, run_cli: Cli,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    real_write = build.write

    def failing(*args: object, **kwargs: object) -> object:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(build, "write", failing)
    save(root / "loom-07.md", card("Loom 7 weaves the damask", "Loom 7 uses 12 shafts.", "2026-11-29"))
    with pytest.raises(OSError):
        watcher.refresh(TODAY, {"loom-07.md"})
    monkeypatch.setattr(build, "write", real_write)
    # The failed pass's name is lost with it (the trigger was taken); another card's event comes next.
    save(root / "loom-08.md", card("Loom 8 weaves the chevron", "Loom 8 uses 6 shafts.", "2026-11-29"))
    watcher.refresh(TODAY, {"loom-08.md"})
    assert watcher.narrowed == 0  # the whole vault again: loom-07's edit is in INDEX.md too
    text = index_text(root)
    assert "damask" in text and "chevron" in text and text == whole(root)


def test_broken_card_named_keeps_its_last_good_entry(tmp_path: Path, run_cli: Cli) -> None:
    root = make_vault(tmp_path / "v", run_cli)
    watcher = Watcher(root)
    watcher.refresh(TODAY)
    before = index_text(root)
    save(root / "loom-10.md", "---\ndescription: [unclosed\n---\nhalf typed\n")
    _, _, change = watcher.refresh(TODAY, {"loom-10.md"})
    assert watcher.narrowed == 1 and change.kept == ["loom-10.md"]
    assert index_text(root) == before  # the last good version stays
    save(root / "loom-10.md", card("Loom 10 weaves the basket weave", "Loom 10 uses 4 shafts.", "2026-11-29"))
    watcher.refresh(TODAY, {"loom-10.md"})
    assert watcher.narrowed == 2
    assert index_text(root) == whole(root)


def test_event_filter_names_card_files_only(tmp_path: Path) -> None:
    events = EventFilter(tmp_path, "INDEX.md")
    root = str(events.root)
    assert events.card_paths(False, f"{root}/a/b.md") == ["a/b.md"]
    assert events.card_paths(False, f"{root}/.b.md.cards-tmp", f"{root}/b.md") == ["b.md"]  # a rename over
    assert events.card_paths(True, f"{root}/a") is None
    assert events.card_paths(False, f"{root}/.cardindex.yaml") is None
    assert events.card_paths(True, root) is None


def test_trigger_take_gathers_names_until_something_else_changes() -> None:
    trigger = Trigger(0.0, 0.0)
    try:
        assert trigger.take() is None  # the first pass lists the vault
        trigger.poke(["a.md"])
        trigger.poke(["b.md"])
        assert trigger.take() == {"a.md", "b.md"}
        assert trigger.take() == set()
        trigger.poke(["a.md"])
        trigger.poke()  # an overflow, a folder, a retry
        trigger.poke(["c.md"])
        assert trigger.take() is None
    finally:
        trigger.close()


def test_watch_process_follows_a_save_with_narrowed_passes(tmp_path: Path, run_cli: Cli) -> None:
    """Through the real command: saves, a new card and a deletion all reach INDEX.md as `cards index` writes it."""
    import subprocess
    import sys

    root = make_vault(tmp_path / "v", run_cli)
    env = {**os.environ, "CARDS_TODAY": TODAY.isoformat()}
    proc = subprocess.Popen([sys.executable, "-m", "cardindex", "--vault", str(root), "watch", "--debounce", "0.05"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def until(check: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if (root / "INDEX.md").exists() and check():
                return
            time.sleep(0.05)
        raise AssertionError("INDEX.md never caught up")

    try:
        until(lambda: "Loom 1 weaves" in index_text(root))
        time.sleep(0.5)
        save(root / "loom-01.md", card("Loom 1 weaves the overshot coverlet", "Loom 1 uses 4 shafts.", "2026-11-29"))
        until(lambda: "overshot coverlet" in index_text(root))
        (root / "loom-02.md").unlink()
        until(lambda: "warp pattern 2\n" not in index_text(root) and "loom-02.md" not in index_text(root))
        (root / "loom-50.md").write_text(card("Loom 50 weaves the rep weave", "Loom 50 uses 2 shafts.", "2026-11-29"))
        until(lambda: "rep weave" in index_text(root))
        save(root / "loom-04.md", card("Loom 4 weaves the honeycomb", "Loom 4 uses 6 shafts.", "2026-11-29"))
        until(lambda: "honeycomb" in index_text(root))
        time.sleep(0.3)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert index_text(root) == whole(root)


def test_the_observer_names_the_card_files_it_saw(tmp_path: Path) -> None:
    from cardindex.agents.watch import start_observer

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "old.md").write_text(card("An old card", "Old body."), encoding="utf-8")
    got: list[list[str] | None] = []
    observer, _ = start_observer(tmp_path, lambda: got.append(["on_change"]), index_name="INDEX.md", poll=False,
                                 on_cards=got.append)
    try:
        save(tmp_path / "sub" / "old.md", card("An old card, edited", "Old body, edited."))
        deadline = time.monotonic() + 30
        while ["sub/old.md"] not in got and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ["sub/old.md"] in got
        assert ["on_change"] not in got
        (tmp_path / "newdir").mkdir()
        deadline = time.monotonic() + 30
        while None not in got and time.monotonic() < deadline:
            time.sleep(0.05)
        assert None in got  # a folder: the whole vault
    finally:
        observer.stop()
        observer.join(timeout=30)
