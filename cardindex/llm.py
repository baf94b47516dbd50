"""The optional `llm` command: rewrite a merged card's body from its duplicates.

Configured in `.cardindex.yaml` as a shell-style command line. It gets the prompt
(`merge-prompt.md.j2`) on stdin and answers with the new body on stdout. Anything
wrong with it (missing, failing, slow, an empty or odd answer) is a warning and the
merge stays deterministic: the canonical card keeps its own text.
"""

from __future__ import annotations

import shlex
import subprocess
import sys

from . import templates
from .card import MAX_BYTES
from .consolidate import Merge
from .vault import Vault

TIMEOUT = 120.0


def rewrite(vault: Vault, merge: Merge) -> str | None:
    """The new body for `merge.canonical`, or None to keep its own (with a warning why)."""
    command = vault.config.llm
    if not command:
        return None
    answer, problem = _ask(vault, command, merge)
    if problem:
        print(f"warning: llm command for {merge.canonical.id}: {problem}; the merged card keeps its own text",
              file=sys.stderr)
        return None
    return answer


def ask(vault: Vault, command: str, prompt: str) -> tuple[str | None, str | None]:
    """Run the configured command with `prompt` on stdin: (its stdout, None) or (None, what went wrong)."""
    try:
        done = subprocess.run(shlex.split(command), input=prompt, capture_output=True, encoding="utf-8",
                              errors="replace", timeout=TIMEOUT, cwd=vault.root, check=False)
    except (OSError, ValueError) as exc:
        return None, f"cannot run {command!r}: {exc}"
    except subprocess.TimeoutExpired:
        return None, f"no answer within {TIMEOUT:g} s"
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or [""])[-1][:200]
        return None, f"exit {done.returncode}{': ' + detail if detail else ''}"
    if "\0" in done.stdout or len(done.stdout.encode("utf-8")) > MAX_BYTES:
        return None, "the answer is not text (binary or over 1 MB)"
    return done.stdout, None


def _ask(vault: Vault, command: str, merge: Merge) -> tuple[str | None, str | None]:
    override = vault.root / vault.config.templates if vault.config.templates else None
    prompt = templates.render("merge-prompt.md.j2", override, canonical=merge.canonical, merged=merge.merged)
    raw, problem = ask(vault, command, prompt)
    if raw is None:
        return None, problem
    answer = raw.strip()
    if not answer:
        return None, "empty answer"
    if len(answer.encode("utf-8")) > MAX_BYTES // 2:
        return None, "the answer is too large for a card body"
    if answer.startswith("---"):
        return None, "the answer starts with frontmatter; expected the body only"
    return answer + "\n", None
