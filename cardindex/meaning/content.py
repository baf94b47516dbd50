"""Content words as Snowball stems: what the derivable rules compare between a card and a repo file.

Lower-cased words and numbers, stop words dropped, each word stemmed by the one
stemmer (`meaning.stem`). Identifiers split at `_`, `-`, `.` and `/` so `line-length`,
`line_length` and "line length" meet. Words in scripts the English stemmer does not
know (Korean, Chinese) are cut into character pairs, as CJK search indexes do.
"""

from __future__ import annotations

import functools
import re

from cardindex.lazy import lazy_pattern
from cardindex.meaning.stem import stems
from cardindex.meaning.words import STOP

_TOKEN = lazy_pattern(r"\d+(?:\.\d+)+|[^\W_]+", re.UNICODE)
# A word with a version or size run on ("debian12", "node22", "python3"): the name and the number, as prose writes them.
_NAME_NUMBER = lazy_pattern(r"([a-z]{3,})(\d+)")
_CAMEL = lazy_pattern(r"(?<=[a-z0-9])(?=[A-Z])")
_CJK = lazy_pattern(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_DATE = lazy_pattern(r"\b(?:19|20)\d\d-\d\d(?:-\d\d)?\b")
_NUMBER = lazy_pattern(r"(?<![\w.])\d[\d_,]*(?:\.\d+)?(?![\w.]*\w)")
# One spelling of "not": "Don't push to main" and "nobody pushes to main" both deny the same thing.
_CONTRACTED = lazy_pattern(r"(?i)\b(?:(can)|(won)|(\w+)n)['\u2019]t\b")
_DENIALS = frozenset({"never", "nobody", "no", "none", "cannot", "not"})


@functools.lru_cache(maxsize=50_000)
def has_cjk(text: str) -> bool:
    """Whether `text` holds Chinese, Japanese or Korean script (the one test of it the meaning layer uses)."""
    return _CJK.search(text) is not None


def content_stems(text: str, *, split_camel: bool = False) -> tuple[str, ...]:
    """The content stems of `text`, in order, repeats kept."""
    if split_camel:
        text = _CAMEL.sub(" ", text)
    if "'" in text or "\u2019" in text:
        text = _CONTRACTED.sub(lambda m: f"{m.group(1) or ('will' if m.group(2) else m.group(3))} not", text)
    raw = [("not" if w in _DENIALS else w) for w in _words(text.lower()) if (len(w) > 1 or w.isdigit()) and w not in STOP]
    if not raw:
        return ()
    if not _CJK.search(text):
        return tuple(stems(raw))
    out: list[str] = []
    for word, stemmed in zip(raw, stems(raw), strict=True):
        if _CJK.search(word):
            # Words in scripts without spaces between them, or with particles fused on (Korean
            # "문자열은" is "문자열" + "은"), meet by their character pairs, as CJK search indexes do.
            out.extend(word[i:i + 2] for i in range(len(word) - 1)) if len(word) > 2 else out.append(word)
        else:
            out.append(stemmed)
    return tuple(out)


def _words(text: str) -> list[str]:
    """The words and numbers of lower-cased `text`, a name with a number run on ("debian12") read as two."""
    out: list[str] = []
    for word in _TOKEN.findall(text):
        m = _NAME_NUMBER.fullmatch(word) if word[-1:].isdigit() else None
        out.extend(m.groups() if m else (word,))
    return out


def numbers(text: str) -> frozenset[str]:
    """The numbers written in `text`, one spelling each (`1,000` and `1_000` are `1000`)."""
    out = set()
    for m in _NUMBER.finditer(text):
        raw = m.group().replace("_", "").replace(",", "")
        try:
            value = float(raw)
        except ValueError:
            continue
        out.add(str(int(value)) if value.is_integer() else repr(value))
    return frozenset(out)


def has_date(text: str) -> bool:
    return _DATE.search(text) is not None
