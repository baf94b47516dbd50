"""`cards add` updates INDEX.md from the remembered ranking (`index.after_add`): the same bytes as a full render.

Each case builds one vault, copies it, and runs the same `cards add` in both copies: in
one the remembered ranking is there and the whole-vault render is made to fail (so the
fast path must have written the index), in the other the memo is deleted (the slow path).
Every file outside `.cardindex/`, the exit code and both outputs must be equal.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from cardindex.index import build, ranking_memo
from tests.conftest import snapshot_tree

Cli = Callable[..., Result]


def _vault(root: Path, run_cli: Cli, cards: dict[str, str], config: str = "") -> Path:
    assert run_cli("init", str(root)).exit_code == 0
    if config:
        (root / ".cardindex.yaml").write_text(config, encoding="utf-8")
    for rel, text in cards.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    result = run_cli("--vault", str(root), "index")
    assert result.exit_code == 0, result.stderr
    assert (root / ".cardindex" / "cache" / ranking_memo.MEMO).exists()
    return root


def _both(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch, cards: dict[str, str], args: list[str],
          *, config: str = "", fast: bool = True) -> tuple[Result, Path]:
    """Run `cards add ARGS` on two copies, fast path and slow path; assert they agree; return the fast one."""
    slow_root = _vault(tmp_path / "slow", run_cli, cards, config)
    fast_root = tmp_path / "fast"
    shutil.copytree(slow_root, fast_root, symlinks=True)
    (slow_root / ".cardindex" / "cache" / ranking_memo.MEMO).unlink()
    slow = run_cli("--vault", str(slow_root), "add", *args)
    if fast:
        def refuse(*_: Any, **__: Any) -> Any:
            raise AssertionError("the whole vault was ranked: the remembered ranking was not used")

        monkeypatch.setattr(build, "render_ranked", refuse)
    quick = run_cli("--vault", str(fast_root), "add", *args)
    monkeypatch.undo()
    assert (quick.exit_code, quick.stderr) == (slow.exit_code, slow.stderr.replace(str(slow_root), str(fast_root)))
    assert quick.stdout == slow.stdout.replace(str(slow_root), str(fast_root))
    assert snapshot_tree(fast_root, state=False) == snapshot_tree(slow_root, state=False)
    return quick, fast_root


def _garden(n: int, **extra: str) -> dict[str, str]:
    """`n` durable cards about a community garden, dated over a year, some of them `user` cards."""
    out = {}
    for i in range(n):
        day = f"2026-{1 + i % 11:02d}-{1 + (i * 7) % 27:02d}"
        kind = "user" if i % 5 == 0 else "project"
        out[f"plot-{i:03d}.md"] = (
            f"---\ndescription: Plot {i} waters on rota day {i % 7}\ntype: {kind}\ncreated: {day}\n"
            f"verified: {day}\n---\nPlot {i} is watered from the north tap; hose {i} hangs by shed {i % 4}.\n"
        )
    out.update(extra)
    return out


def test_plain_add_under_budget(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    _, root = _both(tmp_path, run_cli, monkeypatch, _garden(8),
                    ["The compost bins are turned on the first Saturday of each month.", "-d", "When compost is turned"])
    assert "When compost is turned" in (root / "INDEX.md").read_text(encoding="utf-8")


def test_add_into_an_index_over_its_line_budget(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new card ranks in among the kept lines, pushing the last one out."""
    _, root = _both(tmp_path, run_cli, monkeypatch, _garden(40),
                         ["Seed orders go to the co-op catalogue by the end of January.", "-d", "Where seeds are ordered"],
                         config="index_budget: {lines: 14, bytes: 25000}\n")
    text = (root / "INDEX.md").read_text(encoding="utf-8")
    assert "Where seeds are ordered" in text and "more" in text


