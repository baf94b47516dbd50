import logging

from fastapi import FastAPI

from app.billing.invoices import router as invoices_router
from app.settings import settings

logger = logging.getLogger(__name__)


def create_app() -> FastAPI:
    app = FastAPI(title="tidepool-api", version="0.9.0")
    app.include_router(invoices_router, prefix="/invoices")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "environment": settings.environment}

    logger.info("api started in %s", settings.environment)
    return app


app = create_app()
