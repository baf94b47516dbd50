"""Every bad input of issue 2, through the CLI.

For each: one clear line on stderr per problem naming the file (and line when known),
exit 2 for usage/input errors and 1 for refusals and findings, no traceback, nothing
written outside the vault, no temp files left, and existing cards byte-identical.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

FIXTURES = Path(__file__).parent / "fixtures" / "cards"
BAD = FIXTURES / "bad"
GOOD = FIXTURES / "good"
BAD_EXPECTED = json.loads((BAD / "EXPECTED.json").read_text(encoding="utf-8"))
GOOD_EXPECTED = json.loads((GOOD / "EXPECTED.json").read_text(encoding="utf-8"))
EXPIRED_GOOD = {"dates.md"}  # expires 2026-06-30, before CARDS_TODAY

GOOD_CARD = "---\ndescription: A good fact\ntype: user\n---\nThe good fact.\n"
GOOD_LINE = "- [A good fact](good.md)"
USAGE_ADD = "Usage: cards add [OPTIONS] [TEXT]\nTry 'cards add --help' for help.\n\n"


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.lower().startswith("error")]


def proc_result(proc: subprocess.CompletedProcess[bytes]) -> object:
    """A subprocess's output in the shape Guard.check expects (text stdout/stderr)."""

    class Output:
        stdout = proc.stdout.decode("utf-8", "replace")
        stderr = proc.stderr.decode("utf-8", "replace")

    return Output()


class Guard:
    """Snapshot a vault and its surroundings; check that a command left them alone."""

    def __init__(self, tmp_path: Path, vault: Path, snapshot, temp_files) -> None:
        self.tmp_path = tmp_path
        self.vault = vault
        self._snapshot = snapshot
        self._temp_files = temp_files
        self.start()

    def _outside(self) -> dict[str, bytes]:
        prefix = self.vault.relative_to(self.tmp_path).as_posix() + "/"
        return {k: v for k, v in self._snapshot(self.tmp_path).items() if not k.startswith(prefix)}

    def start(self) -> None:
        self.outside = self._outside()
        self.inside = self._snapshot(self.vault, state=False)

    def check(self, result, *, changed: frozenset[str] = frozenset()) -> None:
        assert "Traceback" not in result.stdout + result.stderr
        assert self._outside() == self.outside, "a file outside the vault changed"
        assert self._temp_files(self.tmp_path) == []
        now = self._snapshot(self.vault, state=False)
        for rel, data in self.inside.items():
            if rel not in changed:
                assert now.get(rel) == data, f"{rel} changed"
        assert set(now) - set(self.inside) - changed == set(), "unexpected new files"


@pytest.fixture
def guard(tmp_path, vault, snapshot, leftover_temp_files):
    def make(root: Path | None = None) -> Guard:
        return Guard(tmp_path, root or vault, snapshot, leftover_temp_files)

    return make


# --------------------------------------------------------------------------- broken card files

LATIN1 = "---\ndescription: Caf\xe9 opening hours\ntype: user\n---\nBody\n".encode("latin-1")

