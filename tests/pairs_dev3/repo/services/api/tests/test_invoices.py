from datetime import date

from app.invoices import format_invoice_number, next_invoice_number


def test_format_invoice_number():
    assert format_invoice_number(2026, 42) == "INV-2026-00042"


def test_next_invoice_number():
    assert next_invoice_number(41, date(2026, 3, 1)) == "INV-2026-00042"