def test_new_card_ranked_below_the_cut(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cards verified after the new one's day outrank it: it is counted, not shown."""
    cards = {f"later-{i}.md": f"---\ndescription: Bed {i} gets mulch\ntype: user\nverified: 2027-0{1 + i % 8}-10\n---\nBed {i}.\n"
             for i in range(20)}
    _, root = _both(tmp_path, run_cli, monkeypatch, cards,
                    ["Rainwater butts are emptied before the first frost.", "-d", "When butts are emptied"],
                    config="index_budget: {lines: 10, bytes: 25000}\n")
    assert "When butts are emptied" not in (root / "INDEX.md").read_text(encoding="utf-8")


def test_add_over_the_byte_budget(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    _both(tmp_path, run_cli, monkeypatch, _garden(30),
          ["Volunteers sign in at the gate book " + "with their plot number " * 3 + "each visit.", "--lock",
           "-d", "How volunteers sign in at the gate " + "x" * 60],
          config="index_budget: {lines: 200, bytes: 1400}\n")


def test_a_forced_secret_is_withheld_the_same(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    token = "ghp_" + "Q7x2" * 9
    result, root = _both(tmp_path, run_cli, monkeypatch, _garden(6),
                         [f"The shed alarm service token is {token}.", "-d", "Shed alarm token", "--force"])
    assert result.exit_code == 0
    assert token not in (root / "INDEX.md").read_text(encoding="utf-8")


def test_an_expired_card_is_written_but_not_listed(tmp_path: Path, run_cli: Cli,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _, root = _both(tmp_path, run_cli, monkeypatch, _garden(6),
                    ["The spring plant sale runs in the car park.", "-d", "Spring plant sale", "--expires", "2026-01-01"])
    assert "Spring plant sale" not in (root / "INDEX.md").read_text(encoding="utf-8")


def test_conflict_with_a_locked_key_holder(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = _garden(10, **{"gate-code.md": "---\ndescription: Gate padlock combination owner\ntype: project\n"
                                           "key: padlock-owner\nlock: true\n---\nThe padlock is kept by Imogen.\n"})
    result, _ = _both(tmp_path, run_cli, monkeypatch, cards,
                         ["The padlock is kept by Tariq.", "-k", "padlock-owner", "-d", "Who keeps the padlock"],
                         config="index_budget: {lines: 12, bytes: 25000}\n")
    assert "conflict" in result.stderr


def test_supersession_renders_the_whole_vault(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card archived by the add may let one from below the cut in: the full render decides."""
    cards = _garden(12, **{"tap.md": "---\ndescription: Which tap feeds the east beds\ntype: project\n"
                                     "key: east-tap\n---\nThe east beds are fed by the south tap.\n"})
    _both(tmp_path, run_cli, monkeypatch, cards,
          ["The east beds are fed by the pond pump.", "-k", "east-tap", "-d", "What feeds the east beds"],
          config="index_budget: {lines: 10, bytes: 25000}\n", fast=False)


def test_a_refusal_is_the_same(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    result, _ = _both(tmp_path, run_cli, monkeypatch, _garden(6),
                      ["Currently halfway through repainting the shed, will finish after lunch.",
                       "-d", "Shed repaint progress"], fast=False)
    assert result.exit_code != 0


def test_a_vault_changed_behind_the_memo_is_ranked_again(tmp_path: Path, run_cli: Cli) -> None:
    """An edit after the ranking was remembered changes the fingerprint: the full render runs."""
    root = _vault(tmp_path / "v", run_cli, _garden(8), "index_budget: {lines: 8, bytes: 25000}\n")
    (root / "plot-003.md").write_text("---\ndescription: Plot 3 is now the herb spiral\ntype: lock\nlock: true\n"
                                      "---\nHerbs.\n".replace("type: lock\n", "type: project\n"), encoding="utf-8")
    result = run_cli("--vault", str(root), "add", "Tool shed keys hang on the blue hook.", "-d", "Where shed keys hang")
    assert result.exit_code == 0, result.stderr
    text = (root / "INDEX.md").read_text(encoding="utf-8")
    assert "Plot 3 is now the herb spiral" in text
    assert run_cli("--vault", str(root), "index", "--check").exit_code == 0


def test_many_adds_in_a_row_stay_fast_and_true(tmp_path: Path, run_cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each add leaves the ranking for the next one; `cards index --check` agrees after all of them."""
    root = _vault(tmp_path / "v", run_cli, _garden(25), "index_budget: {lines: 12, bytes: 25000}\n")

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("ranked the whole vault")

    monkeypatch.setattr(build, "render_ranked", refuse)
    for i, what in enumerate(["ladders", "wheelbarrows", "netting", "canes", "twine"]):
        result = run_cli("--vault", str(root), "add", f"Spare {what} are stored in bay {i}.", "-d", f"Where {what} go",
                         *(["--lock"] if i == 2 else []))
        assert result.exit_code == 0, result.stderr
    monkeypatch.undo()
    import marshal

    _, (top, total, _notes, _withheld) = marshal.loads((root / ".cardindex" / "cache" / ranking_memo.MEMO).read_bytes())
    assert len(top) == 12 and total == 30  # the remembered ranking keeps only what the budget can show
    check = run_cli("--vault", str(root), "index", "--check")
    assert check.exit_code == 0, check.stderr


def test_real_processes_agree(tmp_path: Path, run_cli: Cli) -> None:
    """Two real `cards add` processes, one with the remembered ranking and one without, write the same files."""
    import os
    import subprocess
    import sys

    slow_root = _vault(tmp_path / "slow", run_cli, _garden(30), "index_budget: {lines: 15, bytes: 25000}\n")
    fast_root = tmp_path / "fast"
    shutil.copytree(slow_root, fast_root, symlinks=True)
    (slow_root / ".cardindex" / "cache" / ranking_memo.MEMO).unlink()
    for root in (fast_root, slow_root):
        for text, extra in [("Hoses are drained before the first frost.", ["--lock"]), ("The rota is on the shed door.", [])]:
            done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(root), "add", text, *extra],
                                  check=False, capture_output=True, text=True, env=dict(os.environ), timeout=60)
            assert done.returncode == 0, done.stderr
    assert snapshot_tree(fast_root, state=False) == snapshot_tree(slow_root, state=False)
