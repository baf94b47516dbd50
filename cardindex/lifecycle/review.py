"""Review before apply: the consolidation plan as numbered decisions, and a chosen subset of them.

`numbered` plans as `plan.plan` does, but remembers which decision asked for each change
of each card, so every decision (1., 2., …) carries the steps it makes alone and any
subset of them can be applied as one job. A decision is the unit: a merge's canonical
edit and its archived copies go together, never half of them.

Composing a subset replays the accepted decisions' changes in plan order on each card:
a field of ids (`merged_from`, `supersedes`, `conflicts_with`) gets the ids each accepted
decision added; any other field the value the last accepted decision set. A card an
accepted decision retires is archived with that decision's fields. Accepting every
decision gives exactly the plan's own steps.

The numbers mean something only for the plan they were shown with, so `--dry-run`
records the plan's fingerprint (its decisions, the changes they make, and the hash of
every card they touch) in `.cardindex/plan.json`; `--only`/`--skip` plan again now and
apply only when the fingerprint is the same, else they refuse.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from cardindex.errors import Refused, UsageError
from cardindex.lifecycle.plan import Plan, Planner
from cardindex.meaning.similarity import Pair
from cardindex.store.card import Card, id_list, id_value
from cardindex.store.jobs import Step, new_text
from cardindex.store.vault import Vault

ID_FIELDS = frozenset({"merged_from", "supersedes", "conflicts_with"})
STATE = "plan.json"


class Touch(NamedTuple):
    """One decision's change to one card."""

    decision: int  # index into the plan's decisions
    path: str
    kind: str  # "retire" (archive with `fields`), "edit", or "body" (a merge's new body, `body`)
    fields: Mapping[str, tuple[str, Any]]  # field -> ("add", ids) for id fields, ("set", value) otherwise
    action: str
    reason: str
    body: str | None = None


class Item(NamedTuple):
    """One numbered decision of the plan, with the steps it makes on its own."""

    number: int
    action: str
    card: str
    related: tuple[str, ...]
    reason: str
    steps: tuple[Step, ...]


class Numbered(NamedTuple):
    plan: Plan
    items: list[Item]
    touches: list[Touch]
    cards: Mapping[str, Card]


