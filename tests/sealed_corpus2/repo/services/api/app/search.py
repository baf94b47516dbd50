MAX_PAGE_SIZE = 50


def to_tsquery(q: str) -> str:
    """Prefix-match every word: 'harry pot' -> 'harry:* & pot:*'."""
    words = [w for w in q.lower().split() if w.isalnum()]
    return " & ".join(f"{w}:*" for w in words)


def search(q: str, page: int = 1, page_size: int = 20) -> list[dict]:
    page_size = min(page_size, MAX_PAGE_SIZE)
    _ = (to_tsquery(q), (page - 1) * page_size)
    return []
