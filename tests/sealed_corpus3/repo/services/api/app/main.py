from fastapi import FastAPI, HTTPException

from app.models import Route
from app.routing.eta import estimate_eta

app = FastAPI(title="Lanternway API")

_ROUTES: dict[str, Route] = {}


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/v1/routes/{route_id}/eta")
def route_eta(route_id: str, from_stop: int = 0) -> dict[str, list[float]]:
    route = _ROUTES.get(route_id)
    if route is None:
        raise HTTPException(status_code=404, detail="unknown route")
    return {"minutes": estimate_eta(route.stops[from_stop:])}
