"""Consolidation ("sleep"): plan what to merge, supersede, mark and archive.

Planning reads the vault and decides; it writes nothing. `cli/consolidate.py`
applies the plan as one journalled job (`jobs.apply`). Decisions, in order:

1. **archive** what time retired: expired cards, cards older than `max_age` for their
   type, and cards marked superseded or archived that still sit in the live folders;
2. **supersede** within each single-valued `key`: the newest evidence (`verified`, else
   `created`) wins and older values are archived with `superseded_by`, so a late card
   with older evidence is superseded on arrival. A tie on the newest date is a
   **conflict**: time cannot decide, so nobody wins;
3. **merge** groups of duplicates (the linter's similarity; the connected components,
   so three reworded copies become one) into the card with the newest value
   (`decide.canonical`: the best described when all give the same values, else the
   newest), which records `merged_from` naming all the others and the newest
   `verified`; the others are archived. A card stands for the copies merged into it
   (`absorbed`). A newer card that says it is a change ("now", "no longer",
   "switched to", `meaning.change`) supersedes the older one instead (`decide.change`);
4. **conflict**: two cards without a key that contradict each other (a rule and its
   negation, two values for one thing) are both marked and stay live, unless a newer
   one carries a change signal or the difference is a measured value. When one of
   them has a key, they fill one slot and evidence decides, as in 2;
5. **resolve**: a conflict whose other side has gone is active again.

Different scopes, and other values of a multi-valued key, are different facts
(`decide.apart`): no pair between them reaches a decision, whatever the detector found.

A locked card is never edited, archived or downgraded: an older value of its slot (its
key, or a contradiction pair) is superseded by it, anything else that disagrees with it
becomes the conflict instead.
Only cards in the window (changed since the last run) start a decision, so a second run
with nothing new plans nothing.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from cardindex.lifecycle.absorbed import absorbed_pairs, merged_fields
from cardindex.lifecycle.decide import (
    Change,
    apart,
    canonical,
    change,
    components,
    contradicting,
    own_values,
)
from cardindex.lifecycle.evidence import (
    NEVER,
    best,
    evidence_order,
    first_line,
    one_word_swapped,
)
from cardindex.meaning.documents import REASON as DOCUMENT_REASON
from cardindex.meaning.restatement import REASON as REWORDED
from cardindex.meaning.similarity import Pair, find_pairs, measured_change
from cardindex.meaning.slots import scope_of
from cardindex.meaning.union import SECTION, container, each_says_more, notes, one_fact, pair_refused, swapped, union
from cardindex.meaning.words import words
from cardindex.redaction import redact_words
from cardindex.store.card import LIVE_STATUSES, Card, id_list, id_value
from cardindex.store.jobs import Step

MAX_RESTATEMENTS = 20  # a replaced value held by more live cards than this is not distinctive
RESTATEMENT_SCORE = 75  # rapidfuzz token_set_ratio of the descriptions, from which a card restates another


class Decision(NamedTuple):
    """One decision, as shown to the user and written to the journal."""

    action: str  # archive, supersede, merge, conflict, resolve, keep (a lock prevented a change)
    card: str  # the card the decision is about: the archived one, the canonical, the winner
    related: tuple[str, ...]  # the other cards: merged, superseded by, in conflict with
    reason: str


class Merge(NamedTuple):
    canonical: Card
    merged: tuple[Card, ...]


class Plan(NamedTuple):
    decisions: list[Decision]
    steps: list[Step]
    merges: list[Merge]  # for the optional llm rewrite of the canonical card
    window: int  # cards that could start a decision
    live: int


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


class Planner:
    def __init__(self, cards: Sequence[Card], *, now: dt.date, multi_valued: frozenset[str],
                 max_age: Mapping[str, int], window: set[str] | None,
                 find: Callable[[list[Card]], list[Pair]] | None = None, absorbed: Sequence[Card] = ()) -> None:
        self.now = now
        self.absorbed = absorbed  # archived copies (`merged_into` a live card): the canonical stands for them
        self.find = find  # find_pairs over the live cards, remembered (the lint cache); None: compute
        self.multi_valued = multi_valued
        self.max_age = max_age
        self.window = window
        self.cards = [c for c in cards if c.usable]
        self.live = [c for c in self.cards if c.live(now)]
        self.decisions: list[Decision] = []
        self.merges: list[Merge] = []
        self._edits: dict[str, dict[str, Any]] = {}
        self._bodies: dict[str, str] = {}  # a canonical card's body with what the cards merged into it add
        self._retired: dict[str, dict[str, Any]] = {}
        self._why: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self._by_path = {c.path: c for c in self.cards}
        self._superseded: list[tuple[Card, list[Card]]] = []
        self._merged_into: dict[str, Card] = {}  # a merged-away card -> the canonical that now states its value
        self.against: set[frozenset[str]] = set()  # cards that contradict: never in one merge

    # ---------------------------------------------------------------- bookkeeping

    def gone(self, card: Card) -> bool:
        return card.path in self._retired

    def in_window(self, *cards: Card) -> bool:
        return self.window is None or any(c.path in self.window for c in cards)

    def _retire(self, card: Card, updates: dict[str, Any], action: str, reason: str) -> None:
        assert not card.locked
        self._retired[card.path] = updates
        self._why[card.path].append((action, reason))

    def _edit(self, card: Card, updates: dict[str, Any], action: str, reason: str) -> None:
        if card.locked or self.gone(card):
            return
        current = self._edits.setdefault(card.path, {})
        for field, value in updates.items():
            if card.fields.get(field) != value or field in current:
                current[field] = value
        if not current:
            del self._edits[card.path]
            return
        self._why[card.path].append((action, reason))

    def _merged_body(self, card: Card) -> Card:
        """The card as this plan leaves its body (an earlier merge may have added to it)."""
        body = self._bodies.get(card.path)
        return card if body is None else card._replace(text=card.text[:card.body_offset] + body)

    def _set_body(self, card: Card, body: str) -> None:
        self._bodies[card.path] = body

    def _ids(self, card: Card, field: str) -> list[str]:
        """A field of ids as this plan leaves it (its pending edit, else the card's own)."""
        pending = self._edits.get(card.path, {})
        return id_list(pending[field] if field in pending else card.fields.get(field))

    def steps(self) -> list[Step]:
        out = []
        for path, updates in sorted(self._retired.items()):
            out.append(self._step(path, "archive", updates))
        for path, updates in sorted(self._edits.items()):
            if path not in self._retired:
                out.append(self._step(path, "edit", updates))
        return out

    def _step(self, path: str, op: str, updates: dict[str, Any]) -> Step:
        why = self._why[path]
        action = "+".join(_unique(a for a, _ in why))
        return Step(self._by_path[path], op, updates, action, "; ".join(_unique(r for _, r in why)),
                    self._bodies.get(path) if op == "edit" else None)

    # ---------------------------------------------------------------- the plan

    def plan(self) -> Plan:
        self.retire_by_time()
        # Other scopes, other values of a multi-valued key: different facts, however alike.
        found = self.find(self.live) if self.find else find_pairs(self.live, self.multi_valued)
        pairs = [p for p in found if apart(p, self.multi_valued) is None]
        self.against = {frozenset((p.a.path, p.b.path)) for p in found if p.kind == "contradiction"}  # acted on or not
        self.kinds = {(p.a.path, p.b.path): p for p in pairs} | {(p.b.path, p.a.path): p for p in pairs}
        by_key: dict[tuple[str, str], list[Card]] = defaultdict(list)
        for card in self.live:
            if card.key and card.key not in self.multi_valued and not self.gone(card):
                by_key[(card.key, scope_of(card))].append(card)  # one slot per key and scope
        for (key, _scope), group in sorted(by_key.items()):
            if len(group) > 1 and self.in_window(*group):
                self.settle_key(key, group)
        self.merge_duplicates([p for p in pairs if p.kind == "duplicate" and p.reason != "same-key"])
        for pair in pairs:
            if pair.kind == "contradiction" and pair.reason != "same-key":
                self.contradiction(pair)
        for pair, copy in absorbed_pairs(self.live, self.absorbed, self.window, self.multi_valued, find_pairs):
            if apart(pair._replace(b=copy), self.multi_valued) is None and scope_of(pair.a) == scope_of(pair.b):
                self.contradiction(pair, copy)
        self.retire_restatements()
        self.resolve_conflicts()
        window = len(self.live) if self.window is None else sum(c.path in self.window for c in self.live)
        return Plan(self.decisions, self.steps(), self.merges, window, len(self.live))

    def pair(self, a: Card, b: Card) -> Pair | None:
        return self.kinds.get((a.path, b.path))

    def duplicate(self, a: Card, b: Card) -> bool:
        """The same fact. For one key, also the same value: cards filling one slot often
        share a description (what the fact is for) while their bodies give other values."""
        pair = self.pair(a, b)
        if pair is None:
            return False
        if pair.kind == "contradiction" and (pair.reason != "same-key" or pair.score):
            return False  # opposite polarity, or another value in the same place (for a key: the value it named)
        if pair.reason == REWORDED:
            return True  # `meaning.restatement` judged the whole cards: one slot, no value against another
        if a.key and a.key == b.key:  # one slot: the same value (not the same description) is the same fact
            if one_word_swapped(a.description, b.description) or one_word_swapped(first_line(a), first_line(b)):
                return False  # "... runs on unittest" / "... runs on vitest": another value, whatever its case
            wa, wb = words(f"{a.description}\n{a.body}"), words(f"{b.description}\n{b.body}")
            if wa.values or wb.values:  # the same names and numbers, and no other word for the value
                return wa.values == wb.values and (not each_says_more(a, b) or notes(a, b))
            return pair.kind == "duplicate" and not (set(wa.tokens) - set(wb.tokens) and set(wb.tokens) - set(wa.tokens))
        return one_fact(pair)

    def retire_by_time(self) -> None:
        for card in self.cards:
            if card.status in LIVE_STATUSES and card.expired(self.now):
                assert card.expires is not None
                self.archive(card, {"status": "archived"}, f"expired on {card.expires.isoformat()}")
            elif card.status in LIVE_STATUSES and self._too_old(card):
                assert card.evidence is not None
                self.archive(card, {"status": "stale"}, f"last confirmed {card.evidence.isoformat()}, "
                             f"older than max_age {self.max_age[card.type or '']} days for {card.type}")
            elif card.status not in LIVE_STATUSES:
                self.archive(card, {}, f"status {card.status} but still in the live folders")

    def _too_old(self, card: Card) -> bool:
        limit = self.max_age.get(card.type or "")
        return limit is not None and card.evidence is not None and (self.now - card.evidence).days > limit

    def archive(self, card: Card, updates: dict[str, Any], reason: str) -> None:
        if card.locked:
            self.decisions.append(Decision("keep", card.id, (), f"locked; not archived although {reason}"))
            return
        self._retire(card, updates, "archive", reason)
        self.decisions.append(Decision("archive", card.id, (), reason))

    # ---------------------------------------------------------------- single-valued keys

    def settle_key(self, key: str, group: list[Card]) -> None:
        locked = [c for c in group if c.locked]
        if locked:
            self._against_locked(key, group, locked)
            return
        ordered = sorted(sorted(group, key=lambda c: c.path), key=evidence_order, reverse=True)
        newest = evidence_order(ordered[0])
        top = [c for c in ordered if evidence_order(c) == newest]
        canonical = best(top)
        same = [c for c in ordered if c is not canonical and self.duplicate(c, canonical)]
        rivals = [c for c in top if c is not canonical and c not in same]
        told = change(canonical, rivals[0]) if len(rivals) == 1 else None
        if told is not None:  # one date, but one card says it replaced the other's value
            canonical, rivals = told.newer, []
            same = [c for c in ordered if c is not canonical and c is not told.older and self.duplicate(c, canonical)]
        if same:
            self.merge(canonical, same, f"the same value for key {key!r}")
        if rivals:
            date = newest.isoformat() if newest != NEVER else "none"
            self.conflict([canonical, *rivals], f"key {key!r}: different values with the same evidence date ({date})")
        winners = [canonical, *rivals]
        for old in ordered:
            if old not in winners and old not in same:
                self.supersede(old, winners, f"key {key!r}")

    def supersede(self, old: Card, winners: list[Card], why: str) -> None:
        shown = old.evidence.isoformat() if old.evidence else "no date"
        reason = f"{why}: newer value in {', '.join(w.id for w in winners)} (this one: {shown})"
        self._retire(old, {"status": "superseded", "superseded_by": id_value([w.id for w in winners])},
                     "supersede", reason)
        taken_over = [old.id, *self._ids(old, "supersedes"), *self._ids(old, "merged_from")]
        for winner in winners:
            self._edit(winner, {"supersedes": id_value(_unique([*self._ids(winner, "supersedes"), *taken_over]))},
                       "supersede", f"supersedes {old.id} ({why})")
        self.decisions.append(Decision("supersede", old.id, tuple(w.id for w in winners), reason))
        self._superseded.append((old, winners))

    def retire_restatements(self) -> None:
        """Supersede the live restatements of a value this run replaced.

        A reworded copy of an old value ("Staging Postgres is reachable on port 5433")
        may not pair with the new one ("… listens on port 6432"), but it restates the
        card that was just superseded: same scope, a value only the old card had, wording
        close to the old card's, and older evidence than the new value.
        """
        if not self._superseded:
            return
        from rapidfuzz import fuzz, utils

        by_value: dict[str, list[Card]] = defaultdict(list)
        for card in self.live:
            for value in words(f"{card.description}\n{card.body}").values:
                by_value[value].append(card)
        for old, winners in list(self._superseded):
            newest = max(evidence_order(w) for w in winners)
            replaced = words(f"{old.description}\n{old.body}").values - {
                v for w in winners for v in words(f"{w.description}\n{w.body}").values
            }
            for value in sorted(replaced):
                holders = by_value.get(value, [])
                if len(holders) > MAX_RESTATEMENTS:
                    continue  # not distinctive
                for card in holders:
                    if (card is old or card in winners or card.locked or self.gone(card) or card.scope != old.scope
                            or (card.key and old.key and card.key != old.key) or evidence_order(card) >= newest
                            or fuzz.token_set_ratio(card.description, old.description,
                                                    processor=utils.default_process) < RESTATEMENT_SCORE):
                        continue
                    self.supersede(card, winners, f"restates {old.id}'s value {value!r}")

    def _against_locked(self, key: str, group: list[Card], locked: list[Card]) -> None:
        """A locked card keeps its slot: an older value is superseded by it, a newer one is a conflict."""
        oldest_lock = min(evidence_order(c) for c in locked)
        for card in group:
            if card.locked:
                continue
            twin = next((lk for lk in locked if self.duplicate(card, lk)), None)
            if twin is not None:
                self.merge(twin, [card], f"the same value for key {key!r} as the locked card")
            elif evidence_order(card) < oldest_lock:
                self.supersede(card, locked, f"key {key!r} (locked)")  # the locked card's file stays as it is
            else:
                self.conflict([card, *locked], f"key {key!r} is held by locked card {', '.join(c.id for c in locked)}")
        values = [c for c in locked if not any(self.duplicate(c, other) for other in locked if other is not c)]
        if len(values) > 1:
            self.decisions.append(Decision("keep", values[0].id, tuple(c.id for c in values[1:]),
                                           f"locked cards give key {key!r} different values; only you can decide"))

    # ---------------------------------------------------------------- duplicates

    def merge_duplicates(self, pairs: list[Pair]) -> None:
        """Merge each group of duplicates into its canonical card; a change supersedes instead.

        A pair whose newer card says it changed the value is a supersession; one whose
        cards each give a value the other lacks is two values of one slot (a conflict
        unless time can decide); the rest are edges, and each connected group of them,
        less the cards that contradict another member, merges into one card.
        """
        edges = []
        for pair in pairs:
            a, b = pair.a, pair.b
            if self.gone(a) or self.gone(b):
                continue
            if notes(a, b):  # two long notes on one subject: each names its own things, and
                edges.append((a, b))          # a word such as "changed" in one is no change of the other's value
                continue
            told = change(a, b)
            if told is not None:
                if self.in_window(a, b):
                    self.replace(told, "the same slot")
            elif own_values(a, b) and not (a.key and a.key == b.key) and pair.reason != REWORDED:
                self.contradiction(pair._replace(kind="contradiction", reason="value",
                                                 detail="the same slot with other values"))
            elif self.duplicate(a, b) and not swapped(a.description, b.description):
                edges.append((a, b))
        for group in components(edges):
            if not self.in_window(*group):
                continue
            members = [c for c in group if not self.gone(c)]
            self.against |= contradicting(members, self.multi_valued)
            clean = {c.path for c in members if not any(self._contradicts(c, m) for m in members)}
            for part in components((a, b) for a, b in edges if a.path in clean and b.path in clean):
                top = self._container(part) or canonical(part)
                merged = [c for c in part if c is not top]
                if merged:
                    two = self.pair(*part) if len(part) == 2 else None
                    said = two.detail if two is not None and two.reason == DOCUMENT_REASON else None
                    self.merge(top, merged, said or "the same fact in other words")

    def _container(self, part: list[Card]) -> Card | None:
        pair = self.pair(*part) if len(part) == 2 else None
        return None if pair is None else container(pair)

    def replace(self, told: Change, why: str) -> None:
        """The newer card said it changed the value: it supersedes the older one (a locked one: a conflict)."""
        reason = f"{why}; {told.newer.id} says {told.signal!r}"
        if told.older.locked:
            self.conflict([told.newer, told.older], f"{reason}, but {told.older.id} is locked")
        else:
            self.supersede(told.older, [told.newer], reason)

    def _contradicts(self, a: Card, b: Card) -> bool:
        pair = self.pair(a, b)
        return (pair is not None and pair.kind == "contradiction") or frozenset((a.path, b.path)) in self.against

    def merge(self, canonical: Card, merged: list[Card], reason: str) -> None:
        merged = [c for c in merged if not c.locked and not self.gone(c)]
        if not merged:
            return
        # The canonical card keeps its text and gains what the others add (a locked one is never
        # edited: the archived copies keep theirs). One card of bounded size, or no merge.
        joined = None if canonical.locked else union(self._merged_body(canonical), merged)
        two = self.pair(canonical, merged[0]) if len(merged) == 1 else None
        if joined is not None and joined.refused and two is not None and two.kind == "duplicate" \
                and container(two) is None and not merged[0].locked and canonical.path not in self._bodies \
                and pair_refused(two) is None:  # too long one way, fits the other: lint says it merges
            canonical, merged = merged[0], [canonical]
            joined = union(canonical, merged)
        refused = joined.refused if joined is not None else None
        if refused:
            self.decisions.append(Decision("keep", canonical.id, tuple(m.id for m in merged),
                                           f"{reason}, but {refused}: merge by hand"))
            return
        cluster = [canonical, *merged]
        ids = [m.id for m in merged]
        updates: dict[str, Any] = {
            "merged_from": id_value(_unique(
                [*self._ids(canonical, "merged_from"), *ids, *(i for m in merged for i in self._ids(m, "merged_from"))]
            ))
        }
        replaced = [i for m in merged for i in self._ids(m, "supersedes")]
        if replaced:  # what the merged cards had replaced, the canonical one now replaces
            updates["supersedes"] = id_value(_unique([*self._ids(canonical, "supersedes"), *replaced]))
        updates.update(merged_fields(canonical, cluster))
        if joined is not None and joined.body is not None:
            self._set_body(canonical, joined.body)
            reason = f"{reason}; it keeps what each adds, under \"{SECTION.strip()} …\""
        self._edit(canonical, updates, "merge", f"absorbed {', '.join(ids)}: {reason}")
        for card in merged:
            self._merged_into[card.path] = canonical
            self._retire(card, {"status": "archived", "merged_into": canonical.id}, "merge",
                         f"merged into {canonical.id}: {reason}")
        self.decisions.append(Decision("merge", canonical.id, tuple(ids), reason))
        if not canonical.locked:
            self.merges.append(Merge(canonical, tuple(merged)))

    # ---------------------------------------------------------------- contradictions

    def contradiction(self, pair: Pair, copy: Card | None = None) -> None:
        """Two cards that cannot both hold: time decides when a key says they fill one slot.

        `copy`: the archived copy of `pair.b` whose words the detector compared.
        """
        # A card merged away stands in its canonical card, which states its value now.
        a, b = (self._merged_into.get(c.path, c) for c in (pair.a, pair.b))
        if a is b or self.gone(a) or self.gone(b) or not self.in_window(a, b):
            return
        if (a, b) != (pair.a, pair.b):
            copy = None
        keyed = bool(a.key) and a.key == b.key and a.key not in self.multi_valued  # a key on one side says nothing of the other
        newer, older = sorted((a, b), key=evidence_order, reverse=True)
        # One slot: a key says so, or one sentence differs only in a number, version or date.
        by_time = keyed or (pair.reason == "value" and measured_change(a, copy or b))
        detail = redact_words(pair.detail, a.text, b.text, pair.a.text, pair.b.text,
                              *(copy.text for copy in [copy] if copy))  # it quotes words
        later = evidence_order(newer) != evidence_order(older)
        # A change signal in a long note ("formerly", "changed" somewhere in its history) is not a change of the slot.
        told = None if (by_time and later) or notes(a, b) else change(a, b)
        if by_time and later and not older.locked:
            self.supersede(older, [newer], detail)
        elif told is not None:
            self.replace(told, detail)
        elif newer.locked and later and not older.locked:
            self.supersede(older, [newer], f"{detail} (locked)")  # an older card in a locked card's slot
        else:
            self.conflict([a, b], detail)

    def conflict(self, cards: list[Card], reason: str) -> None:
        """Mark every unlocked card of `cards` as in conflict with the others."""
        changed = False
        for card in cards:
            if card.locked or self.gone(card):
                continue
            others = [c.id for c in cards if c is not card]
            pending = self._edits.get(card.path, {})
            have = id_list(card.fields.get("conflicts_with")) + id_list(pending.get("conflicts_with"))
            status = pending.get("status", card.status)
            if status == "conflict" and set(others) <= set(have):
                continue
            partners = _unique([*have, *others])
            self._edit(card, {"status": "conflict", "conflicts_with": id_value(partners)}, "conflict", reason)
            changed = True
        if changed:
            self.decisions.append(Decision("conflict", cards[0].id, tuple(c.id for c in cards[1:]), reason))

    def resolve_conflicts(self) -> None:
        """A card marked conflict whose other side is no longer live is active again."""
        live = {c.id for c in self.live if not self.gone(c)}
        for card in self.live:
            partners = id_list(card.fields.get("conflicts_with"))
            if card.status != "conflict" or not partners or card.path in self._edits or self.gone(card):
                continue
            if not any(p in live for p in partners):
                reason = f"the other side ({', '.join(partners)}) is no longer live"
                self._edit(card, {"status": None, "conflicts_with": None}, "resolve", reason)
                self.decisions.append(Decision("resolve", card.id, tuple(partners), reason))


def plan(cards: Sequence[Card], *, now: dt.date, multi_valued: frozenset[str] = frozenset(),
         max_age: Mapping[str, int] | None = None, window: set[str] | None = None,
         find: Callable[[list[Card]], list[Pair]] | None = None, absorbed: Sequence[Card] = ()) -> Plan:
    """Decide what consolidation would do to `cards` (the vault's live folders) on `now`.

    `find`: `similarity.find_pairs` over the live cards given, remembered where it can be
    (`lint.context.vault_pairs`); by default computed here. `absorbed`: archived cards
    merged into a live one (`absorbed.absorbed_pairs`).
    """
    return Planner(cards, now=now, multi_valued=multi_valued, max_age=max_age or {}, window=window, find=find,
                   absorbed=absorbed).plan()
