"""Helpers shared by the card, property and cache tests."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (True is not 1, a date is not a str)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dt.datetime):
        return bool(a == b and a.utcoffset() == b.utcoffset())
    return bool(a == b)
