"""Values in their normal form: what a card's text gives as a value, typed, and equal however it is written.

"30 s", "thirty seconds" and "half a minute" are one duration (30 seconds); "2 GB" and
"2048 MB" one size; "every weekday", "Monday to Friday" and "Mon-Fri" one set of days;
"Node 22" and "node v22" one version of one tool; "3:30 pm" and "15:30" one time of day.
`forms(text)` reads the values a text gives, each as a `Form` (its kind, its normal
value, how it is written), and `masked(text)` is the text with each of them replaced by
a placeholder of its kind ("backups run at <time>"): what the statement says about its
slot with the value taken out (`one_slot`).

Kinds: duration, size, percent, time (of day), days (a set of weekdays), version (a tool
and its number), dimensions (width by height: "1600 \u00d7 2560 px"), rate (so many per span of time: "100
requests/min", per hour), count (a number with the noun it counts), zone (a time zone: "UTC",
"CET", "UTC+2"), code (a code span, a URL or a host, a path), name (a product or person
written with capitals inside a sentence).
Language-neutral forms (digits, code, paths) are read in every language; the spelt-out
numbers and unit words are English.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from cardindex.lazy import lazy_pattern


class Form(NamedTuple):
    """One value as a text gives it: its kind, its normal form, and the words that wrote it."""

    kind: str
    value: str
    written: str
    start: int
    end: int


_ONES = {w: n for n, w in enumerate(["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"], 1)}
_TENS = {w: 10 * n for n, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"],
                                          2)}
_UNITS: dict[str, float] = {"zero": 0, "a": 1, "an": 1, **_ONES, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
                            "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
                            "nineteen": 19, **_TENS, "hundred": 100, "half": 0.5}
# The whole numbers below a hundred by their words ("zero" … "nineteen", "twenty" … "ninety"): the one table of
# them for readers that need a word's digits (`repo_facts.quantities`).
NUMBER_WORDS: dict[str, int] = {w: int(v) for w, v in _UNITS.items() if w not in ("a", "an", "half", "hundred")}
_TENS_ONES = r"(?:{})[\s-](?:{})".format("|".join(_TENS), "|".join(_ONES))  # "twenty-five", "forty five"
_SMALL = "|".join(sorted((re.escape(w) for w in _UNITS if w not in ("half", "hundred")), key=len, reverse=True))
# Hundreds and thousands spelt out: "a hundred", "two hundred", "twenty-five thousand" (read before the words alone,
# which would take "two" and leave "hundred" for the noun).
# Patterns over numbers come in two: with the scaled numbers, for the few texts that say "hundred" or "thousand"
# (`_MAY_SCALE`), and without, for the rest (the scaled alternative, tried at every word, costs 13% of reading).
_SCALED = rf"(?:(?:{_TENS_ONES}|{_SMALL})[\s-]+)?(?:hundred|thousand)\b"
_WORDS = "|".join(sorted((re.escape(w) for w in _UNITS), key=len, reverse=True))
_NUMBER = r"(?:\d+(?:[.,]\d+)?|" + _TENS_ONES + "|" + _WORDS + r")"
_SCALED_NUMBER = r"(?:\d+(?:[.,]\d+)?|" + _SCALED + "|" + _TENS_ONES + "|" + _WORDS + r")"
_MAY_SCALE = lazy_pattern(r"(?i)hundred|thousand")
# A number in a list that shares one unit ("7, 14 and 21 days"): digits or a spelt number, never "a" or "half".
_LISTED = r"(?:\d+(?:\.\d+)?|" + _TENS_ONES + "|" + "|".join(
    sorted((re.escape(w) for w in _UNITS if w not in ("a", "an", "half")), key=len, reverse=True)) + r")"

_SECONDS = {"ms": 0.001, "millisecond": 0.001, "s": 1, "sec": 1, "secs": 1, "second": 1, "m": 60, "min": 60, "mins": 60,
            "minute": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "d": 86400, "day": 86400,
            "w": 604800, "wk": 604800, "week": 604800, "month": 2592000, "year": 31536000, "yr": 31536000}
_BYTES = {"b": 1, "byte": 1, "kb": 1024, "kib": 1024, "k": 1024, "mb": 1024 ** 2, "mib": 1024 ** 2, "m": 1024 ** 2,
          "gb": 1024 ** 3, "gib": 1024 ** 3, "g": 1024 ** 3, "tb": 1024 ** 4, "tib": 1024 ** 4, "meg": 1024 ** 2,
          "gig": 1024 ** 3}
_DURATION_UNIT = r"(?:milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|wks?|w|" \
                 r"months?|years?|yrs?)"
# A bare "k" counts thousands ("10k users", "drained to 1.2k"), never kilobytes; a bare "g" or "m" after a
# number is a size (a JVM's "-Xmx4g") where no duration reads it first.
_SIZE_UNIT = r"(?:(?:kilo|mega|giga|tera|kibi|mebi|gibi|tebi)bytes?|[kmgt]i?b|bytes?|megs?|gigs?|[mg])"
_SIZE_WORDS = {"kilo": "kb", "mega": "mb", "giga": "gb", "tera": "tb", "kibi": "kib", "mebi": "mib", "gibi": "gib",
               "tebi": "tib"}

_MEASURE_AT = (r"(?i)(?<![\w.:/-])({n})(?:\s*-\s*|\s*)(?:of\s+an?\s+)?(" + _DURATION_UNIT + "|" + _SIZE_UNIT
               + r"|%|percent|per\s*cent)(?![\w/])")
_MEASURE = lazy_pattern(_MEASURE_AT.replace("{n}", _NUMBER))
_MEASURE_SCALED = lazy_pattern(_MEASURE_AT.replace("{n}", _SCALED_NUMBER))
_LIST = lazy_pattern(rf"(?i)(?<![\w.:/#-]){_LISTED}(?:\s*,\s*{_LISTED})*\s*,?\s*(?:and|or)\s+(?P<last>{_LISTED})\s*"
                   r"(?P<unit>milliseconds?|seconds?|minutes?|mins|hours?|hrs|days?|weeks?|months?|years?)(?![\w/])")
_COUNTED = lazy_pattern(rf"(?i)(?<![\w.:/-]){_SCALED_NUMBER}\s+$")  # read on a few characters only
_EVERY = lazy_pattern(r"(?i)\b(?:per|every|each)\s*$")
_TIMES = lazy_pattern(r"(?i)\b(?:(\w+)\s+times|twice|once)\s*(?:per\s*)?$")
# "an hour and a half", "one and a half hours", "2 and a half days": a whole number of units and a half.
_AND_HALF = lazy_pattern(rf"(?i)(?<![\w.:/-])(?:({_LISTED}|an?)\s+(second|minute|hour|day|week|month|year)s?\s+and\s+a\s+half"
                         rf"|({_LISTED})\s+and\s+a\s+half\s+(second|minute|hour|day|week|month|year)s?)\b")
# So many of a thing in a span of time: "100 requests/min", "5 deploys a day", "a hundred calls in a sixty-second
# window". Its normal form is the number per hour, whatever is counted ("requests" / "calls": one limit).
_RATE_AT = (r"(?i)(?<![\w.:/-])(?:an?\s+)?(?P<n>{n})(?P<noun>(?:\s+[a-z][a-z-]*){0,2}?)(?:\s*/\s*|\s+(?:per|an?"
            r"|each|every)\s+|\s+(?:in|within)\s+(?:an?|one|any|each)\s+)(?:(?P<d>" + _LISTED + r")(?:\s*-\s*|\s*))?"
            r"(?P<unit>" + _DURATION_UNIT + r")(?:\s+(?:window|period|span|interval))?(?![\w/])")
_RATE = lazy_pattern(_RATE_AT.replace("{n}", _NUMBER))
_RATE_SCALED = lazy_pattern(_RATE_AT.replace("{n}", _SCALED_NUMBER))
_FRACTION = lazy_pattern(r"(?i)\b(?:(half)\s+an?|an?\s+(half)|(?:an?\s+)?(quarter)\s+of\s+an?|(three)\s+quarters\s+of\s+an?)"
                       r"\s+(minute|hour|day|second|week|month|year)\b")
_PARTS = {"half": 0.5, "quarter": 0.25, "three": 0.75}
_CLOCK = lazy_pattern(r"(?i)(?<![\w:.])(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?!\w)|(?<![\w:.])([01]?\d|2[0-3]):([0-5]\d)"
                    r"(?::\d{2})?(?![\w:])|\b(noon|midday|midnight)\b")
# A time of day said in words: "half past nine", "a quarter to ten", "six in the morning", "7 o'clock in the evening".
_HOUR = r"(?:1[0-2]|0?[1-9]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_SPOKEN = lazy_pattern(rf"(?i)(?<![\w:.])(?:(?:(?:a\s+)?(quarter|half)|(\d{{1,2}}|ten|twenty|twenty-five)(?:\s+minutes)?)\s+"
                       rf"(past|after|to|before)\s+)?({_HOUR})(?:\s*o['\u2019]clock)?"
                       r"(?:\s+(?:in\s+the\s+(morning|afternoon|evening)|at\s+(night)))?(?![\w:])")
# A bare hour after "at" that a day or a daily cadence just named: "every Mon at 9", "daily at 6 (UTC)". Alone
# "at 9" is a count ("caps at 9", "at 9 reviewers"); a lower-case word after it makes it one too.
_DAY_HOUR = lazy_pattern(r"(?i)\b(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?|(?:wednes|satur)days?|weekdays?"
                         r"|daily|nightly|every\s+(?:day|morning|evening|night)|each\s+(?:day|morning))\.?,?\s+at\s+"
                         r"(?P<hour>[01]?\d|2[0-3])(?!\d|[:.,]\d|\s*(?:%|[-\u2013x\u00d7]\s*\d))(?!\s+(?-i:[a-z]))")
# Width by height: "1600 x 2560 px", "1600x2560", "1600 by 2560 pixels", "1600 pixels wide and 2560 tall".
_BY = lazy_pattern(r"(?i)(?<![\w.])(\d{2,5})\s*(?:px\s*)?(?:[x\u00d7*]|\s+by\s+)\s*(\d{2,5})(?:\s*(?:px|pixels?)\b)?(?!\w|\.\d)")
_WIDE_TALL = lazy_pattern(r"(?i)(?<![\w.])(\d{2,5})\s*(?:px|pixels?)?\s+(wide|tall|high)\s*(?:,|and|by|x|\u00d7)?\s*"
                          r"(\d{2,5})\s*(?:px|pixels?)?\s+(wide|tall|high)\b")
# A version its tool is held to: "Pandoc is pinned to 3.1", "node stays on 20.11". Pinned or locked, any number;
# staying on or kept at, a dotted one ("the timeout is kept at 30" is no version).
_HELD_VERSION = lazy_pattern(r"(?<![\w.])(?:([A-Za-z][A-Za-z.+-]{1,20})\s+(?:(?:is|are|was|gets|got)\s+)?(?:(?P<pinned>pinned"
                             r"|locked)\s+(?:to|at)|(?:kept|held|frozen)\s+(?:to|at|on))|([A-Za-z][A-Za-z.+-]{1,20})\s+"
                             r"(?:is|are|stays|remains|stay|remain)\s+(?:on|at))\s+v?(\d+\.x|\d+(?:\.\d+){0,2})(?![\w%:]|\.\d)")
# Cheap tests that a text may hold one of the rarer forms above, so most texts skip the costly patterns.
_MAY_DAY_HOUR = lazy_pattern(r"\bat\s+[012]?\d\b")
_MAY_WIDE = lazy_pattern(r"(?i)wide")
_MAY_BY = lazy_pattern(r"\d\s*(?:px\s*)?(?:[x\u00d7*]|\s+by\s+)\s*\d")
_MAY_HELD = lazy_pattern(r"(?:pinned|locked|kept|held|frozen|stays?|remains?|is|are)\s+(?:to|at|on)\s+v?\d")
_MAY_RATE = lazy_pattern(r"(?i)(?:/\s*|\s(?:per|an?|each|every|in|within)\s+)(?:(?:an?|one|any|each)\s+)?(?:\w+[\s-]*)?"
                         r"(?:ms|s|secs?|seconds?|mins?|minutes?|m|hours?|hrs?|h|days?|d|weeks?|wks?|w|months?|years?|yrs?)\b")
_DAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_DAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?|(?:wednes|satur)days?"
_DAY_RANGE = lazy_pattern(rf"(?i)\b({_DAY})\.?\s*(?:-|\u2013|\u2014|to|through|thru|until)\s*({_DAY})\b")
_DAY_ONE = lazy_pattern(rf"(?i)\b({_DAY})\b\.?")
_JOINED = lazy_pattern(r"(?i)\s*(?:,|/|&|and|or|,\s*and|,\s*or)\s*")
_WEEKDAYS = lazy_pattern(r"(?i)\b(?:every\s+|on\s+)?(weekdays?|work(?:ing)?\s*days?|business\s+days?|weekends?)\b")
_VERSION = lazy_pattern(r"(?<![\w.])([A-Za-z][A-Za-z.+-]{1,20})\s+v?(\d+\.x|\d+(?:\.\d+){0,2})(?![\w%:]|\.\d|\s*(?:%|" + _DURATION_UNIT
                      + r"\b|" + _SIZE_UNIT + r"\b))")
_COUNT_AT = r"(?i)(?<![\w.:/-])({n})\s+([a-z][a-z-]{2,})"
_COUNT = lazy_pattern(_COUNT_AT.replace("{n}", _NUMBER))
_COUNT_SCALED = lazy_pattern(_COUNT_AT.replace("{n}", _SCALED_NUMBER))
_CODE = lazy_pattern(r"`([^`\n]+)`|(?<![\w-])([a-z]+(?:-[a-z]+)+-\d+[a-z]?)(?![\w-])|\b(https?://[^\s)>\]]+)|(?<![\w@/.-])((?:[a-z0-9-]+\.)+(?:dev|com|io|net|org|app|cloud|so|sh))"
                   r"(?![\w/-])")
# A time zone by its abbreviation or offset: "UTC", "CET", "UTC+2", "GMT-5" (English and neutral alike).
_ZONE = lazy_pattern(r"(?<![\w-])((?:UTC|GMT)(?:\s?[+-]\s?\d{1,2}(?::?\d{2})?)?|CES?T|EES?T|WES?T|BST|JST|KST|AES?T|AEDT"
                   r"|[PMCE][SD]T)(?![\w-])")
_CHANNEL = lazy_pattern(r"(?<![\w&#/])#([a-z][\w-]{1,40})\b")
_QUOTED = lazy_pattern(r"[\"\u201c]([^\"\u201d\n\s]+(?:\s[^\"\u201d\n\s]+){0,3})[\"\u201d]")
_NAME = lazy_pattern(r"(?<=[a-z,;:(] )([A-Z0-9]*[A-Z][\w+#.-]*[A-Za-z0-9+#](?:[ ]+[A-Z][\w+#.-]*[A-Za-z0-9+#]){0,3})")
# Words before "is pinned to 3.1" that are not the tool pinned: "It is pinned to 3.1" names none.
_HELD_NOT_TOOLS = frozenset({"it", "is", "are", "this", "that", "which", "version", "release", "we", "they", "everything",
                             "all", "both", "still", "now", "also", "be", "been"})
_CALENDAR = frozenset(_DAY_NAMES + [d + "s" for d in _DAY_NAMES] + [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"])
_NOT_COUNTED = frozenset({"of", "and", "or", "the", "more", "less", "times", "per", "to", "in", "at", "on", "for", "days",
                          "hours", "minutes", "seconds", "weeks", "percent"})
_NOT_A_NAME = frozenset({"I", "API", "CI", "PR", "PRs", "OK", "UI", "UTC", "URL", "JSON", "CSV", "PDF", "SQL", "HTTP",
                         "HTTPS", "The", "This", "That", "It", "We", "You", "And", "Or", "But"})
# Capitals that name a kind of thing, never one thing ("the API", "in CI"): as words, lower-cased.
GENERIC = frozenset(n.casefold() for n in _NOT_A_NAME if n.isupper() and len(n) > 1)


# Standard offsets from UTC of the zones `_ZONE` reads by name: "KST" and "UTC+9" are one zone.
_OFFSETS = {"utc": 0, "gmt": 0, "wet": 0, "west": 1, "bst": 1, "cet": 1, "cest": 2, "eet": 2, "eest": 3, "jst": 9,
            "kst": 9, "aest": 10, "aedt": 11, "pst": -8, "pdt": -7, "mst": -7, "mdt": -6, "cst": -6, "cdt": -5,
            "est": -5, "edt": -4}


def _offset(raw: str) -> str:
    """A zone's normal form, its offset from UTC: "UTC" is "utc+0", "KST" and "UTC +9" are "utc+9"."""
    low = raw.replace(" ", "").casefold()
    if low in _OFFSETS:
        hours = _OFFSETS[low]
    else:
        sign, rest = low[3], low[4:].replace(":", "")
        hours = int(rest[:-2] if len(rest) > 2 else rest) * (-1 if sign == "-" else 1)
        if len(rest) > 2 and rest[-2:] != "00":
            return f"utc{sign}{rest}"
    return f"utc{'+' if hours >= 0 else '-'}{abs(hours)}"


