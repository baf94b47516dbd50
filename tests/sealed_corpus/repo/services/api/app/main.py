from datetime import UTC, datetime, timedelta

from fastapi import FastAPI, HTTPException

from . import __version__
from .models import Appointment
from .scheduling import SlotConflictError, book, find_open_slots
from .store import Store

app = FastAPI(title="Kestrel API")
store = Store()


@app.get("/health")
def health() -> dict[str, str]:
    """Liveness probe for the load balancer. Never touches the database."""
    return {"status": "ok", "version": __version__}


@app.get("/slots")
def list_slots(provider_id: int, days: int = 7) -> list[dict]:
    start = datetime.now(UTC)
    slots = find_open_slots(
        provider_id,
        start,
        start + timedelta(days=days),
        store.appointments_for(provider_id),
    )
    return [{"providerId": s.provider_id, "start": s.start, "end": s.end} for s in slots]


@app.post("/appointments", status_code=201)
def create_appointment(appointment: Appointment) -> Appointment:
    try:
        return book(appointment, store.appointments_for(appointment.provider_id), store)
    except SlotConflictError as exc:
        raise HTTPException(status_code=409, detail=str(exc)) from exc
