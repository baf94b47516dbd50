"""Adapter for the PowerSchool SIS roster export."""

import httpx

from app.models import Roster, RosterEntry

PAGE_SIZE = 100


class PowerSchoolClient:
    def __init__(self, base_url: str, token: str) -> None:
        self._http = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"})

    def fetch_roster(self, route_id: str) -> Roster:
        entries: list[RosterEntry] = []
        page = 1
        while True:
            resp = self._http.get(
                "/ws/v1/transport/riders",
                params={"route": route_id, "page": page, "pagesize": PAGE_SIZE},
            )
            resp.raise_for_status()
            rows = resp.json()["riders"]
            entries += [
                RosterEntry(student_id=r["id"], stop_id=r["stop"], grade=int(r["grade"]))
                for r in rows
            ]
            if len(rows) < PAGE_SIZE:
                return Roster(route_id=route_id, entries=entries)
            page += 1
