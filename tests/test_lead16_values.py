"""A bare "k" after a number counts thousands, not kilobytes (lead, session 16).

"The queue drained to 1.2k" and "10k members signed up" were read as sizes of 1228.8 and
10240 bytes, so two cards could be judged to give one size two values, or one. A size
still needs its unit ("512 KB", "two gigabytes", a JVM's "4g").
"""

from __future__ import annotations

import pytest

from cardindex.meaning.value_forms import by_kind


@pytest.mark.parametrize("text", ["The queue drained to 1.2k.", "10k members signed up last season.", "About 3K boats a year."])
def test_a_bare_k_is_no_size(text: str) -> None:
    assert "size" not in by_kind(text)


@pytest.mark.parametrize(("text", "size"), [("Uploads may be 512 KB.", "524288"), ("The heap is 4g.", str(4 * 1024 ** 3)),
                                            ("Photos are at most two megabytes.", str(2 * 1024 ** 2))])
def test_a_size_with_its_unit_is_still_one(text: str, size: str) -> None:
    assert by_kind(text)["size"] == frozenset({size})
