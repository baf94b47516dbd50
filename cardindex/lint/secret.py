"""Secret rules: keys, tokens, passwords and private keys. Values never leave redacted."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterator

from ..card import Card
from .context import Hit, LintContext

_ALLOW = re.compile(r"cards:\s*allow-secret|pragma:\s*allowlist secret", re.IGNORECASE)
_PLACEHOLDER = re.compile(
    r"x{4,}|X{4,}|\*{3,}|\.{3}|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\$[A-Z_]{3,}|%\([a-z_]+\)s|"
    r"(?i:example|dummy|placeholder|changeme|your[-_]?(?:key|token|secret|password)|redacted|fake|sample)"
)
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)

FAMILIES: dict[str, re.Pattern[str]] = {
    "aws": re.compile(r"\b((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16})\b"),
    "github": re.compile(r"\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
    "slack": re.compile(r"\b(xox[abposr]-[A-Za-z0-9-]{10,})\b"),
    "slack webhook": re.compile(r"hooks\.slack\.com/services/(T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,})"),
    "stripe webhook": re.compile(r"\b(whsec_[A-Za-z0-9]{20,})\b"),
    "stripe": re.compile(r"\b((?:sk|rk)_live_[A-Za-z0-9]{16,})\b"),
    "url": re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s@/]{3,})@[^\s]+", re.IGNORECASE),
}
_KEY_BLOCK = re.compile(r"-----BEGIN ((?:RSA |DSA |EC |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----")
_ASSIGNMENT = re.compile(
    r"(?i)(?<![a-z])(?:password|passwd|pwd|secret|token|api[-_ ]?key|apikey|access[-_ ]?key|private[-_ ]?key|"
    r"client[-_ ]?secret|auth[-_ ]?token|credentials?)\b[\"']?\s*(?:[:=]|=>|\bis\b)\s*[\"'`]?([^\s\"'`,;]{8,})"
)


def redact(value: str) -> str:
    """Show enough to find the value, never enough to use it."""
    return f"{value[:4]}…({len(value)} chars, redacted)"


def entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def _plausible(value: str) -> bool:
    """Filter placeholders, templates, UUIDs and repeated characters out."""
    return not (_PLACEHOLDER.search(value) or _UUID.match(value) or len(set(value)) <= 3)


# Cheap substring checks first: most cards hold nothing that could be a secret.
_ANCHORS = (
    "akia", "asia", "abia", "acca", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "apka", "ghp_", "gho_",
    "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "k_live_", "whsec_", "hooks.slack", "private key", "password", "passwd", "pwd",
    "secret", "token", "apikey", "api_key", "api-key", "api key", "access_key", "access-key", "access key",
    "credential", "@",
)


def _lines(card: Card) -> tuple[tuple[int, str], ...]:
    return _candidate_lines(card.text)


@functools.lru_cache(maxsize=8)
def _candidate_lines(text: str) -> tuple[tuple[int, str], ...]:
    """Lines that could hold a secret (not allowed by a comment); shared by the three rules."""
    lowered = text.lower()
    if not any(anchor in lowered for anchor in _ANCHORS):
        return ()
    lines = text.splitlines()
    out = []
    for index, line in enumerate(lines):
        previous = lines[index - 1] if index else ""
        if _ALLOW.search(line) or _ALLOW.search(previous):
            continue
        out.append((index + 1, line))
    return tuple(out)


def known_token(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A credential in a known format: AWS key id, GitHub, Slack or Stripe token, or a URL with a password.

    Memory is read by agents and often committed; a secret in it is leaked. Revoke the
    credential, delete it from the card, and say where the secret is kept instead
    ("the Stripe key is in 1Password, vault Payments"). For a deliberate example, add
    `<!-- cards: allow-secret -->` on the line or the line above.
    """
    for number, line in _lines(card):
        for family, pattern in FAMILIES.items():
            for m in pattern.finditer(line):
                value = m.group(1)
                if _plausible(value):
                    yield Hit(number, f"{family} credential {redact(value)}")


def private_key(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A private key block (`-----BEGIN … PRIVATE KEY-----`)."""
    for number, line in _lines(card):
        m = _KEY_BLOCK.search(line)
        if m:
            yield Hit(number, f"{m.group(1).lower()} block (redacted)")


def assigned_secret(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A password, token or API key assigned a high-entropy value (`password = "…"`).

    Words like "token" or "password" alone are fine ("rotate the API token every 90
    days"); a value that looks random is not.
    """
    for number, line in _lines(card):
        if any(p.search(line) for p in FAMILIES.values()):
            continue  # reported as a known token
        for m in _ASSIGNMENT.finditer(line):
            value = m.group(1)
            mixed = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
            if _plausible(value) and ((entropy(value) >= 3.0 and mixed >= 2) or entropy(value) >= 3.5):
                yield Hit(number, f"secret value {redact(value)}")
