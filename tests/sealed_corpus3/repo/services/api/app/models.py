from datetime import time

from pydantic import BaseModel, Field


class Stop(BaseModel):
    """A place where riders board or leave the bus."""

    stop_id: str
    name: str
    lat: float
    lon: float
    riders: int = Field(default=0, ge=0)


class Route(BaseModel):
    """The planned sequence of stops for one bus, one direction, one bell."""

    route_id: str
    school_code: str
    bell_time: time
    capacity: int
    stops: list[Stop] = []


class RosterEntry(BaseModel):
    student_id: str
    stop_id: str
    grade: int


class Roster(BaseModel):
    """Riders assigned to a route, as imported from the district SIS."""

    route_id: str
    entries: list[RosterEntry] = []

    def riders_at(self, stop_id: str) -> int:
        return sum(1 for e in self.entries if e.stop_id == stop_id)
