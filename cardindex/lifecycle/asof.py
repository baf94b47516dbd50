"""What the vault held at a past date: today's files, rewound through the journal.

Every journalled job records, per file, the content hash before and after, and keeps
the prior bytes. Rewinding to the end of day D: for each file that a job after D
touched, the first such change says what the file was at D (its `before`; None: the
file did not exist yet). Files no job touched after D are as they are now. Edits made
by hand and never journalled cannot be rewound; the cards' own dates (`created`,
`expires`) still rule out what was not yet written or had already expired.
"""

from __future__ import annotations

import datetime as dt

from cardindex.errors import Refused
from cardindex.store.card import Card, decode, parse
from cardindex.store.journal import DamagedPack, Journal, job_day
from cardindex.store.vault import Vault


def cards_at(vault: Vault, day: dt.date) -> list[Card]:
    """The cards (live folders and archive) as they were at the end of `day`."""
    _check_kept(vault, day)
    journal = Journal(vault.state_dir)
    first_change: dict[str, tuple[str | None, str | None]] = {}  # path -> (before, the job's pack)
    for job in journal.jobs():
        if job.get("rolled_back") or job_day(job) <= day:
            continue
        for action in job.get("actions", []):
            for change in action.get("files", []):
                first_change.setdefault(change["path"], (change["before"], job.get("pack")))
    current = {c.path: c for c in [*vault.cards, *vault.archived()]}
    out = [c for path, c in current.items() if path not in first_change]
    for path, (before, pack) in first_change.items():
        if before is None:
            continue  # created after that day
        try:
            text, _problem = decode(journal.blob(before, pack))
        except (OSError, DamagedPack):
            continue  # the saved copy is gone or damaged: nothing to show
        if text is not None:
            out.append(Card(path, text, *parse(text)))
    return sorted(out, key=lambda c: c.path)


def _check_kept(vault: Vault, day: dt.date) -> None:
    """Refuse a day from before a `cards journal prune` cut: the jobs that rewind to it are gone."""
    from cardindex.lifecycle.prune import earliest_as_of

    earliest = earliest_as_of(vault)
    if earliest is not None and day < earliest:
        raise Refused(f"the journal was pruned: --as-of can go back to {earliest.isoformat()} at the earliest")


def known_by(card: Card, day: dt.date) -> bool:
    """Whether the fact was written down by the end of `day`: `created` says so, else `verified`.

    A card without `created` whose `verified` is later was first confirmed after that
    day, so it was not known then; one with neither date cannot be placed and counts.
    """
    first = card.created or card.verified
    return first is None or first <= day


def live_at(vault: Vault, day: dt.date) -> list[Card]:
    """The cards that were live at the end of `day`: outside the archive, live, already known (`known_by`)."""
    archive = vault.archive_dir + "/"
    return [c for c in cards_at(vault, day) if not c.path.startswith(archive) and c.live(day) and known_by(c, day)]


