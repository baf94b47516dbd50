"""Invoice arithmetic: totals, discounts, rounding and invoice numbers."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

DEFAULT_CURRENCY = "EUR"
MAX_RETRIES = 5
VAT_RATES = {
    "PT": Decimal("0.23"),
    "DE": Decimal("0.19"),
    "FR": Decimal("0.20"),
}


@dataclass(frozen=True)
class LineItem:
    description: str
    quantity: int
    unit_price_cents: int


def round_cents(amount: Decimal) -> int:
    """Round an amount in cents to a whole cent, half to even (banker's rounding)."""
    return int(amount.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def apply_discount(subtotal_cents: int, percent: Decimal) -> Decimal:
    """Return the subtotal reduced by ``percent`` (0 to 100), not yet rounded."""
    if not Decimal(0) <= percent <= Decimal(100):
        raise ValueError(f"discount must be between 0 and 100 percent, got {percent}")
    return Decimal(subtotal_cents) * (Decimal(100) - percent) / Decimal(100)


def compute_invoice_total(items: Iterable[LineItem], country: str, discount_percent: Decimal = Decimal(0)) -> int:
    """Total in cents: sum the items, apply the discount, add VAT, round once at the end."""
    rate = VAT_RATES.get(country)
    if rate is None:
        raise ValueError(f"no VAT rate for country {country!r}")
    subtotal = sum(item.quantity * item.unit_price_cents for item in items)
    discounted = apply_discount(subtotal, discount_percent)
    return round_cents(discounted * (1 + rate))


class InvoiceNumberAllocator:
    """Hands out gapless invoice numbers per series and calendar year: LL-2026-00001."""

    def __init__(self, series: str) -> None:
        self.series = series
        self._next: dict[int, int] = {}
        self._lock = threading.Lock()

    def next_number(self, year: int) -> str:
        with self._lock:
            number = self._next.get(year, 1)
            self._next[year] = number + 1
        return f"{self.series}-{year}-{number:05d}"
