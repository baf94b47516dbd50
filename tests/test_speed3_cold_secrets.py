"""A cold load scans its cards for secrets on both cores; the index withholds exactly what a serial scan withholds.

`store.scanned` keeps what the forked load's two halves found; `index.withhold` asks it
before scanning a text itself. These tests make a vault big enough to fork, with cards
holding secrets in both halves, and compare the index with the one a load that never
forks writes.
"""

from __future__ import annotations

from pathlib import Path
import pytest

from cardindex.index import withhold
from cardindex.store import loading, scanned

AWS = "AKIA" + "Q3EGRTYUIOPASDFG"  # a key id in the known format (split, so this file holds none)


def make_vault(root: Path, n: int, secret_every: int) -> set[str]:
    (root / "tools").mkdir(parents=True)
    (root / ".cardindex.yaml").write_text("repo: false\nindex_budget:\n  lines: 5000\n")
    holding = set()
    for i in range(n):
        rel = f"tools/tool-{i:05d}.md"
        body = f"The lathe number {i} is oiled every {i % 7 + 1} weeks."
        if i % secret_every == 0:
            body += f" Its supplier portal key id is {AWS}."
            holding.add(rel)
        (root / rel).write_text(f"---\ndescription: Lathe {i} oiling interval\ntype: reference\n---\n{body}\n")
    return holding


@pytest.fixture
def big(tmp_path: Path) -> tuple[Path, set[str]]:
    root = tmp_path / "workshop"
    return root, make_vault(root, loading.FORK_AT + 200, 97)


def test_the_forked_load_scans_every_text_once(big, run_cli, monkeypatch):
    root, holding = big
    asked: list[str] = []
    real = withhold.has_secret

    def counted(text: str) -> bool:
        asked.append(text)
        return real(text)

    monkeypatch.setattr(withhold, "has_secret", counted)
    monkeypatch.setattr(scanned, "_KNOWN", {})
    result = run_cli("--vault", str(root), "index")
    assert result.exit_code == 0, result.stderr
    assert asked == []  # both halves of the load answered already
    index = (root / "INDEX.md").read_text()
    shown = {line.split("](", 1)[1].split(")", 1)[0] for line in index.splitlines() if "](" in line}
    assert shown and not shown & holding
    assert len(scanned._KNOWN) > loading.FORK_AT  # noqa: SLF001 - what the load found


def test_the_index_is_the_one_a_serial_load_writes(big, tmp_path, run_cli, monkeypatch):
    root, _ = big
    monkeypatch.setattr(scanned, "_KNOWN", {})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    forked = (root / "INDEX.md").read_bytes()
    (root / "INDEX.md").unlink()
    import shutil

    shutil.rmtree(root / ".cardindex")
    monkeypatch.setattr(loading, "FORK_AT", 10**9)
    monkeypatch.setattr(scanned, "_KNOWN", {})
    assert run_cli("--vault", str(root), "index").exit_code == 0
    assert (root / "INDEX.md").read_bytes() == forked
    assert scanned._KNOWN == {}  # noqa: SLF001 - a load that does not fork scans nothing itself


def test_a_scan_answer_is_only_for_its_own_text(monkeypatch):
    monkeypatch.setattr(scanned, "_KNOWN", {})
    scanned.note(scanned.scan([f"key id {AWS}", "no key here"]))
    assert scanned.known(scanned.text_key(f"key id {AWS}")) is True
    assert scanned.known(scanned.text_key("no key here")) is False
    assert scanned.known(scanned.text_key("never scanned")) is None
