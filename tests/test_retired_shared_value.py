"""A value one card says is no longer used is not a value both cards give.

"Logs go to Papertrail (papertrail.com)" and, later, "We moved off papertrail.com in
March; logs now go to Better Stack" name one slot and both write `papertrail.com`; the
masked-slot model (`meaning/one_slot.py`) took that shared name for one value said two ways
and turned the contradiction into a duplicate, which consolidate would merge, keeping the
retired value. Found on tests/pairs_dev3 (GlitchTip replacing sentry.io); written here in
other words. The hard negative: two cards that name one host and retire nothing stay one value.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

Invoke = Callable[..., Result]


def put(root: Path, rel: str, description: str, body: str, **fields: str) -> None:
    lines = ["---", f"description: {description}", "type: project", *(f"{k}: {v}" for k, v in fields.items()),
             "---", body, ""]
    (root / rel).write_text("\n".join(lines), encoding="utf-8")


def background(root: Path) -> None:
    put(root, "bg-kiln.md", "When the kiln is serviced", "The kiln is serviced every spring by the supplier.")
    put(root, "bg-glaze.md", "How glaze batches are measured", "Glaze batches are mixed by weight.")
    put(root, "bg-wheel.md", "Who books the wheels", "Wheel time is booked on the studio calendar.")
    put(root, "bg-clay.md", "Where clay is reclaimed", "Clay is reclaimed in the back room buckets.")


def lint(invoke: Invoke) -> set[tuple[str, str]]:
    out = invoke("lint", "--select", "duplicate,contradiction", "--format", "json")
    assert out.exit_code in (0, 1), out.stderr
    return {(str(f["path"]), str(f["category"])) for f in json.loads(out.stdout)}


def test_a_retired_value_both_name_is_another_value(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "logs-old.md", "Where the studio app's logs are shipped",
        "The studio app ships its logs to Papertrail (papertrail.com, account `kilnworks`).", verified="2026-02-01")
    put(vault, "logs-new.md", "Where the studio app's logs are shipped",
        "We moved off papertrail.com in March; the studio app's logs now go to Better Stack at "
        "https://logs.kilnworks.dev.", verified="2026-04-01")
    assert lint(invoke) == {("logs-old.md", "contradiction"), ("logs-new.md", "contradiction")}
    out = invoke("consolidate", "--dry-run", "--format", "json")
    actions = {(d["action"], d["card"]) for d in json.loads(out.stdout)["decisions"]}
    assert ("supersede", "logs-old") in actions and not any(a == "merge" for a, _ in actions)


def test_one_host_named_twice_without_a_retirement_is_one_value(invoke: Invoke, vault: Path) -> None:
    background(vault)
    put(vault, "logs-a.md", "Where the studio app's logs are shipped",
        "The studio app ships its logs to Papertrail (papertrail.com, account `kilnworks`).")
    put(vault, "logs-b.md", "Where the studio app's logs are shipped",
        "Logs of the studio app end up in papertrail.com under the kilnworks account.")
    assert ("logs-a.md", "contradiction") not in lint(invoke)
