"""Whether a card's `scope` applies where an agent works: what context and search filter on."""

from __future__ import annotations


def scope_matches(card_scope: str, scope: str | None, repo_name: str | None = None) -> bool:
    """Whether a card's `scope` applies where the agent works.

    `global` always does; `path:S` when the agent works under S (or S lies under the
    agent's path); `repo:NAME` when the agent is in that repo; free text when it equals
    the asked scope. Without an asked scope everything matches.
    """
    if scope is None or card_scope == "global":
        return True
    asked = scope.strip()
    if card_scope.startswith("path:"):
        target = _norm_path(card_scope[5:])
        here = _norm_path(asked.removeprefix("path:"))
        return not here or not target or _under(here, target) or _under(target, here)
    if card_scope.startswith("repo:"):
        name = card_scope[5:].strip()
        return asked == card_scope or (asked.startswith("repo:") and asked[5:].strip() == name) or name == repo_name
    return card_scope.casefold() == asked.casefold()


def _norm_path(path: str) -> str:
    return path.strip().strip("/").removeprefix("./")


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + "/")
