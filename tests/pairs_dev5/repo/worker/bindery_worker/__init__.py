"""Background conversion jobs."""
