
from fastapi import FastAPI, HTTPException

from .presets import PRESETS, get_preset
from .queue import JobQueue

app = FastAPI(title="Reelforge API", version="0.9.2")
queue = JobQueue()


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/v1/presets")
def list_presets() -> list[str]:
    return sorted(PRESETS)


@app.post("/v1/jobs", status_code=202)
def create_job(asset_id: str, preset: str = "web-1080p") -> dict[str, str]:
    try:
        get_preset(preset)
    except KeyError:
        raise HTTPException(status_code=422, detail=f"unknown preset {preset}")
    job_id = queue.enqueue_job(asset_id, preset)
    return {"job_id": job_id}
