import httpx

from app.config import settings


class OpenLibraryClient:
    """Thin wrapper over the Open Library covers endpoint."""

    def __init__(self, base_url: str = settings.covers_base_url) -> None:
        self._http = httpx.Client(base_url=base_url, timeout=settings.covers_timeout_s)

    def cover_url(self, isbn13: str, size: str = "M") -> str | None:
        url = f"/b/isbn/{isbn13}-{size}.jpg?default=false"
        res = self._http.head(url)
        return str(res.url) if res.status_code == 200 else None
