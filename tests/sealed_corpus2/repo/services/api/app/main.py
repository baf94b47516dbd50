from fastapi import FastAPI, Query
from fastapi.middleware.cors import CORSMiddleware

from app import holds, search
from app.config import settings

app = FastAPI(title="Lendwell API")
app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins, allow_methods=["*"])


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/search")
def search_catalogue(q: str, page: int = 1, page_size: int = Query(20, le=search.MAX_PAGE_SIZE)):
    return search.search(q, page=page, page_size=page_size)


@app.post("/holds/{item_id}")
def place_hold(item_id: str, patron_id: str):
    return holds.place_hold(item_id, patron_id)
