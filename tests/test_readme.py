"""The README's copy-paste snippets must not drift from the CLI.

Every `cards ...` command line in a shell block must name a real command and only
options that command (or the `cards` group) accepts; JSON blocks must parse, and a
Claude Code hooks block must have the shape Claude Code reads; YAML blocks that look
like a `.cardindex.yaml` must load as one.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import click
import pytest
import yaml

from cardindex.cli import cli

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README.read_text(encoding="utf-8")) if lang == language]


def command_lines() -> list[str]:
    """Every `cards ...` invocation in the shell blocks (and the README's first commands)."""
    found = []
    for body in blocks("bash") + blocks("sh"):
        for line in body.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0].strip()
            if line.startswith("#") or not line:
                continue
            for part in re.split(r"&&|\|\||;|\|", line):
                words = shlex.split(part, comments=True)
                for i, word in enumerate(words):
                    if word == "cards" or word.endswith("/cards"):
                        found.append(shlex.join(words[i:]))
                        break
    return found


def _options(command: click.Command) -> set[str]:
    names: set[str] = set()
    for param in command.params:
        if isinstance(param, click.Option):
            names.update(param.opts)
            names.update(param.secondary_opts)
    return names | {"-h", "--help"}


def test_the_readme_shows_commands() -> None:
    assert len(command_lines()) >= 40


@pytest.mark.parametrize("line", command_lines())
def test_every_cards_command_line_matches_the_cli(line: str) -> None:
    words = shlex.split(line)[1:]
    group_options = _options(cli)
    while words and words[0].startswith("-"):
        option = words.pop(0).split("=", 1)[0]
        assert option in group_options, f"{line}: cards has no option {option}"
        if option in ("--vault",):
            words.pop(0)
    if not words:
        return
    name = words.pop(0)
    command = cli.get_command(click.Context(cli), name)
    assert command is not None, f"{line}: no command {name!r}"
    if isinstance(command, click.Group) and words and words[0] in command.commands:  # cards journal prune
        name = f"{name} {words[0]}"
        command = command.commands[words.pop(0)]
    allowed = _options(command)
    for word in words:
        if word.startswith("--") or (word.startswith("-") and len(word) == 2 and word[1].isalpha()):
            option = word.split("=", 1)[0]
            assert option in allowed, f"{line}: `cards {name}` has no option {option}"


def test_json_blocks_parse_and_hooks_have_claude_codes_shape() -> None:
    found = blocks("json")
    assert found
    for body in found:
        data = json.loads(body)
        for event, entries in data.get("hooks", {}).items():
            assert event in {"SessionStart", "SessionEnd", "Stop", "PreCompact", "UserPromptSubmit"}, event
            for entry in entries:
                for hook in entry["hooks"]:
                    assert hook["type"] == "command" and hook["command"].startswith("cards ")
                    assert test_every_cards_command_line_matches_the_cli(hook["command"]) is None


def test_yaml_config_blocks_load_as_vault_settings(tmp_path: Path) -> None:
    from cardindex.store.config import CONFIG_FILE, load_config

    checked = 0
    for body in blocks("yaml"):
        data = yaml.safe_load(body)
        if not isinstance(data, dict) or "repos" in data:  # pre-commit's own config, not ours
            continue
        (tmp_path / CONFIG_FILE).write_text(body, encoding="utf-8")
        load_config(tmp_path)  # raises ConfigError on an unknown or malformed setting
        checked += 1
    assert checked >= 1