def _number(raw: str) -> float | None:
    raw = " ".join(raw.lower().replace(",", ".").replace("-", " ").split())
    if raw in _UNITS:
        return float(_UNITS[raw])
    parts = raw.split()
    if len(parts) > 1 and parts[-1] in ("hundred", "thousand"):
        head = _number(" ".join(parts[:-1]))
        return None if head is None else head * (100 if parts[-1] == "hundred" else 1000)
    if parts == ["thousand"]:
        return 1000.0
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _ONES:
        return float(_TENS[parts[0]] + _ONES[parts[1]])
    try:
        return float(raw)
    except ValueError:
        return None


_PART_MINUTES = {"quarter": 15, "half": 30, "ten": 10, "twenty": 20, "twenty-five": 25}


def _spoken(m: re.Match[str]) -> int | None:
    """Minutes after midnight of a time said in words, or None: a bare number is no time ("six reviewers")."""
    part, minutes_raw, relation, hour_raw, daypart, night = m.groups()
    said_clock = "clock" in m.group().lower()
    if not (relation or daypart or night or said_clock):
        return None
    hour = int(_number(hour_raw) or 0)
    minutes = _PART_MINUTES.get((part or minutes_raw or "").lower()) if not (minutes_raw or "").isdigit() else int(minutes_raw)
    if relation and (minutes is None or not 0 < minutes < 60):
        return None
    if relation and relation.lower() in ("to", "before"):
        hour, minutes = hour - 1, 60 - (minutes or 0)
    elif not relation:
        minutes = 0
    hour %= 12
    if (daypart and daypart.lower() in ("afternoon", "evening")) or (night and hour >= 6):
        hour += 12
    return hour * 60 + (minutes or 0)


