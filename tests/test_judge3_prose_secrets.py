"""Passwords people write in prose (issue 14, secrets): found, redacted everywhere, and the hard negatives clean.

The values are built in the test from pieces, so no file holds a real-looking credential.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.redaction import redact
from cardindex.secrets import find_secrets
from tests.test_lint_rules import lint_json, make_vault

PW = "Gr" + "anite" + "74" + "!" + "x"  # upper, lower, digit, special
PW2 = "Or" + "chid" + "#" + "2031"

POSITIVES = [
    f"Greenhouse controller login: grower / {PW}",
    f"- Kiosk tablet — 10.4.0.12 — admin/{PW}",
    f"| Authentication | caretaker / {PW2} | the orchard portal |",
    f"### Test accounts\nbee.keeper@apiary.test / {PW2} -> group Hives",
    f"The seeded sommeliers share the fixed pw `{PW2}` so the tasting tests can log in.",
    f'The loom controller takes the password set at install ("{PW}").',
    f"Choir rota account, password `{PW}`, kept until the spring concert.",
    # further on in the password word's sentence, when the value is strong
    f"The kiln keeps its first admin password and ignores the env file; the probe reads (`deploy/.env` = `{PW2}`).",
]

NEGATIVES = [
    "Rotate the harbour gateway password every 90 days.",
    "A password must have at least 12 characters, one digit and one symbol.",
    "Passwords are hashed with argon2id; the hash never leaves the vault service.",
    "The kiln password lives in the team password manager under `Pottery/Kiln`.",
    "Set `KILN_ADMIN_PASSWORD` in the deploy environment; never commit it.",
    "Login with `<user>/<password>` as the placeholder shows, e.g. admin/changeme.",
    "Use ${ORCHARD_PASSWORD} in the compose file instead of a literal.",
    "TCP/IP and UDP/IP traffic both pass through the barn switch.",
    "The read/write split: readers hit the replica, writers the primary.",
    "Release notes live under docs/Releases/Spring-2031.md and docs/Releases/Autumn-2030.md.",
    "Branch `feat/P12c-Harvest-Board` holds the auth screen work.",
    "The password reset flow sends a link valid for 30 minutes.",
    "When the pw prompt appears, press enter: the default profile has none.",
    "The SA password is read from `deploy/.env`; a volume keeps its first one.",
    "Ticket FR-208/209 covers the login page and the sign-in banner.",
    "Commit 3fa9c21/4be07d2 changed the credential cache (auth module).",
    "Versions v2.4.1/v2.5.0 both accept the old login token format.",
    "Use a UUID such as 9b2f6c1e-4d3a-4f8b-9c2d-1e0f3a5b7c9d for the sensor account id.",
    "Our accounts: Gardening/Planning, Harvest/Logistics and Market/Sales.",
    "passwords: see `password_policy.md` for the rules (length, reuse).",
    "- name: Registry login\n  uses: docker/login-action@v3",
    "The SA password is read from `deploy/.env`. The probe then runs `make Check_DB#2`.",  # another sentence
    "Rotate the password monthly; the job is `rotate_all` in `ops/Rotate.ps1`.",  # nothing strong in its sentence
    "Login flow: [Sign-in guide](docs/Sign_In_Guide.md#step-2-Enter-code) has the screenshots.",
]


@pytest.mark.parametrize("text", POSITIVES)
def test_prose_password_found_and_redacted(text: str) -> None:
    found = find_secrets(text)
    assert found, text
    shown = redact(text)
    assert PW not in shown and PW2 not in shown
    assert "[redacted]" in shown


@pytest.mark.parametrize("text", NEGATIVES)
def test_prose_hard_negatives_stay_clean(text: str) -> None:
    assert find_secrets(text) == (), [text[s.start:s.end] for s in find_secrets(text)]


def test_pair_without_a_credential_word_needs_a_strong_value() -> None:
    weak = "Orchid" + "2031"  # no special character, no cue: a name such as a release tag
    assert find_secrets(f"Shipped as garden/{weak} last spring.") == ()
    assert find_secrets(f"Cabinet: keeper/{PW} (front desk)")


def test_a_credential_heading_two_lines_up_cues_the_pair() -> None:
    value = "moss" + "-" + "33" + "$"  # no upper case: not strong, so it needs the cue
    text = f"## Trial logins\n\nwarden / {value}\n"
    assert find_secrets(text)
    far = f"## Trial logins\n\none\ntwo\nthree\nwarden / {value}\n"
    assert find_secrets(far) == ()


def test_lint_reports_a_prose_password_as_k103_and_hides_it(tmp_path: Path, run_cli, make_card) -> None:  # type: ignore[no-untyped-def]
    root = make_vault(tmp_path / "vault", {
        "kiosk-login.md": make_card("How the lobby kiosk is reached", body=f"Kiosk login: lobby / {PW}\n"),
        "kiosk-rotation.md": make_card("How often the kiosk password changes",
                                       body="Rotate the kiosk password every 60 days; the manager holds it.\n"),
    })
    _, findings = lint_json(run_cli, root, "--select", "secret")
    assert [(f["path"], f["code"]) for f in findings] == [("kiosk-login.md", "K103")]
    assert PW not in json.dumps(findings)
    shown = run_cli("--vault", str(root), "show", "kiosk-login")
    assert PW not in shown.output


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[a-z]{3,9} (?:every|after|within) \d{1,3} (?:days|weeks|logins)", fullmatch=True))
def test_password_policies_are_never_secrets(policy: str) -> None:
    assert find_secrets(f"Change the password {policy}.") == ()
