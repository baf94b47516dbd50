"""The index merge driver (SPEC §8): `cards git-setup`, `cards merge-index`, `cardindex.gitmerge`.

Index texts are made by the real generator (`index.render`), so "the merge equals what
`cards index` renders" is checked against the generator itself. The git tests make real
repositories in tmp_path: HOME is the fake one, the system git config is off, and
`cards` (what the driver runs) is found on PATH next to this interpreter.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.index import build as index
from cardindex import gitmerge as merge
from cardindex.store.card import TYPES, Card
from cardindex.cli.git import DRIVER_COMMAND
from cardindex.gitmerge import Merged
from cardindex.store.vault import Vault

ROOT = Path(__file__).resolve().parents[1]
TODAY = dt.date(2026, 11, 30)
SETTINGS = settings(max_examples=150, deadline=None, database=None, derandomize=True)
BIN = Path(sys.executable).parent


def card(description: str, type: str = "project", name: str | None = None, status: str | None = None) -> str:
    """A card's text; the name (the index line's title) and status only when given."""
    lines = ["---", f"description: {json.dumps(description, ensure_ascii=False)}", f"type: {type}"]
    if name is not None:
        lines.append(f"name: {json.dumps(name, ensure_ascii=False)}")
    if status is not None:
        lines.append(f"status: {status}")
    return "\n".join([*lines, "---", "Body.", ""])


def without(cards: dict[str, str], *paths: str) -> dict[str, str]:
    return {path: text for path, text in cards.items() if path not in paths}


BASE = {
    "deploy-day.md": card("Which weekday production deploys happen", name="Deploy day"),
    "billing/owner.md": card("Who owns the billing service", name="Billing owner"),
    "staging.md": card("When staging is reset", "reference", name="Staging resets"),
}
API = {"api.md": card("How API errors are shaped", name="API errors")}
AUTH = {"auth.md": card("Where auth tokens are kept", name="Auth tokens")}
TABS = {"tabs.md": card("Prefers tabs in Go code", "user", name="Tabs")}


@pytest.fixture(scope="module")
def render(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., str]:
    """`render(cards, lines=200)`: the index `cards index` writes for these cards (path -> text)."""
    folder = tmp_path_factory.mktemp("render")

    def run(cards: dict[str, str], lines: int = 200) -> str:
        root = folder / f"budget-{lines}"
        if not root.is_dir():
            root.mkdir()
            (root / ".cardindex.yaml").write_text(f"index_budget: {{lines: {lines}}}\n", encoding="utf-8")
        vault = Vault(root, use_cache=False)
        return index.render(vault, [Card.from_text(path, text) for path, text in cards.items()], TODAY).text

    return run


def merged(base: str, ours: str, theirs: str) -> Merged:
    result = merge.merge3(base, ours, theirs)
    assert result is not None, "not taken for a generated index"
    return result


def conflict_block(ours: str, theirs: str) -> str:
    return f"<<<<<<< ours\n{ours}\n=======\n{theirs}\n>>>>>>> theirs\n"


# --------------------------------------------------------------------------- three-way merge of texts


def test_type_headings_are_the_generators() -> None:
    assert merge.TYPE_HEADINGS == tuple(index.TYPE_TITLES[t] for t in TYPES)


def test_add_add_different_cards(render: Callable[..., str]) -> None:
    # "API errors" and "Auth tokens" land on the same line of the index: git's own merge conflicts.
    result = merged(render(BASE), render({**BASE, **API}), render({**BASE, **AUTH}))
    assert result == Merged(render({**BASE, **API, **AUTH}), (), ())


def test_add_add_into_an_index_new_on_both_sides(render: Callable[..., str]) -> None:
    """git passes an empty base when both branches created the file."""
    result = merged("", render(API), render(AUTH))
    assert result == Merged(render({**API, **AUTH}), (), ())


def test_add_on_one_side_remove_on_the_other(render: Callable[..., str]) -> None:
    result = merged(render(BASE), render({**BASE, **API}), render(without(BASE, "billing/owner.md")))
    assert result == Merged(render({**without(BASE, "billing/owner.md"), **API}), (), ())


def test_remove_remove(render: Callable[..., str]) -> None:
    gone = without(BASE, "billing/owner.md")
    assert merged(render(BASE), render(gone), render(gone)) == Merged(render(gone), (), ())
    other = without(BASE, "deploy-day.md")
    assert merged(render(BASE), render(gone), render(other)).text == render(without(gone, "deploy-day.md"))


def test_edit_edit_identical(render: Callable[..., str]) -> None:
    edited = {**BASE, "deploy-day.md": card("Production deploys happen on Thursdays", name="Deploy day")}
    result = merged(render(BASE), render({**edited, **API}), render(edited))
    assert result == Merged(render({**edited, **API}), (), ())


def test_edits_of_different_fields_of_one_card_combine(render: Callable[..., str]) -> None:
    """A type change (a group move) on one side and a new description and status on the
    other: all of them land."""
    ours = {**BASE, "deploy-day.md": card("Which weekday production deploys happen", "user", name="Deploy day")}
    theirs = {**BASE, "deploy-day.md": card("Deploys: Thursdays", name="Deploy day", status="conflict")}
    result = merged(render(BASE), render(ours), render(theirs))
    both = {**BASE, "deploy-day.md": card("Deploys: Thursdays", "user", name="Deploy day", status="conflict")}
    assert result == Merged(render(both), (), ())
    assert "- [Deploy day](deploy-day.md) — conflict: Deploys: Thursdays\n" in result.text


def test_edit_edit_differently_is_a_conflict_on_that_line_only(render: Callable[..., str]) -> None:
    ours = {**BASE, "deploy-day.md": card("Deploys happen on Thursdays", name="Deploy day")}
    theirs = {**BASE, **AUTH, "deploy-day.md": card("Deploys happen on Wednesdays", name="Deploy day")}
    result = merged(render(BASE), render(ours), render(theirs))
    ours_line = "- [Deploy day](deploy-day.md) — Deploys happen on Thursdays"
    theirs_line = "- [Deploy day](deploy-day.md) — Deploys happen on Wednesdays"
    expected = render({**ours, **AUTH}).replace(ours_line + "\n", conflict_block(ours_line, theirs_line))
    assert result == Merged(expected, ("deploy-day.md",), ())


def test_add_add_of_one_card_with_different_lines_is_a_conflict(render: Callable[..., str]) -> None:
    ours = {**BASE, "api.md": card("How API errors are shaped", name="API errors")}
    theirs = {**BASE, "api.md": card("How API errors look", name="API errors")}
    result = merged(render(BASE), render(ours), render(theirs))
    assert result.conflicts == ("api.md",)
    assert conflict_block("- [API errors](api.md) — How API errors are shaped",
                          "- [API errors](api.md) — How API errors look") in result.text


def test_moves_to_different_groups_are_a_conflict_that_shows_the_groups(render: Callable[..., str]) -> None:
    ours = {**BASE, "deploy-day.md": card("Which weekday production deploys happen", "user", name="Deploy day")}
    theirs = {**BASE, "deploy-day.md": card("Which weekday production deploys happen", "feedback", name="Deploy day")}
    result = merged(render(BASE), render(ours), render(theirs))
    line = "- [Deploy day](deploy-day.md) — Which weekday production deploys happen"
    assert result.conflicts == ("deploy-day.md",)
    assert result.text == render(ours).replace(line + "\n", conflict_block(f"## User\n{line}", f"## Feedback\n{line}"))


@pytest.mark.parametrize("remover", ["ours", "theirs"])
def test_edit_on_one_side_remove_on_the_other_removes_the_line(render: Callable[..., str], remover: str) -> None:
    """The documented choice: the index follows the card. Whether it lives is decided by
    the card file's own merge, and `cards index --check` after the merge confirms it."""
    edited = {**BASE, "deploy-day.md": card("Deploys happen on Thursdays", name="Deploy day")}
    removed = without(BASE, "deploy-day.md")
    ours, theirs = (removed, edited) if remover == "ours" else (edited, removed)
    assert merged(render(BASE), render(ours), render(theirs)) == Merged(render(removed), (), ())