def _rate(text: str, start: int, number: str) -> tuple[float, int] | None:
    """How many times per the measure a text before `start` says ("four times an hour": 4), and where it starts."""
    before = text[max(0, start - 20):start]
    every = _EVERY.search(before)
    if every:
        return 1.0, start - len(before) + every.start()
    times = _TIMES.search(before)
    if (times and number.lower() in ("a", "an", "per")) or (times and before.rstrip().lower().endswith("per")):
        assert times is not None
        word = (times.group(1) or ("2" if "twice" in times.group().lower() else "1")).lower()
        count = _number(word)
        return (count or 1.0), start - len(before) + times.start()
    return None


def _plain(n: float) -> str:
    return str(int(n)) if n == int(n) else f"{n:g}"


def _unit(raw: str) -> str:
    u = raw.lower().replace(" ", "")
    if u in ("percent", "percent", "%"):
        return "%"
    if u.endswith(("byte", "bytes")) and u[:4] in _SIZE_WORDS:
        return _SIZE_WORDS[u[:4]]
    return u[:-1] if len(u) > 3 and u.endswith("s") else u


def _day(raw: str) -> int | None:
    head = raw.lower()[:3]
    return next((i for i, d in enumerate(_DAY_NAMES) if d.startswith(head)), None)


@functools.lru_cache(maxsize=20_000)
def forms(text: str) -> tuple[Form, ...]:
    """The values `text` gives, in the order it gives them, each read once (the first reading that covers it wins)."""
    return _read(text, True)


