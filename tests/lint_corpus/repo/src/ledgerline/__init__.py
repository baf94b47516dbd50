"""Ledgerline: the invoicing core of Lumen Labs' billing product."""

__version__ = "0.4.0"
