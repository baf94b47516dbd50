"""Secret detection: recall on labelled formats, precision on hard negatives, and speed.

Every positive is a card-like sentence around a value generated at random (seeded), so
no real-looking secret is committed here. A positive counts as found when one secret
that `redaction.find_secrets` reports covers the whole value and its lint rule is the
expected one; a negative is flagged when anything is reported. With `--vault DIR` the
detector is also timed over every card of a vault (in-process, best of five runs).

    python bench/bench_secrets.py                       # the labelled lists
    python bench/bench_secrets.py --trials 200 --json bench/results/secrets.json
    python bench/bench_secrets.py --vault bench/vaults/vault-10000

Exits 1 when a labelled positive of K101-K103 is missed or a negative is flagged. K104
(a random token with no keyword) is a heuristic: its misses are printed as rates by
token length (`--keyless-trials` bare random tokens per length and alphabet).
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardindex.lint.secret import code_of
from cardindex.secrets import find_secrets

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
UPPER_DIGITS = string.ascii_uppercase + string.digits


def token(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def b64url(rng: random.Random, n: int) -> str:
    return token(rng, URLSAFE, n)


def jwt(rng: random.Random) -> str:
    import base64
    import json as _json

    def part(obj: object) -> str:
        return base64.urlsafe_b64encode(_json.dumps(obj).encode()).decode().rstrip("=")

    header = part({"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"})
    payload = part({"sub": token(rng, string.digits, 10), "name": token(rng, string.ascii_lowercase, 6),
                    "iat": rng.randint(1_600_000_000, 1_800_000_000)})
    return f"{header}.{payload}.{b64url(rng, 43)}"


# (format, expected rule, value generator, the sentence around it)
Positive = tuple[str, str, Callable[[random.Random], str], str]
POSITIVES: list[Positive] = [
    ("aws access key id", "K101", lambda r: "AKIA" + token(r, UPPER_DIGITS, 16), "The CI deploy user signs in with {}."),
    ("github token", "K101", lambda r: "ghp_" + token(r, ALNUM, 36), "The release bot pushes with {}."),
    ("github fine-grained pat", "K101", lambda r: "github_pat_" + token(r, ALNUM, 22) + "_" + token(r, ALNUM, 59),
     "Renovate uses {}."),
    ("gitlab pat", "K101", lambda r: "glpat-" + b64url(r, 20), "Mirror with GITLAB_TOKEN={} in CI."),
    ("slack bot token", "K101", lambda r: f"xoxb-{token(r, string.digits, 12)}-{token(r, string.digits, 13)}-{token(r, ALNUM, 24)}",
     "Alerts post as {}."),
    ("slack webhook", "K101", lambda r: f"T{token(r, UPPER_DIGITS, 8)}/B{token(r, UPPER_DIGITS, 8)}/{token(r, ALNUM, 24)}",
     "Deploy notices go to https://hooks.slack.com/services/{}."),
    ("discord webhook", "K101", lambda r: b64url(r, 68),
     "Build results go to https://discord.com/api/webhooks/1180000000000000000/{}."),
    ("stripe live key", "K101", lambda r: "sk_live_" + token(r, ALNUM, 24), "Payments use {}."),
    ("stripe test key", "K101", lambda r: "sk_test_" + token(r, ALNUM, 24), "Staging payments use {}."),
    ("stripe webhook secret", "K101", lambda r: "whsec_" + token(r, ALNUM, 32), "Webhook signatures check against {}."),
    ("openai project key", "K101", lambda r: "sk-proj-" + b64url(r, 74) + "T3BlbkFJ" + b64url(r, 74),
     "The summarizer calls OpenAI with {}."),
    ("openai legacy key", "K101", lambda r: "sk-" + token(r, ALNUM, 48), "The old eval harness used {}."),
    ("anthropic key", "K101", lambda r: "sk-ant-api03-" + b64url(r, 93) + "AA", "The agent runs with ANTHROPIC_API_KEY {}."),
    ("google api key", "K101", lambda r: "AIza" + b64url(r, 35), "Maps geocoding uses {}."),
    ("jwt", "K101", jwt, "A service token for the staging API: {}"),
    ("bearer header", "K101", lambda r: token(r, ALNUM, 40), "curl -H 'Authorization: Bearer {}' https://api.internal/v1"),
    ("bearer jwt", "K101", jwt, "Requests carry Authorization: Bearer {}"),
    ("url with password", "K101", lambda r: token(r, ALNUM, 14), "Reports read postgres://reports:{}@db.internal/reports."),
    ("url ?token=", "K101", lambda r: token(r, ALNUM, 32), "The status feed is https://status.internal/feed?token={}&format=rss."),
    ("url ?sig=", "K101", lambda r: token(r, ALNUM + "+/", 43), "Backups upload to https://acct.blob.core.windows.net/b?sv=2022-11-02&sig={}"),
    ("npm token", "K101", lambda r: "npm_" + token(r, ALNUM, 36), "Publishing uses {}."),
    ("pypi token", "K101", lambda r: "pypi-AgEIcHlwaS5vcmc" + b64url(r, 70), "Releases upload with {}."),
    ("sendgrid key", "K101", lambda r: "SG." + b64url(r, 22) + "." + b64url(r, 43), "Mail goes out through {}."),
    ("twilio api key", "K101", lambda r: "SK" + token(r, HEX, 32), "SMS alerts use the Twilio key {}."),
    ("hugging face token", "K101", lambda r: "hf_" + token(r, ALNUM, 34), "Model downloads use {}."),
    ("hashicorp vault token", "K101", lambda r: "hvs." + b64url(r, 90), "The migration job reads Vault with {}."),
    ("digitalocean pat", "K101", lambda r: "dop_v1_" + token(r, HEX, 64), "Droplets are made with {}."),
    ("private key block", "K102", lambda r: "\n".join(token(r, ALNUM + "+/", 64) for _ in range(3)),
     "The bastion key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----"),
    ("password assigned", "K103", lambda r: token(r, ALNUM + "!#$%", 16), "Staging admin password = {} there."),
    ("credential: password:", "K103", lambda r: token(r, ALNUM + "!#$%", 14), "credential: password: {}"),
    ("aws secret key assigned", "K103", lambda r: token(r, ALNUM + "+/", 40), "aws_secret_access_key = {}"),
    ("hex api key assigned", "K103", lambda r: token(r, HEX, 32), "geocoder api_key: {}"),
    ("random token, no keyword", "K104", lambda r: token(r, ALNUM, 40), "For the nightly export use {} as the header value."),
    ("random base64, no keyword", "K104", lambda r: token(r, ALNUM + "+/", 44) + "=", "Paste {} into the importer."),
    ("random 32 chars, no keyword", "K104", lambda r: token(r, ALNUM, 32), "The kiosk unlocks with {}"),
]

NEGATIVES: list[tuple[str, str]] = [
    ("placeholder sk-...", "OpenAI keys look like sk-... and live in 1Password."),
    ("placeholder <your-key>", "Set OPENAI_API_KEY=<your-key> before running the evals."),
    ("template ${TOKEN}", "The app reads token=${STRIPE_KEY} from the environment."),
    ("format placeholder", "The connection string is postgres://app:{password}@db.internal/app and token={api_token}."),
    ("template {{ }}", "CI passes api_key: {{ secrets.GEOCODER_KEY }} to the job."),
    ("masked xxxx", "The Stripe key looks like sk_live_xxxxxxxxxxxxxxxxxxxxxxxx in the dashboard."),
    ("docs example key", "AWS documents AKIAIOSFODNN7EXAMPLE as its sample key id."),
    ("sequential placeholder", "Example: sk-1234567890abcdef1234567890abcdef is not a real key."),
    ("uuid", "Request ids look like 123e4567-e89b-12d3-a456-426614174000 in the logs."),
    ("session uuid field", "originSessionId: 7f9c2ba4-e88f-4f2a-9d2b-6a1f0c3e5b7d"),
    ("git sha", "The regression came in with commit 3f2a9c1b7d4e5f60718293a4b5c6d7e8f9012345."),
    ("sha256 digest", "Pin the image to sha256:9b2c7d4e1f0a3b5c6d8e7f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c."),
    ("file path", "The rule lives in src/cardindex/lint/secret_detection_rules.py."),
    ("mixed-case path", "Components are in web/src/Components/UserProfileSettings2/IndexPage.tsx."),
    ("url without credentials", "Runbooks: https://github.com/ledgerline/ops/blob/main/runbooks/DeployRollback2.md"),
    ("url with a user and no password", "Clone from https://deploy@git.internal/ledgerline/api.git."),
    ("google doc link", "The design doc is https://docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit"),
    ("link without a scheme", "Design notes: docs.google.com/document/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit"),
    ("long snake identifier", "test_consolidate_keeps_locked_cards_untouched covers the lock rule."),
    ("long camelCase identifier", "handleIncomingWebhookRequestFromStripeV2 retries three times."),
    ("PascalCase with digits", "InvoiceNumberingServiceForEuropeanUnion2026Rules owns numbering."),
    ("base64 of short words", "The health check body is aGVsbG8gd29ybGQ= (hello world)."),
    ("base64 of a sentence", "The fixture holds VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw== as text."),
    ("ssh public key", "The deploy key's public half: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq7m2K9vX4bR8wT1nY6pL3sF0dG5hJ2cV7kM9xQ4zA8 ops"),
    ("data: uri", "The favicon is data:image/png;base64," + token(random.Random(5), ALNUM + "+/", 120) + "=="),
    ("subresource integrity hash", "Pin the CDN script with integrity sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC."),
    ("keyword without a value", "Rotate the API token every 90 days."),
    ("where a secret is kept", "The Stripe secret key is kept in 1Password, vault Payments."),
    ("password in prose", "The staging password is stored in the team vault, not here."),
    ("environment variable name", "The job reads its token from GITHUB_TOKEN."),
    ("env lookup", "token = os.environ['GITHUB_TOKEN'] in the deploy script."),
    ("bearer in prose", "Bearer tokens expire after an hour; refresh them with the CLI."),
    ("authorization header template", "Send Authorization: Bearer $ACCESS_TOKEN with every call."),
    ("dotted config key", "feedback.release.bump-the-version.upgrading-dependencies is the slot."),
    ("version and date", "Postgres 16.4 since 2026-03-11T10:00:00Z, build 20260311-1042-a7."),
    ("api route", "The webhook handler is POST /api/v2/webhooks/stripe/payment_intent.succeeded."),
    ("npm package integrity-free name", "We use @ledgerline/eslint-config-typescript-strict-2026 for lint."),
    ("aws arn", "The role is arn:aws:iam::123456789012:role/LedgerlineDeployRole2026."),
    ("hex color and short ids", "Brand color #1A2B3C; ticket LEDG-4821; build 9f3e2a1."),
]


def run_positives(trials: int, seed: int) -> list[dict[str, object]]:
    rows = []
    for name, code, make, sentence in POSITIVES:
        found = 0
        for trial in range(trials):
            rng = random.Random(f"{seed}:{name}:{trial}")
            value = make(rng)
            text = sentence.format(value)
            start = text.index(value)
            end = start + len(value)
            hit = [s for s in find_secrets(text) if s.start <= start and s.end >= end and code_of(s) == code]
            found += bool(hit)
        rows.append({"format": name, "rule": code, "trials": trials, "found": found})
    return rows


def keyless_rates(trials: int, seed: int) -> list[dict[str, object]]:
    """K104 is a heuristic: its miss rate by token length and alphabet, on bare random tokens."""
    rows = []
    for n in (32, 40, 48, 64):
        for name, alphabet in (("alnum", ALNUM), ("base64", ALNUM + "+/"), ("url-safe", URLSAFE)):
            rng = random.Random(f"{seed}:keyless:{n}:{name}")
            missed = sum(not find_secrets(f"use {token(rng, alphabet, n)} now") for _ in range(trials))
            rows.append({"length": n, "alphabet": name, "trials": trials, "missed": missed})
    return rows


def run_negatives() -> list[dict[str, object]]:
    return [{"negative": name, "flagged": [s.kind for s in find_secrets(text)]} for name, text in NEGATIVES]


def time_vault(folder: Path) -> dict[str, object]:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.rglob("*.md"))]
    best = float("inf")
    hits = 0
    for _ in range(5):
        find_secrets.cache_clear()
        started = time.perf_counter()
        hits = sum(len(find_secrets(t)) for t in texts)
        best = min(best, time.perf_counter() - started)
    return {"vault": str(folder), "cards": len(texts), "seconds": round(best, 4), "hits": hits}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20, help="generated values per format (default 20)")
    parser.add_argument("--keyless-trials", type=int, default=1000, help="random tokens per length and alphabet for K104")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--vault", type=Path, help="also time find_secrets over every card of this vault")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args(argv)

    positives = run_positives(args.trials, args.seed)
    negatives = run_negatives()
    width = max(len(str(r["format"])) for r in positives)
    for row in positives:
        missed = int(str(row["trials"])) - int(str(row["found"]))
        print(f"{row['format']:<{width}}  {row['rule']}  {row['found']}/{row['trials']} found"
              + (f"  ({missed} missed)" if missed else ""))
    flagged = [n for n in negatives if n["flagged"]]
    for row in flagged:
        print(f"false positive: {row['negative']}: {', '.join(map(str, row['flagged']))}")
    exact = [r for r in positives if r["rule"] != "K104"]
    tp = sum(int(str(r["found"])) for r in exact)
    total = sum(int(str(r["trials"])) for r in exact)
    fp = len(flagged)
    formats_missed = sum(1 for r in exact if r["found"] != r["trials"])
    recall = tp / total
    precision = tp / (tp + fp) if tp + fp else 1.0
    print(f"\n{len(exact)} formats (K101-K103) x {args.trials} values: {tp}/{total} found, {formats_missed} format(s) "
          f"with a miss (recall {recall:.3f}); {len(negatives)} hard negatives: {fp} flagged (precision {precision:.3f})")
    rates = keyless_rates(args.keyless_trials, args.seed)
    print("K104 (no keyword) misses by length:", "; ".join(
        f"{n}: " + ", ".join(f"{r['alphabet']} {int(str(r['missed'])) / int(str(r['trials'])):.1%}"
                             for r in rates if r["length"] == n) for n in sorted({int(str(r["length"])) for r in rates})))
    result: dict[str, object] = {"positives": positives, "negatives": negatives, "recall": recall, "precision": precision,
                                 "keyless": rates}
    if args.vault:
        timing = time_vault(args.vault)
        result["timing"] = timing
        print(f"find_secrets over {timing['cards']} cards of {timing['vault']}: {timing['seconds']} s (best of 5), "
              f"{timing['hits']} secrets")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 1 if formats_missed or fp else 0


if __name__ == "__main__":
    raise SystemExit(main())