class _Recording(Planner):
    """The planner, noting which decision (the one about to be appended) asks for each change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.touches: list[Touch] = []

    def _retire(self, card: Card, updates: dict[str, Any], action: str, reason: str) -> None:
        super()._retire(card, updates, action, reason)
        fields = {f: ("set", v) for f, v in updates.items()}
        self.touches.append(Touch(len(self.decisions), card.path, "retire", fields, action, reason))

    def _set_body(self, card: Card, body: str) -> None:
        super()._set_body(card, body)
        self.touches.append(Touch(len(self.decisions), card.path, "body", {}, "merge", "", body))

    def _edit(self, card: Card, updates: dict[str, Any], action: str, reason: str) -> None:
        before = dict(self._edits.get(card.path, {}))
        told = len(self._why[card.path]) if card.path in self._why else 0
        super()._edit(card, updates, action, reason)
        after = self._edits.get(card.path, {})
        fields: dict[str, tuple[str, Any]] = {}
        for field, value in after.items():
            if field in before and before[field] == value:
                continue
            if field in ID_FIELDS and value is not None:
                old = id_list(before[field]) if field in before else id_list(card.fields.get(field))
                fields[field] = ("add", [i for i in id_list(value) if i not in old])
            else:
                fields[field] = ("set", value)
        if len(self._why.get(card.path, ())) > told:
            self.touches.append(Touch(len(self.decisions), card.path, "edit", fields, action, reason))


def numbered(cards: Sequence[Card], *, now: dt.date, multi_valued: frozenset[str] = frozenset(),
             max_age: Mapping[str, int] | None = None, window: set[str] | None = None,
             find: Callable[[list[Card]], list[Pair]] | None = None, absorbed: Sequence[Card] = ()) -> Numbered:
    """The plan (as `plan.plan`), each decision numbered with its own steps."""
    planner = _Recording(cards, now=now, multi_valued=multi_valued, max_age=max_age or {}, window=window,
                         find=find, absorbed=absorbed)
    decided = planner.plan()
    by_path = {c.path: c for c in planner.cards}
    out = Numbered(decided, [], planner.touches, by_path)
    by_decision: dict[int, list[Touch]] = defaultdict(list)
    for touch in planner.touches:
        by_decision[touch.decision].append(touch)
    for index, d in enumerate(decided.decisions):  # each decision alone: only its own touches (linear, not quadratic)
        steps = tuple(compose(out._replace(touches=by_decision.get(index, [])), {index}))
        out.items.append(Item(index + 1, d.action, d.card, d.related, d.reason, steps))
    return out


def append_steps(numbered: Numbered, extra: Iterable[Step]) -> None:
    """One more decision per step (the deep pass's forgetting), numbered after the plan's."""
    for step in extra:
        numbered.items.append(Item(len(numbered.items) + 1, step.action, step.card.id, (), step.reason, (step,)))


def compose(numbered: Numbered, chosen: Iterable[int]) -> list[Step]:
    """The steps that the plan's decisions at indexes `chosen` make together (see the module docstring)."""
    chosen = set(chosen)
    retired: dict[str, dict[str, Any]] = {}
    edits: dict[str, dict[str, Any]] = {}
    bodies: dict[str, str] = {}
    why: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for touch in numbered.touches:
        if touch.decision not in chosen:
            continue
        card = numbered.cards[touch.path]
        if touch.kind == "body" and touch.body is not None:
            bodies[touch.path] = touch.body  # the merge's edit of the same card follows, with its reason
            continue
        why[touch.path].append((touch.action, touch.reason))
        if touch.kind == "retire":
            retired[touch.path] = {f: v for f, (_how, v) in touch.fields.items()}
            continue
        current = edits.setdefault(touch.path, {})
        for field, (how, value) in touch.fields.items():
            if how == "add":
                base = id_list(current[field]) if field in current else id_list(card.fields.get(field))
                ids = list(dict.fromkeys([*base, *value]))
                if ids:
                    current[field] = id_value(ids)
            else:
                current[field] = value
    out = []
    for path, updates in sorted(retired.items()):
        out.append(_step(numbered.cards[path], "archive", updates, why[path]))
    for path, updates in sorted(edits.items()):
        if path not in retired and updates:
            step = _step(numbered.cards[path], "edit", updates, why[path])._replace(body=bodies.get(path))
            if new_text(step, step.card.text) != step.card.text:
                out.append(step)
    return out


def _step(card: Card, op: str, updates: dict[str, Any], why: list[tuple[str, str]]) -> Step:
    action = "+".join(dict.fromkeys(a for a, _ in why))
    return Step(card, op, updates, action, "; ".join(dict.fromkeys(r for _, r in why)))


def subset(numbered: Numbered, numbers: Iterable[int]) -> list[Step]:
    """The steps of the items numbered `numbers` together (plan decisions composed, extra steps as they are)."""
    wanted = set(numbers)
    plan_count = len(numbered.plan.decisions)
    steps = compose(numbered, {n - 1 for n in wanted if n <= plan_count})
    taken = {s.card.path for s in steps}
    steps += [s for item in numbered.items if item.number > plan_count and item.number in wanted
              for s in item.steps if s.card.path not in taken]
    return steps


def parse_numbers(text: str, count: int) -> set[int]:
    """`1,3,5-7` as a set of decision numbers, each between 1 and `count`."""
    out: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise UsageError(f"{text!r} is not a list of decision numbers (such as 1,3 or 2-4)")
        first, last = int(low), int(high or low)
        if first < 1 or last > count or first > last:
            shown = f"1-{count}" if count else "none: the plan is empty"
            raise UsageError(f"no decision {part} in the plan (its numbers: {shown})")
        out.update(range(first, last + 1))
    return out


def fingerprint(numbered: Numbered, options: Mapping[str, Any]) -> str:
    """A digest of the numbered plan: its options, decisions, the changes they make and the cards they read."""
    rows: list[Any] = [dict(sorted((k, str(v)) for k, v in options.items()))]
    for item in numbered.items:
        rows.append([item.number, item.action, item.card, list(item.related), item.reason])
        for step in item.steps:
            rows.append([step.card.path, step.op, sorted((k, repr(v)) for k, v in step.updates.items()),
                         hashlib.sha256(step.card.text.encode("utf-8")).hexdigest(),
                         None if step.body is None else hashlib.sha256(step.body.encode("utf-8")).hexdigest()])
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode("utf-8")).hexdigest()


def remember(vault: Vault, print_: str, count: int) -> None:
    """Record the fingerprint of the plan just shown (best effort: a read-only vault can still be planned)."""
    from cardindex.store.atomic import write_atomic

    state = {"fingerprint": print_, "decisions": count}
    with contextlib.suppress(OSError):
        write_atomic(vault.state_dir / STATE, json.dumps(state) + "\n", durable=False)


def check_remembered(vault: Vault, print_: str) -> None:
    """Refuse unless the plan computed now is the one `--dry-run` numbered last."""
    try:
        state = json.loads((vault.state_dir / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        state = None
    if not isinstance(state, dict) or "fingerprint" not in state:
        raise Refused("no numbered plan to choose from: run `cards consolidate --dry-run` first and pick its numbers")
    if state["fingerprint"] != print_:
        raise Refused("the vault (or the options) changed since `cards consolidate --dry-run` numbered the plan; "
                      "nothing written: run --dry-run again and choose from its numbers")


def forget_remembered(vault: Vault) -> None:
    """The numbers shown are spent once a subset is applied: the plan is another now."""
    with contextlib.suppress(OSError):
        (vault.state_dir / STATE).unlink()
