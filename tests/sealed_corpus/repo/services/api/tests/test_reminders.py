from datetime import UTC, datetime, timedelta

from app.models import Appointment, Clinic
from app.reminders import render_reminder, send_at


def test_reminder_text_uses_clinic_time():
    clinic = Clinic(id=1, name="Riverside", tz="Europe/Prague")
    a = Appointment(
        provider_id=1,
        patient_phone="+420600000000",
        start=datetime(2026, 3, 2, 8, 15, tzinfo=UTC),
        end=datetime(2026, 3, 2, 8, 30, tzinfo=UTC),
    )
    assert "09:15" in render_reminder(a, clinic)
    assert send_at(a) == a.start - timedelta(hours=24)
