"""The Snowball stemmer folds inflections of one word to one token, and only those."""

from __future__ import annotations

from cardindex.meaning.stem import stem, stems


def test_inflections_share_a_stem() -> None:
    assert stem("payouts") == stem("payout")
    assert stem("sending") == stem("send")
    assert stem("running") == stem("runs") == stem("run")


def test_unrelated_words_keep_their_own_stems() -> None:
    assert stem("deploy") != stem("develop")
    assert stems(["policies", "policy", "police"])[0] == stem("policy")
    assert stem("police") != stem("policy")


def test_other_languages() -> None:
    assert stem("rechnungen", "german") == stem("rechnung", "german")
