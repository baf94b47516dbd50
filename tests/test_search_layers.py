"""Layered vaults for `cards search` and the MCP `search` tool (issue 15): a user-level vault beside the project's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from test_search_engine import put

Invoke = Callable[..., Result]


@pytest.fixture
def user_vault(tmp_path: Path) -> Path:
    root = tmp_path / "me"
    put(root, "editor.md", "Which editor the user works in", "The user edits in Helix with a light theme.",
        type="user")
    put(root, "tea.md", "What the user drinks during long reviews", "Green tea, never coffee.", type="user")
    return root


def test_with_vault_searches_both_and_each_hit_names_its_vault(invoke: Invoke, vault: Path, user_vault: Path) -> None:
    put(vault, "theme.md", "Which theme the studio site uses", "The studio site has a light theme with serif type.")
    result = invoke("search", "light theme", "--with-vault", str(user_vault), "--format", "json")
    assert result.exit_code == 0, result.stderr
    found = {(h["id"], Path(h["vault"]).name) for h in json.loads(result.stdout)}
    assert found == {("theme", "vault"), ("editor", "me")}
    text = invoke("search", "green tea", "--with-vault", str(user_vault)).stdout
    assert text.split()[1] == "me:tea"  # a card of another vault says which
    alone = json.loads(invoke("search", "light theme", "--format", "json").stdout)
    assert [h["id"] for h in alone] == ["theme"] and "vault" not in alone[0]  # one vault: as before
    assert not (vault / "editor.md").exists() and not list(vault.glob("me*"))  # nothing written across


def test_the_user_vault_comes_from_the_environment(invoke: Invoke, vault: Path, user_vault: Path) -> None:
    put(vault, "drinks.md", "What the office kitchen stocks", "The kitchen stocks oat milk and coffee.")
    result = invoke("search", "coffee or tea", "--format", "json", env={"CARDS_USER_VAULT": str(user_vault)})
    assert {h["id"] for h in json.loads(result.stdout)} == {"drinks", "tea"}
    missing = invoke("search", "tea", env={"CARDS_USER_VAULT": str(user_vault / "nope")})
    assert missing.exit_code == 2 and missing.stderr.startswith("error: no such vault folder")
    same = invoke("search", "coffee", "--with-vault", str(vault), "--format", "json")
    assert [h["id"] for h in json.loads(same.stdout)] == ["drinks"]  # the project vault once
