from decimal import Decimal

import pytest
from ledgerline.billing import (
    InvoiceNumberAllocator,
    LineItem,
    apply_discount,
    compute_invoice_total,
    round_cents,
)


def test_total_adds_portuguese_vat():
    items = [LineItem("Consulting", 2, 5000)]
    assert compute_invoice_total(items, "PT") == 12300


def test_discount_is_applied_before_vat():
    items = [LineItem("Subscription", 1, 10000)]
    assert compute_invoice_total(items, "DE", Decimal(10)) == 10710


def test_rounding_is_half_even():
    assert round_cents(Decimal("2.5")) == 2
    assert round_cents(Decimal("3.5")) == 4


def test_discount_above_100_percent_is_rejected():
    with pytest.raises(ValueError):
        apply_discount(1000, Decimal(101))


def test_unknown_country_is_an_error():
    with pytest.raises(ValueError):
        compute_invoice_total([LineItem("x", 1, 100)], "XX")


def test_invoice_numbers_are_gapless_per_year():
    allocator = InvoiceNumberAllocator("LL")
    assert allocator.next_number(2026) == "LL-2026-00001"
    assert allocator.next_number(2026) == "LL-2026-00002"
    assert allocator.next_number(2027) == "LL-2027-00001"
