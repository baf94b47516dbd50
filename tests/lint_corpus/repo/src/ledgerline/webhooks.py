"""Deliver invoice events to customer webhooks, retrying with exponential backoff."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable

from ledgerline.billing import MAX_RETRIES

BASE_DELAY_SECONDS = 2

Sender = Callable[[bytes, dict[str, str]], bool]


def sign(payload: bytes, secret: bytes) -> str:
    """HMAC-SHA256 of the payload, sent as the X-Ledgerline-Signature header."""
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()


def deliver_webhook(
    send: Sender,
    event: dict[str, object],
    secret: bytes,
    park: Callable[[dict[str, object]], None],
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Send ``event``; after each failure wait 2, 4, 8... seconds; park it after MAX_RETRIES."""
    payload = json.dumps(event, sort_keys=True).encode()
    headers = {"X-Ledgerline-Signature": sign(payload, secret)}
    for attempt in range(MAX_RETRIES):
        if send(payload, headers):
            return True
        sleep(BASE_DELAY_SECONDS ** (attempt + 1))
    park(event)
    return False