def _read(text: str, full: bool) -> tuple[Form, ...]:
    """`forms`; with `full` False only code and the measured kinds `normalized` writes (read first, so the same)."""
    found: list[Form] = []
    taken: list[tuple[int, int]] = []

    def add(kind: str, value: str, start: int, end: int) -> None:
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append(Form(kind, value, text[start:end], start, end))

    for m in _CODE.finditer(text):
        raw = (m.group(1) or m.group(2) or m.group(3) or m.group(4) or "").strip().rstrip(".,;")
        add("code", raw.casefold().removeprefix("https://").removeprefix("http://").rstrip("/"), m.start(), m.end())
    for m in _CHANNEL.finditer(text):
        add("code", "#" + m.group(1).casefold(), m.start(), m.end())
    if full and "T" in text:
        for m in _ZONE.finditer(text):
            add("zone", _offset(m.group(1)), m.start(), m.end())
    scaled = _MAY_SCALE.search(text) is not None  # "two hundred": the patterns that read scaled numbers
    for m in (_RATE_SCALED if scaled else _RATE).finditer(text) if _MAY_RATE.search(text) else ():
        n, per, unit = _number(m.group("n")), _number(m.group("d") or "1"), _unit(m.group("unit"))
        noun = m.group("noun").split()
        if n is None or per is None or not per or unit not in _SECONDS or m.group("n").lower() in ("a", "an", "half") \
                or (noun and (noun[-1].lower() in ("times", "time") or _unit(noun[-1]) in _SECONDS)):
            continue  # "six times an hour" is how often (an interval); "2 hours a day" a duration each day
        if unit in ("m", "d", "w", "h", "s") and not (m.group("d") or "/" in m.group()):
            continue  # "5 deploys a d…": a one-letter unit only after a slash or a number ("100 req/s", "in 60 s")
        add("rate", _plain(round(n * 3600 / (per * _SECONDS[unit]), 6)), m.start(), m.end())
    for m in _AND_HALF.finditer(text):
        raw, unit = (m.group(1), m.group(2)) if m.group(2) else (m.group(3), m.group(4))
        n = 1.0 if raw.lower() in ("a", "an") else _number(raw)
        if n is not None:
            seconds = (n + 0.5) * _SECONDS[unit.lower()]
            rate = _rate(text, m.start(), "a")
            if rate is not None:  # "every hour and a half"
                add("interval", _plain(round(seconds / rate[0], 3)), rate[1], m.end())
            else:
                add("duration", _plain(seconds), m.start(), m.end())
    for m in _FRACTION.finditer(text):
        part = _PARTS[next(g for g in m.groups()[:4] if g).lower()]
        rate = _rate(text, m.start(), "a")
        seconds = part * _SECONDS[m.group(5).lower()]
        if rate is not None:  # "every quarter of an hour", "every half hour"
            add("interval", _plain(round(seconds / rate[0], 3)), rate[1], m.end())
        else:
            add("duration", _plain(seconds), m.start(), m.end())
    for m in _CLOCK.finditer(text):
        if m.group(6):
            minutes = 720 if m.group(6).lower() in ("noon", "midday") else 0
        elif m.group(3):
            hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
            minutes = (hour + (12 if m.group(3).lower().startswith("p") else 0)) * 60 + minute
        else:
            minutes = int(m.group(4)) * 60 + int(m.group(5))
        add("time", f"{minutes // 60:02d}:{minutes % 60:02d}", m.start(), m.end())
    for m in _SPOKEN.finditer(text):
        spoken = _spoken(m)
        if spoken is not None:
            add("time", f"{spoken // 60:02d}:{spoken % 60:02d}", m.start(), m.end())
    for m in _DAY_HOUR.finditer(text) if _MAY_DAY_HOUR.search(text) else ():  # "Mon at 9": the hour, no clock read
        add("time", f"{int(m.group('hour')):02d}:00", m.start("hour"), m.end("hour"))
    for m in _LIST.finditer(text):  # "7, 14 and 21 days": each number in the unit the last one gives
        unit = _unit(m.group("unit"))
        numbers = [(x.start(), x.end(), x.group()) for x in re.finditer(_LISTED, m.group(), re.IGNORECASE)]
        for k, (start, end, raw) in enumerate(numbers):
            n = _number(raw)
            if n is not None:
                add("duration", _plain(n * _SECONDS[unit]), m.start() + start,
                    m.end() if k == len(numbers) - 1 else m.start() + end)
    for m in (_MEASURE_SCALED if scaled else _MEASURE).finditer(text):
        n = _number(m.group(1))
        unit = _unit(m.group(2))
        if n is None:
            continue
        if unit == "%" or unit.startswith("per"):
            add("percent", _plain(n), m.start(), m.end())
        elif unit in _SECONDS and not (unit == "m" and m.group(2) == "M") and not (
                unit in ("m", "d", "w", "h", "s") and m.group(1).isalpha()):
            rate = _rate(text, m.start(), m.group(1))
            if rate is not None:  # "four times an hour", "every 15 minutes": how often, not how long
                add("interval", _plain(round(n * _SECONDS[unit] / rate[0], 3)), rate[1], m.end())
            else:
                add("duration", _plain(n * _SECONDS[unit]), m.start(), m.end())
        elif unit in _BYTES and ((len(unit) > 1 and unit not in ("meg", "gig")) or m.group(1)[:1].isdigit()) \
                and unit not in ("m",):  # "three gigs" may be concerts; "3 gigs", "50 meg" are sizes
            add("size", _plain(n * _BYTES[unit]), m.start(), m.end())
    for m in _WEEKDAYS.finditer(text):
        word = m.group(1).lower()
        if _COUNTED.search(text[max(0, m.start() - 16):m.start()]):
            continue  # "five working days", "3 business days": a span of days, not the days of the week
        add("days", "5,6" if word.startswith("weekend") else "0,1,2,3,4", m.start(), m.end())
    for m in _DAY_RANGE.finditer(text):
        first, last = _day(m.group(1)), _day(m.group(2))
        if first is not None and last is not None and first <= last:
            add("days", ",".join(str(d) for d in range(first, last + 1)), m.start(), m.end())
    days: list[tuple[int, int, int]] = []  # (day, start, end)
    for m in _DAY_ONE.finditer(text):
        d = _day(m.group(1))
        word = m.group(1).lower()
        if d is None or (len(word) <= 3 and not m.group(1)[:1].isupper()):
            continue  # "sat down", "the sun": a short lower-case day is a word
        days.append((d, m.start(), m.end()))
    groups: list[list[tuple[int, int, int]]] = []
    for day in days:  # "Tuesdays and Thursdays", "Mon, Wed or Fri": one value, a set of days
        if groups and _JOINED.fullmatch(text[groups[-1][-1][2]:day[1]]):
            groups[-1].append(day)
        else:
            groups.append([day])
    for group in groups:
        add("days", ",".join(str(d) for d in sorted({d for d, _, _ in group})), group[0][1], group[-1][2])
    if not full:
        found.sort(key=lambda f: f.start)
        return tuple(found)
    for m in _WIDE_TALL.finditer(text) if _MAY_WIDE.search(text) else ():
        if m.group(2).lower() != "wide" and m.group(4).lower() == "wide":
            add("dimensions", f"{m.group(3)}x{m.group(1)}", m.start(), m.end())
        elif m.group(2).lower() == "wide" and m.group(4).lower() != "wide":
            add("dimensions", f"{m.group(1)}x{m.group(3)}", m.start(), m.end())
    for m in _BY.finditer(text) if _MAY_BY.search(text) else ():
        add("dimensions", f"{m.group(1)}x{m.group(2)}", m.start(), m.end())
    for m in _HELD_VERSION.finditer(text) if _MAY_HELD.search(text) else ():
        tool, number = (m.group(1) or m.group(3)).casefold().rstrip(".-"), m.group(4).removesuffix(".x")
        if tool in _NOT_COUNTED or tool in _UNITS or tool in _CALENDAR or tool in _HELD_NOT_TOOLS:
            continue
        if not (m.group("pinned") or "." in number) or (len(number) == 4 and number[:2] in ("19", "20")):
            continue
        add("version", f"{tool} {number}", m.start(), m.end())
    for m in _VERSION.finditer(text):
        tool = m.group(1).casefold().rstrip(".-")
        if tool in _NOT_COUNTED or tool in _UNITS or len(tool) < 2 or tool in _CALENDAR:
            continue
        if not (m.group(1)[:1].isupper() or "." in m.group(2) or text[m.start(2) - 1:m.start(2)] == "v"):
            continue  # "needs 2 approvals" is a count; "Node 22", "node v22", "python 3.12" are versions
        number = m.group(2).removesuffix(".x")
        if len(number) == 4 and number[:2] in ("19", "20"):
            continue  # "UI 2026" names a year
        add("version", f"{tool} {number.split('.')[0] if '.' not in number else number}", m.start(), m.end())
    for m in (_COUNT_SCALED if scaled else _COUNT).finditer(text):
        n = _number(m.group(1))
        noun = m.group(2).lower()
        if n is None or noun in _NOT_COUNTED or m.group(1).lower() in ("a", "an", "half"):
            continue
        add("count", _plain(n), m.start(), m.end())  # "three reminders" / "three emails": one number
    for m in _QUOTED.finditer(text):  # a quoted name: the vault "Eng-Shared", the label "needs-design"
        add("name", m.group(1).casefold(), m.start(), m.end())
    for m in _NAME.finditer(text):
        name = m.group(1).rstrip(".")
        if name in _NOT_A_NAME or (name.isupper() and len(name) <= 2) or name.casefold() in _CALENDAR:
            continue
        add("name", name.casefold(), m.start(), m.start() + len(name))
    found.sort(key=lambda f: f.start)
    return tuple(found)


