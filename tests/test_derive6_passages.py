"""D105 reads the repo as passages (docs, config, code comments, commits) and judges a card as one query.

The repo here is a small Rust sync daemon, unlike the other derivable fixtures: its facts
are in doc comments as much as in docs. Cards that reword one or two passages are
reported, with the file and line; cards that name the same things for a reason, a
person, another system, a preference or a different number are not.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning.content import content_stems
from cardindex.meaning.repo_comments import comment_blocks
from cardindex.meaning.repo_facts import Unit
from cardindex.meaning.repo_match import UnitIndex
from cardindex.meaning.repo_retrieval import card_cover, retrieve, where

FERN = {
    "Cargo.toml": '[package]\nname = "fernwatch"\nedition = "2021"\nrust-version = "1.79"\n',
    "README.md": (
        "# fernwatch\n\nfernwatch mirrors a folder to object storage and keeps it mirrored.\n\n"
        "## Conflicts\n\nWhen the same file changed on both sides, the newer modification time wins and the "
        "losing copy is kept next to it with a `.conflict` suffix.\n"
    ),
    "docs/scanning.md": (
        "# Scanning\n\nA full rescan of the watched folder runs every six hours, in addition to the "
        "filesystem notifications, to catch events the kernel dropped.\n\n"
        "Files matching a pattern in `.fernignore` are never uploaded.\n"
    ),
    "src/upload.rs": (
        "//! Uploads changed files to the bucket.\n\n"
        "/// Files larger than this are sent as a multipart upload in 8 MiB parts.\n"
        "pub const MULTIPART_THRESHOLD: u64 = 64 * 1024 * 1024;\n\n"
        "/// Uploads one file. A failed part is retried up to four times with jittered backoff;\n"
        "/// after that the whole upload is abandoned and the file is queued again on the next scan.\n"
        "pub fn upload(path: &str) -> Result<(), Error> {\n    Ok(())\n}\n"
    ),
    "src/watch.rs": (
        "// Events for one path are coalesced for 500 ms, so an editor's save-by-rename\n"
        "// produces a single upload.\n"
        "pub fn debounce() {}\n"
    ),
}

# Each says only what one or two passages say, in other words.
REWORDED = {
    "conflict-rule": ("Conflicting edits", ("When a file changed on both sides, the later modification time wins; "
                      "the losing copy stays beside it with a .conflict suffix.")),
    "rescan": ("Periodic rescan", ("Besides filesystem notifications, the watched folder gets a full rescan every six "
               "hours to catch events the kernel dropped.")),
    "ignore-file": ("Ignored files", "No file that matches a pattern in .fernignore gets uploaded."),
    "part-retries": ("Failed parts", ("A failed part is retried up to four times with jittered backoff, then the "
                     "whole upload is abandoned and the file is queued again on the next scan.")),
    "coalesce": ("Event coalescing", ("Events on one path are coalesced for 500 ms so that an editor's save-by-rename "
                 "produces a single upload.")),
    "multipart": ("Large files", "Large files go up as a multipart upload in 8 MiB parts."),
}

# Each names repo things, for what the repo does not say.
OWN = {
    "rescan-battery": ("Why rescans are not more frequent",
                       "Rescanning more often than every six hours drained laptop batteries in the beta, per Aino's survey."),
    "conflict-legal": ("Conflict copies for the archive team",
                       "The archive team asked us to keep .conflict copies for ninety days for their audit."),
    "ignore-pref": ("The user's ignore habits", "The user keeps build output out of sync by listing target/ in .fernignore."),
    "retry-s3": ("Another provider's retries", "Wasabi's S3 endpoint throttles retried parts harder than AWS does."),
    "coalesce-vim": ("Editors and coalescing", ("Vim's swap files once caused double uploads before Lena tuned the "
                     "coalescing; JetBrains IDEs still write three temp files per save.")),
    "multipart-other": ("Part size elsewhere", "The backup tool next door uploads 16 MiB parts."),
    "rescan-per-marit": ("Rescan interval", ("Per Marit, a full rescan of the watched folder runs every six hours to catch "
                         "events the kernel dropped.")),
    "archive-scope": ("Uploads of the tidal photo archive", "Files larger than the threshold are sent as a multipart upload."),
    "rescan-ops": ("Rescans on the NAS", "On the office NAS ops schedule the rescan at night to spare the disks."),
}


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def fern_found(tmp_path: Path, run_cli: Callable[..., Result]) -> dict[str, list[tuple[str, str]]]:
    root = tmp_path / "fernwatch"
    for rel, text in FERN.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "Mirror a folder to object storage")
    vault = root / "memory"
    vault.mkdir()
    (vault / ".cardindex.yaml").write_text("", encoding="utf-8")
    for name, (description, body) in {**REWORDED, **OWN}.items():
        (vault / f"{name}.md").write_text(f"---\ndescription: {description}\ntype: project\n---\n{body}\n",
                                          encoding="utf-8")
    result = run_cli("--vault", str(vault), "lint", "--select", "derivable", "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    out: dict[str, list[tuple[str, str]]] = {}
    for finding in json.loads(result.stdout):
        out.setdefault(finding["path"].removesuffix(".md"), []).append((finding["code"], finding["message"]))
    return out


@pytest.mark.parametrize("name", sorted(REWORDED))
def test_a_card_rewording_a_passage_is_reported(fern_found: dict[str, list[tuple[str, str]]], name: str) -> None:
    assert [code for code, _ in fern_found.get(name, [])] == ["D105"]


@pytest.mark.parametrize("name", sorted(OWN))
def test_a_card_that_adds_its_own_is_not(fern_found: dict[str, list[tuple[str, str]]], name: str) -> None:
    assert fern_found.get(name) is None


def test_the_message_names_the_comment_or_doc_and_its_line(fern_found: dict[str, list[tuple[str, str]]]) -> None:
    assert fern_found["part-retries"] == [("D105", "src/upload.rs line 6 already says this")]
    assert fern_found["coalesce"] == [("D105", "src/watch.rs line 1 already says this")]
    assert fern_found["rescan"] == [("D105", "docs/scanning.md line 3 already says this")]


def test_comment_blocks_of_each_language() -> None:
    rust = "//! Crate docs.\n\n/// Sends one part.\n/// Retries twice.\npub fn send(x: u8) {}\n// nolint\n"
    assert list(comment_blocks("src/lib.rs", rust)) == [(1, "Crate docs."), (3, "Sends one part.\nRetries twice.\nsend")]
    python = 'def f():\n    """Return the total.\n\n    Rounded half-even.\n    """\n# A plain remark\nx = 1\n'
    assert list(comment_blocks("m.py", python)) == [(2, "Return the total.\nRounded half-even."), (6, "A plain remark")]
    js = "/**\n * Opens the socket.\n */\nexport function open() {}\n"
    assert list(comment_blocks("a.ts", js)) == [(1, "Opens the socket.\nopen")]


def test_a_documented_constant_gives_its_name_not_its_value() -> None:
    go = "// Limit caps a frame.\nconst Limit = 1 << 20\n"
    assert list(comment_blocks("f.go", go)) == [(1, "Limit caps a frame.\nLimit")]


def _index(*texts: str) -> UnitIndex:
    return UnitIndex([Unit(f"doc{n}.md", n, " ".join(dict.fromkeys(content_stems(t))), "") for n, t in enumerate(texts)])


def test_retrieval_ranks_the_passage_with_the_rarer_words_first() -> None:
    index = _index("the worker reads the queue", "the worker drains the dead letter queue nightly",
                   "nothing about it at all here", "the queue is read")
    assert retrieve(index, sorted(content_stems("dead letter queue drained each night")), 2)[0] == 1


def test_a_card_is_held_by_two_passages_together_but_not_by_a_word_of_a_second() -> None:
    index = _index("invoices are numbered per series and year", "credit notes cite the invoice they correct",
                   "unrelated words only", "the series resets in january")
    said = [frozenset(content_stems("Invoices are numbered per series and year")),
            frozenset(content_stems("the series resets in January"))]
    cover = card_cover(index, said)
    assert cover is not None and cover.coverage == 1.0 and {u.path for u in cover.units} == {"doc0.md", "doc3.md"}
    alone = card_cover(index, [frozenset(content_stems("invoices are numbered per series and year by hand"))])
    assert alone is not None and len(alone.units) == 1 and alone.missing == {"hand"}


def test_where_names_a_commit_by_its_hash_and_subject() -> None:
    assert where(Unit("commit 0123456789", 0, "x", "'Add retries'", "")) == "commit 0123456789 ('Add retries')"
    assert where(Unit("Makefile", 4, "x", "target test", "")) == "Makefile line 4 (target test)"