CASES = {
    "broken-yaml": (
        (BAD / "broken-yaml.md").read_bytes(),
        ["5: invalid YAML in frontmatter: did not find expected ',' or ']'"],
    ),
    "unclosed": (
        b"---\ndescription: Never closed\ntype: user\nThe body.\n",
        ["1: frontmatter is never closed: add a '---' line after the fields"],
    ),
    "no-frontmatter": (
        b"Just a note without fields.\n",
        ["1: no frontmatter: a card starts with a '---' line, its fields, and '---'"],
    ),
    "list-frontmatter": (
        b"---\n- one\n- two\n---\nBody\n",
        ["2: frontmatter must be a mapping of fields, got a list"],
    ),
    "scalar-frontmatter": (
        b"---\njust some words\n---\nBody\n",
        ["2: frontmatter must be a mapping of fields, got a single str value"],
    ),
    "description-list": (
        b"---\ndescription: [a, b]\ntype: user\n---\nBody\n",
        ["2: 'description' must be one line of text, got a list"],
    ),
    "wrong-types": (
        b"---\ndescription: Several wrong types\ntype: user\nlock: maybe\ntags: 5\nkey: 2024\n---\nBody\n",
        [
            "4: 'lock' must be true or false, got 'maybe'",
            "5: 'tags' must be text or a list of text, got int 5",
            "6: 'key' must be text, got int 2024",
        ],
    ),
    "bad-date": (
        b"---\ndescription: A date that is not one\ntype: user\nverified: last tuesday\n---\nBody\n",
        ["4: 'verified' must be an ISO date (YYYY-MM-DD), got 'last tuesday'"],
    ),
    "unknown-type": (
        b"---\ndescription: A note\ntype: note\n---\nBody\n",
        ["3: unknown type 'note': expected one of user, feedback, project, reference"],
    ),
    "latin1": (LATIN1, ["2: not UTF-8: byte 0xe9 cannot be decoded; save the file as UTF-8"]),
    "utf16": (
        "---\ndescription: Wide\ntype: user\n---\nBody\n".encode("utf-16"),
        ["1: not UTF-8: the file is UTF-16 (byte order mark); save it as UTF-8"],
    ),
    "binary": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01", ["1: binary file, not a Markdown card"]),
    "empty": (b"", ["1: empty file"]),
    "oversized": (
        b"---\ndescription: Huge\ntype: user\n---\n" + b"word " * 200_001,
        ["1: file is larger than 1 MB; a card holds one fact"],
    ),
    "alias-bomb": (
        (BAD / "alias-bomb.md").read_bytes(),
        ["5: YAML anchors and aliases are not allowed in a card"],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_index_reports_a_broken_card_and_indexes_the_rest(invoke, vault, write_card, guard, case):
    data, problems = CASES[case]
    write_card(vault, "good.md", GOOD_CARD)
    write_card(vault, f"{case}.md", data)
    g = guard()
    started = time.monotonic()
    result = invoke("index")
    assert time.monotonic() - started < 10
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"{case}.md:{p}" for p in problems] + [
        "wrote INDEX.md (1 card)",
        "1 unreadable card(s) left out of INDEX.md",
    ]
    g.check(result, changed=frozenset({"INDEX.md"}))
    assert [
        line for line in (vault / "INDEX.md").read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    ] == [GOOD_LINE]
    check = invoke("index", "--check")
    assert check.exit_code == 1  # the broken card is still a finding
    assert check.stderr.splitlines()[-2:] == [
        "INDEX.md is up to date (1 card)",
        "1 unreadable card(s) left out of INDEX.md",
    ]


@pytest.mark.parametrize("case", sorted(CASES))
def test_show_list_and_add_survive_a_broken_card(invoke, vault, write_card, guard, case):
    data, problems = CASES[case]
    write_card(vault, "good.md", GOOD_CARD)
    write_card(vault, f"{case}.md", data)
    invoke("index")
    g = guard()
    shown = invoke("show", case)
    assert shown.exit_code == 1
    assert shown.stderr.splitlines() == [
        f"{case}.md:{p.split(': ', 1)[0]}: error: {p.split(': ', 1)[1]}" for p in problems
    ]
    listed = invoke("list")
    assert (listed.exit_code, listed.stdout) == (0, "good  user       A good fact\n")
    everything = json.loads(invoke("list", "--all", "--format", "json").stdout)
    assert [(r["id"], r["status"]) for r in everything] == sorted([("good", "active"), (case, "invalid")])
    g.check(shown)
    g.check(listed)
    added = invoke("add", "Another fact entirely.", "-n", "Another")
    assert added.exit_code == 0
    assert added.stderr.startswith("warning: 1 unreadable card(s) left out of INDEX.md (")
    assert added.stderr.endswith("); `cards lint` says what is wrong with each\n")
    g.check(added, changed=frozenset({"INDEX.md", "another.md"}))


@pytest.mark.parametrize(
    ("field", "value", "line"),
    [("verified", "2026-02-30", 4), ("expires", "2026-13-45", 4), ("created", "2026-01-01T25:00:00", 4)],
)
def test_impossible_dates_are_a_finding_not_a_crash(invoke, vault, write_card, guard, field, value, line):
    write_card(vault, "good.md", GOOD_CARD)
    write_card(vault, "when.md", f"---\ndescription: A date that cannot be\ntype: user\n{field}: {value}\n---\nBody\n")
    g = guard()
    result = invoke("index")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"when.md:{line}: ")
    assert value in lines[0]
    assert lines[1:] == ["wrote INDEX.md (1 card)", "1 unreadable card(s) left out of INDEX.md"]
    g.check(result, changed=frozenset({"INDEX.md"}))


