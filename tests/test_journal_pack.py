"""A job's prior bytes in one pack: found again by undo, rollback and --as-of; old loose objects still work.

Also: how many fsyncs a job costs (each file's bytes once, each folder once), and that
a job whose deferred folder fsyncs were lost (a power cut) is put back from its pack.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import stat
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result
from test_consolidate import put, tree

from cardindex.store.journal import Action, DamagedPack, FileChange, Journal, sha256

Invoke = Callable[..., Result]

NOT_UTF8 = {
    "latin.md": b"---\ndescription: Caf\xe9 opening hours\ntype: project\n---\nOpen at 8.\n",
    "crlf.md": b"---\r\ndescription: Line endings of Windows\r\ntype: project\r\n---\r\nBody \xe2\x82\xac.\r\n",
    "nul.md": b"---\ndescription: a NUL\x00 byte\ntype: project\n---\nx\n",
    "newlines.md": b"\n\n---\ndescription: end blob\ntype: project\n---\nend 3\nblob " + b"0" * 64 + b" 9\n",
}


def objects(root: Path) -> list[str]:
    folder = root / ".cardindex" / "objects"
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def journal_entries(root: Path) -> list[dict[str, object]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((root / ".cardindex" / "journal").glob("*.json"))]


def several(vault: Path) -> dict[str, bytes]:
    """Cards for a consolidate that supersedes, merges and archives (several prior blobs)."""
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.",
        key="deploy-day", verified="2026-03-01")
    put(vault, "deploy-thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.",
        key="deploy-day", verified="2026-09-14")
    put(vault, "tz1.md", "The user's timezone is Europe/Berlin", "The user works in Europe/Berlin time.", type="user")
    put(vault, "tz2.md", "User timezone is Europe/Berlin", "User is in the Europe/Berlin timezone.", type="user",
        verified="2026-06-01")
    put(vault, "sprint.md", "Sprint 42 goal is the billing export", "Sprint 42: billing export.", expires="2026-10-01")
    put(vault, "notes/old.md", "Sprint 41 goal was the invoice fix", "Sprint 41: invoice fix.", expires="2026-09-01")
    return {p.relative_to(vault).as_posix(): p.read_bytes() for p in vault.rglob("*.md") if p.name != "INDEX.md"}


# ------------------------------------------------------------------ one pack per job


def test_a_consolidate_keeps_its_prior_bytes_in_one_pack(invoke: Invoke, vault: Path) -> None:
    originals = several(vault)
    assert invoke("index").exit_code == 0
    result = invoke("consolidate", "--format", "json")
    assert result.exit_code == 0, result.stderr
    [job] = journal_entries(vault)
    befores = {f["path"]: f["before"] for a in job["actions"] for f in a["files"] if f["before"]}  # type: ignore[attr-defined]
    assert len(befores) >= 4  # a supersede, a merge, two archives (in two folders)
    assert objects(vault) == [f"pack/{job['pack']}.pack"]
    pack = (vault / ".cardindex" / "objects" / "pack" / f"{job['pack']}.pack").read_bytes()
    assert sha256(pack) == job["pack"]
    assert pack.startswith(b"cardindex-pack 1\n") and pack.endswith(f"end {len(set(befores.values()))}\n".encode())
    journal = Journal(vault / ".cardindex")
    for path, digest in befores.items():
        assert journal.blob(digest, str(job["pack"])) == originals[path]
        assert Journal(vault / ".cardindex").blob(digest) == originals[path]  # without the job: every pack is searched


def test_undo_restores_non_utf8_bytes_from_a_pack(invoke: Invoke, vault: Path) -> None:
    for rel, data in NOT_UTF8.items():
        (vault / rel).write_bytes(data)
    before = tree(vault)
    result = invoke("rm", *(rel.removesuffix(".md") for rel in NOT_UTF8))
    assert result.exit_code == 0, result.stderr
    assert not any((vault / rel).exists() for rel in NOT_UTF8)
    [job] = journal_entries(vault)
    assert objects(vault) == [f"pack/{job['pack']}.pack"]
    undone = invoke("undo")
    assert undone.exit_code == 0, undone.stderr
    for rel, data in NOT_UTF8.items():
        assert (vault / rel).read_bytes() == data
    assert {k: v for k, v in tree(vault).items() if k != "INDEX.md"} == {k: v for k, v in before.items() if k != "INDEX.md"}


def test_a_job_with_nothing_to_keep_writes_no_pack(invoke: Invoke, vault: Path) -> None:
    assert invoke("add", "Deploy to production on Thursdays only.", "-n", "Deploy day").exit_code == 0
    [job] = journal_entries(vault)
    assert "pack" not in job
    assert objects(vault) == []
    assert invoke("undo").exit_code == 0


# ------------------------------------------------------------------ vaults from before packs


def _old_style_jobs(vault: Path) -> dict[str, bytes]:
    """Two jobs as cardindex wrote them before packs: loose objects, no `pack` in the entry."""
    journal = Journal(vault / ".cardindex")
    edited = put(vault, "edited.md", "Which port the API listens on", "The API listens on port 8080.")
    removed = put(vault, "removed.md", "Where runbooks live", "Runbooks live in ops/runbooks.")
    old = {"edited.md": edited.read_bytes(), "removed.md": removed.read_bytes()}
    new = old["edited.md"].replace(b"8080", b"9090")
    journal.record("supersede", [Action("edit", "edited", "by hand, the old way",
                                        (FileChange("edited.md", journal.keep(old["edited.md"]), sha256(new)),))],
                   now=dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc))
    edited.write_bytes(new)
    journal.record("rm", [Action("remove", "removed", "cards rm",
                                 (FileChange("removed.md", journal.keep(old["removed.md"]), None),))],
                   now=dt.datetime(2026, 10, 2, tzinfo=dt.timezone.utc))
    removed.unlink()
    return old


def test_a_vault_with_old_loose_objects_still_undoes(invoke: Invoke, vault: Path) -> None:
    old = _old_style_jobs(vault)
    assert [p.count("/") for p in objects(vault)] == [1, 1]  # ab/cdef…, no pack
    assert all("pack" not in job for job in journal_entries(vault))
    assert invoke("undo").exit_code == 0
    assert (vault / "removed.md").read_bytes() == old["removed.md"]
    assert invoke("undo").exit_code == 0
    assert (vault / "edited.md").read_bytes() == old["edited.md"]


def test_as_of_rewinds_through_loose_objects_and_packs(invoke: Invoke, vault: Path) -> None:
    _old_style_jobs(vault)  # jobs of 2026-10-01 and -02, loose objects
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.",
        key="deploy-day", created="2026-01-05", verified="2026-03-01")
    put(vault, "deploy-thu.md", "Which weekday production deploys happen", "Deploy on Thursdays only.",
        key="deploy-day", created="2026-09-14", verified="2026-09-14")
    assert invoke("consolidate", "--now", "2026-11-01").exit_code == 0  # a packed job of 2026-11-01
    assert any(job.get("pack") for job in journal_entries(vault))
    now = invoke("context").stdout
    assert "Tuesdays" not in now and "runbooks" not in now and "port 9090" in now
    before = invoke("context", "--as-of", "2026-09-20").stdout
    assert "Tuesdays" in before  # from the pack
    assert "port 8080" in before and "port 9090" not in before and "ops/runbooks" in before  # from loose objects


# ------------------------------------------------------------------ damaged packs


def _damage(pack: Path, how: str) -> None:
    data = pack.read_bytes()
    if how == "truncated":
        pack.write_bytes(data[: len(data) // 2])
    elif how == "flipped-byte":
        at = data.index(b"Tuesdays")  # inside a blob: its hash no longer matches
        pack.write_bytes(data[:at] + b"X" + data[at + 1:])
    elif how == "bad-size":
        at = data.rindex(b"\nblob ") + 1 + len("blob ") + 64 + 1  # the last blob's size
        pack.write_bytes(data[:at] + b"x" + data[at + 1:])
    else:
        pack.write_bytes(b"garbage\n" + data)


@pytest.mark.parametrize("how", ["truncated", "flipped-byte", "bad-size", "bad-first-line"])
def test_a_damaged_pack_is_one_error_line_on_undo(invoke: Invoke, vault: Path, how: str) -> None:
    put(vault, "deploy-tue.md", "Which weekday production deploys happen", "Deploy on Tuesdays only.")
    put(vault, "zz-other.md", "Where runbooks live", "Runbooks live in ops/runbooks.")
    assert invoke("archive", "deploy-tue", "zz-other").exit_code == 0
    [job] = journal_entries(vault)
    _damage(vault / ".cardindex" / "objects" / "pack" / f"{job['pack']}.pack", how)
    before = tree(vault)
    result = invoke("undo")
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"error: cannot undo job {job['id']}: the saved copy of ")
    assert f"is unreadable (pack {job['pack']}.pack is damaged: " in result.stderr
    assert tree(vault) == before


def test_a_damaged_pack_is_skipped_when_the_bytes_are_kept_elsewhere(vault: Path) -> None:
    journal = Journal(vault / ".cardindex")
    data = b"---\ndescription: kept twice\n---\n"
    pack = journal.keep_many([data, b"other"])
    assert pack is not None
    path = vault / ".cardindex" / "objects" / "pack" / f"{pack}.pack"
    path.write_bytes(path.read_bytes()[:30])
    with pytest.raises(DamagedPack, match="is damaged: "):
        Journal(vault / ".cardindex").blob(sha256(data), pack)
    journal.keep(data)  # a loose copy too
    assert Journal(vault / ".cardindex").blob(sha256(data), pack) == data
    with pytest.raises(DamagedPack):  # the damaged pack may have held it
        Journal(vault / ".cardindex").blob(sha256(b"never kept"))
    path.unlink()
    with pytest.raises(FileNotFoundError):
        Journal(vault / ".cardindex").blob(sha256(b"never kept"))


# ------------------------------------------------------------------ fsyncs


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Count os.fsync calls in this process: 'file', and one key per folder fsynced."""
    counts: Counter[str] = Counter()
    real = os.fsync

    def counting(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            counts[os.readlink(f"/proc/self/fd/{fd}")] += 1
        else:
            counts["file"] += 1
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    yield counts


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to name the fsynced folders")
@pytest.mark.parametrize("op", ["edit", "archive"])
def test_a_job_fsyncs_each_file_once_and_each_folder_once(vault: Path, fsyncs: Counter[str], op: str) -> None:
    from cardindex.store.jobs import Step, apply
    from cardindex.store.vault import Vault

    k = 12
    for i in range(k):
        put(vault, f"{'sub/' if i % 2 else ''}card-{i:02}.md", f"Fact number {i} about the build", f"Fact {i}.")
    cards = Vault(vault)
    steps = [Step(c, op, {"verified": "2026-11-30"} if op == "edit" else {"status": "archived"}, op, "test")
             for c in cards.cards]
    assert len(steps) == k
    for folder in ("objects/pack", "journal"):  # as after the first job
        (vault / ".cardindex" / folder).mkdir(parents=True, exist_ok=True)
    fsyncs.clear()
    with cards.lock():
        job, done = apply(cards, steps, command=op)
    assert job is not None and len(done) == k
    folders = {name: n for name, n in fsyncs.items() if name != "file"}
    # Each card's new bytes, the pack, the journal entry and the pending mark: one fsync each.
    assert fsyncs["file"] == k + 3, fsyncs
    # Each folder once: the card folders (and the archive's), objects/pack, journal/; and
    # .cardindex/ twice: the pending mark made durable before the writes, its removal after.
    assert folders.pop(str(vault / ".cardindex")) == 2, folders
    assert max(folders.values()) == 1, folders
    card_folders = {str(vault), str(vault / "sub")} | ({str(vault / "archive"), str(vault / "archive" / "sub")}
                                                        if op == "archive" else set())
    assert card_folders <= set(folders), folders
    assert len(folders) == len(card_folders) + 2, folders


# ------------------------------------------------------------------ a power cut, simulated


def _cards(vault: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), *args], check=False,
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=60)


