from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel


class AppointmentStatus(StrEnum):
    BOOKED = "booked"
    CHECKED_IN = "checked_in"
    CANCELLED = "cancelled"
    NO_SHOW = "no_show"


class Clinic(BaseModel):
    id: int
    name: str
    tz: str


class Provider(BaseModel):
    id: int
    clinic_id: int
    display_name: str


class Appointment(BaseModel):
    id: int | None = None
    provider_id: int
    patient_phone: str
    start: datetime
    end: datetime
    status: AppointmentStatus = AppointmentStatus.BOOKED


class WaitlistEntry(BaseModel):
    id: int | None = None
    provider_id: int
    patient_phone: str
    earliest: datetime