def test_a_card_of_exactly_one_megabyte_is_fine(invoke, vault, write_card):
    head = b"---\ndescription: Exactly at the limit\ntype: user\n---\n"
    write_card(vault, "limit.md", head + b"x" * (1_000_000 - len(head) - 1) + b"\n")
    assert (vault / "limit.md").stat().st_size == 1_000_000
    result = invoke("index")
    assert result.exit_code == 0
    assert result.stderr == "wrote INDEX.md (1 card)\n"


def _name_of(path: Path) -> str | None:
    """The `name` a fixture card sets, at the top level or under `metadata:` (read with YAML, not with cards)."""
    head = path.read_text(encoding="utf-8").split("\n---", 1)[0].removeprefix("---\n")
    try:
        fields = yaml.safe_load(head) or {}
    except yaml.YAMLError:  # an unquoted ': ' (read leniently by cards): the name line as written
        named = [line[5:].strip() for line in head.splitlines() if line.startswith("name:")]
        return named[0] if named else None
    name = fields.get("name") or (fields.get("metadata") or {}).get("name")
    return name if isinstance(name, str) and name.strip() else None


def test_mixed_vault_with_every_bad_fixture(invoke, vault, guard):
    for src in list(GOOD.glob("*.md")) + list(BAD.glob("*.md")):
        shutil.copyfile(src, vault / src.name)
    g = guard()
    result = invoke("index")
    assert result.exit_code == 1
    assert result.stdout == ""
    g.check(result, changed=frozenset({"INDEX.md"}))
    index = (vault / "INDEX.md").read_text(encoding="utf-8")
    linked = sorted(line.split("](", 1)[1].split(")", 1)[0] for line in index.splitlines() if line.startswith("- ["))
    assert linked == sorted(set(GOOD_EXPECTED) - EXPIRED_GOOD)
    for name, expected in GOOD_EXPECTED.items():
        if name not in EXPIRED_GOOD:
            said = expected["description"]
            titled = _name_of(GOOD / name)
            # SPEC §3: a card with a name is `- [NAME](PATH) — DESCRIPTION`; without one the description is the link text
            line = f"]({name}) — {said}\n" if titled else f"- [{said}]({name})\n"
            assert line in index, (name, titled)
    lines = result.stderr.splitlines()
    shown = len(GOOD_EXPECTED) - len(EXPIRED_GOOD)
    assert lines[-2:] == [
        f"wrote INDEX.md ({shown} cards)",
        f"{len(BAD_EXPECTED)} unreadable card(s) left out of INDEX.md",
    ]
    assert len(lines) == len(BAD_EXPECTED) + 2  # one line per broken card
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(BAD_EXPECTED))
def test_each_bad_fixture_is_one_line_with_its_line_number(invoke, vault, name):
    shutil.copyfile(BAD / name, vault / name)
    (vault / "good.md").write_text(GOOD_CARD, encoding="utf-8")
    result = invoke("index")
    assert result.exit_code == 1
    reported = [line for line in result.stderr.splitlines() if line.startswith(f"{name}:")]
    line = BAD_EXPECTED[name]["line"] or 1
    assert len(reported) == 1, reported
    prefix = f"{name}:{line}: "
    assert reported[0].startswith(prefix), reported
    assert len(reported[0]) > len(prefix) + 10