def test_group_headings_appear_in_the_generators_order(render: Callable[..., str]) -> None:
    feedback = {"no-mocks.md": card("Tests hit a real database", "feedback", name="No mocks")}
    reference = {"runbook.md": card("Where the runbook lives", "reference", name="Runbook")}
    result = merged(render(BASE), render({**BASE, **reference}), render({**BASE, **TABS, **feedback}))
    assert result == Merged(render({**BASE, **reference, **TABS, **feedback}), (), ())
    assert re.findall(r"^## .*", result.text, re.MULTILINE) == ["## User", "## Feedback", "## Project", "## Reference"]


def test_both_sides_open_the_same_group(render: Callable[..., str]) -> None:
    other_user = {"editor.md": card("Uses vim keybindings", "user", name="Editor")}
    result = merged(render(BASE), render({**BASE, **TABS}), render({**BASE, **other_user}))
    assert result == Merged(render({**BASE, **TABS, **other_user}), (), ())
    assert result.text.count("## User\n") == 1


def test_group_heading_disappears_with_its_last_card(render: Callable[..., str]) -> None:
    ours = without(BASE, "staging.md")
    theirs = {**BASE, "deploy-day.md": card("Deploys happen on Thursdays", name="Deploy day")}
    result = merged(render(BASE), render(ours), render(theirs))
    assert result == Merged(render(without(theirs, "staging.md")), (), ())
    assert "## Reference" not in result.text


