"""Review before apply, as the command line shows it: each numbered decision in plain words, its diff, the prompt.

`explain` says in a sentence what a decision does and why; `diff` shows the files it
changes as a unified diff (an archived card as its old path removed and its new path
added); `ask` goes through the plan on a terminal, one decision at a time
(y = apply, n = skip, q = stop asking, d = show the diff). Every text passes `shown()`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardindex.lifecycle.review import Item
    from cardindex.store.jobs import Step
    from cardindex.store.vault import Vault


def explain(item: Item, archive_dir: str) -> str:
    """What decision `item` does, in plain words, with the planner's reason."""
    others = ", ".join(item.related)
    why = item.reason
    if item.action == "merge":
        return (f"{others} say{'s' if len(item.related) == 1 else ''} the same as {item.card} ({why}): "
                f"{item.card} absorbs {'it' if len(item.related) == 1 else 'them'} (merged_from) and "
                f"{'it moves' if len(item.related) == 1 else 'they move'} to {archive_dir}/ with merged_into.")
    if item.action == "supersede":
        return (f"{item.card} is replaced by {others}, which hold{'s' if len(item.related) == 1 else ''} "
                f"a newer value for the same thing ({why}): it moves to {archive_dir}/ marked superseded.")
    if item.action == "conflict":
        return (f"{item.card} and {others} disagree and their dates cannot decide ({why}): "
                "both are marked conflict and stay live; nothing is picked.")
    if item.action in ("archive", "forget"):
        return f"{item.card} no longer holds ({why}): it moves to {archive_dir}/."
    if item.action == "resolve":
        return f"{item.card} is in conflict no more ({why}): it is active again."
    if item.action == "keep":
        return f"{item.card} is left as it is ({why})."
    return f"{item.action} {item.card} ({why})."


def headline(item: Item, arrows: dict[str, str]) -> str:
    """The decision's one line: `  3. supersede  old → new  (reason)`."""
    others = f" {arrows.get(item.action, '·')} {', '.join(item.related)}" if item.related else ""
    return f"{item.number:>3}. {item.action:<10} {item.card}{others}  ({item.reason})"


def diff(vault: Vault, steps: Sequence[Step]) -> str:
    """The files `steps` change, as one unified diff (secrets redacted, control characters escaped)."""
    from cardindex.redaction import shown
    from cardindex.store.jobs import free_name, new_text

    out: list[str] = []
    taken: set[str] = set()
    for step in steps:
        before = step.card.text
        after = new_text(step, before) if step.op in ("edit", "archive") else ""
        if step.op == "archive":
            target = free_name(vault, step.card.id, folder=vault.archive_dir, taken=taken)
            taken.add(target)
            out.append(_unified(before, "", f"a/{step.card.path}", "/dev/null"))
            out.append(_unified("", after, "/dev/null", f"b/{target}"))
        elif step.op == "remove":
            out.append(_unified(before, "", f"a/{step.card.path}", "/dev/null"))
        else:
            out.append(_unified(before, after, f"a/{step.card.path}", f"b/{step.card.path}"))
    return shown("".join(out))


def _unified(before: str, after: str, old: str, new: str) -> str:
    def lines(text: str) -> list[str]:
        out = text.splitlines(keepends=True)
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n\\ No newline at end of file\n"
        return out

    return "".join(difflib.unified_diff(lines(before), lines(after), old, new))


def ask(vault: Vault, items: Sequence[Item], arrows: dict[str, str], *,
        read: Callable[[str], str], write: Callable[[str], None]) -> list[int] | None:
    """Go through `items` asking y/n/q/d for each; the numbers accepted (None: nothing asked, the plan is empty)."""
    if not items:
        return None
    accepted: list[int] = []
    for item in items:
        write(headline(item, arrows))
        write(f"     {explain(item, vault.archive_dir)}")
        while True:
            answer = read(f"apply {item.number} of {len(items)}? [y,n,q,d] ").strip().lower()
            if answer == "d":
                write(diff(vault, item.steps).rstrip("\n") or "     (no file changes)")
                continue
            if answer in ("y", "n", "q"):
                break
            write("     y: apply this decision; n: skip it; q: stop here (nothing more is applied); d: show its diff")
        if answer == "q":
            break
        if answer == "y":
            accepted.append(item.number)
    return accepted
