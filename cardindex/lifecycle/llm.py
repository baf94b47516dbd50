"""The optional `llm` command: rewrite a merged card's body from its duplicates.

A shell-style command line. It gets the prompt (`merge-prompt.md.j2`) on stdin and
answers with the new body on stdout. Anything wrong with it (missing, failing, slow, an
empty or odd answer) is a warning and the merge stays deterministic: the canonical card
keeps its own text.

Which command runs is decided here only (`choose`), by the trust rule of SPEC §7: the
command line's `--llm`, else the vault's `llm:` if the user trusted the vault with that
very value (`cards trust`), else the user's own config. A vault's `llm:` the user has
not trusted never runs; `ask` takes only what `choose` returns, so no caller can run
the vault's setting by mistake.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from typing import NamedTuple

from cardindex.index import templates
from cardindex.lifecycle.plan import Merge
from cardindex.redaction import shown
from cardindex.store.card import MAX_BYTES
from cardindex.store.vault import Vault

TIMEOUT = 120.0


class LlmCommand(NamedTuple):
    """A command line cards may run, and where it came from (only `choose` makes one)."""

    line: str
    origin: str  # "--llm", "the user config", "the trusted vault config"


def choose(vault: Vault, given: str | None = None) -> tuple[LlmCommand | None, str | None]:
    """The llm command to run (None: stay deterministic), and a note when the vault's was not run."""
    from cardindex.store import trust

    if given is not None and given.strip():
        return LlmCommand(given, "--llm"), None
    note = None
    if vault.config.llm:
        state = trust.state(vault.real_root, vault.config.llm)
        if state == "trusted":
            return LlmCommand(vault.config.llm, "the trusted vault config"), None
        why = ("it changed since you trusted this vault" if state == "changed"
               else "this vault is not trusted")
        note = (f"note: the llm command in {vault.root / '.cardindex.yaml'} was not run ({why}); "
                "review it, then run `cards trust` to allow it, or pass --llm")
    own = trust.user_config().llm
    return (LlmCommand(own, "the user config") if own else None), note


def chosen(vault: Vault, given: str | None = None) -> LlmCommand | None:
    """`choose`, saying on stderr (one line) when the vault's own command was not run."""
    command, note = choose(vault, given)
    if note:
        print(note, file=sys.stderr)
    return command


def rewrite(vault: Vault, command: LlmCommand, merge: Merge) -> str | None:
    """The new body for `merge.canonical`, or None to keep its own (with a warning why)."""
    answer, problem = _ask(vault, command, merge)
    if problem:
        print(f"warning: llm command for {merge.canonical.id}: {problem}; the merged card keeps its own text",
              file=sys.stderr)
        return None
    return answer


def ask(vault: Vault, command: LlmCommand, prompt: str) -> tuple[str | None, str | None]:
    """Run the chosen command with `prompt` on stdin: (its stdout, None) or (None, what went wrong)."""
    try:
        done = subprocess.run(shlex.split(command.line), input=prompt, capture_output=True, encoding="utf-8",
                              errors="replace", timeout=TIMEOUT, cwd=vault.root, check=False)
    except (OSError, ValueError) as exc:
        return None, f"cannot run {shown(command.line)!r}: {exc}"
    except subprocess.TimeoutExpired:
        return None, f"no answer within {TIMEOUT:g} s"
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or [""])[-1][:200]
        return None, f"exit {done.returncode}{': ' + shown(detail) if detail else ''}"
    if "\0" in done.stdout or len(done.stdout.encode("utf-8")) > MAX_BYTES:
        return None, "the answer is not text (binary or over 1 MB)"
    return done.stdout, None


def _ask(vault: Vault, command: LlmCommand, merge: Merge) -> tuple[str | None, str | None]:
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