def test_a_card_moves_to_another_group(render: Callable[..., str]) -> None:
    moved = {**BASE, "staging.md": card("When staging is reset", "project", name="Staging resets")}
    reference = {"runbook.md": card("Where the runbook lives", "reference", name="Runbook")}
    result = merged(render(BASE), render(moved), render({**BASE, **reference}))
    assert result == Merged(render({**moved, **reference}), (), ())


def test_titles_sort_as_the_generator_sorts(render: Callable[..., str]) -> None:
    """Case-folded titles, then links; escaped brackets and encoded paths are kept as written."""
    ours = {**BASE, "b b.md": card("Second", name="alpha [x]"), "a(1).md": card("First", name="Alpha [x]")}
    theirs = {**BASE, "zeta.md": card("Last"), "c.md": card("Lower case", name="billing Owner")}
    assert merged(render(BASE), render(ours), render(theirs)) == Merged(render({**ours, **theirs}), (), ())


BUDGET = 11  # lines: with four project cards and a reference card, one is left out


def numbered(count: int, start: int = 1) -> dict[str, str]:
    return {f"c{i}.md": card(f"Fact number {i}", name=f"Fact {i}") for i in range(start, start + count)}


def test_budget_line_from_one_side(render: Callable[..., str]) -> None:
    base = {**numbered(3), "staging.md": BASE["staging.md"]}
    ours = {**base, "c0.md": card("Fact number 0", name="Fact 0")}  # over the budget: staging is left out
    theirs = {**base, "c1.md": card("Fact number one, edited", name="Fact 1")}
    texts = [render(cards, BUDGET) for cards in (base, ours, theirs)]
    assert "1 more card not shown" in texts[1] and "more card" not in texts[0] + texts[2]
    result = merged(*texts)
    assert result.text == render({**ours, **theirs}, BUDGET)  # the same cards fit
    assert result.conflicts == ()
    assert len(result.notes) == 1 and "run `cards index` after the merge" in result.notes[0]


def test_budget_lines_changed_on_both_sides_keep_the_larger_count(render: Callable[..., str]) -> None:
    """Which cards fit needs the cards: no conflict, the larger count, and a note."""
    base = {**numbered(4), "staging.md": BASE["staging.md"]}
    ours = {**base, **numbered(2, start=5)}
    theirs = {**base, **numbered(3, start=7)}
    texts = [render(cards, BUDGET) for cards in (base, ours, theirs)]
    counts = [re.findall(r"… (\d+) more", text) for text in texts]
    assert counts == [["1"], ["2"], ["3"]]
    result = merged(*texts)
    assert result.conflicts == ()
    assert result.text.endswith("\n- … 3 more cards not shown (index budget); run `cards list` or `cards search` "
                                "to find them\n")
    assert len(result.notes) == 1


def test_header_changed_on_one_side_is_taken(render: Callable[..., str]) -> None:
    newer = render({**BASE, **API}).replace("do not edit", "DO NOT EDIT")
    result = merged(render(BASE), newer, render({**BASE, **AUTH}))
    assert result == Merged(render({**BASE, **API, **AUTH}).replace("do not edit", "DO NOT EDIT"), (), ())


def test_header_changed_differently_on_both_sides_is_a_conflict(render: Callable[..., str]) -> None:
    text = render(BASE)
    header = text.split("\n", 1)[0]
    ours, theirs = text.replace("do not edit", "DO NOT EDIT"), text.replace("do not edit", "never edit")
    result = merged(text, ours, theirs)
    assert result.conflicts == ("header",)
    assert result.text.startswith(conflict_block(header.replace("do not edit", "DO NOT EDIT"),
                                                 header.replace("do not edit", "never edit")))
    assert result.text.endswith(text.split("\n", 1)[1])


def test_lines_before_the_groups_merge_as_one_block(render: Callable[..., str]) -> None:
    """A note someone put under the header is kept (`cards index --check` then flags it)."""
    noted = render(BASE).replace("-->\n", "-->\nRead the deploy card first.\n", 1)
    result = merged(render(BASE), noted, render({**BASE, **API}))
    assert result == Merged(render({**BASE, **API}).replace("-->\n", "-->\nRead the deploy card first.\n", 1), (), ())


def test_a_hand_kept_index_of_sorted_links_merges_by_card(render: Callable[..., str]) -> None:
    base = "# Memory\n\n- [Deploy day](deploy-day.md) — Thursdays\n- [Tabs](tabs.md) — tabs\n"
    ours = base.replace("Thursdays", "Thursdays only")
    theirs = base + "- [Zeta](zeta.md) — last\n"
    assert merged(base, ours, theirs) == Merged(ours + "- [Zeta](zeta.md) — last\n", (), ())


