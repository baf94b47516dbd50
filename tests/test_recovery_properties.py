"""Properties of the one job writer: a job or an undo stopped after any write is rolled back exactly.

In-process and fast, so hypothesis can try many vaults, jobs and stopping points; the
real kill -9 of real processes is tests/test_crash.py. A stop is simulated by an
exception no handler of cardindex catches (as SIGKILL is), raised right after the Nth
file write, so the pending mark and the half-written vault stay as a kill leaves them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.store import jobs as lifecycle
from cardindex.store.card import Card
from cardindex.store.jobs import Step, apply, recover
from cardindex.lifecycle.undo import undo
from cardindex.store.vault import Vault


class Stop(BaseException):
    """Stands for SIGKILL: nothing in cardindex catches it."""


def tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".cardindex" not in p.relative_to(root).parts}


def stop_after(monkeypatch: pytest.MonkeyPatch, n: int | None) -> None:
    count = 0

    def wrote() -> None:
        nonlocal count
        count += 1
        if n is not None and count == n:
            raise Stop

    monkeypatch.setattr(lifecycle, "_wrote", wrote)


OPS = st.sampled_from(["edit", "archive", "remove", "keep"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, min_size=1, max_size=8), new=st.integers(0, 3), stop=st.integers(1, 12),
       stop_undo=st.integers(1, 12))
def test_a_job_and_its_undo_stopped_anywhere_roll_back_exactly(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch,
    ops: list[str], new: int, stop: int, stop_undo: int,
) -> None:
    root = tmp_path_factory.mktemp("vault")
    (root / ".cardindex").mkdir()
    for i, _ in enumerate(ops):
        folder = root / ("sub" if i % 2 else "")
        folder.mkdir(exist_ok=True)
        (folder / f"c{i}.md").write_text(f"---\ndescription: Fact {i} of the build\ntype: project\n---\nBody {i}.\n")
    before = tree(root)

    def steps(vault: Vault) -> list[Step]:
        cards = {c.path: c for c in vault.cards}
        out = [Step(Card.from_text(f"n{j}.md", f"---\ndescription: New fact {j}\ntype: project\n---\nNew {j}.\n"),
                    "create", {}, "add", "test") for j in range(new)]
        for i, op in enumerate(ops):
            card = cards["sub/" * (i % 2) + f"c{i}.md"]
            if op != "keep":
                out.append(Step(card, op, {"status": "archived"} if op == "archive" else {"verified": "2026-11-30"},
                                op, "test"))
        return out

    vault = Vault(root, use_cache=False)
    with vault.lock():
        planned = steps(vault)
        stop_after(monkeypatch, stop)
        try:
            apply(vault, planned, command="test")
        except Stop:
            recover(vault)  # the next command
            assert tree(root) == before
            stop_after(monkeypatch, None)
            apply(Vault(root, use_cache=False), steps(Vault(root, use_cache=False)), command="test")
    after = tree(root)
    if not planned:
        return
    vault = Vault(root, use_cache=False)
    with vault.lock():
        stop_after(monkeypatch, stop_undo)
        try:
            undo(vault)
        except Stop:
            recover(vault)
            assert tree(root) == after  # the undo is rolled back: the job stays done
            stop_after(monkeypatch, None)
            undo(Vault(root, use_cache=False))
    assert tree(root) == before
    assert not (root / ".cardindex" / "pending").exists()
