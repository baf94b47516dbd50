"""`values.equivalent` looks abbreviations and compounds up per statement instead of walking it per word.

A long card compared with many candidates made `equivalent` walk the other statement's
words once per unshared word (`cards add` of one long card into tests/pairs_dev3 took
7 s). The lookups must answer exactly what the walks answered: the first run of words
whose initials spell a word, and the first word a stop-word compound is made of.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardindex.meaning import values


def _walked_initials(x: str, seq: tuple[str, ...]) -> tuple[str, ...] | None:
    n = len(x)
    if not 2 <= n <= 4 or not x.isalpha() or not x.isascii():
        return None
    for i in range(len(seq) - n + 1):
        run = seq[i:i + n]
        if all(len(w) > 1 and w[0] == c for w, c in zip(run, x, strict=True)):
            return run
    return None


def _walked_compound(x: str, seq: tuple[str, ...]) -> str | None:
    return next((y for y in seq if values._prefixed(x, y)), None)


WORD = st.text(alphabet="abcdefnoprstuwy", min_size=1, max_size=9)
SEQ = st.lists(WORD, max_size=30).map(tuple)


@settings(max_examples=400, deadline=None)
@given(x=WORD, seq=SEQ)
def test_initials_are_the_first_run_the_walk_finds(x: str, seq: tuple[str, ...]) -> None:
    assert values._initials(x, seq) == _walked_initials(x, seq)


@settings(max_examples=400, deadline=None)
@given(head=st.sampled_from(values._COMPOUND_HEADS), tail=WORD, seq=SEQ)
def test_compounds_are_the_first_word_the_walk_finds(head: str, tail: str, seq: tuple[str, ...]) -> None:
    x = head + tail
    seq = seq + (tail, tail[:-1], tail + "s")[: len(seq) % 4]  # the words a compound is made of, now and then
    assert values._compound_of(x, seq) == _walked_compound(x, seq)


def test_known_cases() -> None:
    assert values._initials("pr", ("open", "a", "pull", "request", "today")) == ("pull", "request")
    assert values._initials("pr", ("p", "r", "pull", "request")) == ("pull", "request")
    assert values._compound_of("oncal", ("the", "call", "rota")) == "call"
    assert values._compound_of("oncal", ("the", "rota")) is None
    assert values.equivalent({"pr"}, {"pull", "request"}, (), ("pull", "request")) == (set(), set())
