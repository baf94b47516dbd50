"""Secret detection (issue 11): the formats that were missed, the false positives kept out, the baseline.

Every secret here is generated at random in the test (seeded or by hypothesis), so no
real-looking value is committed. The labelled lists are the ones `bench/bench_secrets.py`
measures, so the bench's numbers and these tests cannot drift apart.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import random
import re
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.lint.baseline import FILE as BASELINE
from cardindex.lint.secret import code_of
from cardindex.redaction import REDACTED, redact, shown
from cardindex.secrets import _plausible, find_secrets

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_secrets", ROOT / "bench" / "bench_secrets.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

ALNUM = string.ascii_letters + string.digits


def tok(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def found(text: str, value: str) -> list[str]:
    """The rule codes of the secrets that cover all of `value` in `text`."""
    start = text.index(value)
    return [code_of(s) for s in find_secrets(text) if s.start <= start and s.end >= start + len(value)]


def make_vault(root: Path, cards: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text("repo: false\n", encoding="utf-8")
    for rel, text in cards.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def lint_json(run_cli: Callable[..., Result], root: Path, *args: str) -> tuple[Result, list[dict[str, Any]]]:
    result = run_cli("--vault", str(root), "lint", "--select", "secret", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.stderr
    return result, json.loads(result.stdout)


# --------------------------------------------------------------------------- the labelled lists


EXACT = [p for p in bench.POSITIVES if p[1] != "K104"]


@pytest.mark.parametrize("name,code,make,sentence", EXACT, ids=[p[0] for p in EXACT])
def test_each_format_is_found_by_its_rule(name: str, code: str, make: Callable[[random.Random], str], sentence: str) -> None:
    for seed in range(10):
        value = make(random.Random(f"{name}:{seed}"))
        text = sentence.format(value)
        assert found(text, value) == [code], (name, seed)
        assert value not in redact(text)


def test_keyless_random_tokens_are_rarely_missed() -> None:
    """K104 is a heuristic: under 2% of bare random tokens of 32+ characters missed (the bench prints the rates)."""
    for row in bench.keyless_rates(400, seed=1):
        assert row["missed"] / row["trials"] < 0.02, row
    for name, code, make, sentence in bench.POSITIVES:
        if code == "K104":
            hits = sum(code in found(sentence.format(v), v) for v in (make(random.Random(i)) for i in range(50)))
            assert hits >= 48, name


@pytest.mark.parametrize("name,text", bench.NEGATIVES, ids=[n[0] for n in bench.NEGATIVES])
def test_hard_negatives_are_not_flagged(name: str, text: str) -> None:
    assert find_secrets(text) == ()
    assert redact(text) == text


def test_the_bench_reports_full_recall_and_precision(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(bench.POSITIVES) >= 16 and len(bench.NEGATIVES) >= 30
    assert bench.main(["--trials", "10", "--keyless-trials", "50"]) == 0
    out = capsys.readouterr().out
    assert "recall 1.000" in out and "0 flagged (precision 1.000)" in out


# --------------------------------------------------------------------------- properties

WORDS = sorted({w.lower() for w in re.findall(r"[A-Za-z]{2,12}", (ROOT / "README.md").read_text(encoding="utf-8"))})


@st.composite
def identifiers(draw: st.DrawFn) -> str:
    """Names people write in memory cards: words in camelCase, PascalCase, snake, kebab or a path, maybe a number."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=9))
    title = [w.title() if draw(st.booleans()) else w for w in words]
    number = draw(st.one_of(st.just(""), st.integers(0, 2030).map(str)))
    style = draw(st.sampled_from(["camel", "pascal", "snake", "kebab", "path"]))
    if style == "camel":
        return words[0] + "".join(w.title() for w in words[1:]) + number
    if style == "pascal":
        return "".join(w.title() for w in words) + number
    return {"snake": "_", "kebab": "-", "path": "/"}[style].join(title) + number


@settings(max_examples=300, deadline=None)
@given(identifiers())
def test_identifiers_and_paths_are_not_secrets(name: str) -> None:
    assert find_secrets(f"The handler {name} is tested.") == ()


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALNUM, min_size=24, max_size=60), st.sampled_from(["sk_test_", "sk_live_", "rk_live_"]))
def test_a_stripe_key_of_any_body_is_found_and_redacted(body: str, prefix: str) -> None:
    if not _plausible(body):
        return  # placeholders (xxxx, 1234567, "example", three distinct characters) are deliberately not secrets
    text = f"Billing uses {prefix}{body} in staging."
    assert found(text, prefix + body) == ["K101"]
    assert redact(text) == f"Billing uses {REDACTED} in staging."


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=0, max_size=200))
def test_spans_are_ordered_disjoint_and_redacted(text: str) -> None:
    secrets = find_secrets(text)
    for a, b in itertools.pairwise(secrets):
        assert a.end <= b.start
    cleaned = shown(text)
    for s in secrets:
        assert 0 <= s.start < s.end <= len(text)
        assert 1 <= s.line <= max(1, len(text.splitlines()))
        if s.end - s.start >= 8:
            assert text[s.start:s.end] not in cleaned


