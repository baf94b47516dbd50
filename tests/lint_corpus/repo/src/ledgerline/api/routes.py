"""HTTP routes of the Ledgerline API: a (method, path) table used by ``dispatch``."""

from __future__ import annotations

from typing import Any

from ledgerline.api.auth import require_api_key
from ledgerline.billing import InvoiceNumberAllocator

Request = dict[str, Any]
Response = tuple[int, Any]

_allocator = InvoiceNumberAllocator("LL")
_invoices: dict[str, dict[str, Any]] = {}


def health(request: Request) -> Response:
    return 200, {"status": "ok"}


def list_invoices(request: Request) -> Response:
    return 200, sorted(_invoices.values(), key=lambda invoice: invoice["number"])


def create_invoice(request: Request) -> Response:
    number = _allocator.next_number(request["year"])
    _invoices[number] = {"number": number, "status": "issued", **request["body"]}
    return 201, _invoices[number]


def get_invoice(request: Request) -> Response:
    invoice = _invoices.get(request["params"]["id"])
    return (200, invoice) if invoice else (404, {"error": "not found"})


def void_invoice(request: Request) -> Response:
    invoice = _invoices.get(request["params"]["id"])
    if invoice is None:
        return 404, {"error": "not found"}
    invoice["status"] = "void"
    return 200, invoice


ROUTES = {
    ("GET", "/health"): (health, False),
    ("GET", "/invoices"): (list_invoices, True),
    ("POST", "/invoices"): (create_invoice, True),
    ("GET", "/invoices/{id}"): (get_invoice, True),
    ("POST", "/invoices/{id}/void"): (void_invoice, True),
}


def dispatch(method: str, route: str, request: Request) -> Response:
    handler, needs_auth = ROUTES[(method, route)]
    if needs_auth and not require_api_key(request.get("headers", {})):
        return 401, {"error": "unauthorized"}
    return handler(request)
