"""Kestrel scheduling API."""

__version__ = "0.9.0"
