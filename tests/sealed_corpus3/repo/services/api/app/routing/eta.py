import math

from app.models import Stop
from app.routing.constants import AVERAGE_SPEED_KMH, DEFAULT_DWELL_SECONDS

EARTH_RADIUS_KM = 6371.0


def haversine_km(a: Stop, b: Stop) -> float:
    """Great-circle distance between two stops in kilometres."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp = p2 - p1
    dl = math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def estimate_eta(stops: list[Stop]) -> list[float]:
    """Cumulative minutes from the first stop to each stop.

    Travel time uses AVERAGE_SPEED_KMH; every stop after the first adds
    DEFAULT_DWELL_SECONDS of boarding time.
    """
    if not stops:
        return []
    minutes = [0.0]
    for prev, cur in zip(stops, stops[1:]):
        drive = haversine_km(prev, cur) / AVERAGE_SPEED_KMH * 60
        minutes.append(minutes[-1] + drive + DEFAULT_DWELL_SECONDS / 60)
    return [round(m, 1) for m in minutes]
