"""`cards import`: existing memory in, one candidate card per fact, through the write gate.

Everything runs through the CLI. The fixtures under tests/fixtures/import/ are hand
written: CLAUDE.md is a monolithic agent memory file (sections, bullets, a statement
made twice, a session-only note, a fake but pattern-valid AWS key, a sentence the code
already says, a table, an index line); 2026-11-03.md is a daily raw log.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "import"
FAKE_KEY = "AKIAJ7LEDGERLYTEST42"  # matches the AWS key pattern; not a real key

# CLAUDE.md, line by line: what the gate decides (with a repo that defines compute_total).
ACCEPTED = {3: "project", 7: "user", 8: "user", 9: "user", 14: "project", 15: "project", 19: "project",
            20: "project", 31: "project", 45: "reference"}
REFUSED = {16: {"session"}, 17: {"secret"}, 18: {"derivable"}, 27: {"session"}, 40: {"duplicate"}}
SKIPPED = {34: "a table", 41: "an index line pointing to deploy-day.md"}


@pytest.fixture
def claude_md(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """CLAUDE.md copied into the working folder, so `source:` reads CLAUDE.md:LINE."""
    (tmp_path / "CLAUDE.md").write_bytes((FIXTURES / "CLAUDE.md").read_bytes())
    monkeypatch.chdir(tmp_path)
    return "CLAUDE.md"


@pytest.fixture
def daily_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "2026-11-03.md").write_bytes((FIXTURES / "2026-11-03.md").read_bytes())
    monkeypatch.chdir(tmp_path)
    return "2026-11-03.md"


@pytest.fixture
def repo_vault(vault: Path, tmp_path: Path) -> Path:
    """The vault, compared against a small code repo that defines compute_total()."""
    code = tmp_path / "code" / "src"
    code.mkdir(parents=True)
    (code / "billing.py").write_text(
        'def compute_total(lines):\n    """The invoice sum in cents."""\n    return sum(l.cents for l in lines)\n',
        encoding="utf-8",
    )
    with (vault / ".cardindex.yaml").open("a", encoding="utf-8") as fh:
        fh.write("repo: ../code\n")
    return vault


def report(result) -> dict:
    assert result.stdout, result.stderr
    return json.loads(result.stdout)


def by_line(data: dict) -> dict[int, dict]:
    return {c["line"]: c for c in data["candidates"]}


def user_files(root: Path, snapshot) -> dict[str, bytes]:
    """The vault as a person sees it: every file but .cardindex/ (cache, journal)."""
    return snapshot(root, state=False)


# --------------------------------------------------------------------------- a monolithic file


def test_report_says_which_candidates_are_accepted_and_refused(invoke, repo_vault, claude_md, snapshot):
    before = snapshot(repo_vault)
    result = invoke("import", claude_md, "--format", "json")
    assert result.exit_code == 1, result.stderr  # something was refused
    data = report(result)
    lines = by_line(data)
    assert {n for n, c in lines.items() if c["verdict"] == "accept"} == set(ACCEPTED)
    assert {n: c["type"] for n, c in lines.items() if n in ACCEPTED} == ACCEPTED
    assert {n: {f["category"] for f in c["findings"]} for n, c in lines.items() if c["verdict"] == "refuse"} == REFUSED
    assert {s["line"]: s["reason"] for s in data["skipped"]}.keys() == SKIPPED.keys()
    for s in data["skipped"]:
        assert s["reason"].startswith(SKIPPED[s["line"]])
    assert data["summary"] == {
        "files": 1, "candidates": 15, "accepted": 10, "refused": 5,
        "refused_by_category": {"derivable": 1, "duplicate": 1, "secret": 1, "session": 2}, "skipped": 2,
    }
    assert data["applied"] is False and data["job"] is None
    # The second "use pnpm" is refused as a duplicate of the first, named by where it came from.
    assert lines[40]["findings"][0]["code"] == "U101"
    assert lines[40]["findings"][0]["related"] == ["CLAUDE.md:9"]
    assert {f["code"] for f in lines[16]["findings"]} == {"S101", "S103"}
    assert {f["code"] for f in lines[27]["findings"]} == {"S102"}
    assert {f["code"] for f in lines[18]["findings"]} == {"D102"}
    # Nothing is written without --apply: not a card, not the index, not the journal.
    after = snapshot(repo_vault)
    assert {k: v for k, v in after.items() if not k.startswith(".cardindex/cache/")} == {
        k: v for k, v in before.items() if not k.startswith(".cardindex/cache/")
    }


def test_candidates_carry_text_description_section_and_provenance(invoke, repo_vault, claude_md):
    lines = by_line(report(invoke("import", claude_md, "--format", "json")))
    pnpm = lines[9]
    assert pnpm["text"] == ("Use pnpm, never npm, for every script in the web/ package.\n"
                            "The lockfile is pnpm-lock.yaml; npm rewrites it and breaks CI.")
    assert pnpm["description"] == "Use pnpm, never npm, for every script in the web/ package."
    assert pnpm["section"] == "CLAUDE.md — notes for the agent on the ledgerly repo > Preferences"
    assert pnpm["source"] == "CLAUDE.md" and pnpm["origin"] == "split"
    assert pnpm["path"] == "use-pnpm-never-npm-for-every-script-in.md"  # cut: the index line must stay short
    # The code block belongs to the statement that introduces it.
    assert lines[20]["text"] == ("The e2e suite needs a local Postgres 16 on port 5433:\n\n"
                                 "```bash\ndocker run -d -p 5433:5432 postgres:16\n```")
    # A paragraph wrapped over two lines is one fact, its description one line.
    assert lines[31]["text"].count("\n") == 1
    assert lines[31]["description"].startswith("Background jobs run on the queue worker, not in request handlers")
    assert "\n" not in lines[31]["description"]


def test_text_report_lists_each_verdict_and_the_summary(invoke, repo_vault, claude_md):
    result = invoke("import", claude_md)
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert out[0] == ("CLAUDE.md:3: accept [project] Ledgerly is the invoicing service for the Nordics; the public "
                      "API must stay backwards compatible… -> ledgerly-is-the.md")
    assert ("CLAUDE.md:40: refuse [project] Use pnpm, never npm, for every script in the web/ package.") in out
    duplicate = out.index("CLAUDE.md:40: refuse [project] Use pnpm, never npm, for every script in the web/ package.")
    assert out[duplicate + 1].startswith("    U101 duplicate: the same fact in other words as ")
    assert out[duplicate + 1].endswith("(from CLAUDE.md:9, earlier in this import)")
    assert "CLAUDE.md:34: skip a table (3 lines) is not one fact; add what it says as cards by hand" in out
    assert [line for line in out if line.startswith("CLAUDE.md:")][-1].startswith("CLAUDE.md:45: accept [reference]")
    assert out[-1] == ("15 candidate(s), 10 accepted, 5 refused (derivable 1, duplicate 1, secret 1, session 2), "
                       "2 skipped. Nothing written: run again with --apply to write the 10 accepted card(s).")
    assert "index line(s) linking to card files" in result.stderr


def test_a_secret_is_never_printed(invoke, vault, claude_md):
    for fmt in ("text", "json"):
        result = invoke("import", claude_md, "--format", fmt)
        assert FAKE_KEY not in result.stdout + result.stderr
        assert "AKIA…(20 chars, redacted)" in result.stdout
    line = by_line(report(invoke("import", claude_md, "--format", "json")))[17]
    assert line["verdict"] == "refuse" and line["withheld"] is True
    assert line["text"] is None and line["description"] is None
    text = invoke("import", claude_md).stdout
    assert "CLAUDE.md:17: refuse [project] (text withheld: it holds a secret)" in text
    assert text.count("K101") == 1  # the key sits in the description and the body: one finding shown


def test_the_repo_is_read_once_per_import(invoke, repo_vault, claude_md, monkeypatch):
    """The gate reviews card by card; reading the repo for each would cost 0.3 s a candidate."""
    from cardindex.meaning import repo_facts as repo

    reads = []
    real = repo.load_repo_facts

    def counted(root, vault):
        reads.append(root)
        return real(root, vault)

    monkeypatch.setattr(repo, "load_repo_facts", counted)
    result = invoke("import", claude_md, "--format", "json")
    assert by_line(report(result))[18]["verdict"] == "refuse"  # the repo was read: compute_total is derivable
    assert len(reads) == 1


def test_a_notes_file_kept_in_the_repos_docs_is_not_evidence_against_itself(invoke, repo_vault, tmp_path):
    code = tmp_path / "code"
    (code / "README.md").write_text("The billing service retries failed webhooks five times with backoff.\n",
                                    encoding="utf-8")
    (code / "docs").mkdir()
    notes = code / "docs" / "agent-notes.md"
    notes.write_text("- Invoices are numbered per country and never reused after a cancellation.\n"
                     "- The billing service retries failed webhooks five times with backoff.\n", encoding="utf-8")
    lines = by_line(report(invoke("import", str(notes), "--format", "json")))
    assert lines[1]["verdict"] == "accept"  # docs/agent-notes.md says it, but that is the file being imported
    assert [(f["code"], f["message"]) for f in lines[2]["findings"]] == [("D105", "README.md line 1 already says this")]


def test_without_a_repo_nothing_is_derivable(invoke, vault, claude_md):
    lines = by_line(report(invoke("import", claude_md, "--format", "json")))
    assert lines[18]["verdict"] == "accept"


# --------------------------------------------------------------------------- --apply, undo, re-import


def test_apply_writes_exactly_the_accepted_cards_as_one_job(invoke, repo_vault, claude_md, snapshot):
    before = user_files(repo_vault, snapshot)
    result = invoke("import", claude_md, "--apply", "--format", "json")
    assert result.exit_code == 1  # refusals are still reported as such
    data = report(result)
    assert data["applied"] is True and data["job"]
    accepted = {c["path"]: c for c in data["candidates"] if c["verdict"] == "accept"}
    after = user_files(repo_vault, snapshot)
    new = set(after) - set(before)
    assert new == set(accepted)
    assert len(new) == len(ACCEPTED)
    for path, cand in accepted.items():
        text = after[path].decode("utf-8")
        assert f"\nsource: CLAUDE.md:{cand['line']}\n" in text
        assert f"\ntype: {cand['type']}\n" in text
        assert "\ncreated: 2026-11-30\n" in text
        assert text.endswith("---\n" + cand["text"] + "\n")
        assert f"]({path})\n" in after["INDEX.md"].decode("utf-8")  # no name: the description is the link text
    assert FAKE_KEY.encode() not in b"".join(after.values())
    # One journalled job, one action per card.
    journal = json.loads(invoke("journal", "--format", "json").stdout)
    assert journal[0]["id"] == data["job"] and journal[0]["command"] == "import"
    assert sorted(a["card"] + ".md" for a in journal[0]["actions"]) == sorted(accepted)
    assert {a["action"] for a in journal[0]["actions"]} == {"add"}
    # The cards it wrote are clean cards.
    lint = invoke("lint")
    assert lint.exit_code == 0, lint.stdout


def test_apply_text_output_names_the_job(invoke, vault, claude_md):
    result = invoke("import", claude_md, "--apply")
    assert result.exit_code == 1
    last = result.stdout.splitlines()[-1]
    assert last.startswith("15 candidate(s), 11 accepted, 4 refused (duplicate 1, secret 1, session 2), 2 skipped. "
                           "Wrote 11 card(s) as job ")
    assert last.endswith("; `cards undo` removes them.")


def test_one_undo_removes_the_whole_import(invoke, vault, claude_md, snapshot):
    before = user_files(vault, snapshot)
    assert invoke("import", claude_md, "--apply").exit_code == 1
    assert len(user_files(vault, snapshot)) == len(before) + 11
    undo = invoke("undo")
    assert undo.exit_code == 0, undo.stderr
    assert user_files(vault, snapshot) == before


def test_reimporting_after_apply_refuses_everything_as_duplicates(invoke, vault, claude_md, snapshot):
    assert invoke("import", claude_md, "--apply").exit_code == 1
    written = user_files(vault, snapshot)
    result = invoke("import", claude_md, "--apply", "--format", "json")
    assert result.exit_code == 1
    data = report(result)
    assert data["summary"]["accepted"] == 0 and data["job"] is None
    for cand in data["candidates"]:
        assert cand["verdict"] == "refuse"
        if cand["line"] in ACCEPTED or cand["line"] == 40:
            assert [f["category"] for f in cand["findings"]] == ["duplicate"], cand
    assert user_files(vault, snapshot) == written


def test_a_fact_already_in_the_vault_is_refused_and_names_the_card(invoke, vault, claude_md, write_card, make_card):
    write_card(vault, "deploys.md", make_card("Which weekday production deploys happen",
                                              body="Production deploys happen on Thursdays only, after the 14:00 "
                                                   "UTC billing batch."))
    line = by_line(report(invoke("import", claude_md, "--format", "json")))[14]
    assert line["verdict"] == "refuse"
    assert [(f["code"], f["related"]) for f in line["findings"]] == [("U101", ["deploys.md"])]


def test_an_existing_card_is_never_overwritten(invoke, vault, write_card, make_card):
    taken = write_card(vault, "grafana-board-for-invoice-latency.md",
                       make_card("Where the on-call rota lives", body="The on-call rota is in PagerDuty."))
    original = taken.read_bytes()
    result = invoke("import", "--apply", "--format", "json", "-", input="Grafana board for invoice latency\n")
    (cand,) = report(result)["candidates"]
    assert cand["verdict"] == "accept"
    assert cand["path"] == "grafana-board-for-invoice-latency-2.md"
    assert taken.read_bytes() == original


def test_a_very_short_fact_gets_its_heading_as_context(invoke, vault):
    data = report(invoke("import", "-", "--format", "json", input="## Deploy day\n\n- Thursdays only\n"))
    assert data["candidates"][0]["description"] == "Deploy day: Thursdays only"


def test_a_failed_write_rolls_the_whole_import_back(invoke, vault, claude_md, snapshot, monkeypatch):
    from cardindex.store import jobs as import_  # where the cards are created

    real = import_.create_new
    calls = []

    def disk_full_on_the_third(target, data):
        calls.append(target)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(target, data)

    monkeypatch.setattr(import_, "create_new", disk_full_on_the_third)
    before = user_files(vault, snapshot)
    result = invoke("import", claude_md, "--apply")
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr and "rolled back 2 file(s)" in result.stderr
    assert user_files(vault, snapshot) == before
    assert "Nothing written" not in result.stdout  # it failed before reporting


# --------------------------------------------------------------------------- splitting


def split(invoke, tmp_path: Path, text: str, *args: str) -> dict:
    (tmp_path / "notes.md").write_text(text, encoding="utf-8")
    return report(invoke("import", str(tmp_path / "notes.md"), "--format", "json", *args))


def test_bullets_fold_continuations_and_nested_bullets(invoke, tmp_path):
    data = split(invoke, tmp_path, (
        "1. Run the formatter before committing,\n"
        "   not after the review.\n"
        "2. Deploys to production go through ArgoCD:\n"
        "   - staging syncs on every merge\n"
        "   - production needs a manual sync\n"
        "\n"
        "   Ask in #deploys when a sync is stuck.\n"
        "-\n"
        "* \n"
        "- [ ] rename the billing queue\n"
    ))
    texts = [(c["line"], c["text"]) for c in data["candidates"]]
    assert texts == [
        (1, "Run the formatter before committing,\nnot after the review."),
        (3, ("Deploys to production go through ArgoCD:\n- staging syncs on every merge\n"
            "- production needs a manual sync\n\nAsk in #deploys when a sync is stuck.")),
        (10, "- [ ] rename the billing queue"),  # a to-do keeps its checkbox, so the gate sees one
    ]
    assert data["candidates"][2]["verdict"] == "refuse"
    assert data["skipped"] == []  # empty bullets are nothing, not even a note


def test_headings_give_the_type(invoke, tmp_path):
    data = split(invoke, tmp_path, (
        "# Memory\n\nThe billing service is written in Go 1.22.\n\n"
        "## Preferences\n\n- Dana reads code reviews in the morning only.\n\n"
        "## Feedback\n\n- Keep commit subjects under 60 characters.\n\n"
        "## References\n\n- Invoice latency dashboard: https://grafana.example.com/d/inv\n\n"
        "## Architecture\n\n### Gotchas\n\n- The ledger table is append-only; corrections are new rows.\n\n"
        "Misc\n----\n\n- The Oslo office closes at 16:00 on Fridays.\n"
    ))
    assert [(c["line"], c["type"]) for c in data["candidates"]] == [
        (3, "project"), (7, "user"), (11, "feedback"), (15, "reference"), (21, "project"), (26, "project"),
    ]
    assert data["candidates"][4]["section"] == "Memory > Architecture > Gotchas"
    assert data["candidates"][5]["section"] == "Memory > Misc"  # a setext heading
    # --type is the type for sections that suggest none.
    typed = split(invoke, tmp_path, "- The Oslo office closes at 16:00 on Fridays.\n", "--type", "reference")
    assert typed["candidates"][0]["type"] == "reference"


def test_a_table_or_code_block_goes_with_the_statement_that_introduces_it(invoke, tmp_path):
    data = split(invoke, tmp_path, (
        "## Ports\n\n"
        "Local services listen on these ports:\n"
        "| service | port |\n| --- | --- |\n| api | 8080 |\n\n"
        "```sh\nmake dev\n```\n"
    ))
    assert [(c["line"], c["text"]) for c in data["candidates"]] == [
        (3, ("Local services listen on these ports:\n| service | port |\n| --- | --- |\n| api | 8080 |\n\n"
            "```sh\nmake dev\n```")),
    ]
    assert data["skipped"] == []


def test_frontmatter_comments_lone_tables_and_code_are_not_facts(invoke, tmp_path):
    data = split(invoke, tmp_path, (
        "---\ntitle: notes\n---\n"
        "<!-- kept by hand\nsince 2025 -->\n"
        "## Owners\n\n"
        "| owner | team |\n| --- | --- |\n\n"
        "```sh\nmake dev\n```\n"
    ))
    assert data["candidates"] == []
    assert [(s["line"], s["reason"]) for s in data["skipped"]] == [
        (1, "frontmatter (lines 1-3) is not a fact"),
        (8, "a table (2 lines) is not one fact; add what it says as cards by hand"),
        (11, "a code block with no statement before it is not a fact"),
    ]


def test_a_long_paragraph_is_skipped_with_a_note(invoke, tmp_path):
    long = " ".join(["The billing service retries failed webhooks with backoff."] * 30)
    data = split(invoke, tmp_path, f"{long}\n\n- Deploys happen on Thursdays only.\n")
    assert [c["line"] for c in data["candidates"]] == [3]
    assert data["skipped"][0]["line"] == 1
    assert "holds more than one fact" in data["skipped"][0]["reason"]


def test_an_index_file_is_not_facts(invoke, vault, tmp_path):
    (tmp_path / "mem").mkdir()
    (tmp_path / "mem" / "MEMORY.md").write_text(
        "# Memory\n\n- [Deploy day](deploy-day.md) — Which weekday production deploys happen\n"
        "- [Owner](billing/owner.md): Who owns billing\n",
        encoding="utf-8",
    )
    result = invoke("import", str(tmp_path / "mem" / "MEMORY.md"))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "0 candidate(s), 0 accepted, 0 refused, 2 skipped. Nothing written."
    assert f"cards init {tmp_path / 'mem'} --index-file MEMORY.md" in result.stderr


def test_stdin_and_exit_zero(invoke, vault):
    result = invoke("import", "-", "--format", "json", input="## Rules\n\n- Never force-push to main.\n")
    assert result.exit_code == 0
    (cand,) = report(result)["candidates"]
    assert (cand["source"], cand["line"], cand["type"], cand["verdict"]) == ("stdin", 3, "feedback", "accept")
    refused = invoke("import", "-", input="- We're currently halfway through the billing refactor.\n")
    assert refused.exit_code == 1
    assert invoke("import", "-", "--exit-zero", input="- We're currently halfway through the refactor.\n").exit_code == 0


def test_a_daily_log_without_from_log_gets_a_hint(invoke, vault, daily_log):
    result = invoke("import", daily_log)
    assert "looks like a daily log; `cards import --from-log`" in result.stderr


# --------------------------------------------------------------------------- a Claude Code memory dir


HAND_KEPT = (
    "# Memory\n\n"
    "- [Deploy day](deploy-day.md) — Which weekday production deploys happen\n"
    "- The user's name is Dana; she reviews every billing PR.\n"
    "- Staging is reset every Monday at 06:00 UTC.\n"
    "- Currently halfway through the auth refactor.\n"
)
DEPLOY_DAY = "---\nname: Deploy day\ndescription: Which weekday production deploys happen\ntype: project\n---\nThursdays.\n"


@pytest.fixture
def memory_dir(tmp_path: Path, write_card) -> Path:
    root = tmp_path / "memory"
    write_card(root, "deploy-day.md", DEPLOY_DAY)
    write_card(root, "MEMORY.md", HAND_KEPT)
    return root


def test_importing_the_hand_kept_memory_md_moves_its_facts_into_cards(run_cli, memory_dir):
    assert run_cli("--vault", str(memory_dir), "index").exit_code == 1  # it holds facts of its own
    result = run_cli("--vault", str(memory_dir), "import", str(memory_dir / "MEMORY.md"), "--apply")
    assert result.exit_code == 1  # the session note was refused
    assert "MEMORY.md was the vault's hand-kept index: replaced by the generated one" in result.stderr
    index = (memory_dir / "MEMORY.md").read_text(encoding="utf-8")
    assert index.startswith("<!-- Generated by cards")
    assert "- [Deploy day](deploy-day.md) — Which weekday production deploys happen" in index
    assert "- [Staging is reset every Monday at 06:00 UTC.](staging-is-reset-every-monday-at-06-00-utc.md)" in index
    assert "halfway" not in index
    assert run_cli("--vault", str(memory_dir), "index", "--check").exit_code == 0


def test_undoing_that_import_restores_the_hand_kept_file(run_cli, memory_dir, snapshot):
    before = snapshot(memory_dir, state=False)
    run_cli("--vault", str(memory_dir), "import", str(memory_dir / "MEMORY.md"), "--apply")
    run_cli("--vault", str(memory_dir), "undo")
    assert snapshot(memory_dir, state=False) == before


def test_undoing_that_import_exits_zero(run_cli, memory_dir):
    run_cli("--vault", str(memory_dir), "import", str(memory_dir / "MEMORY.md"), "--apply")
    result = run_cli("--vault", str(memory_dir), "undo")
    assert result.exit_code == 0, result.stderr
    assert "MEMORY.md is kept by hand again" in result.stderr


def test_a_hand_kept_index_blocks_importing_another_file(run_cli, memory_dir, tmp_path, snapshot):
    (tmp_path / "notes.md").write_text("- Invoices are numbered per country.\n", encoding="utf-8")
    before = snapshot(memory_dir, state=False)
    result = run_cli("--vault", str(memory_dir), "import", str(tmp_path / "notes.md"), "--apply")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: MEMORY.md:4: not generated by cards")
    assert snapshot(memory_dir, state=False) == before


# --------------------------------------------------------------------------- --from-log


LOG_STATEMENTS = {
    9: ("correction", "feedback", "The CSV export must use semicolons as the separator, Excel in Sweden expects them."),
    11: ("correction", "feedback", "Use the `csv` module's excel dialect, not hand-built strings."),
    14: ("correction", "feedback", "We are in the middle of the release freeze, so hold the merge for now."),
    15: ("decision", "project",
         "We decided to drop Python 3.9 support going forward. Because the new type syntax needs 3.10."),
    17: ("remember", "project", "The staging database is wiped every Monday at 06:00 UTC."),
    18: ("preference", "user", "I prefer squash merges for feature branches."),
    19: ("preference", "feedback", "Always run `make lint` before pushing."),
    20: ("preference", "feedback", "Never commit directly to the release branch."),
    28: ("decision", "project", "Invoice numbers are never reused, even after a cancellation."),
}


def test_from_log_takes_only_the_durable_statements(invoke, vault, daily_log, tmp_path):
    log_before = (tmp_path / daily_log).read_bytes()
    result = invoke("import", "--from-log", daily_log, "--format", "json")
    data = report(result)
    assert {c["line"]: (c["kind"], c["type"], c["text"]) for c in data["candidates"]} == LOG_STATEMENTS
    assert {c["origin"] for c in data["candidates"]} == {"log"}
    # A statement that is only true today is still refused by the gate.
    assert [c["line"] for c in data["candidates"] if c["verdict"] == "refuse"] == [14]
    assert data["summary"]["log_lines"] == 29
    assert result.exit_code == 1
    text = invoke("import", "--from-log", daily_log).stdout.splitlines()
    assert text[-1].startswith("9 candidate(s) from 29 log line(s) (the rest stays in the log), 8 accepted")
    invoke("import", "--from-log", daily_log, "--apply")
    assert (tmp_path / daily_log).read_bytes() == log_before  # the log stays raw


@pytest.mark.parametrize(("line", "kind"), [
    ("- 09:00 user: actually, the API base URL is https://api.ledgerly.example/v2 now", "correction"),
    ("[2026-11-03T10:15:00Z] Dana: no, use the staging queue for load tests", "correction"),
    ("**10:30** Correction: the VAT rate for Norway is 25 percent", "correction"),
    ("10:31 — going forward we tag releases as vYYYY.MM.N", "decision"),
    ("- we agreed that invoices are immutable once sent", "decision"),
    ("> I'd rather get one summary message than many small ones", "preference"),
    ("- 11:00 user: No — deploys go through the release train, not by hand", "correction"),
    ("- 11:01 user: we never deploy on Fridays", "preference"),
    ("user: please never run migrations from a laptop", "preference"),
    ("user: keep in mind that the EU cluster is in Frankfurt", "remember"),
])
def test_from_log_statement_forms(invoke, vault, line, kind):
    data = report(invoke("import", "--from-log", "-", "--format", "json", input=line + "\n"))
    assert [c["kind"] for c in data["candidates"]] == [kind]


@pytest.mark.parametrize("line", [
    "- 09:12 Started on the invoice export. Pulled main, tests green.",
    "- 10:31 user: no, that's fine, leave it",
    "- 10:32 user: no, thanks",
    "- 10:33 assistant: Going forward I will always run the linter first.",
    "- 15:40 user: remember to check it",
    "- 16:00 The build never finished on the CI runner.",
    "- 16:05 No-op builds are skipped on the CI runner.",
    "- 16:06 Actually-existing bugs only, please.",
    "## 16:30 always",
])
def test_from_log_leaves_chatter_in_the_log(invoke, vault, line):
    data = report(invoke("import", "--from-log", "-", "--format", "json", input=line + "\n"))
    assert data["candidates"] == []


LLM_STANDIN = '''
import json, sys
prompt = sys.stdin.read()
assert "  15| - 13:20 user: We decided to drop Python 3.9" in prompt, prompt
assert "- I prefer squash merges for feature branches." in prompt  # what was found already
print(json.dumps({"line": 6, "type": "feedback", "text": "Reproduce a bug with a failing test before fixing it."}))
print(json.dumps({"line": 18, "type": "user", "text": "I prefer squash merges for feature branches."}))
print("- The Swedish CSV export is read by Excel.")
print("{not json")
print("NONE")
'''


@pytest.fixture
def trusting(invoke, tmp_path, monkeypatch):
    """`trusting()`: run `cards trust` (a vault's llm command runs only then), state under tmp_path."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return lambda: invoke("trust").exit_code == 0 or pytest.fail("cards trust failed")


@pytest.fixture
def llm_vault(vault: Path, tmp_path: Path, trusting) -> Path:
    script = tmp_path / "llm_standin.py"
    script.write_text(LLM_STANDIN, encoding="utf-8")
    with (vault / ".cardindex.yaml").open("a", encoding="utf-8") as fh:
        fh.write(f"llm: {shlex.quote(sys.executable)} {shlex.quote(str(script))}\n")
    trusting()
    return vault


def test_from_log_asks_the_llm_command_for_more(invoke, llm_vault, daily_log):
    result = invoke("import", "--from-log", daily_log, "--format", "json")
    data = report(result)
    extra = [c for c in data["candidates"] if c["origin"] == "llm"]
    assert [(c["line"], c["type"], c["verdict"]) for c in extra] == [
        (6, "feedback", "accept"),
        (18, "user", "refuse"),  # said already: a duplicate of the statement found without it
        (None, "project", "accept"),
    ]
    assert extra[1]["findings"][0]["related"] == ["2026-11-03.md:18"]
    assert "1 line(s) of its answer ignored" in result.stderr
    assert len(data["candidates"]) == len(LOG_STATEMENTS) + 3
    text = invoke("import", "--from-log", daily_log).stdout
    assert ("2026-11-03.md: accept [project] The Swedish CSV export is read by Excel. -> "
            "the-swedish-csv-export-is-read-by-excel.md (from the llm command)") in text.splitlines()
    # --no-llm: deterministic only.
    plain = report(invoke("import", "--from-log", daily_log, "--no-llm", "--format", "json"))
    assert {c["origin"] for c in plain["candidates"]} == {"log"}


PY = shlex.quote(sys.executable)


@pytest.mark.parametrize(("command", "warning"), [
    (f"{PY} -c 'import sys; sys.exit(3)'", "exit 3"),
    (f"{PY} -c " + shlex.quote("import sys; sys.stdout.write('\\0')"), "the answer is not text (binary or over 1 MB)"),
    ("/no/such/llm --model x", "cannot run '/no/such/llm --model x'"),
])
def test_a_failing_llm_command_is_a_warning(invoke, vault, daily_log, command, warning, trusting):
    with (vault / ".cardindex.yaml").open("a", encoding="utf-8") as fh:
        fh.write(f"llm: {command}\n")
    trusting()
    result = invoke("import", "--from-log", daily_log, "--format", "json")
    assert f"warning: llm command for 2026-11-03.md: {warning}" in result.stderr
    assert "only the statements found without it are used" in result.stderr
    assert len(report(result)["candidates"]) == len(LOG_STATEMENTS)


def test_an_llm_answer_that_is_not_utf8_does_not_crash(invoke, vault, daily_log, trusting):
    code = "import sys; sys.stdout.buffer.write(b'Caf\\xe9 invoices are rounded per line.\\n')"
    with (vault / ".cardindex.yaml").open("a", encoding="utf-8") as fh:
        fh.write(f"llm: {shlex.quote(sys.executable)} -c {shlex.quote(code)}\n")
    trusting()
    data = report(invoke("import", "--from-log", daily_log, "--format", "json"))
    assert [c["text"] for c in data["candidates"] if c["origin"] == "llm"] == ["Caf\ufffd invoices are rounded per line."]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("make", "message"), [
    (lambda d: d / "missing.md", "no such file"),
    (lambda d: d, "is a folder; pass the files in it"),
    (lambda d: _write(d / "bin.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00"), "binary file (it holds NUL bytes)"),
    (lambda d: _write(d / "big.md", b"- fact\n" * 200_000), "is 1,400,000 bytes, over the 1 MB limit"),
    (lambda d: _write(d / "latin1.md", b"- one\n- caf\xe9 opens at nine\n"), "not UTF-8 (byte 0xe9)"),
])
def test_bad_input_is_one_error_line_and_exit_2(invoke, vault, tmp_path, snapshot, make, message):
    folder = tmp_path / "in"
    folder.mkdir()
    good = _write(tmp_path / "good.md", b"- Deploys happen on Thursdays only.\n")
    bad = make(folder)
    before = snapshot(vault, state=False)
    result = invoke("import", str(good), str(bad), "--apply")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"error: {bad}")
    assert message in result.stderr
    assert snapshot(vault, state=False) == before  # the good file before it was not imported either


def test_non_utf8_error_names_the_line(invoke, vault, tmp_path):
    bad = _write(tmp_path / "latin1.md", b"- one\n- two\n- caf\xe9\n")
    assert invoke("import", str(bad)).stderr.startswith(f"error: {bad}:3: not UTF-8")


def test_usage_errors(invoke, vault):
    assert invoke("import").exit_code == 2
    twice = invoke("import", "-", "-", input="x\n")
    assert twice.exit_code == 2 and twice.stderr == "error: '-' (stdin) can be given only once\n"


def test_empty_file_is_nothing_to_import(invoke, vault, tmp_path):
    result = invoke("import", str(_write(tmp_path / "empty.md", b"")))
    assert result.exit_code == 0
    assert result.stdout == "0 candidate(s), 0 accepted, 0 refused. Nothing written.\n"


def test_help_has_examples(invoke):
    result = invoke("import", "--help")
    assert result.exit_code == 0
    for text in ("cards import CLAUDE.md", "--from-log", "--apply", "Exit 0 when every candidate was accepted"):
        assert text in result.stdout


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