def test_an_archive_whose_new_name_was_lost_is_put_back_from_the_pack(vault: Path) -> None:
    """Deferred folder fsyncs: a power cut may keep an unlink and lose the link before it.

    Simulated as the worst case: the job killed after its second write, then the
    archived copies it made removed as if their names never reached the disk. The
    next job rolls the interrupted one back and puts every original back, byte for byte.
    """
    originals = {}
    for name in ("a", "b", "c"):
        originals[f"{name}.md"] = put(vault, f"{name}.md", f"Fact {name} about the build", f"Fact {name}.").read_bytes()
    assert _cards(vault, "index").returncode == 0
    killed = _cards(vault, "archive", "a", "b", "c", CARDS_TEST_KILL_AFTER_WRITES="2")
    assert killed.returncode == -9, killed.stderr
    assert not (vault / "a.md").exists() and not (vault / "b.md").exists()
    for name in ("a", "b"):
        (vault / "archive" / f"{name}.md").unlink()  # the lost links: neither copy is left
    again = _cards(vault, "archive", "c")
    assert again.returncode == 0, again.stderr
    assert "recovered: job" in again.stderr and "rolled back 2 file(s)" in again.stderr
    assert (vault / "a.md").read_bytes() == originals["a.md"]
    assert (vault / "b.md").read_bytes() == originals["b.md"]
    assert not (vault / "c.md").exists() and (vault / "archive" / "c.md").exists()


def test_an_interrupted_job_with_a_damaged_pack_is_one_error_line(vault: Path) -> None:
    for name in ("a", "b"):
        put(vault, f"{name}.md", f"Fact {name} about the build", f"Fact {name}.")
    assert _cards(vault, "index").returncode == 0
    assert _cards(vault, "archive", "a", "b", CARDS_TEST_KILL_AFTER_WRITES="1").returncode == -9
    [job] = journal_entries(vault)
    _damage(vault / ".cardindex" / "objects" / "pack" / f"{job['pack']}.pack", "bad-first-line")
    before = tree(vault)
    again = _cards(vault, "archive", "b")
    assert again.returncode == 1
    assert again.stderr == (f"error: cannot roll back job {job['id']}: the saved copy of a.md is unreadable "
                            f"(pack {job['pack']}.pack is damaged: not a cardindex pack (bad first line)); "
                            "it stays marked interrupted (.cardindex/pending)\n")
    assert tree(vault) == before and (vault / ".cardindex" / "pending").exists()
