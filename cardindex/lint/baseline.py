"""The secrets baseline: secret findings a team has accepted, detect-secrets style.

`cards lint --update-baseline` writes `.cardindex-secrets.json` at the vault root, to be
committed with the vault. It lists, for each card, the kind and the sha256 of every
secret value the detector finds there: never the value, and no line number, so editing
around an accepted secret does not bring it back. `cards lint` then leaves those findings
out; a new secret, a changed value, or the same value in another card is reported.

The baseline quiets the linter and nothing else: an accepted secret is still redacted by
every output (`redaction.shown` does not read the baseline), and the write gate of
`cards add` still refuses a card holding one.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import NamedTuple

from cardindex.errors import CardIndexError
from cardindex.lint.finding import Finding
from cardindex.lint.secret import code_of, message_of
from cardindex.secrets import find_secrets
from cardindex.store.atomic import write_atomic
from cardindex.store.card import Card
from cardindex.store.vault import Vault

FILE = ".cardindex-secrets.json"
VERSION = 1
_ABOUT = ("Secrets accepted by `cards lint --update-baseline`: each card's secret kinds and the sha256 of each value, "
          "never the value. `cards lint` does not report them; every output still redacts them.")

Accepted = frozenset[tuple[str, str, str]]  # (card path, kind, sha256 of the value)


class BaselineError(CardIndexError):
    """The secrets baseline file cannot be read."""


class Updated(NamedTuple):
    """What `update` wrote: how many secrets the file accepts now, and what changed."""

    path: Path
    accepted: int
    added: int
    dropped: int


def digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def accepted_in(card: Card) -> Accepted:
    """What a baseline written now would accept for `card`."""
    return frozenset((card.path, s.kind, digest(card.text[s.start:s.end])) for s in find_secrets(card.text))


_loaded: dict[Path, tuple[tuple[int, int], Accepted]] = {}


def load(root: Path) -> Accepted:
    """The accepted findings of the vault at `root` (none when it has no baseline file)."""
    path = root / FILE
    try:
        st = path.stat()
    except FileNotFoundError:
        return frozenset()
    except OSError as e:
        raise BaselineError(f"cannot read the secrets baseline: {e.strerror}", path=str(path)) from None
    stamp = (st.st_mtime_ns, st.st_size)
    if path in _loaded and _loaded[path][0] == stamp:
        return _loaded[path][1]
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError) as e:
        raise BaselineError(f"not a secrets baseline ({e}); rewrite it with `cards lint --update-baseline`",
                            path=str(path)) from None
    accepted = _parse(data, str(path))
    _loaded[path] = (stamp, accepted)
    return accepted


def _parse(data: object, where: str) -> Accepted:
    def bad(why: str) -> BaselineError:
        return BaselineError(f"{why}; rewrite it with `cards lint --update-baseline`", path=where)

    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("accepted"), dict):
        raise bad(f"not a version {VERSION} secrets baseline")
    out: set[tuple[str, str, str]] = set()
    for card, entries in data["accepted"].items():
        if not isinstance(entries, list):
            raise bad(f"entries of {card!r} are not a list")
        for entry in entries:
            if not (isinstance(entry, dict) and isinstance(entry.get("kind"), str) and isinstance(entry.get("sha256"), str)):
                raise bad(f"an entry of {card!r} lacks a kind or sha256")
            out.add((card, entry["kind"], entry["sha256"]))
    return frozenset(out)


def without_accepted(findings: list[Finding], cards: Iterable[Card], root: Path) -> list[Finding]:
    """`findings` minus the secret findings the baseline at `root` accepts."""
    if not any(f.category == "secret" for f in findings):
        return findings
    accepted = load(root)
    if not accepted:
        return findings
    paths = {path for path, _, _ in accepted}
    quiet: Counter[tuple[str, int, str, str]] = Counter()
    for card in cards:
        if card.path in paths:
            for s in find_secrets(card.text):
                if (card.path, s.kind, digest(card.text[s.start:s.end])) in accepted:
                    quiet[(card.path, s.line, code_of(s), message_of(s, card.text))] += 1
    out = []
    for f in findings:
        key = (f.path, f.line, f.code, f.message)
        if f.category == "secret" and quiet[key] > 0:
            quiet[key] -= 1
        else:
            out.append(f)
    return out


def update(vault: Vault, paths: Collection[str] | None = None) -> Updated:
    """Accept every secret now found in the vault's cards (or, with `paths`, in those cards; the rest stay as they are)."""
    with vault.lock():
        old = load(vault.root)
        cards = vault.cards
        present = {c.path for c in cards}
        kept = {e for e in old if e[0] in present and paths is not None and e[0] not in paths}
        new = set(kept)
        for card in cards:
            if paths is None or card.path in paths:
                new |= accepted_in(card)
        by_card: dict[str, list[dict[str, str]]] = {}
        for card_path, kind, sha in sorted(new):
            by_card.setdefault(card_path, []).append({"kind": kind, "sha256": sha})
        data = {"version": VERSION, "about": _ABOUT, "accepted": by_card}
        target = vault.root / FILE
        try:
            write_atomic(target, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        except OSError as e:
            raise BaselineError(f"cannot write the secrets baseline: {e.strerror}", path=str(target)) from None
        _loaded.pop(target, None)
    return Updated(target, len(new), len(new - old), len(old - new))
