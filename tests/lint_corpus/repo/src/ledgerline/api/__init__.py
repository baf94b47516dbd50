"""HTTP API of Ledgerline."""
