from dataclasses import dataclass, field
from datetime import date, timedelta

HOLD_PICKUP_DAYS = 7
MAX_ACTIVE_HOLDS = 15


class HoldLimitReached(Exception):
    pass


@dataclass
class HoldQueue:
    item_id: str
    patrons: list[str] = field(default_factory=list)
    ready_since: date | None = None

    def place(self, patron_id: str, active_holds: int) -> int:
        """Append a patron; returns their position (1-based)."""
        if active_holds >= MAX_ACTIVE_HOLDS:
            raise HoldLimitReached(patron_id)
        if patron_id not in self.patrons:
            self.patrons.append(patron_id)
        return self.patrons.index(patron_id) + 1

    def next_in_line(self) -> str | None:
        return self.patrons[0] if self.patrons else None

    def expire_uncollected(self, today: date) -> str | None:
        """Drop the first patron if the item waited HOLD_PICKUP_DAYS on the shelf."""
        if self.ready_since and today - self.ready_since >= timedelta(days=HOLD_PICKUP_DAYS):
            self.ready_since = today
            return self.patrons.pop(0)
        return None


def place_hold(item_id: str, patron_id: str) -> dict[str, int]:
    queue = HoldQueue(item_id)
    return {"position": queue.place(patron_id, active_holds=0)}
