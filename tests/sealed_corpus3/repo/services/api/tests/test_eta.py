from app.models import Stop
from app.routing.eta import estimate_eta


def test_first_stop_is_zero() -> None:
    a = Stop(stop_id="a", name="A", lat=41.0, lon=-87.0)
    assert estimate_eta([a]) == [0.0]


def test_empty() -> None:
    assert estimate_eta([]) == []
