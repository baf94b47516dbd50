
import pytest

from app.presets import get_preset


def test_known_preset():
    assert get_preset("web-720p").height == 720


def test_unknown_preset():
    with pytest.raises(KeyError):
        get_preset("vhs")