@pytest.mark.parametrize(
    "text",
    [
        "# Memory\n\n- [Tabs](tabs.md) — tabs\n- [Deploy day](deploy-day.md) — Thursdays\n",  # not sorted
        "- [A](a.md) — one\nA note between two lines.\n- [B](b.md) — two\n",
        "- [A](a.md) — one\n- [A](./a.md) — the same card again\n",
        "- [A](a.md) — one\n<<<<<<< ours\n- [B](b.md) — two\n=======\n- [B](b.md) — 2\n>>>>>>> theirs\n",
        "## User\n\n- [A](a.md) — one\n\n## User\n\n- [B](b.md) — two\n",
    ],
    ids=["unsorted", "note-between", "listed-twice", "conflict-markers", "group-twice"],
)
def test_text_that_is_not_a_generated_index_is_left_to_git(text: str) -> None:
    assert merge.parse(text) is None
    assert merge.merge3(text, text, text) is None


def test_parse_takes_the_generated_text_apart(render: Callable[..., str]) -> None:
    text = render({**BASE, **TABS})
    doc = merge.parse(text)
    assert doc is not None
    assert doc.preamble == (f"<!-- {index.HEADER} -->",)
    assert doc.groups == ("## User", "## Project", "## Reference")
    assert doc.frames["## User"] == ("", "## User", "")
    assert doc.entries["billing/owner.md"] == merge.Entry(
        "## Project", "- ", "Billing owner", "billing/owner.md", " — ", "", "Who owns the billing service"
    )
    assert doc.trailer == () and doc.final_newline


# --------------------------------------------------------------------------- properties

PATHS = ("a.md", "b.md", "billing/owner.md", "deploy day.md", "x(1).md", "Zeta.md", "zeta-2.md", "ünï.md")
SPEC = st.tuples(
    st.sampled_from(["Which weekday deploys happen", "conflict: looks marked", "Uses — a dash", "x", "Ünïcode [ok]"]),
    st.sampled_from(TYPES),
    st.sampled_from([None, "Deploy", "deploy", "A [b] c", "Zeta", "ß", "SS", "owner"]),
    st.sampled_from([None, None, "conflict", "archived"]),
)
CARDS = st.dictionaries(st.sampled_from(PATHS), SPEC, max_size=len(PATHS))
CHANGES = st.dictionaries(st.sampled_from(PATHS), st.tuples(st.sampled_from(["ours", "theirs"]), st.none() | SPEC))


def as_cards(specs: dict[str, tuple[Any, ...]]) -> dict[str, str]:
    return {path: card(*spec) for path, spec in specs.items()}


@SETTINGS
@given(base=CARDS, changes=CHANGES)
def test_disjoint_changes_merge_to_what_cards_index_renders(
    render: Callable[..., str], base: dict[str, tuple[Any, ...]], changes: dict[str, tuple[str, Any]]
) -> None:
    """Each card changed (added, edited, removed) on at most one side: the merge is exactly
    the index of the merged cards, whichever side is ours."""
    ours, theirs, both = dict(base), dict(base), dict(base)
    for path, (side, new) in changes.items():
        for cards in (ours if side == "ours" else theirs, both):
            if new is None:
                cards.pop(path, None)
            else:
                cards[path] = new
    texts = [render(as_cards(cards)) for cards in (base, ours, theirs)]
    assert merge.merge3(texts[1], texts[1], texts[1]) == Merged(texts[1], (), ())
    result = merged(*texts)
    assert result == Merged(render(as_cards(both)), (), ())
    assert merged(texts[0], texts[2], texts[1]).text == result.text


# --------------------------------------------------------------------------- cards merge-index


def write_versions(folder: Path, base: str, ours: str, theirs: str) -> list[str]:
    paths = []
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        path = folder / f"{name}.md"
        path.write_bytes(text.encode("utf-8"))
        paths.append(str(path))
    return paths


def test_merge_index_writes_the_merge_to_ours(
    tmp_path: Path, run_cli: Callable[..., Result], render: Callable[..., str],
    leftover_temp_files: Callable[[Path], list[str]],
) -> None:
    files = write_versions(tmp_path, render(BASE), render({**BASE, **API}), render({**BASE, **AUTH}))
    os.chmod(files[1], 0o640)
    result = run_cli("merge-index", *files, "memory/INDEX.md")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert Path(files[1]).read_text(encoding="utf-8") == render({**BASE, **API, **AUTH})
    assert Path(files[1]).stat().st_mode & 0o777 == 0o640
    assert leftover_temp_files(tmp_path) == []


