"""Quantities written one way: "2 GB" is "2048 MB", "three months" is "90 days", "half an hour" is "30 minutes".

Two cards that give one amount in two units or spellings give one value; two amounts in
one unit ("2 GB" / "4 GB", "15 minutes" / "30 minutes") stay two values. A quantity is a
number (digits or a spelled number up to ninety-nine, "a" or "an" before a unit of time)
and a unit; it is rewritten to the smallest unit of its family the text is compared in:
sizes in MB (binary: 1 GB = 1024 MB, as memory limits and upload caps are given), spans
of time in minutes below a day and in days from a day up (a month is 30 days, a year 365).
Only text that `restatement` compares passes here; what a card file says is never changed.
"""

from __future__ import annotations

import re

from cardindex.lazy import lazy_pattern

_UNITS = {w: n for n, w in enumerate(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                      "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                                      "eighteen", "nineteen"], 1)}
_TENS = {w: 10 * n for n, w in enumerate(["ten", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
                                          "ninety"], 1)}
_FACTOR = {  # unit -> (the unit compared in, how many of it one is)
    "tb": ("MB", 1024 * 1024), "tib": ("MB", 1024 * 1024), "terabyte": ("MB", 1024 * 1024),
    "gb": ("MB", 1024), "gib": ("MB", 1024), "gigabyte": ("MB", 1024),
    "mb": ("MB", 1), "mib": ("MB", 1), "megabyte": ("MB", 1),
    "hour": ("minutes", 60), "hr": ("minutes", 60), "h": ("minutes", 60),
    "minute": ("minutes", 1), "min": ("minutes", 1),
    "day": ("days", 1), "week": ("days", 7), "wk": ("days", 7), "month": ("days", 30), "year": ("days", 365),
    "yr": ("days", 365),
}
_NUMBER = (r"(?P<n>\d+(?:\.\d+)?|(?:{tens})(?:[\s-](?:{units}))?|{units}|an?|half\s+an?|a\s+half|a\s+quarter\s+of\s+an?"
           r"|quarter\s+of\s+an?|half\s+of\s+an?|half)").format(tens="|".join(_TENS), units="|".join(_UNITS))
_UNIT = r"(?P<u>{})s?".format("|".join(sorted(_FACTOR, key=len, reverse=True)))
_QUANTITY = lazy_pattern(rf"(?i)\b{_NUMBER}(?:\s*|\s*-\s*)(?<![a-z]){_UNIT}\b")
_FRACTIONS = {"half": 0.5, "quarter": 0.25}


def _amount(text: str) -> float | None:
    low = " ".join(text.lower().replace("-", " ").split())
    if low[0].isdigit():
        return float(low)
    for word, part in _FRACTIONS.items():
        if word in low:
            return part
    if low in ("a", "an"):
        return 1.0
    parts = low.split()
    total = 0
    for p in parts:
        if p in _TENS and p != "ten":
            total += _TENS[p]
        elif p in _UNITS:
            total += _UNITS[p]
        else:
            return None
    return float(total)


def _rewrite(m: re.Match[str]) -> str:
    amount = _amount(m.group("n"))
    unit, factor = _FACTOR[m.group("u").lower()]
    if amount is None:
        return m.group()
    if m.group("n").strip().lower() in ("a", "an") and unit != "MB":
        # "once a week", "twice an hour": a rate, not an amount; "an hour" alone is one.
        before = m.string[max(0, m.start() - 12):m.start()].lower()
        if re.search(r"\b(?:once|twice|times|per|every|each)\s*$", before):
            return m.group()
    value = amount * factor
    if unit == "minutes" and value >= 24 * 60 and value % (24 * 60) == 0:
        unit, value = "days", value / (24 * 60)
    elif unit == "days" and value < 1:
        unit, value = "minutes", value * 24 * 60
    shown = str(int(value)) if value == int(value) else f"{value:g}"
    return f"{shown} {unit}"


def normalized(text: str) -> str:
    """`text` with every quantity written in the unit it is compared in ("three months" → "90 days")."""
    return _QUANTITY.sub(_rewrite, text)
