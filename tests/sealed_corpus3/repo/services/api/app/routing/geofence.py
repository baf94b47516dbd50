from dataclasses import dataclass

from app.models import Stop
from app.routing.constants import GEOFENCE_RADIUS_M
from app.routing.eta import haversine_km


@dataclass(frozen=True)
class Geofence:
    """Circle around a stop; a bus inside it is arriving."""

    stop: Stop
    radius_m: float = GEOFENCE_RADIUS_M

    def contains(self, lat: float, lon: float) -> bool:
        here = Stop(stop_id="_", name="_", lat=lat, lon=lon)
        return haversine_km(self.stop, here) * 1000 <= self.radius_m
