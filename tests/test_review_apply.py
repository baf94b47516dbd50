"""Review before apply (issue 17): the numbered plan, `--diff`, `--only`/`--skip`, `--interactive`.

The cards here are a pottery studio's and a choir's facts, written for these tests.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardindex.lifecycle.plan import plan
from cardindex.lifecycle.review import compose, numbered
from cardindex.store.card import Card, parse
from cardindex.store.jobs import Step

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", f"type: {fields.pop('type', 'project')}"]
    lines += [f"{k}: {v}" for k, v in fields.items()]
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_text("\n".join([*lines, "---", body, ""]), encoding="utf-8")


def studio(root: Path) -> Path:
    """Four decisions: an archive (1), a conflict (2), a supersession (3), a merge (4)."""
    put(root, "kiln-old.md", "Firing temperature of the glaze kiln", "The glaze kiln fires at 1,220 °C.",
        key="kiln-temp", verified="2026-02-01")
    put(root, "kiln-new.md", "Firing temperature of the glaze kiln", "The glaze kiln fires at 1,240 °C.",
        key="kiln-temp", verified="2026-08-01")
    put(root, "ferry-a.md", "When the island ferry leaves the harbour", "The island ferry leaves the harbour at 07:10.",
        verified="2026-05-01")
    put(root, "ferry-b.md", "When the island ferry leaves the harbour",
        "The island ferry leaves the harbour at 07:10 every day.", verified="2026-07-01")
    put(root, "choir-wed.md", "Which evening the choir rehearses", "The choir rehearses on Wednesday evenings.",
        key="choir-evening", verified="2026-06-01")
    put(root, "choir-fri.md", "Which evening the choir rehearses", "The choir rehearses on Friday evenings.",
        key="choir-evening", verified="2026-06-01")
    put(root, "fair.md", "Dates of the autumn craft fair", "The autumn craft fair runs 3-5 October.",
        expires="2026-10-06")
    put(root, "bike-keys.md", "Where the spare bike keys hang", "The spare bike keys hang in the hallway cupboard.",
        type="reference")
    return root


def files(root: Path) -> dict[str, bytes]:
    """The vault's files, without its local state."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".cardindex" not in p.relative_to(root).parts}


