"""Stale rules: facts past their date, unconfirmed for too long, or already replaced."""

from __future__ import annotations

from collections.abc import Iterator

from cardindex.lint.context import Hit, LintContext
from cardindex.store.card import Card, id_list


def _line(card: Card, key: str) -> int:
    return card.line_of(key)


def expired(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card's `expires` date has passed: the fact no longer holds.

    Archive it (consolidation does), or update `expires` if it still holds.
    """
    if card.usable and card.status in ("active", "conflict") and card.expired(ctx.today):
        assert card.expires is not None
        yield Hit(_line(card, "expires"), f"expired on {card.expires.isoformat()}", fix="archive")


def unverified(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """`verified` (or `created`) is older than `max_age` for the card's type.

    Set `max_age` per type in .cardindex.yaml (`max_age: {project: 365}`). Confirm the
    fact and update `verified`, or archive it.
    """
    limit = ctx.vault.config.max_age.get(card.type or "")
    evidence = card.evidence
    if not limit or evidence is None or not card.usable or card.status not in ("active", "conflict"):
        return
    age = (ctx.today - evidence).days
    if age > limit:
        field = "verified" if card.verified else "created"
        yield Hit(_line(card, field), f"last confirmed {evidence.isoformat()}, {age} days ago (max_age for {card.type}: {limit})")


def missing_scope_path(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """`scope: path:…` names a path that no longer exists in the repo.

    The code the fact was about moved or went away; check whether the fact still holds.
    Only checked when the vault sits in a repo (or `--repo` / `repo:` is given).
    """
    scope = card.scope
    if not scope.startswith("path:") or ctx.repo_root is None:
        return
    target = scope[5:].strip().strip("/")
    if target and not (ctx.repo_root / target).exists():
        yield Hit(_line(card, "scope"), f"scope path {target!r} does not exist in the repo")


def superseded_but_live(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card is superseded (`status: superseded` or `superseded_by` set) but still in the live folders.

    Superseded cards belong in the archive, where they are kept but never indexed.
    """
    if not card.usable:
        return
    newer = id_list(card.fields.get("superseded_by"))
    if card.status == "superseded":
        yield Hit(_line(card, "status"), "superseded but still in the live folders", tuple(f"{n}.md" for n in newer), "archive")
    elif newer and card.status in ("active", "conflict"):
        yield Hit(_line(card, "superseded_by"), f"superseded by {', '.join(newer)} but still {card.status}",
                  tuple(f"{n}.md" for n in newer), "archive")
