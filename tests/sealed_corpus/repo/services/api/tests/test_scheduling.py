from datetime import UTC, datetime, timedelta

import pytest

from app.models import Appointment, AppointmentStatus
from app.scheduling import SlotConflictError, book, find_open_slots
from app.store import Store

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def appt(start, minutes=15, status=AppointmentStatus.BOOKED):
    return Appointment(
        provider_id=1,
        patient_phone="+420600000000",
        start=start,
        end=start + timedelta(minutes=minutes),
        status=status,
    )


def test_empty_day_is_all_openings():
    slots = find_open_slots(1, T0, T0 + timedelta(hours=1), [])
    assert len(slots) == 4


def test_buffer_after_appointment():
    slots = find_open_slots(1, T0, T0 + timedelta(hours=1), [appt(T0)])
    assert [s.start for s in slots] == [T0 + timedelta(minutes=30), T0 + timedelta(minutes=45)]


def test_cancelled_does_not_block():
    slots = find_open_slots(1, T0, T0 + timedelta(minutes=30), [appt(T0, status="cancelled")])
    assert len(slots) == 2


def test_double_booking_refused():
    store = Store()
    first = appt(datetime.now(UTC) + timedelta(days=1))
    book(first, [], store)
    with pytest.raises(SlotConflictError):
        book(appt(first.start), store.appointments_for(1), store)
