import pytest

from app.models import Route, Stop
from app.routing.optimizer import CapacityError, RouteOptimizer

DEPOT = Stop(stop_id="depot", name="Depot", lat=41.0, lon=-87.0)


def _route(stops: list[Stop], capacity: int = 40) -> Route:
    return Route(route_id="r1", school_code="MHE", bell_time="08:00", capacity=capacity, stops=stops)


def test_orders_nearest_first() -> None:
    far = Stop(stop_id="far", name="Far", lat=41.05, lon=-87.0)
    near = Stop(stop_id="near", name="Near", lat=41.01, lon=-87.0)
    out = RouteOptimizer(DEPOT).solve(_route([far, near]))
    assert [s.stop_id for s in out.stops] == ["near", "far"]


def test_capacity_is_enforced() -> None:
    crowded = Stop(stop_id="a", name="A", lat=41.01, lon=-87.0, riders=50)
    with pytest.raises(CapacityError):
        RouteOptimizer(DEPOT).solve(_route([crowded]))
