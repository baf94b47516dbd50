"""Secret rules: keys, tokens, passwords and private keys, as `redaction.find_secrets` finds them.

The rules report exactly what every output of the tool redacts (one detector), and
name each value only in redacted form. Findings a team accepted in the vault's secrets
baseline (`lint/baseline.py`) are left out by the runner; they are still redacted.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from cardindex.lint.context import Hit, LintContext
from cardindex.secrets import Secret, find_secrets
from cardindex.store.card import Card


def code_of(secret: Secret) -> str:
    """The rule that reports a secret of this kind."""
    if secret.kind.endswith(" block"):
        return "K102"
    if secret.kind in ("secret value", "password in prose"):
        return "K103"
    if secret.kind == "random token":
        return "K104"
    return "K101"


def message_of(secret: Secret, text: str) -> str:
    """The finding's message: the kind and a redacted hint, never the value.

    Two secrets on one line can read alike (`ghp_…(40 chars, redacted)` twice): then
    each names its column, so two findings never look like one reported twice.
    """
    message = f"{secret.kind} (redacted)" if code_of(secret) == "K102" else secret.label(text)
    alike = [s for s in find_secrets(text) if s.line == secret.line and s.kind == secret.kind and s.start != secret.start
             and s.label(text) == secret.label(text)]
    if alike:
        column = secret.start - (text.rfind("\n", 0, secret.start) + 1) + 1
        message += f" at column {column}"
    return message


_PRECEDENCE = ("K102", "K101", "K103", "K104")  # the most specific kind names a value found as several


@functools.lru_cache(maxsize=256)
def reported(text: str) -> tuple[tuple[str, Secret], ...]:
    """Each secret value of `text` once: (its rule, its first occurrence).

    One value often sits in a card twice: `cards add` takes the description from the
    text's first line, and people repeat a token in the description and the body. That
    is one secret to revoke, so one finding, on the line where it first appears (and
    under the most specific rule, should the same value be found as two kinds).
    """
    first: dict[str, tuple[str, Secret]] = {}
    for secret in find_secrets(text):
        value, code = text[secret.start:secret.end], code_of(secret)
        seen = first.get(value)
        if seen is None:
            first[value] = (code, secret)
        elif _PRECEDENCE.index(code) < _PRECEDENCE.index(seen[0]):
            first[value] = (code, seen[1]._replace(kind=secret.kind))
    return tuple(sorted(first.values(), key=lambda found: found[1].start))


def _hits(card: Card, code: str) -> Iterator[Hit]:
    for rule, secret in reported(card.text):
        if rule == code:
            yield Hit(secret.line, message_of(secret, card.text))


def known_token(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A credential in a known format: a provider's API token, a JWT, or a URL or header that holds one.

    Memory is read by agents and often committed; a secret in it is leaked. Revoke the
    credential, delete it from the card, and say where the secret is kept instead
    ("the Stripe key is in 1Password, vault Payments"). For a deliberate example, add
    `<!-- cards: allow-secret -->` on the line or the line above; to accept a finding
    the team knows about, `cards lint --update-baseline`.

    Formats: AWS key ids, GitHub, GitLab, Slack, Stripe (live and test), OpenAI,
    Anthropic, Google API, npm, PyPI, SendGrid, Twilio, Mailgun, Hugging Face,
    DigitalOcean, Shopify, HashiCorp Vault and Terraform, Databricks, age, Telegram,
    Linear, Doppler, Postman, Grafana, Sentry and Square tokens; JWTs; Slack and Discord
    webhook URLs; URLs with a password or a `?token=`/`?key=`/`?sig=` value; and
    `Authorization: Bearer`/`Basic` headers.
    """
    yield from _hits(card, "K101")


def private_key(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A private key block (`-----BEGIN … PRIVATE KEY-----`)."""
    yield from _hits(card, "K102")


def assigned_secret(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A password, token or API key assigned a high-entropy value (`password = "…"`).

    Passwords written in prose count too: a user and a password joined by a slash
    (`login: ops / Kestrel-42!`) and a password word a few words before a quoted value
    ("the seeded users share the pw `Fjord!2024`"), when the value has the shape of a
    chosen password (letters, digits and a special character or both cases).
    Words like "token" or "password" alone are fine ("rotate the API token every 90
    days"); a value that looks random is not. Placeholders (`${TOKEN}`, `<your-key>`,
    `xxxx`), environment variable names and lookups (`os.environ[…]`) are not values.
    """
    yield from _hits(card, "K103")


def random_token(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """A long random-looking token with no keyword naming it (32+ mixed-case letters and digits).

    API keys are often pasted bare. A run of 32 or more base64 or URL-safe characters
    with upper and lower case and digits that reads as noise rather than words is
    flagged; identifiers, paths, UUIDs, git hashes (hex), base64 of readable text and
    SSH public keys are not, nor anything inside a URL (URLs are checked for
    credentials on their own). `--ignore K104` turns this heuristic off.
    """
    yield from _hits(card, "K104")
