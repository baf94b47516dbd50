"""Two cards of many units that say each other's units again are one fact: consolidate merges them.

Claude Code writes a feedback memory as a rule, a "**Why:**" line and a "**How to apply:**"
list of steps. That is six or more units, the shape `meaning.documents` calls a document,
and consolidation leaves two documents on one subject to the user because a merge keeps one
text and would put the other's different units out of sight. When every unit of each card
is said again in the other, nothing is put out of sight: the two are a duplicate like any
other, and lint and consolidate agree. A card with one step the other lacks merges too:
the live card keeps the step (`meaning.union`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result

FIRST = """---
name: Rebase before pushing shared branches
description: Rebase a shared branch on the remote right before pushing it
type: feedback
---
Rebase a shared branch on its remote right before every push.

**Why:** Three people push to the release branches, and a stale push has already erased a colleague's fix once.

**How to apply:**
1. Run `git fetch` and `git rebase origin/<branch>` right before `git push`
2. When the rebase stops on a conflict, resolve it and continue the rebase
3. Use `--force-with-lease` when a rewrite is unavoidable
4. Check that `git log origin/<branch>..HEAD` shows only your own commits before pushing
"""

SECOND = """---
name: Push safety on shared branches
description: Shared branches get rebased onto the remote just before each push
type: feedback
---
Before pushing to a shared branch, rebase it on the remote first.

**Why:** The release branches have three people pushing, and one stale push already wiped out a colleague's fix.

**How to apply:**
- Fetch, then rebase onto `origin/<branch>`, immediately before the push
- On a rebase conflict: resolve it and continue the rebase
- When history must be rewritten, use `--force-with-lease`
- Confirm that `git log origin/<branch>..HEAD` lists only your own commits
"""

EXTRA_STEP = "- Tag the release commit with the version number and sign the tag with your team key\n"


def _write(vault: Path, second: str) -> None:
    (vault / "rebase-before-push.md").write_text(FIRST, encoding="utf-8")
    (vault / "shared-branch-push-safety.md").write_text(second, encoding="utf-8")


def _duplicate_findings(invoke: Callable[..., Result]) -> set[str]:
    import json

    done = invoke("lint", "--format", "json")
    return {f["path"] for f in json.loads(done.stdout) if f["code"] == "U101"}


def test_two_rule_cards_that_say_each_others_steps_are_merged(invoke: Callable[..., Result], vault: Path) -> None:
    _write(vault, SECOND)
    assert _duplicate_findings(invoke) == {"rebase-before-push.md", "shared-branch-push-safety.md"}
    plan = invoke("consolidate", "--dry-run", "--all")
    assert plan.exit_code == 0, plan.output
    assert "merge" in plan.stdout and "rebase-before-push" in plan.stdout, plan.stdout


def test_a_card_with_a_step_the_other_lacks_merges_and_the_step_stays_live(invoke: Callable[..., Result],
                                                                          vault: Path) -> None:
    # Since the union merge (`meaning.union`), a step only one card has is no reason to keep
    # both: the live card after the merge says it, whichever card is canonical.
    _write(vault, SECOND + EXTRA_STEP)
    plan = invoke("consolidate", "--dry-run", "--all")
    assert plan.exit_code == 0, plan.output
    assert "merge" in plan.stdout, plan.stdout
    assert invoke("consolidate", "--all").exit_code == 0
    live = [p for p in vault.glob("*.md") if p.name != "INDEX.md"]
    assert len(live) == 1, live
    assert "sign the tag with your team key" in live[0].read_text(encoding="utf-8")
