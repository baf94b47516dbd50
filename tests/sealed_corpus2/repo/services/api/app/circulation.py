from dataclasses import dataclass
from datetime import date, timedelta

LOAN_PERIOD_DAYS = {"book": 21, "audiobook": 21, "dvd": 7, "magazine": 7, "laptop": 3}
MAX_RENEWALS = 3


@dataclass
class Loan:
    item_id: str
    item_type: str
    checked_out: date
    renewals: int = 0
    holds_waiting: int = 0


def due_date(checked_out: date, item_type: str) -> date:
    return checked_out + timedelta(days=LOAN_PERIOD_DAYS[item_type])


def can_renew(loan: Loan) -> bool:
    """A loan renews unless someone is waiting for the item or it hit MAX_RENEWALS."""
    if loan.holds_waiting > 0:
        return False
    return loan.renewals < MAX_RENEWALS
