"""INDEX.md (SPEC §3): one line per live card, grouped by type, cut to a budget.

A card holding a secret (`redaction.has_secret` over its whole text) is withheld: the
index is loaded into every agent session and committed, so it is kept out rather than
redacted, and a comment line after the header says how many were withheld and to run
`cards lint`. Control characters in a title or description are escaped (`printable`),
so git never sees a NUL or an ESC in the index.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardindex.errors import CheckFailed, Refused
from cardindex.index import ranking_memo
from cardindex.index.takeover import (
    GENERATED_MARK,
    NOTES_TITLE,
    Note,
    Takeover,
    advice,
    describe,
    is_generated,
    link_of,
    notes_of,
    parse_links,
    replace,
    stamp,
    stray_lines,
    survey,
)
from cardindex.index.withhold import Withholding, holding_secrets
from cardindex.redaction import printable, shown
from cardindex.store.card import TYPES, Card, as_date, lineage
from cardindex.store.remembered import Memo, digest
from cardindex.store.vault import Vault

HEADER = f"{GENERATED_MARK} (cardindex) from the cards in this folder; do not edit. Regenerate: cards index"
TYPE_TITLES = {"user": "User", "feedback": "Feedback", "project": "Project", "reference": "Reference"}
_TYPE_RANK = {t: i for i, t in enumerate(TYPES)}
REINFORCED_DAYS = 30
MAX_REINFORCED = 6


class Entry(NamedTuple):
    """One index line, before the template formats it."""

    type: str
    title: str
    link: str
    description: str
    conflict: bool


class Rendered(NamedTuple):
    text: str
    shown: int
    omitted: int
    notes: tuple[str, ...] = ()  # paths of the linked files that are not cards (takeover.notes_of)
    withheld: int = 0  # live cards left out because they hold a secret


class IndexResult(NamedTuple):
    path: str
    changed: bool
    shown: int
    omitted: int
    broken: list[Card]
    notes: int = 0
    takeover: Takeover | None = None  # a hand-kept index was replaced: what was kept, and the job
    withheld: int = 0  # live cards left out because they hold a secret


def entry(card: Card) -> Entry:
    """The card's index line. A card with a `name` reads `- [NAME](PATH) — DESCRIPTION`; one
    without reads `- [DESCRIPTION](PATH)`: its file name is already in the link, and a title
    made of it (`which-weekday-deploys`) would only repeat the link in worse words."""
    description = printable(card.description)
    if card.name is None and description.strip():
        title, description = description, ""
    else:
        title = printable(card.title)
    title = title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return Entry(card.type or "project", " ".join(title.split()), link_of(card.path), description,
                 card.status == "conflict")


def line_of(e: Entry) -> str:
    """The index line the shipped template writes for `e` (lint measures it; a vault's own template may differ)."""
    hook = ("conflict: " if e.conflict and e.description else "conflict" if e.conflict else "") + e.description
    return f"- [{e.title}]({e.link})" + (f" — {hook}" if hook else "")


def withheld_comment(count: int) -> str:
    """The index line that stands for the cards withheld for holding a secret (a comment: not loaded as a fact)."""
    held = "1 card withheld: it holds" if count == 1 else f"{count} cards withheld: they hold"
    return f"<!-- {held} a secret; run `cards lint` -->"


def strength(card: Card) -> int:
    """How much a fact has earned its place, in days: higher is stronger.

    The newest evidence (`verified`, else `created`), plus REINFORCED_DAYS for each card
    the fact replaced or absorbed (its lineage: `supersedes`, `merged_from`, up to
    MAX_REINFORCED), plus REINFORCED_DAYS for `user` and `feedback` cards (who the
    user is and how they want the work done are restated less often than they matter).
    Recency alone would drop the important-but-old: a rule restated and revised over
    months outranks last week's passing fact; a fact stated once fades after a month.
    """
    meta = card.fields  # read once: this runs on every card of every render
    evidence = as_date(meta.get("verified")) or as_date(meta.get("created")) or as_date(meta.get("modified"))
    if evidence is None:  # the same as `card.evidence`
        return 0
    reinforced = min(MAX_REINFORCED, len(lineage(meta)))
    guidance = meta.get("type") in ("user", "feedback")  # `card.type` is the value when it is text
    return evidence.toordinal() + REINFORCED_DAYS * (reinforced + guidance)


_PRIORITIES: dict[str, tuple[Card, tuple[bool, bool, int, str]]] = {}  # path -> (that card object, its priority)
_PRIORITIES_MAX = 200_000


def priority(card: Card) -> tuple[bool, bool, int, str]:
    """`ranked` remembered per card object: a long-running process (`cards watch`) keeps its
    unchanged cards as the same objects, so each pass ranks only the changed ones."""
    found = _PRIORITIES.get(card.path)
    if found is not None and found[0] is card:
        return found[1]
    if len(_PRIORITIES) >= _PRIORITIES_MAX:
        _PRIORITIES.clear()
    value = ranked(card)
    _PRIORITIES[card.path] = (card, value)
    return value


_LIVE: dict[str, tuple[Card, dt.date, bool]] = {}  # path -> (that card object, the day, whether live then)


def _live(card: Card, today: dt.date) -> bool:
    """`card.live(today)`, remembered per card object like `priority`."""
    found = _LIVE.get(card.path)
    if found is not None and found[0] is card and found[1] == today:
        return found[2]
    if len(_LIVE) >= _PRIORITIES_MAX:
        _LIVE.clear()
    value = card.live(today)
    _LIVE[card.path] = (card, today, value)
    return value


def ranked(card: Card) -> tuple[bool, bool, int, str]:
    """Which lines survive when INDEX.md is over budget: lower sorts first, kept first.

    Locked cards, then conflicts (an agent must see them), then by `strength`. The type
    only groups the lines: a project rule restated for months outranks a one-off note
    about the user (`cards context` ranks by type first instead: `by_type_first`).
    Runs on every card: kept cheap.
    """
    meta = card.fields
    return (meta.get("lock") is not True, meta.get("status") != "conflict", -strength(card), card.path)


def by_type_first(card: Card) -> tuple[bool, bool, int, int, str]:
    """The session-start order of `cards context`: locked, conflicts, `user` and `feedback`, then strength."""
    meta = card.fields
    return (
        meta.get("lock") is not True,
        meta.get("status") != "conflict",
        _TYPE_RANK.get(card.type or "", 4),
        -strength(card),
        card.path,
    )


def render(vault: Vault, cards: Sequence[Card], today: dt.date) -> Rendered:
    """The index text for `cards`: the live ones, as many as the budget allows.

    Files the current index links that are not cards stay linked, last, under Notes
    (`takeover.notes_of` reads them from the index file itself). The result is remembered under `.cardindex/cache/`, keyed on everything it depends
    on, so an unchanged vault is not rendered again (nor Jinja2 imported).
    """
    return render_ranked(vault, cards, today)[0]


class Ranked(NamedTuple):
    """What the index text is made from: the first `budget.lines` live cards in `priority`
    order with their lines, how many live cards there are, the linked notes and the
    withheld count (`index.after_add` inserts one card into it instead of ranking all)."""

    top: list[tuple[tuple[bool, bool, int, str], Entry]]
    total: int
    notes: list[Note]
    withheld: int

    def plain(self) -> tuple[Any, ...]:
        """In tuples marshal can keep."""
        return ([(p, tuple(e)) for p, e in self.top], self.total, [tuple(n) for n in self.notes], self.withheld)

    @classmethod
    def of_plain(cls, value: Any) -> Ranked | None:
        try:
            top, total, notes, withheld = value
            return cls([(tuple(p), Entry(*e)) for p, e in top], int(total), [Note(*n) for n in notes], int(withheld))
        except (TypeError, ValueError):
            return None


def memo_parts(vault: Vault) -> tuple[object, ...]:
    """What the index text depends on besides the cards, the day, the settings and the current text."""
    override = vault.root / vault.config.templates if vault.config.templates else None
    return (_template_stamp(override), HEADER)


def render_ranked(vault: Vault, cards: Sequence[Card], today: dt.date) -> tuple[Rendered, Ranked]:
    """`render`, with the ranking it was made from."""
    live = [c for c in cards if _live(c, today)]
    secret = holding_secrets(live, vault.state_dir)
    withheld = len(secret)
    if withheld:
        live = [c for c in live if c.path not in secret]
    live.sort(key=priority)
    ranked = Ranked([(priority(c), entry(c)) for c in live[: vault.config.index_budget.lines]], len(live),
                    notes_of(vault, cards, read_index(vault)), withheld)
    return render_from(vault, ranked), ranked


def render_streamed(vault: Vault, today: dt.date) -> tuple[Rendered, Ranked, list[Card]]:
    """`render_ranked` of the vault's cards read one at a time (`Vault.each_card`), none of them kept but the
    few the index needs: at most twice the line budget of the best live ones, those the current index links
    (for its notes) and the unusable ones, which are returned (in listing order) as `write` reports them.

    What the ranking keeps of each card is what `render_ranked` keeps, so the text is the same; at 100k
    cards, holding every card for the ranking was most of a cold `cards index`'s peak memory.
    """
    lines = vault.config.index_budget.lines
    current = read_index(vault)
    targets = {link.target for link in parse_links(current)[0]} if current else set()
    cache = vault.parse_cache
    remembered = cache is not None and cache.keeps_cards  # a long-running caller: the per-object memos pay
    rank = priority if remembered else ranked
    withholding = Withholding(vault.state_dir)
    best: list[tuple[tuple[bool, bool, int, str], Card]] = []
    linked: list[Card] = []
    broken: list[Card] = []
    total = withheld = 0
    for card in vault.each_card(archive=False):
        if card.path in targets:
            linked.append(card)
        if not card.usable:
            broken.append(card)
            continue
        if not (_live(card, today) if remembered else card.live(today)):
            continue
        if withholding.holds(card):
            withheld += 1
            continue
        total += 1
        best.append((rank(card), card))
        if len(best) >= 2 * lines + 64:
            best.sort(key=_first)
            del best[lines:]
    withholding.done()
    best.sort(key=_first)
    ranking = Ranked([(p, entry(c)) for p, c in best[:lines]], total, notes_of(vault, linked, current), withheld)
    if len(broken) > 1:  # in the order `vault.cards` holds them (its listing's)
        where = {c.path: c for c in broken}
        broken = [where[p] for p in vault.paths() if p in where]
    return render_from(vault, ranking), ranking, broken


def _first(pair: tuple[tuple[bool, bool, int, str], Card]) -> tuple[bool, bool, int, str]:
    return pair[0]


def render_from(vault: Vault, ranked: Ranked) -> Rendered:
    """The index text for a ranking (remembered, as `render` says)."""
    budget = vault.config.index_budget
    candidates = [e for _, e in ranked.top]
    override = vault.root / vault.config.templates if vault.config.templates else None
    memo = _rendered_memo(vault, override, ranked.total, candidates, ranked.notes, ranked.withheld)
    remembered = memo.get()
    if remembered is not None:
        return remembered
    rendered = _fit(candidates, ranked.total, budget.lines, budget.bytes, override, ranked.notes, ranked.withheld)
    memo.put(rendered)
    return rendered


def _fit(candidates: list[Entry], total: int, max_lines: int, max_bytes: int, override: Path | None,
         notes: Sequence[Note] = (), withheld: int = 0) -> Rendered:
    """The most candidates that fit the budget; linked notes are always kept (their group comes last)."""
    from cardindex.index import templates

    note_entries = sorted((Entry("note", printable(n.title), n.link, shown(n.hook), False) for n in notes),
                          key=lambda e: (e.title.casefold(), e.link))
    paths = tuple(n.path for n in notes)
    note = withheld_comment(withheld) + "\n" if withheld else ""

    def text_for(count: int) -> str:
        chosen = candidates[:count]
        groups = []
        for kind in TYPES:
            members = sorted((e for e in chosen if e.type == kind), key=lambda e: (e.title.casefold(), e.link))
            if members:
                groups.append({"title": TYPE_TITLES[kind], "entries": members})
        if note_entries:
            groups.append({"title": NOTES_TITLE, "entries": note_entries})
        text = templates.render("index.md.j2", override, header=HEADER, groups=groups, omitted=total - count)
        if note:  # right after the header line
            first, newline, rest = text.partition("\n")
            text = first + newline + note + rest if newline else text + "\n" + note
        return text

    def fits(text: str) -> bool:
        return text.count("\n") <= max_lines and len(text.encode("utf-8")) <= max_bytes

    if total <= max_lines:
        full = text_for(total)
        if fits(full):
            return Rendered(full, total, 0, paths, withheld)
    low, high = 0, len(candidates)  # the most lines that fit lies in [low, high]
    guess = max(0, high - 2 * len(TYPES) - 4)  # headings, blank lines, header, "more" line
    if guess and fits(text_for(guess)):
        low = guess
    while low < high:
        mid = (low + high + 1) // 2
        if fits(text_for(mid)):
            low = mid
        else:
            high = mid - 1
    return Rendered(text_for(low), low, total - low, paths, withheld)


class _Remembered:
    """A rendered index remembered under two keys (see `memo`): the index's own inputs
    (candidate lines, budget, template), so an unchanged result is not rendered again;
    and a stat-only fingerprint of the vault with settings, template and date, so an
    unchanged vault is not even loaded.
    """

    def __init__(self, path: Path, key: bytes | None) -> None:
        self.memo = Memo(path, key)

    def get(self) -> Rendered | None:
        value = self.memo.get()
        try:
            return Rendered(*value) if value is not None else None
        except TypeError:
            return None

    def put(self, rendered: Rendered) -> None:
        self.memo.put(tuple(rendered))


def _template_stamp(override: Path | None) -> tuple[object, ...]:
    from cardindex.index import templates

    template = templates.locate("index.md.j2", override)
    try:
        st = template.stat()
    except OSError:
        return (str(template),)
    return (str(template), st.st_mtime_ns, st.st_size)


def _rendered_memo(vault: Vault, override: Path | None, total: int, candidates: list[Entry],
                   notes: Sequence[Note] = (), withheld: int = 0) -> _Remembered:
    key = digest(_template_stamp(override), HEADER, tuple(vault.config.index_budget), total, candidates, tuple(notes),
                 withheld)
    return _Remembered(vault.state_dir / "cache" / "index.marshal", key)


def _unchanged_memo(vault: Vault, today: dt.date, fingerprint: bytes | None, current: str | None) -> _Remembered:
    """Keyed also on the current index text: the notes it links are read from it."""
    override = vault.root / vault.config.templates if vault.config.templates else None
    key = None if fingerprint is None else digest(
        fingerprint, today.isoformat(), vault.config, vault.index_name, _template_stamp(override),
        current, stamp(vault, current),
    )
    return _Remembered(vault.state_dir / "cache" / "unchanged.marshal", key)


def hand_kept_lines(text: str, root: Path) -> list[int]:
    """Line numbers of an index file not generated by cards that are not links to files in the vault at `root`."""
    return [stray.line for stray in stray_lines(root, text)]


def ensure_replaceable(vault: Vault, current: str | None) -> None:
    """Refuse to overwrite an index file a person keeps by hand (SPEC §3: never destroy it)."""
    if current is None:
        return
    stray = stray_lines(vault.root, current)
    if stray:
        raise Refused(
            f"not generated by cards and holds {len(stray)} line(s) of its own; refusing to overwrite them: "
            f"{describe(stray)}. To let cards take it over, {advice(stray)}, or delete the file",
            path=vault.index_name,
            line=stray[0].line,
        )


def read_index(vault: Vault) -> str | None:
    try:
        return vault.index_path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        return None


def write(vault: Vault, today: dt.date, *, check: bool = False, cards: Sequence[Card] | None = None) -> IndexResult:
    """Regenerate the index file (or, with `check`, fail when it is out of date).

    `cards`: render these instead of the vault's (`cards watch` passes a broken card's
    last good version in its place). The first replacement of an index file cards did
    not generate is a journalled job (`takeover.replace`); the result says what it kept.
    """
    from cardindex.store.atomic import write_atomic

    with vault.lock():
        if not check:
            _recover(vault)
        path = vault.index_path
        current = read_index(vault)
        fingerprint = vault.fingerprint() if cards is None else None
        rendered = _unchanged_memo(vault, today, fingerprint, current).get()
        broken: list[Card] = []  # only clean vaults are remembered
        if rendered is None:
            given = cards is not None
            if cards is None and not vault.cards_loaded:  # read one card at a time, none kept
                rendered, ranked, broken = render_streamed(vault, today)
                broken = [c for c in broken if c.path not in rendered.notes]
            else:
                cards = vault.cards if cards is None else cards
                rendered, ranked = render_ranked(vault, cards, today)
                broken = [c for c in cards if not c.usable and c.path not in rendered.notes]
            if not broken:  # remembered for the text it leaves in place (the next run's current one)
                _unchanged_memo(vault, today, fingerprint, rendered.text).put(rendered)
                if not given and vault.use_cache:  # and its ranking, for the next `cards add` (`index.after_add`)
                    fp = ranking_memo.fingerprint(vault)
                    if fp is not None:
                        ranking_memo.put(vault, today, fp, rendered.text, memo_parts(vault), ranked.plain())
        changed = current != rendered.text
        result = IndexResult(vault.index_name, changed, rendered.shown, rendered.omitted, broken, len(rendered.notes),
                             withheld=rendered.withheld)
        if check:
            if changed:
                what = "missing" if current is None else "out of date"
                raise CheckFailed(f"{what}; run `cards index` to regenerate it", path=vault.index_name)
            return result
        if not changed:
            return result
        ensure_replaceable(vault, current)
        if current is None or not current.strip() or is_generated(current):
            write_atomic(path, rendered.text)
            return result
        found = take_over(vault, current, rendered.text, vault.cards if cards is None else cards, today)
        return result._replace(takeover=found)


def _recover(vault: Vault) -> None:
    """Roll back an interrupted job (a killed takeover among them) before the index is read."""
    from cardindex.store.journal import Journal

    if Journal(vault.state_dir).pending() is not None:
        from cardindex.store.jobs import recover

        recover(vault)


def take_over(vault: Vault, current: str, new_text: str, cards: Sequence[Card], today: dt.date) -> Takeover:
    """Replace a hand-kept index that holds only links to files, as a journalled job (caller holds the lock)."""
    from cardindex.store.card import decode

    if decode(vault.index_path.read_bytes())[0] != current:
        raise Refused("not generated by cards and not UTF-8 text; refusing to replace it. Save it as UTF-8, "
                      "or delete the file", path=vault.index_name)
    return replace(vault, current, new_text, survey(vault, current, new_text, cards, today))


def preview(vault: Vault, today: dt.date) -> tuple[str | None, str, Takeover | None]:
    """What `write` would do, writing nothing: (current text, new text, the takeover if it is one).

    Refuses, like `write`, when the current index is kept by hand with lines of its own.
    """
    current = read_index(vault)
    rendered = render(vault, vault.cards, today)
    found = None
    if current != rendered.text:
        ensure_replaceable(vault, current)
        if current is not None and current.strip() and not is_generated(current):
            found = survey(vault, current, rendered.text, vault.cards, today)
    return current, rendered.text, found
