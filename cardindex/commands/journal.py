"""`cards journal`: what cards changed in the vault, job by job."""

from __future__ import annotations

import json

from ..journal import Journal
from ..vault import Vault


def run(*, vault: Vault, limit: int | None = None, output_format: str = "text") -> int:
    jobs = Journal(vault.state_dir).jobs()
    if limit:
        jobs = jobs[-limit:]
    if output_format == "json":
        print(json.dumps(jobs, indent=1, ensure_ascii=False))
        return 0
    done = {job["undoes"] for job in jobs if job.get("undoes") and not job.get("rolled_back")}  # an undo rolled back undid nothing
    for job in reversed(jobs):
        if job.get("rolled_back"):
            mark = "  (interrupted; rolled back)"
        elif job["id"] in done:
            mark = "  (undone)"
        else:
            mark = f"  (undoes {job['undoes']})" if job.get("undoes") else ""
        print(f"{job['id']}  {job['time']}  {job['command']}{mark}")
        for action in job.get("actions", []):
            print(f"    {action['action']:<10} {action['card']}  ({action['reason']})")
    return 0
