import pytest

from app.marc import normalize_isbn


def test_isbn10_to_13():
    assert normalize_isbn("0-306-40615-2") == "9780306406157"


def test_bad_check_digit():
    with pytest.raises(ValueError):
        normalize_isbn("9780306406158")
