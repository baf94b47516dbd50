"""Bindery HTTP API."""
