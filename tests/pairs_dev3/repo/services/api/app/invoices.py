from dataclasses import dataclass
from datetime import date

from fastapi import APIRouter

from app.settings import settings

router = APIRouter()

INVOICE_NUMBER_WIDTH = 5


@dataclass
class Invoice:
    id: str
    number: str
    total_cents: int
    status: str = "draft"


def format_invoice_number(year: int, seq: int) -> str:
    """INV-2026-00042: prefix, year, zero-padded sequence."""
    return f"{settings.invoice_prefix}-{year}-{seq:0{INVOICE_NUMBER_WIDTH}d}"


def next_invoice_number(last_seq: int, today: date | None = None) -> str:
    today = today or date.today()
    return format_invoice_number(today.year, last_seq + 1)


@router.get("/invoices")
def list_invoices() -> list[dict]:
    return []