def test_bad_cards_through_a_real_process(vault, tmp_path):
    for src in BAD.glob("*.md"):
        shutil.copyfile(src, vault / src.name)
    (vault / "good.md").write_text(GOOD_CARD, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "cardindex", "--vault", str(vault), "index"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=dict(os.environ),
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == f"{len(BAD_EXPECTED)} unreadable card(s) left out of INDEX.md"
    assert GOOD_LINE in (vault / "INDEX.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- cards add: bad arguments


def test_name_with_parent_dirs_stays_inside_the_vault(invoke, vault, tmp_path, guard):
    g = guard()
    result = invoke("add", "Hello from a sneaky name.", "--name", "../../x")
    assert result.exit_code == 0
    assert result.stdout == f"{vault / 'x.md'}\n"
    fields = yaml.safe_load((vault / "x.md").read_text(encoding="utf-8").split("---\n")[1])
    assert fields["name"] == "../../x"
    assert not (tmp_path / "x.md").exists()
    assert not (tmp_path.parent / "x.md").exists()
    g.check(result, changed=frozenset({"INDEX.md", "x.md"}))


@pytest.mark.parametrize("name", ["..", "../..", "/", "./.", "...//..", "/etc/passwd"])
def test_name_of_dots_and_slashes_never_escapes(invoke, vault, tmp_path, guard, name):
    g = guard()
    result = invoke("add", "Hello from a dotted name.", "--name", name)
    assert result.exit_code == 0
    slug = "etc-passwd" if name == "/etc/passwd" else "hello-from-a-dotted-name"
    assert result.stdout == f"{vault / slug}.md\n"
    g.check(result, changed=frozenset({"INDEX.md", f"{slug}.md"}))


@pytest.mark.parametrize(
    ("args", "stdin", "stderr"),
    [
        (["add", ""], None, "error: empty card text; nothing written\n"),
        (["add", "   \n\t  \n"], None, "error: empty card text; nothing written\n"),
        (["add", "-"], "", "error: empty card text; nothing written\n"),
        (["add", "-"], "\n  \n", "error: empty card text; nothing written\n"),
        (["add", "Fact", "-d", "first line\nsecond line"], None, "error: --description must be one line\n"),
        (["add", "Fact", "-d", "   "], None, "error: --description is empty\n"),
        (["add", "Fact", "-k", "two\nlines"], None, "error: --key must be one line\n"),
        (["add", "Fact", "-n", "a\nb"], None, "error: --name must be one line\n"),
        (["add", "Fact", "--source", "a\nb"], None, "error: --source must be one line\n"),
        (["add", "Fact", "--tag", ""], None, "error: --tag is empty\n"),
        (["add", "Fact", "-n", ""], None, "error: --name is empty\n"),
        (
            ["add", "-"],
            "word " * 120_000,
            "error: card text is 599,999 bytes; a card holds one fact, not a document\n",
        ),
        (
            ["add", "Fact", "--type", "note"],
            None,
            USAGE_ADD + "Error: Invalid value for '-t' / '--type': "
            "'note' is not one of 'user', 'feedback', 'project', 'reference'.\n",
        ),
        (
            ["add", "Fact", "--expires", "notadate"],
            None,
            USAGE_ADD + "Error: Invalid value for '--expires': 'notadate' does not match the format '%Y-%m-%d'.\n",
        ),
        (
            ["add", "Fact", "--expires", "2026-02-30"],
            None,
            USAGE_ADD + "Error: Invalid value for '--expires': '2026-02-30' does not match the format '%Y-%m-%d'.\n",
        ),
    ],
)
def test_add_usage_errors_write_nothing(invoke, vault, write_card, guard, args, stdin, stderr):
    write_card(vault, "existing.md", GOOD_CARD)
    g = guard()
    result = invoke(*args, input=stdin)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == stderr
    assert len(error_lines(result.stderr)) == 1
    g.check(result)


@pytest.mark.parametrize("text", ["fact with a NUL \x00 byte\n", "\x00\x01\x02 binary from a pipe"])
def test_add_refuses_text_that_would_be_an_unreadable_card(invoke, vault, write_card, guard, text):
    """A NUL byte makes the written file a 'binary file' that every later command rejects."""
    write_card(vault, "existing.md", GOOD_CARD)
    g = guard()
    result = invoke("add", "-", input=text)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("error: ")
    g.check(result)


def test_add_non_utf8_stdin_is_an_input_error(vault, tmp_path, guard):
    g = guard()
    proc = subprocess.run(
        [sys.executable, "-m", "cardindex", "--vault", str(vault), "add", "-"],
        input=b"caf\xe9 opens at nine\n",
        capture_output=True,
        timeout=60,
        check=False,
        env=dict(os.environ),
        cwd=tmp_path,
    )
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert len(stderr.splitlines()) == 1
    assert stderr.startswith("error: ")
    g.check(proc_result(proc))


@pytest.mark.parametrize(
    "command", [["list"], ["index"], ["index", "--check"], ["add", "A fact."], ["show", "x"], ["journal"]]
)
@pytest.mark.parametrize("kind", ["missing", "file"])
def test_vault_that_is_not_a_folder(run_cli, tmp_path, snapshot, command, kind):
    target = tmp_path / "not-a-vault"
    if kind == "file":
        target.write_text("I am a file\n", encoding="utf-8")
    before = snapshot(tmp_path)
    result = run_cli("--vault", str(target), *command)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: no such vault folder: {target}\n"
    assert snapshot(tmp_path) == before
    env_result = run_cli(*command, env={"CARDS_VAULT": str(target)})
    assert env_result.exit_code == 2
    assert env_result.stderr == f"error: no such vault folder: {target}\n"
    assert snapshot(tmp_path) == before


# --------------------------------------------------------------------------- .cardindex.yaml
KNOWN = "archive_dir, embedding, forget_after, index_budget, index_file, lint, llm, log_dir, max_age, multi_valued_keys, repo, state_budget, state_file, templates"
CONFIGS = {
    "bad-yaml": ("index_file: [MEMORY.md\n", ".cardindex.yaml:2: invalid YAML: did not find expected ',' or ']'"),
    "unknown-key": ("index_fiel: MEMORY.md\n", f".cardindex.yaml: unknown setting 'index_fiel' (known: {KNOWN})"),
    "not-a-mapping": ("- index_file\n", ".cardindex.yaml: the config must be a mapping of settings"),
    "budget-type": ("index_budget: 5\n", ".cardindex.yaml: 'index_budget' takes 'lines' and 'bytes'"),
    "budget-value": (
        "index_budget: {lines: many}\n",
        ".cardindex.yaml: 'index_budget.lines' must be a positive whole number",
    ),
    "keys-type": ("multi_valued_keys: owner\n", ".cardindex.yaml: 'multi_valued_keys' must be a list of keys"),
    "index-file-path": (
        "index_file: ../MEMORY.md\n",
        ".cardindex.yaml: 'index_file' must be a file name ending in .md, such as MEMORY.md",
    ),
    "archive-outside": ("archive_dir: ../attic\n", ".cardindex.yaml: 'archive_dir' must be a folder inside the vault"),
}


@pytest.mark.parametrize(
    "command", [["index"], ["index", "--check"], ["add", "A fact."], ["list"], ["show", "existing"]]
)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_invalid_config_is_a_usage_error(invoke, vault, write_card, guard, command, config):
    text, message = CONFIGS[config]
    write_card(vault, "existing.md", GOOD_CARD)
    invoke("index")
    (vault / ".cardindex.yaml").write_text(text, encoding="utf-8")
    g = guard()
    result = invoke(*command)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: {message}\n"
    g.check(result)


# --------------------------------------------------------------------------- symlinks


@pytest.fixture
def outside(tmp_path, make_card):
    root = tmp_path / "outside"
    (root / "dir").mkdir(parents=True)
    (root / "out.md").write_text(make_card("Outside card", "user"), encoding="utf-8")
    (root / "dir" / "deep.md").write_text(make_card("Outside folder card", "user"), encoding="utf-8")
    return root


def test_symlink_to_a_card_outside_is_not_indexed(invoke, vault, write_card, outside, guard):
    write_card(vault, "good.md", GOOD_CARD)
    (vault / "link-out.md").symlink_to(outside / "out.md")
    g = guard()
    result = invoke("index")
    assert result.exit_code == 0
    assert result.stderr == "wrote INDEX.md (1 card)\n"
    assert "Outside" not in (vault / "INDEX.md").read_text(encoding="utf-8")
    g.check(result, changed=frozenset({"INDEX.md"}))
    assert invoke("list").stdout == "good  user       A good fact\n"
    shown = invoke("show", "link-out")
    assert shown.exit_code == 2
    assert shown.stdout == ""
    assert shown.stderr == f"error: no card 'link-out' in {vault}\n"


def test_symlinked_folder_outside_is_not_walked(invoke, vault, write_card, outside):
    write_card(vault, "good.md", GOOD_CARD)
    (vault / "linked").symlink_to(outside / "dir", target_is_directory=True)
    result = invoke("index")
    assert result.exit_code == 0
    assert result.stderr == "wrote INDEX.md (1 card)\n"
    assert invoke("list", "--all").stdout == "good  user       A good fact\n"


def _loop_to_root(vault: Path) -> None:
    (vault / "loop").symlink_to(vault, target_is_directory=True)


def _loop_to_parent(vault: Path) -> None:
    (vault / "sub").mkdir()
    (vault / "sub" / "up").symlink_to("..", target_is_directory=True)
    (vault / "sub" / "self").symlink_to(".", target_is_directory=True)


def _loop_between_files(vault: Path) -> None:
    (vault / "a.md").symlink_to("b.md")
    (vault / "b.md").symlink_to("a.md")


def _loop_between_names(vault: Path) -> None:
    (vault / "a").symlink_to("b")
    (vault / "b").symlink_to("a")


def _dangling(vault: Path) -> None:
    (vault / "dangling.md").symlink_to("nowhere.md")
    (vault / "dangling-dir").symlink_to("nowhere", target_is_directory=True)


@pytest.mark.parametrize(
    "make_loop",
    [_loop_to_root, _loop_to_parent, _loop_between_files, _loop_between_names, _dangling],
    ids=lambda f: f.__name__.strip("_"),
)
def test_symlink_loops_do_not_hang(vault, write_card, tmp_path, make_loop):
    write_card(vault, "good.md", GOOD_CARD)
    make_loop(vault)
    proc = subprocess.run(
        [sys.executable, "-m", "cardindex", "--vault", str(vault), "index"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env=dict(os.environ),
        cwd=tmp_path,
    )
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "wrote INDEX.md (1 card)\n"
    assert [
        line for line in (vault / "INDEX.md").read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    ] == [GOOD_LINE]


def test_symlink_to_a_card_inside_is_fine(invoke, vault, write_card):
    write_card(vault, "good.md", GOOD_CARD)
    write_card(vault, "notes/real.md", "---\ndescription: Really here\ntype: project\n---\nBody\n")
    (vault / "alias.md").symlink_to(Path("notes") / "real.md")
    (vault / "shortcut").symlink_to(vault / "notes", target_is_directory=True)
    result = invoke("index")
    assert result.exit_code == 0
    lines = [line for line in (vault / "INDEX.md").read_text(encoding="utf-8").splitlines() if line.startswith("- ")]
    # One card, under the real file's own path (SPEC §1: a symlink to a card inside the vault is that card).
    assert lines == [GOOD_LINE, "- [Really here](notes/real.md)"]
    assert invoke("show", "alias").stdout == (vault / "notes" / "real.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- files that are never cards

NOT_CARDS = [
    "x.md.swp",
    "x.md~",
    ".#x.md",
    "4913",
    ".x.md.abc.cards-tmp",
    ".hidden/h.md",
    "sub/.obsidian/o.md",
    ".cardindex/stray.md",
    "sub/.#y.md",
    "sub/y.md.swp",
]


@pytest.mark.parametrize("content", ["valid", "broken"])
def test_editor_temp_files_and_hidden_folders_are_never_cards(invoke, vault, write_card, make_card, content):
    write_card(vault, "x.md", make_card("The real card", "user"))
    for rel in NOT_CARDS:
        text = make_card(f"Not a card: {rel}", "user") if content == "valid" else "\x00binary garbage"
        write_card(vault, rel, text)
    result = invoke("index")
    assert result.exit_code == 0
    assert result.stderr == "wrote INDEX.md (1 card)\n"
    assert [
        line for line in (vault / "INDEX.md").read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    ] == ["- [The real card](x.md)"]
    assert [r["id"] for r in json.loads(invoke("list", "--all", "--format", "json").stdout)] == ["x"]
