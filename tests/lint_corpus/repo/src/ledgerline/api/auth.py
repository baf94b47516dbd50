"""API-key authentication: keys are stored as SHA-256 hashes and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import os

API_KEYS_ENV = "LEDGERLINE_API_KEYS"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _known_hashes() -> list[str]:
    raw = os.environ.get(API_KEYS_ENV, "")
    return [value.strip() for value in raw.split(",") if value.strip()]


def require_api_key(headers: dict[str, str]) -> bool:
    """True when the ``Authorization: Bearer`` key hashes to one of the configured hashes."""
    value = headers.get("Authorization", "")
    if not value.startswith("Bearer "):
        return False
    candidate = hash_key(value[len("Bearer ") :])
    return any(hmac.compare_digest(candidate, known) for known in _known_hashes())
