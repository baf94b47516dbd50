"""Secret rules: keys, tokens, passwords and private keys, as `redaction.find_secrets` finds them.

The rules report exactly what every output of the tool redacts (one detector), and
name each value only in redacted form.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..card import Card
from ..redaction import find_secrets
from .context import Hit, LintContext


def known_token(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A credential in a known format: AWS key id, GitHub, Slack or Stripe token, or a URL with a password.

    Memory is read by agents and often committed; a secret in it is leaked. Revoke the
    credential, delete it from the card, and say where the secret is kept instead
    ("the Stripe key is in 1Password, vault Payments"). For a deliberate example, add
    `<!-- cards: allow-secret -->` on the line or the line above.
    """
    for secret in find_secrets(card.text):
        if secret.kind.endswith(" credential"):
            yield Hit(secret.line, secret.label(card.text))


def private_key(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A private key block (`-----BEGIN … PRIVATE KEY-----`)."""
    for secret in find_secrets(card.text):
        if secret.kind.endswith(" block"):
            yield Hit(secret.line, f"{secret.kind} (redacted)")


def assigned_secret(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A password, token or API key assigned a high-entropy value (`password = "…"`).

    Words like "token" or "password" alone are fine ("rotate the API token every 90
    days"); a value that looks random is not.
    """
    for secret in find_secrets(card.text):
        if secret.kind == "secret value":
            yield Hit(secret.line, secret.label(card.text))
