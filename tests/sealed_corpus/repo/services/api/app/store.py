"""In-memory stand-in for the database layer, used by the API and the tests."""

from collections import defaultdict

from .models import Appointment


class Store:
    def __init__(self) -> None:
        self._by_provider: dict[int, list[Appointment]] = defaultdict(list)

    def appointments_for(self, provider_id: int) -> list[Appointment]:
        return list(self._by_provider[provider_id])

    def add(self, appointment: Appointment) -> Appointment:
        self._by_provider[appointment.provider_id].append(appointment)
        return appointment