def dry(invoke: Invoke, *args: str) -> dict[str, object]:
    result = invoke("consolidate", "--dry-run", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    out: dict[str, object] = json.loads(result.stdout)
    return out


def test_the_dry_run_numbers_every_decision(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    text = invoke("consolidate", "--dry-run")
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert [line.split()[:2] for line in lines[:4]] == [["1.", "archive"], ["2.", "conflict"], ["3.", "supersede"],
                                                        ["4.", "merge"]]
    assert lines[2] == ("  3. supersede  kiln-old → kiln-new  "
                        "(key 'kiln-temp': newer value in kiln-new (this one: 2026-02-01))")
    decisions = dry(invoke)["decisions"]
    assert isinstance(decisions, list)
    assert [(d["number"], d["action"], d["card"]) for d in decisions] == [
        (1, "archive", "fair"), (2, "conflict", "choir-fri"), (3, "supersede", "kiln-old"), (4, "merge", "ferry-b")]


def test_diff_shows_each_change_with_its_reason_and_writes_nothing(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    assert invoke("index").exit_code == 0
    before = files(vault)
    result = invoke("consolidate", "--dry-run", "--diff")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    # the supersession: its reason in words, then the old path removed and the archived one added
    part = out[out.index("  3. supersede"):out.index("  4. merge")]
    assert "kiln-old is replaced by kiln-new, which holds a newer value for the same thing" in part
    assert "--- a/kiln-old.md\n+++ /dev/null\n" in part
    assert "--- /dev/null\n+++ b/archive/kiln-old.md\n" in part
    assert "+status: superseded\n+superseded_by: kiln-new\n" in part
    assert "--- a/kiln-new.md\n+++ b/kiln-new.md\n" in part and "+supersedes: kiln-old\n" in part
    merge = out[out.index("  4. merge"):]
    assert "ferry-a says the same as ferry-b" in merge and "+merged_from: ferry-a\n" in merge
    assert "+++ b/archive/ferry-a.md" in merge and "+merged_into: ferry-b\n" in merge
    conflict = out[out.index("  2. conflict"):out.index("  3. supersede")]
    assert "both are marked conflict and stay live" in conflict and conflict.count("+status: conflict\n") == 2
    assert files(vault) == before
    assert invoke("journal", "--format", "json").stdout.strip() in ("[]", "")
    # --diff alone previews too; JSON carries each diff and its words
    assert "nothing written" in invoke("consolidate", "--diff").stdout and files(vault) == before
    decisions = dry(invoke, "--diff")["decisions"]
    assert isinstance(decisions, list) and all(d["diff"] and d["explained"] for d in decisions)


def test_only_applies_the_chosen_decisions_as_one_undoable_job(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    assert invoke("index").exit_code == 0
    before = files(vault)
    dry(invoke)
    result = invoke("consolidate", "--only", "3,4")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1].startswith("job ") and "2 decision(s) of 4 (skipped: 1,2)" in result.stdout
    after = files(vault)
    assert "archive/kiln-old.md" in after and "archive/ferry-a.md" in after
    assert "fair.md" in after and b"status: conflict" not in after["choir-fri.md"]  # 1 and 2 were not applied
    assert after["bike-keys.md"] == before["bike-keys.md"]
    jobs = json.loads(invoke("journal", "--format", "json").stdout)
    assert len(jobs) == 1
    # what was skipped is proposed again, renumbered
    again = dry(invoke)["decisions"]
    assert isinstance(again, list) and [(d["number"], d["action"]) for d in again] == [(1, "archive"), (2, "conflict")]
    undone = invoke("undo")
    assert undone.exit_code == 0, undone.stderr
    assert files(vault) == before


def test_skip_applies_all_but_the_named(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    dry(invoke)
    result = invoke("consolidate", "--skip", "2")
    assert result.exit_code == 0, result.stderr
    assert "3 decision(s) of 4 (skipped: 2)" in result.stdout
    assert not (vault / "fair.md").exists() and not (vault / "kiln-old.md").exists()
    assert b"status" not in (vault / "choir-wed.md").read_bytes()


def test_a_merge_group_is_applied_whole(invoke: Invoke, vault: Path) -> None:
    put(vault, "glaze-1.md", "Which glaze the studio mugs get", "Studio mugs get the celadon glaze.", verified="2026-01-10")
    put(vault, "glaze-2.md", "Which glaze the studio mugs get", "The studio mugs get the celadon glaze.",
        verified="2026-03-10")
    put(vault, "glaze-3.md", "Which glaze the studio mugs get", "Studio mugs always get the celadon glaze.",
        verified="2026-05-10")
    decisions = dry(invoke)["decisions"]
    assert isinstance(decisions, list) and len(decisions) == 1 and decisions[0]["action"] == "merge"
    assert invoke("consolidate", "--only", "1").exit_code == 0
    live = sorted(p.name for p in vault.glob("glaze-*.md"))
    assert len(live) == 1 and len(list((vault / "archive").glob("glaze-*.md"))) == 2


def test_two_decisions_on_one_card_compose(invoke: Invoke, vault: Path) -> None:
    """Two older values superseded by one card: each decision alone adds only its own id to `supersedes`."""
    for day, temp in (("2026-01-01", "1,200"), ("2026-03-01", "1,220"), ("2026-09-01", "1,260")):
        put(vault, f"kiln-{day}.md", "Firing temperature of the glaze kiln", f"The glaze kiln fires at {temp} °C.",
            key="kiln-temp", verified=day)
    decisions = dry(invoke)["decisions"]
    assert isinstance(decisions, list) and [d["action"] for d in decisions] == ["supersede", "supersede"]
    second = decisions[1]["card"]
    assert invoke("consolidate", "--only", "2").exit_code == 0
    winner = (vault / "kiln-2026-09-01.md").read_text(encoding="utf-8")
    assert f"supersedes: {second}\n" in winner
    assert (vault / f"{decisions[0]['card']}.md").exists()


def test_refused_when_a_card_of_the_plan_changed_since_the_dry_run(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    dry(invoke)
    with (vault / "kiln-new.md").open("a", encoding="utf-8") as fh:
        fh.write("Measured with the new thermocouple.\n")
    before = files(vault)
    result = invoke("consolidate", "--only", "1")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: the vault (or the options) changed since `cards consolidate --dry-run`")
    assert len(result.stderr.splitlines()) == 1 and files(vault) == before


def test_refused_with_other_options_than_the_dry_run(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    dry(invoke)
    result = invoke("consolidate", "--only", "1", "--now", "2026-10-01")
    assert result.exit_code == 1 and "changed since" in result.stderr


def test_refused_without_a_dry_run_and_once_the_numbers_are_spent(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    first = invoke("consolidate", "--only", "1")
    assert first.exit_code == 1 and "run `cards consolidate --dry-run` first" in first.stderr
    dry(invoke)
    assert invoke("consolidate", "--only", "1").exit_code == 0
    spent = invoke("consolidate", "--only", "2")
    assert spent.exit_code == 1 and "--dry-run" in spent.stderr


def test_usage_errors(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    dry(invoke)
    for args, words in ((["--only", "9"], "no decision 9"), (["--only", "two"], "not a list"),
                        (["--only", "1", "--skip", "2"], "not both"), (["--dry-run", "--only", "1"], "--dry-run"),
                        (["--only", "0"], "no decision 0"), (["--interactive", "--format", "json"], "terminal")):
        result = invoke("consolidate", *args)
        assert result.exit_code == 2, (args, result.stderr)
        assert words in result.stderr and "Traceback" not in result.stderr
    assert (vault / "fair.md").exists()


def test_interactive_refuses_without_a_terminal(invoke: Invoke, vault: Path) -> None:
    studio(vault)
    result = invoke("consolidate", "--interactive", input="y\n")
    assert result.exit_code == 1 and "terminal" in result.stderr
    assert (vault / "fair.md").exists()


def test_interactive_asks_per_decision_on_a_terminal(tmp_path: Path, vault: Path) -> None:
    studio(vault)
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PYTHONPATH")}
    env.update(CARDS_TODAY="2026-11-30", HOME=str(tmp_path / "home"), TERM="xterm")
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cardindex", "--vault", str(vault), "consolidate", "-i"],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    seen = b""
    answers = iter([b"d\n", b"y\n", b"n\n", b"y\n", b"n\n"])  # 1: diff, then yes; 2: no; 3: yes; 4: no
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        seen += chunk
        if seen.rstrip().endswith(b"[y,n,q,d]"):
            os.write(master, next(answers))
            seen += b"\n<answered>\n"
    code = proc.wait(timeout=60)
    os.close(master)
    text = seen.decode("utf-8", "replace")
    assert code == 0, (text, proc.stderr.read() if proc.stderr else b"")
    assert "apply 1 of 4? [y,n,q,d]" in text and "fair no longer holds" in text
    assert "+++ b/archive/fair.md" in text  # the d answer showed the diff
    assert "2 decision(s) of 4 (skipped: 2,4)" in text
    assert not (vault / "fair.md").exists() and not (vault / "kiln-old.md").exists()
    assert (vault / "ferry-a.md").exists() and b"conflict" not in (vault / "choir-fri.md").read_bytes()


def test_interactive_q_stops_asking(vault: Path) -> None:
    studio(vault)
    from cardindex.cli.review import ask  # the prompt loop alone, fed answers
    from cardindex.store.vault import Vault

    v = Vault(vault)
    cards = v.cards
    items = numbered(cards, now=dt.date(2026, 11, 30)).items
    answers = iter(["x", "y", "q"])
    shown: list[str] = []
    assert ask(v, items, {}, read=lambda _p: next(answers), write=shown.append) == [1]
    assert any("y: apply this decision" in s for s in shown)  # an unknown answer explains the keys


# ------------------------------------------------------------------ composing every decision is the plan


WORDS = ["kiln", "glaze", "ferry", "choir", "bike", "loom"]


@st.composite
def vaults(draw: st.DrawFn) -> list[Card]:
    out = []
    for n in range(draw(st.integers(min_value=2, max_value=9))):
        subject = draw(st.sampled_from(WORDS))
        value = draw(st.sampled_from(["Monday", "Friday", "07:10", "1,240", "celadon", "Friday"]))
        fields = [f"description: When the {subject} is ready", "type: project"]
        if draw(st.booleans()):
            fields.append(f"key: {subject}-day")
        day = draw(st.sampled_from(["2026-01-05", "2026-04-05", "2026-04-05", "2026-09-05", None]))
        if day:
            fields.append(f"verified: {day}")
        if draw(st.integers(0, 6)) == 0:
            fields.append("expires: 2026-02-01")
        if draw(st.integers(0, 6)) == 0:
            fields.append("lock: true")
        text = "\n".join(["---", *fields, "---", f"The {subject} is ready on {value}.", ""])
        out.append(Card(f"c{n}.md", text, *parse(text)))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=vaults())
def test_every_decision_together_is_exactly_the_plan(cards: list[Card]) -> None:
    now = dt.date(2026, 11, 30)
    whole = plan(cards, now=now)
    listed = numbered(cards, now=now)
    assert [(i.action, i.card, i.related, i.reason) for i in listed.items] == [
        (d.action, d.card, d.related, d.reason) for d in whole.decisions]

    def key(s: Step) -> tuple[object, ...]:
        return (s.card.path, s.op, sorted((k, repr(v)) for k, v in s.updates.items()), s.action, s.reason)

    assert sorted(map(key, compose(listed, range(len(listed.items))))) == sorted(map(key, whole.steps))
    for item in listed.items:  # each decision alone changes only cards the whole plan changes
        assert {s.card.path for s in item.steps} <= {s.card.path for s in whole.steps}


def test_the_doubled_studio_composes_to_the_plan(tmp_path: Path) -> None:
    """The studio vault twice over (a copy in a subfolder): every decision together is the plan's steps."""
    root = studio(tmp_path / "v")
    studio(tmp_path / "v" / "annex")
    cards = [Card(p.relative_to(root).as_posix(), p.read_text(encoding="utf-8"),
                  *parse(p.read_text(encoding="utf-8"))) for p in sorted(root.rglob("*.md"))]
    now = dt.date(2026, 11, 30)
    whole, listed = plan(cards, now=now), numbered(cards, now=now)
    assert len(compose(listed, range(len(listed.items)))) == len(whole.steps) > 0