def test_merge_index_conflict_exits_1_with_markers(
    tmp_path: Path, run_cli: Callable[..., Result], render: Callable[..., str]
) -> None:
    ours = {**BASE, "deploy-day.md": card("Deploys happen on Thursdays", name="Deploy day")}
    theirs = {**BASE, "deploy-day.md": card("Deploys happen on Wednesdays", name="Deploy day")}
    files = write_versions(tmp_path, render(BASE), render(ours), render(theirs))
    result = run_cli("merge-index", *files, "memory/INDEX.md")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("memory/INDEX.md: conflict in deploy-day.md:")
    text = Path(files[1]).read_text(encoding="utf-8")
    assert conflict_block("- [Deploy day](deploy-day.md) — Deploys happen on Thursdays",
                          "- [Deploy day](deploy-day.md) — Deploys happen on Wednesdays") in text


@pytest.mark.parametrize(
    ("which", "content", "message"),
    [
        ("theirs", None, "error: no such file: {path}\n"),
        ("theirs", b"<!-- x -->\n\x00\x01binary", "error: memory/INDEX.md: their version is binary; "),
        ("base", b"- [A](a.md) \xff\xfe\n", "error: memory/INDEX.md: base version is not UTF-8 text (byte 12); "),
        ("ours", "folder", "error: cannot read {path}: Is a directory\n"),
    ],
    ids=["missing", "binary", "not-utf8", "directory"],
)
def test_merge_index_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, run_cli: Callable[..., Result], render: Callable[..., str],
    which: str, content: bytes | str | None, message: str,
) -> None:
    files = write_versions(tmp_path, render(BASE), render({**BASE, **API}), render(BASE))
    path = tmp_path / f"{which}.md"
    path.unlink()
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    ours_before = Path(files[1]).read_bytes() if which != "ours" else None
    result = run_cli("merge-index", *files, "memory/INDEX.md")
    assert result.exit_code == 2
    assert result.stderr.startswith(message.format(path=path))
    assert result.stderr.count("\n") == 1
    if ours_before is not None:
        assert Path(files[1]).read_bytes() == ours_before


