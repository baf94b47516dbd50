"""Overdue fines. All amounts are integer cents."""

FINE_PER_DAY_CENTS = {"book": 25, "audiobook": 25, "dvd": 100, "magazine": 10, "laptop": 500}
FINE_CAP_CENTS = 1000
GRACE_DAYS = 2
FINE_FREE_COLLECTIONS = frozenset({"children", "teen"})


def compute_fine(item_type: str, days_overdue: int, collection: str = "adult") -> int:
    """Fine in cents for an item returned `days_overdue` days late.

    Nothing is charged within the grace period or for fine-free collections; otherwise
    every overdue day counts (grace days included) up to FINE_CAP_CENTS.
    """
    if collection in FINE_FREE_COLLECTIONS or days_overdue <= GRACE_DAYS:
        return 0
    return min(FINE_PER_DAY_CENTS[item_type] * days_overdue, FINE_CAP_CENTS)