def masked(text: str) -> str:
    """`text` with each value replaced by its kind in angle brackets: "backups run at <time>"."""
    out, last = [], 0
    for f in forms(text):
        out.append(text[last:f.start])
        out.append(f" <{f.kind}> ")
        last = f.end
    out.append(text[last:])
    return "".join(out)


_EXAMPLES = lazy_pattern(r"(?i)\b(?:e\.\s?g\.|eg\.|for example|for instance|such as)[^.;)\n]*|:[ \t]*[^.:;\n]*,[^.:;\n]*(?=\.|$)",
                       re.MULTILINE)


def examples(text: str) -> list[tuple[int, int]]:
    """Where `text` gives examples ("e.g. `billing-tax-v2`", a list after a colon): values there illustrate, not state."""
    return [m.span() for m in _EXAMPLES.finditer(text)]


def by_kind(text: str) -> dict[str, frozenset[str]]:
    """The normal values `text` states (not its examples), grouped by kind."""
    out: dict[str, set[str]] = {}
    spans = examples(text)
    for f in forms(text):
        if any(s <= f.start and f.end <= e for s, e in spans):
            continue
        out.setdefault(f.kind, set()).add(f.value)
    return {k: frozenset(v) for k, v in out.items()}


# Kinds compared by their normal form (amounts, and the zone: "KST" is "UTC+9"), never by how they are written.
MEASURED = frozenset({"duration", "interval", "size", "percent", "time", "days", "version", "count", "zone",
                      "dimensions", "rate"})
