"""File names that are not UTF-8, and symlinked cards: one finding, or one card, and every command goes on.

A card named b"caf\\xe9.md" (Latin-1, as an old tool or a zip from another machine
leaves it) used to make index, lint (every format), status, watch, consolidate and add
(after writing its card) crash, and the MCP server exit. Now the listing makes it one
F001 finding, shown escaped (`caf\\xe9.md`), and every command works on the rest.

A symlink inside the vault to a card inside the vault is that card (SPEC §1): listed
once, under the real file's path, so it is no duplicate of itself, and consolidation
and undo never replace the link with a plain file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from conftest import TODAY, snapshot_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_subprocess import cards, cli_env
from test_watch import Watch

BAD = os.fsdecode(b"caf\xe9.md")  # what os.listdir hands over for those bytes
SHOWN = "caf\\xe9.md"
FINDING = f"file name is not valid UTF-8: {SHOWN} (shown escaped); rename it"
DEPLOY = "---\ndescription: Which weekday production deploys happen\ntype: project\n---\nDeploy on Thursdays only.\n"
BILLING = "---\ndescription: Who owns billing\ntype: project\n---\nBilling is owned by the payments team.\n"
CAFE = "---\ndescription: When the cafe opens\ntype: project\n---\nThe cafe opens at nine.\n"


@pytest.fixture
def misnamed(vault: Path) -> Path:
    """The `vault` fixture with two good cards and one whose name is Latin-1 bytes."""
    (vault / "deploy-day.md").write_text(DEPLOY, encoding="utf-8")
    (vault / "billing.md").write_text(BILLING, encoding="utf-8")
    with open(os.path.join(os.fsencode(vault), b"caf\xe9.md"), "wb") as fh:
        fh.write(CAFE.encode("utf-8"))
    return vault


def _index_lines(vault: Path) -> list[str]:
    return [line for line in (vault / "INDEX.md").read_text(encoding="utf-8").splitlines() if line.startswith("- ")]


def test_index_leaves_it_out_with_one_line(invoke: Callable[..., Result], misnamed: Path) -> None:
    result = invoke("index")
    assert result.exit_code == 1  # an unreadable card, as for any other (SPEC §5)
    assert f"{SHOWN}:1: {FINDING}" in result.stderr.splitlines()
    assert _index_lines(misnamed) == ["- [Which weekday production deploys happen](deploy-day.md)",
                                      "- [Who owns billing](billing.md)"]


@pytest.mark.parametrize("output_format", ["text", "json", "json-lines", "github", "sarif"])
def test_lint_reports_one_f001_in_every_format(invoke: Callable[..., Result], misnamed: Path,
                                               output_format: str) -> None:
    result = invoke("lint", "--format", output_format)
    assert result.exit_code == 1, result.stderr
    assert (SHOWN if output_format in ("text", "github") else SHOWN.replace("\\", "\\\\")) in result.stdout
    if output_format == "json":
        found = json.loads(result.stdout)
        assert [(f["path"], f["code"], f["message"]) for f in found if f["code"] == "F001"] == [(SHOWN, "F001", FINDING)]
    if output_format == "text":
        assert f"{SHOWN}:1: F001 {FINDING}" in result.stdout


def test_lint_of_the_file_itself(run_cli: Callable[..., Result], misnamed: Path) -> None:
    result = run_cli("lint", str(misnamed / BAD))
    assert result.exit_code == 1
    assert f"F001 {FINDING}" in result.stdout


def test_status_list_search_context_consolidate_go_on(invoke: Callable[..., Result], misnamed: Path) -> None:
    status = invoke("status")
    assert status.exit_code == 0 and "unreadable cards: 1" in status.stdout
    listed = invoke("list", "--format", "json")
    assert listed.exit_code == 0
    assert sorted(c["id"] for c in json.loads(listed.stdout)) == ["billing", "deploy-day"]
    assert invoke("search", "deploy").exit_code == 0
    context = invoke("context")
    assert context.exit_code == 0 and "Thursdays" in context.stdout and "caf" not in context.stdout
    consolidated = invoke("consolidate", "--all")
    assert consolidated.exit_code == 0, consolidated.stderr
    assert os.path.exists(os.path.join(os.fsencode(misnamed), b"caf\xe9.md"))  # never touched


def test_add_writes_its_card_and_succeeds(invoke: Callable[..., Result], misnamed: Path) -> None:
    result = invoke("add", "Code review needs two approvals before a merge.", "-d", "How many approvals a merge needs")
    assert result.exit_code == 0, result.stderr
    assert (misnamed / "how-many-approvals-a-merge-needs.md").exists()
    assert "- [How many approvals a merge needs](how-many-approvals-a-merge-needs.md)" in _index_lines(misnamed)
    assert "1 unreadable card(s) left out" in result.stderr


def test_show_of_such_a_name_is_one_line(invoke: Callable[..., Result], misnamed: Path) -> None:
    result = invoke("show", os.fsdecode(b"caf\xe9"))
    assert result.exit_code == 2
    assert result.stderr == "error: caf\\xe9 is not a card id: the name is not valid UTF-8 (shown escaped)\n"


def test_a_folder_whose_name_is_not_utf8(invoke: Callable[..., Result], vault: Path) -> None:
    (vault / "deploy-day.md").write_text(DEPLOY, encoding="utf-8")
    folder = os.path.join(os.fsencode(vault), b"d\xe9p\xf4t")
    os.mkdir(folder)
    with open(os.path.join(folder, b"x.md"), "wb") as fh:
        fh.write(CAFE.encode("utf-8"))
    result = invoke("lint", "--format", "json")
    assert [f["path"] for f in json.loads(result.stdout) if f["code"] == "F001"] == ["d\\xe9p\\xf4t/x.md"]
    assert invoke("index").exit_code == 1


def test_every_command_in_a_real_process(tmp_path: Path, misnamed: Path) -> None:
    env = cli_env(tmp_path / "home")
    for args in (["index"], ["lint"], ["lint", "--format", "json"], ["status"], ["consolidate", "--all"],
                 ["list"], ["context"], ["journal"],
                 ["add", "Merges need two approvals.", "-d", "How many approvals a merge needs"]):
        done = cards("--vault", misnamed, *args, cwd=tmp_path, env=env)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode in (0, 1), (args, done.stderr)


def test_watch_keeps_watching(tmp_path: Path, misnamed: Path) -> None:
    watch = Watch(misnamed, tmp_path)
    try:
        watch.wait_started()
        with open(os.path.join(os.fsencode(misnamed), b"th\xe9.md"), "wb") as fh:
            fh.write(b"---\ndescription: When tea is served\ntype: project\n---\nTea is served at four.\n")
        (misnamed / "coffee.md").write_text("---\ndescription: Who runs the coffee machine\ntype: project\n---\n"
                                             "The coffee machine is run by the office team.\n", encoding="utf-8")
        watch.wait_index("coffee.md")
    finally:
        code = watch.stop()
    assert code == 0, watch.stderr
    assert "Traceback" not in watch.stderr
    assert "th\\xe9.md:1: F001 file name is not valid UTF-8: th\\xe9.md" in watch.stdout  # the changed one
    assert "caf" not in watch.index() and "coffee.md" in watch.index()


@pytest.mark.anyio
async def test_the_mcp_server_serves_on(misnamed: Path, fake_home: Path) -> None:
    pytest.importorskip("mcp")
    from test_mcp import data, serve

    async with serve(misnamed, fake_home) as session:
        found = data(await session.call_tool("lint", {}))
        hits = data(await session.call_tool("search", {"query": "deploy"}))
        index = await session.read_resource("cards://index")  # type: ignore[arg-type]
        added = data(await session.call_tool("add", {"text": "Merges need two approvals.",
                                                     "description": "How many approvals a merge needs"}))
    assert [f["path"] for f in found["findings"] if f["code"] == "F001"] == [SHOWN]
    assert [h["id"] for h in hits["hits"]] == ["deploy-day"]
    assert "caf" not in index.contents[0].text  # type: ignore[union-attr]
    assert added["written"] is True


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# ----------------------------------------------------------------------------- symlinked cards


@pytest.fixture
def linked(vault: Path) -> Path:
    """deploy-day.md, and alias.md -> deploy-day.md; billing/ holds owner.md, and team/ -> billing/."""
    (vault / "deploy-day.md").write_text(DEPLOY, encoding="utf-8")
    (vault / "alias.md").symlink_to("deploy-day.md")
    (vault / "billing").mkdir()
    (vault / "billing" / "owner.md").write_text(BILLING, encoding="utf-8")
    (vault / "team").symlink_to("billing", target_is_directory=True)
    return vault


def test_a_symlinked_card_is_one_card(invoke: Callable[..., Result], linked: Path) -> None:
    listed = invoke("list", "--format", "json")
    assert sorted(c["id"] for c in json.loads(listed.stdout)) == ["billing/owner", "deploy-day"]
    lint = invoke("lint", "--format", "json", "--select", "duplicate,contradiction")
    assert json.loads(lint.stdout) == []  # not a duplicate of itself
    assert invoke("index").exit_code == 0
    assert _index_lines(linked) == ["- [Which weekday production deploys happen](deploy-day.md)",
                                    "- [Who owns billing](billing/owner.md)"]
    shown = invoke("show", "alias", "--format", "json")
    assert json.loads(shown.stdout)["path"] == "deploy-day.md"


def test_a_link_whose_target_is_not_listed_is_the_card(invoke: Callable[..., Result], vault: Path) -> None:
    """A link to a hidden file: the first link is the card (the real file is never one)."""
    (vault / ".drafts").mkdir()
    (vault / ".drafts" / "deploy.md").write_text(DEPLOY, encoding="utf-8")
    (vault / "b-link.md").symlink_to(".drafts/deploy.md")
    (vault / "a-link.md").symlink_to(".drafts/deploy.md")
    listed = invoke("list", "--format", "json")
    assert [c["id"] for c in json.loads(listed.stdout)] == ["a-link"]


def test_consolidate_and_undo_keep_the_link(invoke: Callable[..., Result], linked: Path) -> None:
    """Consolidation changes the real file (here: archives it) and never puts a plain file where the link was."""
    (linked / "deploy-day-old.md").write_text(
        "---\ndescription: Which weekday production deploys happen\ntype: project\nverified: 2026-01-05\n---\n"
        "Deploy on Thursdays only.\n", encoding="utf-8")
    assert invoke("index").exit_code == 0
    before = snapshot_tree(linked, state=False)
    done = invoke("consolidate", "--all")
    assert "deploy-day-old" in done.stdout  # it did change something
    assert done.exit_code == 0, done.stderr
    assert (linked / "alias.md").is_symlink() and os.readlink(linked / "alias.md") == "deploy-day.md"
    assert (linked / "team").is_symlink()
    undone = invoke("undo")
    assert undone.exit_code == 0, undone.stderr
    assert snapshot_tree(linked, state=False) == before  # the links are links again, pointing where they did


def test_a_write_through_a_link_keeps_the_link(invoke: Callable[..., Result], vault: Path) -> None:
    """A card reached only through a link (its file is hidden) is edited in its real file; the link stays."""
    (vault / ".drafts").mkdir()
    real = vault / ".drafts" / "release.md"
    real.write_text("---\ndescription: Releases: tagged from main\ntype: project\n---\nTags are cut from main.\n",
                    encoding="utf-8")
    (vault / "release.md").symlink_to(".drafts/release.md")
    done = invoke("lint", "--fix")  # quotes the description: a rewrite of the card
    assert "fixed release.md" in done.stderr, done.stderr
    assert (vault / "release.md").is_symlink()
    assert 'description: "Releases: tagged from main"' in real.read_text(encoding="utf-8")
    assert invoke("undo").exit_code == 0
    assert (vault / "release.md").is_symlink() and "description: Releases: tagged" in real.read_text(encoding="utf-8")


def test_symlinks_in_a_real_process(tmp_path: Path, linked: Path) -> None:
    env = cli_env(tmp_path / "home", CARDS_TODAY=TODAY)
    done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(linked), "lint", "--format", "json"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert "Traceback" not in done.stderr
    assert [f for f in json.loads(done.stdout) if f["category"] == "duplicate"] == []


def test_archive_or_rm_through_a_link_is_refused_in_one_line(invoke: Callable[..., Result], vault: Path) -> None:
    """A card that is only a link (its file is hidden) cannot be moved: undo would put back a plain file."""
    (vault / ".drafts").mkdir()
    (vault / ".drafts" / "deploy.md").write_text(DEPLOY, encoding="utf-8")
    (vault / "deploy.md").symlink_to(".drafts/deploy.md")
    before = snapshot_tree(vault)
    for args in (["archive", "deploy"], ["rm", "deploy"]):
        result = invoke(*args)
        assert result.exit_code == 1
        assert result.stderr == ("error: deploy.md is a symlink (to .drafts/deploy.md); archive or remove the file "
                                 "it points to, or the link by hand\n")
    assert snapshot_tree(vault) == before
    # Through a link to a card in the vault, the command works on the real card.
    (vault / "billing.md").write_text(BILLING, encoding="utf-8")
    (vault / "owner.md").symlink_to("billing.md")
    assert invoke("archive", "owner").stdout == "archived billing as archive/billing.md\n"


# ----------------------------------------------------------------------------- property


NAME_BYTES = st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\0" not in b
                                                      and not b.startswith(b".") and b not in (b"4913",))


@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(NAME_BYTES, min_size=1, max_size=5, unique=True))
def test_any_file_names_are_cards_or_one_finding_each(tmp_path_factory: pytest.TempPathFactory,
                                                     names: list[bytes]) -> None:
    """Whatever bytes the names hold: a valid UTF-8 name is a card, any other is one F001, and nothing crashes."""
    from click.testing import CliRunner

    from cardindex.cli import cli
    from cardindex.redaction import printable

    root = tmp_path_factory.mktemp("names")
    (root / "INDEX.md").write_text("", encoding="utf-8")
    for i, raw in enumerate(names):
        with open(os.path.join(os.fsencode(root), raw + b".md"), "wb") as fh:
            fh.write(f"---\ndescription: Fact number {i} of the property\ntype: project\n---\nFact {i}.\n".encode())
    runner = CliRunner()
    linted = runner.invoke(cli, ["--vault", str(root), "lint", "--format", "json", "--select", "F001"])
    indexed = runner.invoke(cli, ["--vault", str(root), "index"])
    listed = runner.invoke(cli, ["--vault", str(root), "list", "--format", "json"])
    for result in (linted, indexed, listed):
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    valid, invalid = [], []
    for raw in names:
        try:
            valid.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            invalid.append(raw.decode("utf-8", "backslashreplace") + ".md")
    found = json.loads(linted.stdout)
    # Output never carries a control character raw, JSON included (redaction.printable).
    valid, invalid = [printable(v) for v in valid], [printable(v) for v in invalid]
    assert sorted(f["path"] for f in found) == sorted(invalid)
    assert all(f["message"].startswith("file name is not valid UTF-8") for f in found)
    assert sorted(c["id"] for c in json.loads(listed.stdout)) == sorted(v for v in valid if v not in ("README",
                                                                                                     "INDEX", "MEMORY"))
    assert indexed.exit_code == (1 if invalid else 0), indexed.stderr


@pytest.mark.parametrize("option", ["-d", "-n", "-k", "-s", "--source", "--tag"])
def test_add_refuses_an_option_that_is_not_utf8(invoke: Callable[..., Result], vault: Path, option: str) -> None:
    """Bytes from a Latin-1 shell used to become a card whose YAML no tool can read (with --force, written)."""
    before = snapshot_tree(vault, state=False)
    result = invoke("add", "Code review needs two approvals.", option, os.fsdecode(b"caf\xe9"), "--force")
    assert result.exit_code == 2
    assert result.stderr.endswith("is not valid UTF-8; nothing written\n") and result.stderr.count("\n") == 1
    assert snapshot_tree(vault, state=False) == before


def test_import_of_a_file_whose_name_is_not_utf8(invoke: Callable[..., Result], vault: Path, tmp_path: Path) -> None:
    """The name goes into each card's `source:` escaped, so the cards are valid YAML and the gate accepts them."""
    with open(os.path.join(os.fsencode(tmp_path), b"not\xe9s.md"), "wb") as fh:
        fh.write(b"- We decided to keep the API versioned in the URL path.\n")
    result = invoke("import", "--apply", os.fsdecode(os.path.join(os.fsencode(tmp_path), b"not\xe9s.md")))
    assert result.exit_code == 0, result.stdout + result.stderr
    written = [p for p in vault.glob("*.md") if p.name != "INDEX.md"]
    assert len(written) == 1
    assert "source: " in written[0].read_text(encoding="utf-8")
    assert "not\\xe9s.md:1" in written[0].read_text(encoding="utf-8")