def test_merge_index_leaves_a_hand_kept_index_to_a_line_merge(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    base = "# Memory\n\nDeploy on Thursdays.\n\nThe staging box is reset on Mondays.\n\n- [Tabs](tabs.md) — tabs\n"
    ours = base.replace("Thursdays.", "Thursdays only.")
    theirs = base + "Billing is owned by the payments team.\n"
    files = write_versions(tmp_path, base, ours, theirs)
    result = run_cli("merge-index", *files, "MEMORY.md")
    assert result.exit_code == 0
    assert Path(files[1]).read_text(encoding="utf-8") == ours + "Billing is owned by the payments team.\n"
    assert "MEMORY.md: not a generated index (kept by hand?): merged line by line" in result.stderr

    files = write_versions(tmp_path, base, ours, base.replace("Thursdays.", "Fridays."))
    result = run_cli("merge-index", *files, "MEMORY.md")
    assert result.exit_code == 1
    text = Path(files[1]).read_text(encoding="utf-8")
    assert "<<<<<<< ours\nDeploy on Thursdays only.\n=======\nDeploy on Fridays.\n>>>>>>> theirs\n" in text


PROBE = """
import json, sys
from cardindex.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""


def test_merge_index_imports_only_what_it_needs(tmp_path: Path, render: Callable[..., str]) -> None:
    """Git runs the driver for every merge of the index: no vault, cards, YAML or templates."""
    files = write_versions(tmp_path, render(BASE), render({**BASE, **API}), render({**BASE, **AUTH}))
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CARDS_VAULT")}
    env["HOME"] = str(tmp_path / "probe-home")
    found = subprocess.run([sys.executable, "-c", PROBE, str(out), "merge-index", *files, "INDEX.md"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=False, timeout=60)
    assert "Traceback" not in found.stderr, found.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["code"] == 0
    assert Path(files[1]).read_text(encoding="utf-8") == render({**BASE, **API, **AUTH})
    heavy = ("yaml", "jinja2", "rapidfuzz", "watchdog", "cardindex.store.vault", "cardindex.store.card", "cardindex.index.build",
             "cardindex.store.config", "cardindex.store.parse_cache", "subprocess")
    assert [m for m in data["modules"] if m in heavy or m.split(".")[0] in heavy] == []


# --------------------------------------------------------------------------- git repos


class Repo:
    """A git repository in tmp_path, driven by the real git."""

    def __init__(self, root: Path, env: dict[str, str]) -> None:
        self.root = root
        self.env = env

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        found = subprocess.run(["git", *args], cwd=self.root, env=self.env, capture_output=True, text=True,
                               check=False, timeout=120)
        if check:
            assert found.returncode == 0, f"git {' '.join(args)}: {found.stdout}{found.stderr}"
        return found

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def show(self, rev: str, path: str) -> str:
        return self.git("show", f"{rev}:{path}").stdout


@pytest.fixture
def git_env(fake_home: Path, tmp_path: Path) -> dict[str, str]:
    """The environment git (and the driver it runs) gets: no outside git settings, `cards` on PATH."""
    assert (BIN / "cards").is_file(), f"no `cards` next to {sys.executable}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CEILING_DIRECTORIES=str(tmp_path),
        PATH=os.pathsep.join([str(BIN), env.get("PATH", "")]),
    )
    return env


@pytest.fixture
def repo(tmp_path: Path, git_env: dict[str, str]) -> Repo:
    root = tmp_path / "repo"
    root.mkdir()
    found = Repo(root, git_env)
    found.git("init", "-q")
    found.git("symbolic-ref", "HEAD", "refs/heads/main")
    for key, value in (("user.name", "Test"), ("user.email", "test@example.com"), ("commit.gpgsign", "false")):
        found.git("config", key, value)
    return found


def clean_git_env() -> dict[str, str | None]:
    """For `cards git-setup` run in this process: no GIT_DIR and the like from outside."""
    return {**{k: None for k in os.environ if k.startswith("GIT_")}, "GIT_CONFIG_NOSYSTEM": "1"}


def setup_env(repo: Repo) -> dict[str, str | None]:
    return {**clean_git_env(), "PATH": repo.env["PATH"]}


def cards_in(root: Path, cards: dict[str, str]) -> None:
    for path, text in cards.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")


def readme_post_merge_hook() -> str:
    """The post-merge hook of the README's "Sharing a vault through git" section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Sharing a vault through git\n", 1)[1].split("\n## ", 1)[0]
    hooks = [block for block in re.findall(r"^```sh\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
             if "post-merge" in block]
    assert len(hooks) == 1, section
    return hooks[0]


def start(repo: Repo, run_cli: Callable[..., Result], cards: dict[str, str], *, config: str = "") -> Path:
    """The shared vault at repo/memory with `cards`, set up for merges and committed on main."""
    memory = repo.root / "memory"
    assert run_cli("init", str(memory)).exit_code == 0
    if config:
        (memory / ".cardindex.yaml").write_text(config, encoding="utf-8")
    cards_in(memory, cards)
    assert run_cli("--vault", str(memory), "index").exit_code == 0
    setup = run_cli("--vault", str(memory), "git-setup", env=setup_env(repo))
    assert setup.exit_code == 0, setup.stderr
    hook = repo.root / ".git" / "hooks" / "post-merge"
    hook.write_text(readme_post_merge_hook(), encoding="utf-8")
    hook.chmod(0o755)
    repo.commit("base")
    return memory


def branch(repo: Repo, run_cli: Callable[..., Result], name: str, memory: Path,
           cards: dict[str, str], removed: tuple[str, ...] = ()) -> None:
    """On a new branch from main: write and remove cards, regenerate the index, commit."""
    repo.git("checkout", "-q", "-b", name, "main")
    cards_in(memory, cards)
    for path in removed:
        repo.git("rm", "-q", f"memory/{path}")
    assert run_cli("--vault", str(memory), "index").exit_code == 0
    repo.commit(name)


def line_merge_conflicts(repo: Repo, tmp_path: Path, path: str) -> int:
    """How many conflicts git's own line merge finds in main / left / right of `path`."""
    files = write_versions(tmp_path, *(repo.show(rev, path) for rev in ("main", "left", "right")))
    return repo.git("merge-file", "-p", files[1], files[0], files[2], check=False).returncode


def test_two_branches_merge_cleanly_into_what_cards_index_renders(
    repo: Repo, run_cli: Callable[..., Result], tmp_path: Path
) -> None:
    old = {"old.md": card("An old fact about the build", name="Old build")}
    memory = start(repo, run_cli, {**BASE, **old})
    edited = {"deploy-day.md": card("Production deploys happen on Thursdays", name="Deploy day")}
    branch(repo, run_cli, "left", memory, {**API, **edited})
    moved = {"staging.md": card("When staging is reset", "project", name="Staging resets")}
    branch(repo, run_cli, "right", memory, {**AUTH, **TABS, **moved}, removed=("old.md",))
    assert line_merge_conflicts(repo, tmp_path, "memory/INDEX.md") > 0  # without the driver: a conflict

    repo.git("checkout", "-q", "left")
    merged_run = repo.git("merge", "--no-edit", "right", check=False)
    assert merged_run.returncode == 0, merged_run.stdout + merged_run.stderr
    assert "CONFLICT" not in merged_run.stdout
    assert "INDEX.md is up to date" in merged_run.stderr  # the README's post-merge hook ran the check
    text = (memory / "INDEX.md").read_text(encoding="utf-8")
    assert repo.git("status", "--porcelain").stdout == ""  # the merge commit holds the driver's INDEX.md

    check = run_cli("--vault", str(memory), "index", "--check")
    assert check.exit_code == 0, check.stderr
    assert run_cli("--vault", str(memory), "index").exit_code == 0
    assert (memory / "INDEX.md").read_text(encoding="utf-8") == text
    for line in ("- [API errors](api.md)", "- [Auth tokens](auth.md)", "## User\n\n- [Tabs](tabs.md)",
                 "— Production deploys happen on Thursdays", "- [Staging resets](staging.md)"):
        assert line in text
    assert "Old build" not in text and "## Reference" not in text


def test_one_card_edited_differently_on_both_branches_is_a_conflict(
    repo: Repo, run_cli: Callable[..., Result], tmp_path: Path
) -> None:
    memory = start(repo, run_cli, BASE)
    thursdays = {"deploy-day.md": card("Deploys happen on Thursdays", name="Deploy day")}
    wednesdays = {"deploy-day.md": card("Deploys happen on Wednesdays", name="Deploy day")}
    branch(repo, run_cli, "left", memory, {**API, **thursdays})
    branch(repo, run_cli, "right", memory, {**AUTH, **wednesdays})

    repo.git("checkout", "-q", "left")
    merged_run = repo.git("merge", "--no-edit", "right", check=False)
    assert merged_run.returncode != 0
    assert "CONFLICT (content): Merge conflict in memory/INDEX.md" in merged_run.stdout
    assert "memory/INDEX.md: conflict in deploy-day.md" in merged_run.stderr
    text = (memory / "INDEX.md").read_text(encoding="utf-8")
    block = conflict_block("- [Deploy day](deploy-day.md) — Deploys happen on Thursdays",
                           "- [Deploy day](deploy-day.md) — Deploys happen on Wednesdays")
    assert text.count("<<<<<<<") == 1 and block in text
    assert "- [API errors](api.md)" in text and "- [Auth tokens](auth.md)" in text

    # The driver on git's three stages of the file: exit 1 and the same text.
    stages = write_versions(tmp_path, *(repo.git("show", f":{n}:memory/INDEX.md").stdout for n in (1, 2, 3)))
    again = run_cli("merge-index", *stages, "memory/INDEX.md")
    assert again.exit_code == 1
    assert Path(stages[1]).read_text(encoding="utf-8") == text


def test_post_merge_check_catches_what_the_driver_cannot_know(
    repo: Repo, run_cli: Callable[..., Result]
) -> None:
    """Each branch's index fits its budget; together they do not. The driver cannot know
    (it reads no cards); the README's post-merge hook says so, and `cards index` fixes it."""
    memory = start(repo, run_cli, numbered(2), config="index_budget: {lines: 7}\n")
    branch(repo, run_cli, "left", memory, numbered(1, start=3))
    branch(repo, run_cli, "right", memory, numbered(1, start=4))
    assert "more card" not in repo.show("left", "memory/INDEX.md") + repo.show("right", "memory/INDEX.md")

    repo.git("checkout", "-q", "left")
    merged_run = repo.git("merge", "--no-edit", "right", check=False)
    assert merged_run.returncode == 0, merged_run.stdout + merged_run.stderr
    assert "error: INDEX.md: out of date; run `cards index` to regenerate it" in merged_run.stderr
    assert run_cli("--vault", str(memory), "index").exit_code == 0
    assert "3 more cards not shown" in (memory / "INDEX.md").read_text(encoding="utf-8")
    assert run_cli("--vault", str(memory), "index", "--check").exit_code == 0


# --------------------------------------------------------------------------- cards git-setup


def git_config(repo: Repo, key: str) -> str:
    return repo.git("config", "--local", "--get", key).stdout


def merge_attribute(repo: Repo, path: str) -> str:
    return repo.git("check-attr", "merge", "--", path).stdout


def test_git_setup_for_a_vault_at_the_repo_root(repo: Repo, run_cli: Callable[..., Result]) -> None:
    assert run_cli("init", str(repo.root)).exit_code == 0
    result = run_cli("--vault", str(repo.root), "git-setup", env=setup_env(repo))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert (repo.root / ".gitattributes").read_text(encoding="utf-8") == "INDEX.md merge=cards-index\n"
    assert git_config(repo, "merge.cards-index.driver") == f"{DRIVER_COMMAND}\n"
    assert git_config(repo, "merge.cards-index.name").startswith("cards")
    assert merge_attribute(repo, "INDEX.md") == "INDEX.md: merge: cards-index\n"
    assert "wrote `INDEX.md merge=cards-index` to .gitattributes" in result.stderr


def test_git_setup_in_a_subfolder_keeps_other_attributes(
    repo: Repo, run_cli: Callable[..., Result], snapshot: Callable[..., dict[str, bytes]]
) -> None:
    memory = repo.root / "memory"
    assert run_cli("init", str(memory), "--index-file", "MEMORY.md").exit_code == 0
    (repo.root / ".gitattributes").write_text("*.png binary\n# images\n*.md text", encoding="utf-8")
    result = run_cli("--vault", str(memory), "git-setup", env=setup_env(repo))
    assert result.exit_code == 0, result.stderr
    assert (repo.root / ".gitattributes").read_text(encoding="utf-8") == (
        "*.png binary\n# images\n*.md text\nmemory/MEMORY.md merge=cards-index\n"
    )
    assert merge_attribute(repo, "memory/MEMORY.md") == "memory/MEMORY.md: merge: cards-index\n"
    assert merge_attribute(repo, "MEMORY.md") == "MEMORY.md: merge: unspecified\n"

    before = snapshot(repo.root / ".git", state=True)
    before_attributes = (repo.root / ".gitattributes").read_bytes()
    again = run_cli("--vault", str(memory), "git-setup", env=setup_env(repo))
    assert again.exit_code == 0
    assert again.stderr == "memory/MEMORY.md already merges with `cards merge-index`; nothing changed\n"
    assert (repo.root / ".gitattributes").read_bytes() == before_attributes
    assert snapshot(repo.root / ".git", state=True) == before


def test_git_setup_keeps_a_line_written_by_hand(repo: Repo, run_cli: Callable[..., Result]) -> None:
    memory = repo.root / "memory"
    assert run_cli("init", str(memory)).exit_code == 0
    (repo.root / ".gitattributes").write_text("INDEX.md merge=cards-index\n", encoding="utf-8")
    result = run_cli("--vault", str(memory), "git-setup", env=setup_env(repo))
    assert result.exit_code == 0
    assert (repo.root / ".gitattributes").read_text(encoding="utf-8") == "INDEX.md merge=cards-index\n"
    assert git_config(repo, "merge.cards-index.driver") == f"{DRIVER_COMMAND}\n"


@pytest.mark.parametrize("folder", ["my memory", "odd[1]*?", "#notes", "!bang", 'qu"ote', "ünï"])
def test_git_setup_pattern_matches_odd_folder_names(repo: Repo, run_cli: Callable[..., Result], folder: str) -> None:
    memory = repo.root / folder
    assert run_cli("init", str(memory)).exit_code == 0
    (repo.root / "other").mkdir()  # a look-alike the pattern must not match
    result = run_cli("--vault", str(memory), "git-setup", env=setup_env(repo))
    assert result.exit_code == 0, result.stderr
    found = repo.git("check-attr", "-z", "merge", "--", f"{folder}/INDEX.md", "other/INDEX.md").stdout.split("\0")
    assert found[2::3][:2] == ["cards-index", "unspecified"]


def test_git_setup_outside_a_work_tree(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    vault = tmp_path / "vault"
    assert run_cli("init", str(vault)).exit_code == 0
    env = {**clean_git_env(), "GIT_CEILING_DIRECTORIES": str(tmp_path)}
    result = run_cli("--vault", str(vault), "git-setup", env=env)
    assert result.exit_code == 2
    assert result.stderr == f"error: {vault}: not inside a git work tree; run `git init` (or put the vault in a repo) first\n"
    assert not (vault / ".gitattributes").exists() and not (tmp_path / ".gitattributes").exists()


def test_git_setup_when_another_attributes_file_wins(repo: Repo, run_cli: Callable[..., Result]) -> None:
    memory = repo.root / "memory"
    assert run_cli("init", str(memory)).exit_code == 0
    (memory / ".gitattributes").write_text("INDEX.md merge=union\n", encoding="utf-8")
    result = run_cli("--vault", str(memory), "git-setup", env=setup_env(repo))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "sets merge=union for memory/INDEX.md" in result.stderr
    assert "git check-attr -a memory/INDEX.md" in result.stderr


def test_git_setup_says_when_cards_is_not_on_path(repo: Repo, run_cli: Callable[..., Result]) -> None:
    assert run_cli("init", str(repo.root)).exit_code == 0
    git = shutil.which("git")
    assert git is not None
    only_git = repo.root.parent / "only-git"
    only_git.mkdir()
    (only_git / "git").symlink_to(git)
    result = run_cli("--vault", str(repo.root), "git-setup", env={**clean_git_env(), "PATH": str(only_git)})
    assert result.exit_code == 0, result.stderr
    assert "note: `cards` is not on PATH here" in result.stderr
    assert "note:" not in run_cli("--vault", str(repo.root), "git-setup", env=setup_env(repo)).stderr