# What any value `normalized` rewrites needs: a unit, a clock, a day or a day-set word.
_MAY_MEASURE = lazy_pattern(
    r"(?i)\d[:%]|\d\s?(?:[kmgt]i?b|ms|[smhdw]|am|pm|a\.m|p\.m)\b|\b(?:secs?|seconds?|mins?|minutes?|hrs?|hours?|days?|wks?|weeks?|months?"
    r"|years?|yrs?|\w*bytes?|[kmgt]i?b|megs?|gigs?|percent|past|quarter|o['\u2019]clock|morning|afternoon|evening|night|daily|nightly|am|pm|a\.m|p\.m|noon|midday|midnight|weekdays?|weekends?|work(?:ing)?\s*days?"
    r"|business|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?|(?:wednes|satur)days?)\b")
CANONICAL = frozenset({"duration", "interval", "size", "percent", "time", "days"})  # kinds `normalized` rewrites
_DAY_SETS = {"0,1,2,3,4": "weekdays", "5,6": "weekends"}


def canonical(f: Form) -> str:
    """One way of writing a value of its kind: "15 minutes", "every 7 days", "2048 MB", "85 percent", "02:00"."""
    if f.kind in ("duration", "interval"):
        seconds = float(f.value)
        if seconds >= 86400 and seconds % 86400 == 0:
            said = f"{_plain(seconds / 86400)} days"
        elif seconds >= 60 and seconds % 60 == 0:
            said = f"{_plain(seconds / 60)} minutes"
        else:
            said = f"{_plain(seconds)} seconds"
        return f"every {said}" if f.kind == "interval" else said
    if f.kind == "size":
        n = float(f.value)
        for unit, size in (("MB", 1024 ** 2), ("KB", 1024)):
            if n >= size and n % size == 0:
                return f"{_plain(n / size)} {unit}"
        return f"{_plain(n)} bytes"
    if f.kind == "percent":
        return f"{f.value} percent"
    if f.kind == "days":
        if f.value in _DAY_SETS:
            return _DAY_SETS[f.value]
        days = [_DAY_NAMES[int(d)] + "s" for d in f.value.split(",")]
        return f.written if len(days) == 1 else ", ".join(days[:-1]) + " and " + days[-1]
    if f.kind == "time":
        return f.value
    return f.written


@functools.lru_cache(maxsize=50_000)
def normalized(text: str) -> str:
    """`text` with each measured value written one way (`canonical`): "three months" → "90 days", "2am" → "02:00".

    The one reader of values for text compared word by word (`words.statement`, `restatement`):
    what `forms` reads, `by_kind` compares and `normalized` writes are one model. Only text
    that is compared passes here; what a card file says is never changed.
    """
    if not _MAY_MEASURE.search(text):
        return text  # no digit, spelt number, day or time word: nothing to rewrite (most lines)
    out, last = [], 0
    for f in _read(text, False):
        if f.kind not in CANONICAL:
            continue
        out.append(text[last:f.start])
        out.append(canonical(f))
        if f.written.endswith(".") and (f.end == len(text) or text[f.end:f.end + 2].strip()[:1].isupper() or
                                        text[f.end:f.end + 1] == "\n"):
            out.append(".")  # "at 2 a.m." ends its sentence too
        last = f.end
    out.append(text[last:])
    return "".join(out)

