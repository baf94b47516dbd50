from app.billing.invoices import LineItem, invoice_total_cents


def test_total_adds_vat_per_line():
    items = [LineItem("Design", 3, 333, 0.21), LineItem("Hosting", 1, 1000, 0.21)]
    assert invoice_total_cents(items) == 999 + 210 + 1000 + 210


def test_empty_invoice_is_zero():
    assert invoice_total_cents([]) == 0