# --------------------------------------------------------------------------- specific cases


def test_the_second_keyword_is_not_consumed_by_the_first() -> None:
    password = tok(random.Random(11), 14, ALNUM + "!#%")
    text = f"credential: password: {password}"
    assert found(text, password) == ["K103"]
    assert redact(text) == f"credential: password: {REDACTED}"


def test_bearer_token_and_jwt_in_a_header() -> None:
    rng = random.Random(12)
    opaque, web = tok(rng, 40), bench.jwt(rng)
    assert found(f"curl -H 'Authorization: Bearer {opaque}' https://api.internal", opaque) == ["K101"]
    assert found(f"Authorization: Bearer {web}", web) == ["K101"]
    assert find_secrets("Send Authorization: Bearer $ACCESS_TOKEN") == ()


def test_webhook_urls_and_query_tokens() -> None:
    rng = random.Random(13)
    discord = tok(rng, 68, ALNUM + "-_")
    query = tok(rng, 32)
    assert found(f"https://discord.com/api/webhooks/1180000000000000000/{discord}", discord) == ["K101"]
    assert found(f"https://status.internal/feed?token={query}&format=rss", query) == ["K101"]
    # a query value that is a word, or a URL with no credential, is left alone
    assert find_secrets("https://status.internal/feed?token_type=bearer&format=rss") == ()
    assert find_secrets("https://github.com/ledgerline/ops/blob/main/runbooks/Rollback.md") == ()


def test_keyword_values_that_are_references_not_secrets() -> None:
    for text in ("token = os.environ['GITHUB_TOKEN']", "The job reads its token from GITHUB_TOKEN.",
                 "api_key: ${{ secrets.GEOCODER_KEY }}", "password: ~/.config/ledger/db.pass",
                 "client_secret: /etc/ledgerline/oauth.json", "secret: see https://vault.internal/ui/secret/db"):
        assert find_secrets(text) == (), text
    value = "/" + tok(random.Random(14), 39, ALNUM + "+/")  # base64 may start with a slash: not a path
    assert found(f"aws_secret_access_key = {value}", value) == ["K103"]


def test_an_allowed_private_key_hides_its_body_lines_too() -> None:
    rng = random.Random(15)
    body = "\n".join(tok(rng, 64, ALNUM + "+/") for _ in range(4))
    block = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----"
    assert [code_of(s) for s in find_secrets(f"Signing key:\n{block}\n")] == ["K102"]
    assert find_secrets(f"<!-- cards: allow-secret -->\n{block}\n") == ()


def test_an_ssh_public_key_is_not_a_secret() -> None:
    public = "AAAAC3NzaC1lZDI1NTE5AAAAI" + tok(random.Random(16), 43, ALNUM + "+/")
    assert find_secrets(f"The deploy key: ssh-ed25519 {public} ops@bastion") == ()
    assert found(f"The deploy key: {public}", public) == ["K104"]  # the same string bare is a token


# --------------------------------------------------------------------------- through the CLI


@pytest.fixture
def missed_formats(tmp_path: Path, make_card: Callable[..., str]) -> tuple[Path, dict[str, str]]:
    """A card for each format issue 11 measured as missed, with the value planted in the body."""
    rng = random.Random(20261201)
    values = {
        "stripe-test.md": "sk_test_" + tok(rng, 24),
        "openai.md": "sk-proj-" + tok(rng, 74, ALNUM + "-_") + "T3BlbkFJ" + tok(rng, 74, ALNUM + "-_"),
        "anthropic.md": "sk-ant-api03-" + tok(rng, 93, ALNUM + "-_") + "AA",
        "google.md": "AIza" + tok(rng, 35, ALNUM + "-_"),
        "jwt.md": bench.jwt(rng),
        "bearer.md": bench.jwt(rng),
        "discord.md": tok(rng, 68, ALNUM + "-_"),
        "query.md": tok(rng, 32),
        "keyless.md": tok(rng, 40),
        "nested-keyword.md": tok(rng, 14, ALNUM + "!#%"),
    }
    bodies = {
        "bearer.md": "Calls send Authorization: Bearer {}",
        "discord.md": "Builds post to https://discord.com/api/webhooks/1180000000000000000/{}",
        "query.md": "The feed is https://status.internal/feed?token={}&format=rss",
        "nested-keyword.md": "credential: password: {}",
    }
    cards = {path: make_card(f"Service access for {path[:-3]}", type="reference",
                             body=bodies.get(path, "The service is called with {} there.").format(value))
             for path, value in values.items()}
    return make_vault(tmp_path / "formats", cards), values


