from dataclasses import dataclass

from fastapi import APIRouter

router = APIRouter()

VAT_RATE_DEFAULT = 0.21


@dataclass
class LineItem:
    description: str
    quantity: int
    unit_cents: int
    vat_rate: float = VAT_RATE_DEFAULT

    def net_cents(self) -> int:
        return self.quantity * self.unit_cents

    def vat_cents(self) -> int:
        return round(self.net_cents() * self.vat_rate)


def invoice_total_cents(items: list[LineItem]) -> int:
    """Net plus VAT, VAT computed on each line."""
    return sum(item.net_cents() + item.vat_cents() for item in items)


@router.get("")
def list_invoices() -> list[dict]:
    return []
