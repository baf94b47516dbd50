"""`cards lint`: rules that flag what does not belong in a vault (SPEC §6)."""
