"""Review and write imported candidates: each one rendered as `cards add` would write it and reviewed by the write gate.

Reviewed against the vault and against the candidates this import already accepted (so a
file that says one thing twice yields one card); the accepted ones are written as one
journalled job. The core of `cards import`; prints nothing.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.agents.importer import (
    SHORT_DESCRIPTION_WORDS,
    Candidate,
)
from cardindex.index import build as index
from cardindex.lifecycle.add import derive_description, derived_stem, fit_description, render_card
from cardindex.lint.finding import Finding
from cardindex.store.card import Card
from cardindex.store.jobs import Step, apply, free_name
from cardindex.store.vault import Vault

_PLAIN_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])\s+[A-Z`*\"'(]")


class Input(NamedTuple):
    source: str  # as recorded in `source:` ("stdin" for -)
    text: str
    path: Path | None  # None for stdin


class Outcome(NamedTuple):
    """What the gate said about one candidate."""

    candidate: Candidate
    description: str
    path: str  # the vault path it gets (or got, with --apply)
    text: str  # the card file as it would be written
    findings: tuple[Finding, ...]
    earlier: tuple[str, ...] = ()  # FILE:LINE of the candidates of this import the findings name

    @property
    def accepted(self) -> bool:
        return not self.findings

    @property
    def secret(self) -> bool:
        return any(f.category == "secret" for f in self.findings)


def review(vault: Vault, candidates: list[Candidate], now: dt.date, inputs: list[Input]) -> list[Outcome]:
    """Run every candidate through the write gate, in order; the accepted ones count for the rest."""
    return _review_all(vault, candidates, now, _as_repo_docs(vault, inputs))


def _review_all(vault: Vault, candidates: list[Candidate], now: dt.date, own_docs: tuple[str, ...]) -> list[Outcome]:
    from cardindex.lint import gate
    from cardindex.store.progress import report

    checks = gate.Gate(vault)  # the repo is read once; accepted candidates count as in the vault
    taken: set[str] = set()
    origin: dict[str, str] = {}  # planned path -> where its candidate came from
    outcomes = []
    for done, cand in enumerate(candidates):
        report("checking candidates", done, len(candidates))
        if cand.card:  # a card file: written as it is, under its own file name when that is free
            rel = free_name(vault, _own_stem(cand.source), taken=taken)
            text = cand.card
            card = Card.from_text(rel, text)
            # A card that lacks a description is named by its body, when it has one.
            description = card.description or (_description(cand) if cand.text.strip() else "")
        else:
            rel = free_name(vault, derived_stem(_description(cand)), taken=taken)
            description = fit_description(_description(cand), rel)
            fields: list[tuple[str, Any]] = [
                ("description", description),
                ("type", cand.type),
                ("created", now),
                ("verified", now),
                ("source", cand.where),
            ]
            text = render_card(vault, fields, cand.text)
            card = Card.from_text(rel, text)
        raw = sorted((f for f in checks.review(card) if not _says_itself(f, own_docs)), key=Finding.sort_key)
        earlier = tuple(dict.fromkeys(origin[r] for f in raw for r in f.related if r in origin))
        findings = tuple(f._replace(related=tuple(origin.get(r, r) for r in f.related)) for f in raw)
        if not findings:
            checks.accepted.append(card)
            taken.add(rel)
            origin[rel] = cand.where
        outcomes.append(Outcome(cand, description, rel, text, findings, earlier))
    return outcomes


def _own_stem(source: str) -> str:
    """The file name an imported card had (`feedback_testing.md` -> `feedback_testing`), when it is a
    plain name (letters, digits, `-`, `_`, `.`); else one derived from it, as `cards add` would."""
    name = Path(source).name
    stem = name[:-3] if name.lower().endswith(".md") else name
    if _PLAIN_STEM.fullmatch(stem):
        return stem
    return derived_stem(stem)


def _as_repo_docs(vault: Vault, inputs: list[Input]) -> tuple[str, ...]:
    """The input files as the derivable rules name the repo's docs (repo-relative paths)."""

    root = vault.repo_root()
    out = []
    for item in inputs:
        if root is not None and item.path is not None:
            with contextlib.suppress(ValueError, OSError):
                out.append(item.path.resolve().relative_to(root).as_posix())
    return tuple(out)


def _says_itself(finding: Finding, own_docs: tuple[str, ...]) -> bool:
    """A D105 hit on the very file being imported ("docs/notes.md line 3 already says this").

    The file is where the fact is moving from, not evidence that the repo records it.
    """
    return finding.code == "D105" and any(finding.message.startswith(f"{doc} line ") for doc in own_docs)


def _description(cand: Candidate) -> str:
    """Like `cards add`: the first line, cut; a very short one gets its section heading as context.

    A paragraph wrapped over several lines counts as one line, and of several sentences
    the first is enough.
    """
    lead: list[str] = []
    for line in cand.text.splitlines():
        if not line.strip() or (lead and line.lstrip().startswith(("```", "~~~", "|", "- ", "* ", "+ "))):
            break
        lead.append(line.strip())
    joined = " ".join(lead) or cand.text
    first = _FIRST_SENTENCE.match(joined)
    if first and len(first.group(1).split()) >= SHORT_DESCRIPTION_WORDS:
        joined = first.group(1)
    description = derive_description(joined)
    heading = cand.section.rsplit(" > ", 1)[-1] if cand.section else ""
    if heading and len(description.split()) < SHORT_DESCRIPTION_WORDS:
        description = derive_description(f"{heading}: {description}")
    return description


def write_accepted(vault: Vault, accepted: list[Outcome], now: dt.date, *, replace_index: bool) -> tuple[str | None, bool]:
    """Create the accepted cards as one journalled job (caller holds the lock).

    `jobs.apply` writes the journal entry, marked pending, before the first card: a
    crash part way leaves a job the next command rolls back, never cards no journal knows of.
    """
    cards = [Card.from_text(o.path, o.text) for o in accepted]
    steps = [Step(card, "create", {}, "add", f"cards import {o.candidate.where}")
             for card, o in zip(cards, accepted, strict=True)]
    replaced = False
    if replace_index:
        # Importing the vault's own hand-kept index moves its facts into cards; the
        # generated index takes its place, and the journal keeps what it held.
        old = vault.index_path.read_bytes().decode("utf-8")
        new_index = index.render(vault, [*vault.cards, *cards], now).text
        if new_index != old:
            steps.append(Step(Card.from_text(vault.index_name, old), "replace", {}, "index",
                              "its facts were imported into cards", body=new_index))
            replaced = True
    job, _done = apply(vault, steps, command="import", day=now)
    return job, replaced


