"""`cards journal`: what cards changed in the vault, job by job."""

from __future__ import annotations

from ..journal import Journal
from ..vault import Vault
from .output import echo, echo_json


def run(*, vault: Vault, limit: int | None = None, output_format: str = "text") -> int:
    jobs = Journal(vault.state_dir).jobs()
    if limit:
        jobs = jobs[-limit:]
    if output_format == "json":
        echo_json(jobs)
        return 0
    done = {job["undoes"] for job in jobs if job.get("undoes")}
    for job in reversed(jobs):
        if job.get("rolled_back"):
            mark = "  (interrupted; rolled back)"
        elif job["id"] in done:
            mark = "  (undone)"
        else:
            mark = f"  (undoes {job['undoes']})" if job.get("undoes") else ""
        echo(f"{job['id']}  {job['time']}  {job['command']}{mark}")
        for action in job.get("actions", []):
            echo(f"    {action['action']:<10} {action['card']}  ({action['reason']})")
    return 0
