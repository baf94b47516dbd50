"""Appointment reminders. Handlers enqueue; the worker sends."""

from datetime import timedelta

from .models import Appointment, Clinic
from .scheduling import to_clinic_tz

REMINDER_HOURS_BEFORE = 24
REMINDER_SMS_SENDER = "KESTREL"
QUEUE_NAME = "reminders"


def render_reminder(appointment: Appointment, clinic: Clinic) -> str:
    local = to_clinic_tz(appointment.start, clinic.tz)
    return (
        f"{clinic.name}: reminder of your appointment on {local:%d.%m.} at {local:%H:%M}. "
        "Reply C to cancel."
    )


def send_at(appointment: Appointment):
    """When the reminder job should run."""
    return appointment.start - timedelta(hours=REMINDER_HOURS_BEFORE)


def enqueue_reminder(queue, appointment: Appointment, clinic: Clinic) -> None:
    queue.put(
        QUEUE_NAME,
        {
            "to": appointment.patient_phone,
            "sender": REMINDER_SMS_SENDER,
            "body": render_reminder(appointment, clinic),
            "eta": send_at(appointment).isoformat(),
        },
    )
