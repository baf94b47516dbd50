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
    for job in reversed(jobs):
        print(f"{job['id']}  {job['time']}  {job['command']}")
        for action in job.get("actions", []):
            print(f"    {action['action']:<10} {action['card']}  ({action['reason']})")
    return 0
