"""Make the journal forget: purge one card's history, or prune old jobs (SPEC §9, issue 11).

The journal keeps the prior bytes of every file a job changed (loose objects and packs
under `.cardindex/objects/`), so a card removed with `cards rm` still sits there, secret
and all, and the folder only grows. Two ways out, both run under the vault lock:

- **purge** (`cards rm ID --purge`, or `cards journal purge ID` for a card already
  gone): every kept copy of every file the card lived at (its path and its archived
  paths) is deleted: loose objects, and its blobs inside packs (each such pack is
  rewritten without them and renamed by its new hash, the job entries naming it
  updated); reasons that quote its text are blanked; the caches are cleared. Jobs whose
  undo needs a purged copy are marked `"purged"`, and `cards undo` refuses them in one
  line. Interrupted, it leaves copies too many, never a damaged journal: run it again.
- **prune** (`cards journal prune`): jobs from before a cut are dropped, and with them
  every blob that neither the undo of a kept job nor `cards context --as-of` (for a day
  on or after the day before the cut; `asof.cards_at`) can read again. The cut is
  recorded in `.cardindex/pruned.json`, so an `--as-of` before it is refused instead of
  answered wrongly.

Order, for a crash at any point: new packs are written first, then the job entries that
name them, and only then are old packs, dropped entries and loose objects deleted; each
step leaves every blob a kept job needs findable (`Journal.blob` looks in every pack).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.errors import Refused
from cardindex.redaction import redact, shown
from cardindex.secrets import find_secrets
from cardindex.store.atomic import deferred_folder_syncs, remove, write_atomic
from cardindex.store.card import Card, parse
from cardindex.store.journal import DamagedPack, Journal, _parse_pack, pack_bytes, sha256
from cardindex.store.vault import Vault

STATE = "pruned.json"
PURGED_REASON = "(reason purged)"
MIN_QUOTE = 12  # a body line this long (or longer) quoted in a reason is the card's text


class Purged(NamedTuple):
    """What a purge removed."""

    card: str
    blobs: int  # copies deleted (loose objects and blobs in packs)
    packs: int  # packs rewritten or removed
    jobs: int  # jobs whose undo now needs a purged copy (not undoable)
    reasons: int  # reasons blanked because they quoted the card
    still: tuple[str, ...] = ()  # other card files that hold one of its secrets (a merged copy, say)


class Pruned(NamedTuple):
    """What a prune dropped (or, with dry_run, would drop)."""

    cut: dt.date
    jobs: int
    kept_jobs: int
    blobs: int
    bytes_before: int
    bytes_after: int


# --------------------------------------------------------------------------- the journal on disk


def _entry_path(journal: Journal, job_id: str) -> Path:
    return journal.folder / f"{job_id}.json"


def _save_entry(journal: Journal, entry: dict[str, Any]) -> None:
    write_atomic(_entry_path(journal, entry["id"]), json.dumps(entry, indent=1, ensure_ascii=False) + "\n")


def _changes(job: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for action in job.get("actions", []):
        yield from action.get("files", [])


def _loose(journal: Journal) -> dict[str, Path]:
    """Every loose object by digest."""
    out: dict[str, Path] = {}
    if not journal.objects.is_dir():
        return out
    for folder in journal.objects.iterdir():
        if len(folder.name) != 2 or not folder.is_dir():
            continue
        for path in folder.iterdir():
            if len(path.name) == 62 and not path.name.startswith("."):
                out[folder.name + path.name] = path
    return out


def _packs(journal: Journal) -> dict[str, Path]:
    folder = journal.objects / "pack"
    return {p.stem: p for p in sorted(folder.glob("*.pack"))} if folder.is_dir() else {}


def _size(journal: Journal) -> int:
    total = 0
    for top in (journal.folder, journal.objects):
        for folder, _dirs, files in os.walk(top):
            for name in files:
                try:
                    total += os.lstat(os.path.join(folder, name)).st_size
                except OSError:
                    continue
    return total


class _Rewrite(NamedTuple):
    old: str
    new: str | None  # None: nothing left, the pack goes
    dropped: int
    data: bytes | None


def _plan_packs(journal: Journal, drop: Callable[[str], bool], *, damaged_too: bool) -> list[_Rewrite]:
    """The packs holding a blob to drop, and what each becomes without it.

    A damaged pack keeps its intact blobs; with `damaged_too` (a purge, which must not
    leave a copy in a damaged tail) it is rewritten from them, else it is left alone.
    """
    out = []
    for name, path in _packs(journal).items():
        pack = _parse_pack(path.read_bytes())
        dropped = [d for d in pack.spans if drop(d)]
        if not dropped and not (damaged_too and pack.problem is not None):
            continue
        if pack.problem is not None and not damaged_too:
            continue
        kept = [pack.data[s:e] for d, (s, e) in pack.spans.items() if d not in dropped]
        data = pack_bytes(kept) if kept else None
        new = sha256(data) if data is not None else None
        if new != name:
            out.append(_Rewrite(name, new, len(dropped), data))
    return out


def _write_packs(journal: Journal, rewrites: list[_Rewrite]) -> None:
    for r in rewrites:
        if r.data is not None and r.new is not None:
            write_atomic(journal.objects / "pack" / f"{r.new}.pack", r.data)


def _old_packs(journal: Journal, rewrites: list[_Rewrite]) -> list[Path]:
    """The packs a rewrite replaced (never one that another rewrite's result happens to equal)."""
    new = {r.new for r in rewrites}
    return [journal.objects / "pack" / f"{r.old}.pack" for r in rewrites if r.old not in new]


def _renamed(entry: dict[str, Any], rewrites: list[_Rewrite]) -> bool:
    """Point the entry at its pack's new name (or at none); True when it changed."""
    for r in rewrites:
        if entry.get("pack") == r.old:
            if r.new is None:
                del entry["pack"]
            else:
                entry["pack"] = r.new
            return True
    return False


def _delete(paths: Iterable[Path]) -> None:
    # A removal lost to a power cut leaves only a copy too many, which the next purge
    # or prune deletes: so the folders are fsynced once at the end, not once per file.
    with deferred_folder_syncs():
        for path in paths:
            try:
                remove(path)
            except FileNotFoundError:
                continue


def clear_caches(vault: Vault) -> None:
    """Delete the parse, lint, index and context caches (they hold card text; they rebuild)."""
    folder = vault.state_dir / "cache"
    if folder.is_dir():
        _delete(p for p in folder.iterdir() if p.is_file() and p.name != "CACHEDIR.TAG")


# --------------------------------------------------------------------------- purge


def purge(vault: Vault, card_id: str) -> Purged:
    """Delete every kept copy of card `card_id` and its quotes from the journal (caller holds the lock)."""
    from cardindex.store.jobs import recover

    recover(vault)
    ref = card_id.removesuffix(".md")
    if vault.path_of(f"{ref}.md").is_file():
        raise Refused(f"{ref} is still a card; `cards rm {ref} --purge` removes it and its history")
    journal = Journal(vault.state_dir)
    jobs = journal.jobs()
    paths = _lived_at(jobs, ref)
    live = {p for p in paths if vault.path_of(p).is_file()}
    if live:
        raise Refused(f"{ref} lived at {min(live)}, which is a card now; remove that first")
    digests = {d for job in jobs for f in _changes(job) if f["path"] in paths
               for d in (f.get("before"), f.get("after")) if d}
    if not digests and not any(a.get("card") == ref for job in jobs for a in job.get("actions", [])):
        raise Refused(f"the journal holds nothing of {ref}")
    needles, secrets = _quotes(journal, digests)
    rewrites = _plan_packs(journal, digests.__contains__, damaged_too=True)
    _write_packs(journal, rewrites)
    marked = blanked = 0
    for job in jobs:
        changed = _renamed(job, rewrites)
        if any(f.get("before") in digests for f in _changes(job)) and ref not in job.get("purged", []):
            job["purged"] = [*job.get("purged", []), ref]
            marked += 1
            changed = True
        for action in job.get("actions", []):
            reason = str(action.get("reason", ""))
            clean = PURGED_REASON if any(n in reason for n in needles) else (
                redact(reason) if action.get("card") == ref else reason)
            if clean != reason:
                action["reason"] = clean
                blanked += 1
                changed = True
        if changed:
            _save_entry(journal, job)
    loose = _loose(journal)
    gone = [loose[d] for d in digests if d in loose]
    _delete([*gone, *_old_packs(journal, rewrites)])
    vault.invalidate()
    still = tuple(sorted(c.path for c in [*vault.cards, *vault.archived()] if any(x in c.text for x in secrets)))
    clear_caches(vault)  # last: loading the cards above wrote the parse cache
    _note(vault, purged=ref)
    return Purged(ref, len(gone) + sum(r.dropped for r in rewrites), len(rewrites), marked, blanked, still)


def _lived_at(jobs: list[dict[str, Any]], ref: str) -> set[str]:
    """Every path card `ref` had: its own, and where archiving or renaming moved it (and from where).

    Undo actions name a job, not a card, and touch all of its files: they link nothing.
    """
    ids, paths = {ref}, {f"{ref}.md"}
    actions = [a for job in jobs for a in job.get("actions", []) if a.get("action") != "undo"]
    grown = True
    while grown:
        grown = False
        for action in actions:
            touched = {f["path"] for f in action.get("files", [])}
            linked = action.get("card") in ids or touched & paths
            if linked and (action.get("card") not in ids or not touched <= paths):
                ids.add(str(action.get("card")))
                paths |= touched
                grown = True
    return paths


def _quotes(journal: Journal, digests: set[str]) -> tuple[set[str], set[str]]:
    """Pieces of the card's text that a reason may quote (its secrets, description and longer
    body lines), and its secrets alone."""
    out: set[str] = set()
    secrets: set[str] = set()
    for digest in digests:
        try:
            text = journal.blob(digest).decode("utf-8", "replace")
        except (OSError, DamagedPack):  # no copy left, or only a damaged one: nothing to quote
            continue
        # Without the sentence's closing punctuation, which the detector may take for part of the value.
        secrets.update(text[s.start:s.end].rstrip(".,:;!?)]}>'\"") for s in find_secrets(text))
        card = Card("x.md", text, *parse(text))
        if card.description and len(card.description) >= MIN_QUOTE:
            out.add(card.description)
        out.update(line.strip() for line in card.body.splitlines() if len(line.strip()) >= MIN_QUOTE)
    secrets = {x for x in secrets if len(x) >= 8}
    out |= {shown(n) for n in out}  # reasons are recorded through the redaction (Journal.record)
    return {n for n in out | secrets if n}, secrets


# --------------------------------------------------------------------------- prune


def prune(vault: Vault, cut: dt.date, *, dry_run: bool = False) -> Pruned:
    """Drop the jobs from before `cut` and every blob nothing left can read (caller holds the lock)."""
    from cardindex.store.jobs import recover
    from cardindex.store.journal import job_day

    if not dry_run:
        recover(vault)
    journal = Journal(vault.state_dir)
    jobs = journal.jobs()
    dropped = {j["id"] for j in jobs if job_day(j) < cut}
    for job in jobs:  # an undo kept while the job it undid is dropped would make that job look undoable
        if job["id"] in dropped and job.get("undoes") and job["undoes"] not in dropped:
            dropped.discard(job["id"])
    kept = [j for j in jobs if j["id"] not in dropped]
    needed = _needed(kept, cut)
    size_before = _size(journal)
    rewrites = _plan_packs(journal, lambda d: d not in needed, damaged_too=False)
    loose = _loose(journal)
    gone = [p for d, p in loose.items() if d not in needed]
    blobs = len(gone) + sum(r.dropped for r in rewrites)
    if dry_run:
        shrink = sum(p.stat().st_size for p in gone) + sum(
            (journal.objects / "pack" / f"{r.old}.pack").stat().st_size - len(r.data or b"") for r in rewrites)
        shrink += sum(_entry_path(journal, j).stat().st_size for j in dropped if _entry_path(journal, j).exists())
        return Pruned(cut, len(dropped), len(kept), blobs, size_before, size_before - shrink)
    _note(vault, cut=cut)  # first: from now on, an --as-of before the cut is refused
    _write_packs(journal, rewrites)
    for job in kept:
        if _renamed(job, rewrites):
            _save_entry(journal, job)
    _delete([*(_entry_path(journal, j) for j in sorted(dropped)), *gone,
             *_old_packs(journal, rewrites)])
    for folder in journal.objects.iterdir() if journal.objects.is_dir() else []:
        if len(folder.name) == 2 and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return Pruned(cut, len(dropped), len(kept), blobs, size_before, _size(journal))


def _needed(kept: list[dict[str, Any]], cut: dt.date) -> set[str]:
    """The blobs the kept jobs' undo, and `--as-of` a day on or after the day before `cut`, can read.

    Undo reads a job's `before` copies, for a job that is not an undo, not undone and
    not rolled back. `asof.cards_at(D)` reads, per path, the `before` of the first
    job (in journal order) whose day is after D: the copy of job K at path p is read for
    some D >= cut - 1 only if every earlier job touching p has a day before K's (and
    so does the day before the cut).
    """
    from cardindex.lifecycle.undo import undone
    from cardindex.store.journal import job_day

    done = undone(kept)
    out: set[str] = set()
    latest: dict[str, dt.date] = {}  # path -> the latest day of a job so far that touched it
    floor = cut - dt.timedelta(days=1) if cut > dt.date.min else cut
    for job in kept:
        if job.get("rolled_back"):
            continue
        day = job_day(job)
        undoable = not job.get("undoes") and job["id"] not in done
        for change in _changes(job):
            before, path = change.get("before"), change["path"]
            if before and (undoable or max(latest.get(path, floor), floor) < day):
                out.add(before)
        for change in _changes(job):
            latest[change["path"]] = max(latest.get(change["path"], dt.date.min), day)
    return out


# --------------------------------------------------------------------------- the record


def _note(vault: Vault, *, cut: dt.date | None = None, purged: str | None = None) -> None:
    state = load_state(vault)
    if cut is not None:
        state["cut"] = max(cut, dt.date.fromisoformat(state["cut"])).isoformat() if state.get("cut") else cut.isoformat()
    if purged is not None:
        state["purged"] = sorted({*state.get("purged", []), purged})
    write_atomic(vault.state_dir / STATE, json.dumps(state, indent=1) + "\n")


def load_state(vault: Vault) -> dict[str, Any]:
    try:
        state = json.loads((vault.state_dir / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def earliest_as_of(vault: Vault) -> dt.date | None:
    """The first day `--as-of` can still answer after a prune (None: every day)."""
    cut = load_state(vault).get("cut")
    try:
        return dt.date.fromisoformat(cut) - dt.timedelta(days=1) if isinstance(cut, str) else None
    except (ValueError, OverflowError):
        return None
