"""Stale rules: facts past their date, unconfirmed for too long, or already replaced."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

from cardindex.lazy import lazy_pattern
from cardindex.lint.context import Hit, LintContext
from cardindex.meaning import stale_dates
from cardindex.meaning.stale_evidence import written_on
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


# A repo-relative file path: two or more parts, the last with an extension, optionally `:LINE`.
# Not a URL, not absolute, not home-relative (those name other machines and repos).
_PATH = lazy_pattern(
    r"(?<![\w./~:@*{-])((?:[\w.-]+/)+[\w-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,7})(?::(\d{1,6}))?(?!\.?[\w/*{<])")
_PLACEHOLDER = lazy_pattern(
    r"YYYY|XXX|\bMM\b|\bDD\b|example|sample|your[-_]|my[-_]|foo|bar\b"
    # A part that stands for any name: one letter (`scripts/x.mjs`), one capital repeated
    # (`backlog/NNN.md`), or a number's pattern (`docs/adr/NNNN-title.md`).
    r"|(?:^|/)[a-z](?:\.\w+)*$|(?:^|/)(?-i:([A-Z])\1{1,5})(?=[-_.\w]*$)",
    re.IGNORECASE)
_URLISH = lazy_pattern(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S*", re.IGNORECASE)


def dead_reference(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card names a repo file that is no longer there, or a line past the end of one.

    The code the fact was about moved or went away (or the card copied a path that was
    never right); check whether the fact still holds, then fix the path or archive the
    card. Only paths whose folder exists in the repo are checked, so a path of another
    project, or one the card plans to create, is left alone; so is a path the repo has
    inside a sub-project (`src/main.tsx` of the web app at `web/src/main.tsx`). A file named without its
    folder and with a line ("ledger.py:412") is checked when exactly one repo file has
    that name: a line past its end says the code the card describes has changed.
    """
    root = ctx.repo_root
    if root is None or not card.usable or card.status not in ("active", "conflict"):
        return
    if "/" not in card.text and ":" not in card.text:
        return
    text = _URLISH.sub(lambda m: " " * len(m.group()), card.text)  # offsets kept: lines are counted in it
    found = False
    for hit in _dead_paths(card, root, ctx, text):
        found = True
        yield hit
    if not found:
        yield from _dead_lines(card, ctx, text)


def _dead_paths(card: Card, root: Path, ctx: LintContext, text: str) -> Iterator[Hit]:
    """The first repo-relative path of the card that the repo lacks, or whose line is past its end."""
    for m in _PATH.finditer(text):
        rel, line = m.group(1), m.group(2)
        if rel.startswith(("./", "../")) or ".." in rel.split("/") or _PLACEHOLDER.search(rel):
            continue
        folder = rel.rsplit("/", 1)[0]
        try:
            if not (root / folder).is_dir() or _inside_vault(ctx, root / folder):
                continue
            target = root / rel
            if not target.exists():
                if _inside_subproject(ctx, rel):
                    continue
                yield Hit(_line_at(card, m.start()), f"names {rel}, which the repo no longer has")
                return
            if line and target.is_file() and target.stat().st_size < 4_000_000:
                with target.open("rb") as handle:
                    count = sum(1 for _ in handle)
                if int(line) > count:
                    yield Hit(_line_at(card, m.start()), f"names line {line} of {rel}, which has {count} lines")
                    return
        except OSError:
            continue


# A file named without its folder, with a line: "rpc_server.zig:7712", "billing.py:88-95".
_NAMED_LINE = lazy_pattern(r"(?<![\w./~:@*{-])([A-Za-z_][\w-]*(?:\.[\w-]+)*\.[A-Za-z]\w{0,7}):(\d{1,6})(?![\w.:/])")


def _dead_lines(card: Card, ctx: LintContext, text: str) -> Iterator[Hit]:
    """The first `name.ext:LINE` of the card past the end of the one repo file of that name.

    A file named without its folder is the repo's only when exactly one file of the repo
    has that name (several: the card does not say which; none: another project's file).
    """
    found = [m for m in _NAMED_LINE.finditer(text) if not _PLACEHOLDER.search(m.group(1))]
    if not found:
        return
    facts = ctx.repo
    if facts is None:
        return
    counted: dict[str, int | None] = {}
    for m in found:
        name, line = m.group(1), int(m.group(2))
        paths = [p for p in facts.by_name.get(name, []) if p in facts.files]
        if len(paths) != 1:
            continue
        rel = paths[0]
        if rel not in counted:
            counted[rel] = _line_count(facts.root / rel)
        count = counted[rel]
        if count is not None and line > count:
            yield Hit(_line_at(card, m.start()), f"names line {line} of {name} ({rel}), which has {count} lines")
            return


