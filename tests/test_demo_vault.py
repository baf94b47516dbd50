"""The demo vault shows real findings: every planted problem that is detected stays detected."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent / "demo-vault"

# (card, code) pairs `cards lint` reports on the demo: every planted problem, and the
# copied good cards only as the partners of planted duplicates and contradictions.
EXPECTED = {
    ("audit-code-freeze.md", "T101"),
    ("deploy-day.md", "C101"),
    ("deploy-days.md", "C101"),
    ("friday-migrations.md", "C102"),
    ("no-friday-migrations.md", "C102"),
    ("invoice-pdf-fixes.md", "S102"),
    ("money-in-cents.md", "U101"),
    ("money-no-floats.md", "U101"),
    ("rate-limits.md", "I103"),
    ("release-notes.md", "F006"),
    ("staging-deploy-credentials.md", "K101"),
    ("staging-reset.md", "F007"),
    ("stripe-webhook-refactor.md", "S101"),
}


def test_demo_vault_findings(tmp_path: Path) -> None:
    vault = tmp_path / "demo"
    shutil.copytree(DEMO, vault, ignore=shutil.ignore_patterns(".cardindex"))
    env = {**os.environ, "CARDS_TODAY": "2026-11-30"}
    env.pop("CARDS_VAULT", None)
    done = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), "lint", "--format", "json"],
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1, done.stderr
    found = {(f["path"], f["code"]) for f in json.loads(done.stdout)}
    assert found == EXPECTED
    check = subprocess.run([sys.executable, "-m", "cardindex", "--vault", str(vault), "index", "--check"],
                           capture_output=True, text=True, env=env, check=False)
    assert check.returncode == 0, check.stderr
    assert "AKIA" not in done.stdout.replace("AKIA…", "")
