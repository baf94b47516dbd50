from fastapi import FastAPI

from app.invoices import router as invoices_router
from app.settings import settings

app = FastAPI(title="fernbill api", version="0.6.0")
app.include_router(invoices_router, prefix="/v1")


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok", "env": settings.environment}