def _inside_subproject(ctx: LintContext, rel: str) -> bool:
    """Whether `rel` is a path inside one of the repo's sub-projects: `src/main.tsx` of a card
    about the web app is `web/app/src/main.tsx` of the repo (a path relative to its package)."""
    facts = ctx.repo
    if facts is None:
        return False
    tail = "/" + rel
    return any(p.endswith(tail) for p in facts.by_name.get(rel.rsplit("/", 1)[-1], []))


def _line_count(path: Path) -> int | None:
    """How many lines a repo file has (None when it cannot be read or is too large to count)."""
    try:
        if not path.is_file() or path.stat().st_size >= 4_000_000:
            return None
        with path.open("rb") as handle:
            return sum(1 for _ in handle)
    except OSError:
        return None


def _line_at(card: Card, offset: int) -> int:
    return card.text.count("\n", 0, offset) + 1


def _inside_vault(ctx: LintContext, folder: Path) -> bool:
    try:
        folder.resolve().relative_to(ctx.vault.real_root)
    except ValueError:
        return False
    return True


# A status the card gives itself, on a line of its own or in its description: "Status: RESOLVED", "[FIXED]".
_SELF_STATUS = lazy_pattern(
    r"(?im)(?:^[\s>*_#-]*status\s*[:=]\s*[*_`\[(]*\s*|[\[(]\s*(?=\w+\s*[\])])|\s[-\u2013\u2014]\s+(?=[A-Z]{4}))"
    r"(resolved|fixed|closed|obsolete|superseded|deprecated|no longer (?:applies|relevant|true)|outdated)\b")
_SELF_DONE_TITLE = lazy_pattern(r"(?:^|[\s\[(])(RESOLVED|FIXED|OBSOLETE|SUPERSEDED|DEPRECATED|OUTDATED)(?:$|[\s\]):.,])")


def says_resolved(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card says of itself that it is resolved, fixed, obsolete or superseded, yet it is live.

    A problem that is solved, or a fact that was replaced, is history: archive the card
    (`cards archive ID`), or keep what still holds as a new card. A status written as a
    field (`status: superseded`) is T104.
    """
    if not card.usable or card.status not in ("active", "conflict"):
        return
    for where, text in (("description", card.description), ("body", card.body[:600])):
        m = _SELF_DONE_TITLE.search(text) or _SELF_STATUS.search(text)
        if m:
            word = m.group(1).lower()
            line = card.line_of("description") if where == "description" else _line_at(card, card.body_offset + m.start())
            yield Hit(line, f"says it is {word}, yet it is live", fix="archive")
            return


SNAPSHOT_AGE = 90  # days: a snapshot this much older than today has been overtaken by the work since


def expiry_passed(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The body writes an expiry whose day has passed ("token expires 2026-05-22", "만료: 2026-05-22").

    T101 for what the frontmatter cannot say: one fact of the card stops holding on that day.
    A past tense or a recurring expiry ("expired on …, renewed", "expires every 90 days") is no
    claim. Renew and update the card, or archive it.
    """
    if not (card.usable and card.status in ("active", "conflict")) or card.expires is not None:
        return  # with `expires` set, T101 judges the card
    past = [e for e in stale_dates.expiries(card) if e.day < ctx.today]
    if past:
        first = min(past, key=lambda e: e.day)
        yield Hit(_line_at(card, first.offset), f"says {first.phrase!r}: {first.day.isoformat()}, a day now past")


def old_snapshot(card: Card, ctx: LintContext) -> Iterator[Hit]:
    """The card gives how things stood on a day more than `SNAPSHOT_AGE` days ago ("Current state (2026-05-28)").

    A snapshot's label carries its day, in any language (`meaning.stale_dates`). It was true that
    day; months later the work, the counts and the machines have moved. Not reported when every
    snapshot is recent or the card was verified or modified since. Update it to what holds now, or archive it.
    """
    if not (card.usable and card.status in ("active", "conflict")):
        return
    shots = stale_dates.snapshots(card)
    if not shots:
        return
    horizon = ctx.today - dt.timedelta(days=SNAPSHOT_AGE)
    written = written_on(card)
    newest = max(shots, key=lambda s: s.day)
    if newest.day >= horizon or (written is not None and written >= horizon):
        return
    yield Hit(_line_at(card, newest.offset),
              f"a snapshot {newest.phrase!r}: how things stood {(ctx.today - newest.day).days} days ago")