def test_lint_reports_every_missed_format_and_prints_none(missed_formats, run_cli) -> None:
    root, values = missed_formats
    result, findings = lint_json(run_cli, root)
    expected = {path: "K103" if path == "nested-keyword.md" else "K104" if path == "keyless.md" else "K101"
                for path in values}
    assert {(f["path"], f["code"]) for f in findings} == set(expected.items())
    assert all(f["line"] == 5 for f in findings)
    text = run_cli("--vault", str(root), "lint").stdout
    for value in values.values():
        assert value not in result.stdout + result.stderr + text
        assert value[6:30] not in result.stdout + text


def test_add_refuses_each_missed_format(vault, invoke, missed_formats) -> None:
    _, values = missed_formats
    for path in ("stripe-test.md", "jwt.md", "keyless.md"):
        value = values[path]
        result = invoke("add", f"The billing sandbox is called with {value} on weekdays.", "--description",
                        "How the billing sandbox is called", "--type", "reference")
        assert result.exit_code == 1, (path, result.stdout, result.stderr)
        assert re.search(r"K10[134]", result.stdout + result.stderr)
        assert value not in result.stdout + result.stderr
    assert sorted(p.name for p in vault.glob("*.md")) == ["INDEX.md"]


def test_rule_k104_is_documented(run_cli) -> None:
    result = run_cli("rule", "K104")
    assert result.exit_code == 0
    assert "--ignore K104" in result.stdout


# --------------------------------------------------------------------------- the baseline


@pytest.fixture
def accepted_vault(tmp_path: Path, make_card: Callable[..., str]) -> tuple[Path, list[str]]:
    rng = random.Random(7)
    aws, github = "AKIA" + tok(rng, 16, string.ascii_uppercase + string.digits), "ghp_" + tok(rng, 36)
    root = make_vault(tmp_path / "vault", {
        "staging.md": make_card("Staging deploy credentials", type="reference",
                                body=f"The staging job uses {aws}.\nTags are pushed with {github}."),
        "clean.md": make_card("Deploy day", body="Deploy on Thursdays only."),
    })
    return root, [aws, github]


def test_baseline_accepts_known_findings_and_holds_no_secret(accepted_vault, run_cli) -> None:
    root, secrets = accepted_vault
    assert {f["code"] for f in lint_json(run_cli, root)[1]} == {"K101"}
    done = run_cli("--vault", str(root), "lint", "--select", "secret", "--update-baseline")
    assert done.exit_code == 0, done.stderr
    assert done.stderr == f"{root / BASELINE}: 2 secret(s) accepted (2 new, 0 dropped); lint leaves them out, " \
                          "every output still redacts them\nAll checks passed! 2 cards checked.\n"  # the run's summary
    raw = (root / BASELINE).read_text(encoding="utf-8")
    for secret in secrets:
        assert secret not in raw and secret[4:12] not in raw and secret[-8:] not in raw
    data = json.loads(raw)
    assert data["version"] == 1
    assert [e["kind"] for e in data["accepted"]["staging.md"]] == ["aws credential", "github credential"]
    assert all(re.fullmatch(r"[0-9a-f]{64}", e["sha256"]) for e in data["accepted"]["staging.md"])
    result, findings = lint_json(run_cli, root)
    assert (result.exit_code, findings) == (0, [])
    # line-independent: text added above the secrets does not bring them back
    card = root / "staging.md"
    card.write_text(card.read_text().replace("---\nThe staging", "---\nSee the runbook.\n\nThe staging"))
    assert lint_json(run_cli, root)[1] == []


def test_baseline_still_reports_new_moved_and_changed_secrets(accepted_vault, run_cli, make_card) -> None:
    root, (aws, _) = accepted_vault
    assert run_cli("--vault", str(root), "lint", "--select", "secret", "--update-baseline").exit_code == 0
    fresh = "sk_test_" + tok(random.Random(8), 24)
    (root / "new.md").write_text(make_card("Billing sandbox", type="reference", body=f"Sandbox key {fresh} here."))
    (root / "copy.md").write_text(make_card("Old staging key", type="reference", body=f"It was {aws} before."))
    staging = root / "staging.md"
    staging.write_text(staging.read_text().replace(aws, aws[:-4] + "WXYZ"))
    result, findings = lint_json(run_cli, root)
    assert result.exit_code == 1
    assert [(f["path"], f["line"], f["code"]) for f in findings] == [
        ("copy.md", 5, "K101"), ("new.md", 5, "K101"), ("staging.md", 5, "K101")]
    assert fresh not in result.stdout and aws not in result.stdout


