"""Slot search and booking rules for one provider's calendar."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from .models import Appointment, AppointmentStatus

SLOT_MINUTES = 15
BUFFER_MINUTES = 5
MAX_BOOKING_DAYS_AHEAD = 90


class SlotConflictError(Exception):
    """Raised when a requested slot overlaps an existing appointment."""


@dataclass(frozen=True)
class Slot:
    provider_id: int
    start: datetime
    end: datetime


def _blocks(appointment: Appointment) -> bool:
    return appointment.status != AppointmentStatus.CANCELLED


def to_clinic_tz(moment: datetime, tz_name: str) -> datetime:
    """Convert an aware datetime to the clinic's local time. Naive datetimes are refused."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: store and pass UTC-aware values")
    return moment.astimezone(ZoneInfo(tz_name))


def find_open_slots(
    provider_id: int, start: datetime, end: datetime, booked: list[Appointment]
) -> list[Slot]:
    """Free SLOT_MINUTES openings between start and end.

    An opening is dropped when it overlaps a booked (not cancelled) appointment or
    starts less than BUFFER_MINUTES after one ends.
    """
    buffer = timedelta(minutes=BUFFER_MINUTES)
    step = timedelta(minutes=SLOT_MINUTES)
    blocking = [a for a in booked if _blocks(a)]
    slots: list[Slot] = []
    cursor = start
    while cursor + step <= end:
        clash = any(a.start < cursor + step and cursor < a.end + buffer for a in blocking)
        if not clash:
            slots.append(Slot(provider_id, cursor, cursor + step))
        cursor += step
    return slots


def book(appointment: Appointment, booked: list[Appointment], store) -> Appointment:
    """Store the appointment unless it overlaps another; raises SlotConflictError."""
    if appointment.start - datetime.now(appointment.start.tzinfo) > timedelta(
        days=MAX_BOOKING_DAYS_AHEAD
    ):
        raise SlotConflictError("outside the booking window")
    for other in booked:
        if _blocks(other) and other.start < appointment.end and appointment.start < other.end:
            raise SlotConflictError(f"provider {appointment.provider_id} is busy then")
    return store.add(appointment)
