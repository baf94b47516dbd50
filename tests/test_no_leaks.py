"""Secrets and control characters never leave the tool (SPEC §9; issue 11).

One vault holds planted secrets, generated at test time: an AWS key id, a GitHub token
and a `password = <random>` assignment, each once in a card's description and once in a
card's body; two cards with one key whose values are two AWS keys (the C103 case); and a
card whose description holds an OSC 52 escape (`ESC ] 52 ; c ; … BEL`, which writes the
user's clipboard) and a C1 control, with raw escapes in its body. Then every way out of
the tool is tried, and none may carry a secret (as written or lowercased) or a raw
control character: the files cards writes, every command's stdout and stderr in every
format, the journal, the lock file, error messages, and every MCP tool and resource
through the official client. `cards show --reveal` is the one way to see a card as it
is: the owner's.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import string
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import Result
from conftest import TODAY, card_text

from cardindex.secrets import find_secrets

CONTROL = ("\x1b", "\x07", "\x9b", "\x00", "\\u001b", "\\u0007", "\\u009b", "\\u0000")
_rng = random.SystemRandom()


def _random(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _detected(make: Callable[[], str], context: str = "{}") -> str:
    """A fresh value that the one detector recognizes in `context` (so the test plants a real secret)."""
    while True:
        value = make()
        found = find_secrets(context.format(value))
        if found and any(value in context.format(value)[s.start:s.end] or
                         context.format(value)[s.start:s.end] in value for s in found):
            return value


@dataclass
class Planted:
    root: Path
    secrets: list[str]
    c103: tuple[str, str]
    extra: list[str] = field(default_factory=list)

    @property
    def forbidden(self) -> list[str]:
        values = [*self.secrets, *self.c103, *self.extra]
        return values + [v.lower() for v in values]


def aws() -> str:
    return _detected(lambda: "AKIA" + _random(string.ascii_uppercase + string.digits, 16))


def github() -> str:
    return _detected(lambda: "ghp_" + _random(string.ascii_letters + string.digits, 36))


def password() -> str:
    return _detected(lambda: _random(string.ascii_letters + string.digits, 22), "password = {}")


def plant(root: Path) -> Planted:
    """Write the cards with secrets and control characters into the vault at `root`."""
    a, g, p = aws(), github(), password()
    a2, g2, p2, p3 = aws(), github(), password(), password()
    k1, k2, k3, k4 = aws(), aws(), aws(), aws()
    cards = {
        "bucket-key.md": card_text(f"Staging bucket upload key {a}", body="Uploads to the staging bucket use it."),
        "ci-token.md": card_text(f"Staging bucket CI token {g}", body="The CI job reads the staging bucket with it."),
        "db-login.md": card_text(f"Staging bucket database password = {p}",
                                 body="The reporting job logs in to the staging bucket database so."),
        "mirror-key.md": card_text("Which key the staging bucket mirror uses",
                                   body=f"The staging bucket mirror signs requests with {a2} for now."),
        "runner-token.md": card_text("How the staging bucket runner authenticates",
                                     body=f"The staging bucket runner sends the token {g2} in a header."),
        "replica-login.md": card_text("How the staging bucket replica logs in", password=p3,  # a field, too
                                      body=f"The staging bucket replica connects with password = {p2} set."),
        "deploy-key-a.md": card_text("Which AWS key the staging bucket deploy uses", key="deploy-aws-key",
                                     verified="2026-09-01", body=f"The staging bucket deploy uses {k1} for uploads."),
        "deploy-key-b.md": card_text("Which AWS key the staging bucket deploy uses", key="deploy-aws-key",
                                     verified="2026-09-01", body=f"The staging bucket deploy uses {k2} for uploads."),
        # The same slot without a key: consolidation quotes the two values in its reason.
        "backup-key-a.md": card_text("Which AWS key the staging bucket backup uses", verified="2026-09-01",
                                     body=f"The staging bucket backup uses {k3} for uploads."),
        "backup-key-b.md": card_text("Which AWS key the staging bucket backup uses", verified="2026-09-01",
                                     body=f"The staging bucket backup uses {k4} for uploads."),
        # YAML's double-quoted escapes put ESC, BEL and a C1 control into the description;
        # the body holds them raw (a body is not YAML).
        "clipboard.md": card_text('"Staging bucket clipboard \\e]52;c;aGVsbG8=\\a paste and \\x9b31m colour \\0"',
                                  body="The staging bucket note \x1b]52;c;Zm9v\x07 and \x1b[2J clear the screen."),
    }
    for name, text in cards.items():
        (root / name).write_text(text, encoding="utf-8")
    # A file name can hold an escape too: a broken card whose name every listing prints.
    (root / "broken\x1b]52;c;aGVsbG8=\x07.md").write_text("---\ntype: project\n---\nNo description.\n", encoding="utf-8")
    return Planted(root, [a, g, p, a2, g2, p2, p3, k3, k4], (k1, k2))


def leaks(planted: Planted, *texts: str) -> list[str]:
    """What of the planted secrets and control characters appears in `texts`."""
    found = []
    for text in texts:
        found += [f"secret {s[:6]}…" for s in planted.forbidden if s in text]
        found += [f"control {c!r}" for c in CONTROL if c in text]
    return sorted(set(found))


def journal_files(root: Path) -> str:
    folder = root / ".cardindex" / "journal"
    if not folder.is_dir():
        return ""
    return "".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.fixture
def planted(vault: Path) -> Planted:
    return plant(vault)


def both(result: Result) -> str:
    return result.stdout + result.stderr


# --------------------------------------------------------------------------- the CLI channels

Invoke = Callable[..., Result]


def ch_index(invoke: Invoke, p: Planted) -> str:
    result = invoke("index")
    # the broken one, and clipboard.md: a control character makes a card unusable (F012) until fixed
    assert result.exit_code == 1 and "2 unreadable card(s)" in result.stderr, both(result)
    assert "withheld" in result.stderr and "cards lint" in result.stderr
    text = (p.root / "INDEX.md").read_text(encoding="utf-8")
    assert "withheld" in text.splitlines()[1] and text.splitlines()[1].startswith("<!--")
    check = invoke("index", "--check")
    return both(result) + text + both(check)


def ch_context(invoke: Invoke, p: Planted) -> str:
    result = invoke("context")
    assert result.exit_code == 0 and "withheld" in result.stdout and "cards lint" in result.stdout
    return both(result)


def ch_context_output(invoke: Invoke, p: Planted) -> str:
    out = p.root.parent / "ctx.md"
    result = invoke("context", "--output", str(out))
    assert result.exit_code == 0
    return both(result) + out.read_text(encoding="utf-8")


def ch_context_json(invoke: Invoke, p: Planted) -> str:
    result = invoke("context", "--format", "json")
    json.loads(result.stdout)
    return both(result)


def ch_search(invoke: Invoke, p: Planted) -> str:
    result = invoke("search", "staging bucket", "-n", "50", "--min-score", "1")
    assert "bucket-key" in result.stdout and "mirror-key" in result.stdout  # shown, redacted
    return both(result)


def ch_search_json(invoke: Invoke, p: Planted) -> str:
    result = invoke("search", "staging bucket", "-n", "50", "--min-score", "1", "--format", "json")
    assert len(json.loads(result.stdout)) >= 10  # every card but the two unusable ones
    return both(result)


def ch_show(invoke: Invoke, p: Planted) -> str:
    out = ""
    for card in ("bucket-key", "ci-token", "db-login", "mirror-key", "runner-token", "replica-login", "clipboard"):
        result = invoke("show", card)
        assert result.exit_code == (1 if card == "clipboard" else 0), both(result)  # clipboard: F012, shown escaped
        assert card == "clipboard" or "[redacted]" in result.stdout
        out += both(result)
    return out


def ch_show_json(invoke: Invoke, p: Planted) -> str:
    out = ""
    for card in ("bucket-key", "db-login", "mirror-key", "replica-login", "clipboard"):
        result = invoke("show", card, "--format", "json")
        json.loads(result.stdout)
        out += both(result)
    return out


def ch_list(invoke: Invoke, p: Planted) -> str:
    result = invoke("list")
    assert "bucket-key" in result.stdout
    return both(result) + both(invoke("list", "--all"))


def ch_list_json(invoke: Invoke, p: Planted) -> str:
    result = invoke("list", "--format", "json")
    assert len(json.loads(result.stdout)) == 10  # list --format json: usable cards
    return both(result)


def ch_status(invoke: Invoke, p: Planted) -> str:
    return both(invoke("status")) + both(invoke("status", "--format", "json"))


def ch_lint(invoke: Invoke, p: Planted) -> str:
    result = invoke("lint")
    assert result.exit_code == 1 and "C103" in result.stdout  # the two AWS keys: one slot, two values
    return both(result)


def ch_lint_formats(invoke: Invoke, p: Planted) -> str:
    out = ""
    for fmt in ("json", "json-lines", "github", "sarif"):
        result = invoke("lint", "--format", fmt)
        assert "C103" in result.stdout, fmt
        if fmt in ("json", "sarif"):
            json.loads(result.stdout)
        out += both(result)
    return out + both(invoke("lint", "--statistics"))


def ch_consolidate(invoke: Invoke, p: Planted) -> str:
    dry = invoke("consolidate", "--dry-run", "--all")
    dry_json = invoke("consolidate", "--dry-run", "--all", "--format", "json")
    json.loads(dry_json.stdout)
    done = invoke("consolidate", "--all")
    assert done.exit_code == 0, both(done)
    return both(dry) + both(dry_json) + both(done)


def ch_journal(invoke: Invoke, p: Planted) -> str:
    consolidated, superseded = invoke("consolidate", "--all"), invoke("supersede", "mirror-key", "bucket-key")
    assert consolidated.exit_code == 0 and superseded.exit_code == 0
    text, as_json = invoke("journal"), invoke("journal", "--format", "json")
    assert "supersede" in text.stdout
    json.loads(as_json.stdout)
    return both(text) + both(as_json) + journal_files(p.root)


def ch_undo(invoke: Invoke, p: Planted) -> str:
    consolidated = invoke("consolidate", "--all")
    assert consolidated.exit_code == 0
    result = invoke("undo")
    assert result.exit_code == 0, both(result)
    return both(result) + both(invoke("journal"))


def ch_add_refused(invoke: Invoke, p: Planted) -> str:
    secret = password()
    p.extra.append(secret)
    result = invoke("add", f"The nightly export job logs in with password = {secret} always")
    assert result.exit_code == 1 and "K10" in result.stderr, both(result)
    token = github()
    p.extra.append(token)
    return both(result) + both(invoke("add", "The nightly export runs at two", "-d", f"export token {token}"))


def ch_errors(invoke: Invoke, p: Planted) -> str:
    secret = password()
    p.extra.append(secret)
    result = invoke("show", f"password = {secret}")
    assert result.exit_code != 0 and "error" in result.stderr
    named = invoke("show", "\x1b]52;c;aGVsbG8=\x07")
    assert named.exit_code != 0
    # click's own usage errors quote the arguments too
    command = invoke(f"password={secret}")
    choice = invoke("list", "--type", f"password={secret}")
    assert command.exit_code == choice.exit_code == 2 and "[redacted]" in command.stderr + choice.stderr
    return both(result) + both(named) + both(command) + both(choice)


def ch_watch(invoke: Invoke, p: Planted) -> str:
    result = invoke("watch", "--once")
    assert result.exit_code == 1 and "C103" in result.stdout
    return both(result) + both(invoke("watch", "--once", "--format", "json-lines"))


def ch_import(invoke: Invoke, p: Planted) -> str:
    secret, token = password(), github()
    p.extra += [secret, token]
    notes = p.root.parent / "notes.md"
    notes.write_text(f"# Notes\n\n- The billing export logs in with password = {secret} every night.\n\n"
                     f"- The release bot posts with {token} to the channel.\n\n"
                     "- The export clipboard \x1b]52;c;aGVsbG8=\x07 trick is banned.\n", encoding="utf-8")
    text = invoke("import", str(notes))
    as_json = invoke("import", str(notes), "--format", "json")
    json.loads(as_json.stdout)
    return both(text) + both(as_json)


CHANNELS: dict[str, Callable[[Invoke, Planted], str]] = {
    name.removeprefix("ch_"): fn for name, fn in globals().items() if name.startswith("ch_")
}


@pytest.mark.parametrize("channel", sorted(CHANNELS))
def test_no_channel_shows_a_secret_or_a_control_character(channel: str, planted: Planted, invoke: Invoke) -> None:
    out = CHANNELS[channel](invoke, planted)
    assert out
    assert leaks(planted, out) == []


def test_show_reveal_prints_the_card_as_it_is(planted: Planted, invoke: Invoke) -> None:
    for card in ("bucket-key", "replica-login", "clipboard"):
        result = invoke("show", card, "--reveal")
        assert result.exit_code == (1 if card == "clipboard" else 0)  # clipboard: F012, reported on stderr
        assert result.stdout == (planted.root / f"{card}.md").read_text(encoding="utf-8")
    assert planted.secrets[0] in invoke("show", "bucket-key", "--reveal").stdout


def test_index_and_context_withhold_cards_with_secrets_and_keep_the_rest(planted: Planted, invoke: Invoke) -> None:
    (planted.root / "broken\x1b]52;c;aGVsbG8=\x07.md").unlink()
    (planted.root / "clipboard.md").unlink()  # F012: unusable until fixed, so never in the index at all
    # A clean card whose file name (its link) holds an escape; its description is the link text.
    (planted.root / "clip\x1b]52;c;aGVsbG8=\x07.md").write_text(
        card_text("Staging bucket clipboard paste rules"), encoding="utf-8")
    result = invoke("index")
    assert result.exit_code == 0  # the index is right; `cards lint` is what fails on the secrets
    assert result.stderr == "wrote INDEX.md (1 card)\n10 card(s) holding a secret withheld from INDEX.md; run `cards lint`\n"
    text = (planted.root / "INDEX.md").read_text(encoding="utf-8")
    links = [line for line in text.splitlines() if line.startswith("- [")]
    assert [line.split("](")[1].split(")")[0] for line in links] == ["clip%1B%5D52;c;aGVsbG8=%07.md"]
    assert "<!-- 10 cards withheld: they hold a secret; run `cards lint` -->" in text.splitlines()
    assert "- [Staging bucket clipboard paste rules](clip%1B" in text and "\x1b" not in text and "\x07" not in text
    context = invoke("context").stdout
    assert "(10 cards withheld: they hold a secret; run `cards lint`)" in context
    assert "Staging bucket clipboard paste rules" in context and "bucket-key" not in context


# --------------------------------------------------------------------------- real processes

def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDS_") and k != "PYTHONPATH"}
    env.update(HOME=str(home), CARDS_TODAY=TODAY, **extra)
    return env


def _cards(*args: str, home: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardindex", *args], env=_env(home, **extra), capture_output=True,
                          text=True, encoding="utf-8", errors="replace", timeout=60, check=False)


def test_the_lock_file_and_a_lock_timeout_never_hold_the_command_line(
    planted: Planted, fake_home: Path
) -> None:
    secret = password()
    planted.extra.append(secret)
    refused = _cards("--vault", str(planted.root), "add", f"The export job logs in with password = {secret} ok",
                     home=fake_home)
    assert refused.returncode == 1, refused.stderr
    lock = planted.root / ".cardindex" / "lock"
    recorded = lock.read_text(encoding="utf-8")
    assert recorded == f"pid {recorded.split()[1]} (cards add)\n"
    # A lock file left by an older version holds a whole command line: a timeout must not print it.
    lock.write_text(f"pid 1 (cards add The export job logs in with password = {secret} ok)\n", encoding="utf-8")
    fd = os.open(lock, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        waited = _cards("--vault", str(planted.root), "index", home=fake_home, CARDS_LOCK_TIMEOUT="0.2")
    finally:
        os.close(fd)
    assert waited.returncode != 0 and "locked by" in waited.stderr
    assert leaks(planted, recorded, waited.stdout, waited.stderr) == []


# --------------------------------------------------------------------------- MCP


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_no_mcp_tool_or_resource_shows_a_secret_or_a_control_character(
    planted: Planted, fake_home: Path, invoke: Invoke
) -> None:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    secret = password()
    planted.extra.append(secret)
    params = StdioServerParameters(command=sys.executable, args=["-m", "cardindex", "--vault", str(planted.root), "mcp"],
                                   env={"HOME": str(fake_home), "CARDS_TODAY": TODAY}, cwd=planted.root.parent)
    got: dict[str, str] = {}

    def said(result: Any) -> str:
        return "".join(getattr(block, "text", "") for block in result.content)

    log = planted.root.parent / "server-stderr.log"
    with log.open("w", encoding="utf-8") as errlog, anyio.fail_after(90):
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=60) as session,
        ):
            await session.initialize()
            for card in ("bucket-key", "ci-token", "db-login", "mirror-key", "replica-login", "clipboard"):
                got[f"read {card}"] = said(await session.call_tool("read", {"id": card}))
            found = await session.call_tool("search", {"query": "staging bucket", "limit": 50})
            assert len(json.loads(said(found))["hits"]) >= 10
            got["search"] = said(found)
            got["context"] = said(await session.call_tool("context", {}))
            assert "withheld" in got["context"]
            got["lint"] = said(await session.call_tool("lint", {}))
            assert "C103" in got["lint"]
            refused = await session.call_tool("add", {"text": f"The export job logs in with password = {secret} ok"})
            assert json.loads(said(refused))["written"] is False
            got["add"] = said(refused)
            got["supersede"] = said(await session.call_tool("supersede", {"old": "mirror-key", "new": "bucket-key"}))
            got["unknown card"] = said(await session.call_tool("read", {"id": f"password = {secret}"}))
            index = await session.read_resource("cards://index")
            got["cards://index"] = "".join(getattr(c, "text", "") for c in index.contents)
            assert "withheld" in got["cards://index"]
            card = await session.read_resource("cards://card/replica-login")
            got["cards://card"] = "".join(getattr(c, "text", "") for c in card.contents)
    leaking = {name: leaks(planted, out, json.dumps(json.loads(out), ensure_ascii=False) if out.startswith("{") else "")
               for name, out in got.items()}
    assert {name: found for name, found in leaking.items() if found} == {}
    assert log.read_text(encoding="utf-8") == ""
