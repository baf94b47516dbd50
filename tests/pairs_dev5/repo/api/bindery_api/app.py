from fastapi import FastAPI

from bindery_api.routes import manuscripts

app = FastAPI(title="Bindery")
app.include_router(manuscripts.router)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}