def test_baseline_for_some_files_keeps_the_rest(accepted_vault, run_cli, make_card) -> None:
    root, _ = accepted_vault
    assert run_cli("--vault", str(root), "lint", "--select", "secret", "--update-baseline").exit_code == 0
    fresh = "glpat-" + tok(random.Random(9), 20, ALNUM + "-_")
    (root / "gitlab.md").write_text(make_card("Mirror token", type="reference", body=f"Mirroring uses {fresh}."))
    done = run_cli("--vault", str(root), "lint", "--select", "secret", str(root / "gitlab.md"), "--update-baseline")
    assert done.exit_code == 0, done.stderr
    assert "3 secret(s) accepted (1 new, 0 dropped)" in done.stderr
    assert sorted(json.loads((root / BASELINE).read_text())["accepted"]) == ["gitlab.md", "staging.md"]
    assert lint_json(run_cli, root)[1] == []


def test_an_accepted_secret_is_still_redacted_and_refused(accepted_vault, run_cli) -> None:
    root, (aws, github) = accepted_vault
    assert run_cli("--vault", str(root), "lint", "--select", "secret", "--update-baseline").exit_code == 0
    text = (root / "staging.md").read_text()
    assert aws not in shown(text) and github not in shown(text)
    added = run_cli("--vault", str(root), "add", f"The staging job uses {aws} for deploys.", "--description",
                    "How staging deploys sign in", "--type", "reference")
    assert added.exit_code == 1 and "K101" in added.stdout + added.stderr
    assert aws not in added.stdout + added.stderr


@pytest.mark.parametrize("content", ["{not json", '{"version": 2, "accepted": {}}', '{"version": 1, "accepted": {"a.md": [1]}}'])
def test_a_broken_baseline_is_one_line_and_exit_2(accepted_vault, run_cli, content) -> None:
    root, _ = accepted_vault
    (root / BASELINE).write_text(content)
    result = run_cli("--vault", str(root), "lint")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert BASELINE in result.stderr and "--update-baseline" in result.stderr


def test_baseline_through_a_real_process(accepted_vault, tmp_path) -> None:
    root, secrets = accepted_vault
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "PYTHONPATH")}
    env.update(HOME=str(tmp_path / "home"), CARDS_TODAY="2026-11-30")

    def cards(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(root), *args],
                              capture_output=True, text=True, env=env, timeout=60, check=False)

    before = cards("lint", "--select", "secret")
    assert before.returncode == 1 and before.stdout.count("K101") == 2
    assert cards("lint", "--select", "secret", "--update-baseline").returncode == 0
    after = cards("lint", "--select", "secret")
    assert (after.returncode, after.stdout) == (0, "")
    assert "Traceback" not in before.stderr + after.stderr
    for secret in secrets:
        assert secret not in before.stdout + before.stderr


@pytest.mark.parametrize("text", [
    "https://x.org/?" + "&token=" * 20000,  # every value runs to the end of the URL
    "pwd=" * 100000,  # every keyword's value runs into the next keyword
    "password: " + "<" * 200000,  # a placeholder that never closes
    "-----BEGIN RSA PRIVATE KEY-----\n" * 40000,  # key headers with no END line
    " ".join("AKIA" + tok(random.Random(i), 16, string.ascii_uppercase + string.digits) for i in range(30000)),
], ids=["query", "keywords", "placeholder", "key-headers", "many-secrets"])
def test_hostile_text_is_scanned_in_linear_time(text: str) -> None:
    """A card is at most 1 MB; no input may make the detector quadratic (these took minutes)."""
    import time

    started = time.process_time()  # CPU time: a busy machine (other jobs, xdist workers) does not count
    find_secrets(text)
    assert time.process_time() - started < 5


def test_a_baseline_that_cannot_be_read_or_written_is_one_line(accepted_vault, run_cli) -> None:
    root, _ = accepted_vault
    (root / BASELINE).mkdir()
    for args in (("lint",), ("lint", "--select", "secret", "--update-baseline")):
        result = run_cli("--vault", str(root), *args)
        assert result.exit_code == 2, args
        assert result.stderr.count("\n") == 1 and BASELINE in result.stderr


def test_watch_leaves_accepted_secrets_out_as_lint_does(accepted_vault, run_cli) -> None:
    import datetime as dt

    from cardindex.store.vault import Vault
    from cardindex.agents.watch import lint_cards

    root, _ = accepted_vault

    def codes() -> set[str]:
        vault = Vault(root)
        return {f.code for f in lint_cards(vault, vault.cards, vault.cards, dt.date(2026, 11, 30))}

    assert "K101" in codes()
    assert run_cli("--vault", str(root), "lint", "--select", "secret", "--update-baseline").exit_code == 0
    assert "K101" not in codes()
