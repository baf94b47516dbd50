"""The words that share a sense with a query word (WordNet, `meaning/data/synonyms.txt`), as the terms a vault indexes.

A query put in other words than the card's ("mute an alert" for a card on silences, "how
long until" for a timeout) shares no term with it. WordNet's groups (each a sense shared
by words whose two commonest senses include it) join such words; ranking asks for them
at a low weight (`ranking.SYNONYM_FACTOR`), never counts them as the query's words in
how much of the query a card holds (so abstention is not bought with a thesaurus), and
never lets one weigh more than the word asked.

Looked up by word, not by stem: the stem "crash" is also "crashing" (as in "a crashing
bore"), whose senses are not the word asked. A query word is looked up as written, as its
irregular base ("paid": "pay") and as the bases its inflection may come from ("answered":
"answer", "explanations": "explanation", "copies": "copy", "tuning": "tune").

The table (word -> its synonyms' terms, space-joined) costs about 0.5 s to build from the
data file, and 2.4 MB of marshal about 20 ms to load: it is built once per installed
version and kept beside the vault's other tables (`store.built`) in shards by a word's
first letter, and a query loads only the shards its words start with (about 1 ms each).
Without a cache folder (`--no-cache`) nothing is kept: the groups that name the query's
words are found in the data file's text (about 1 ms a word) and only they are stemmed.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from cardindex.meaning.terms import STOP, irregular_forms, stem

SOURCES = ("meaning",)  # the data file and the stemmer the terms come from
_MOST = 40  # synonyms kept per word: a word in very many groups ("break", "run") says little by any one of them


def _groups_text() -> str:
    from importlib import resources

    return resources.files("cardindex.meaning").joinpath("data/synonyms.txt").read_text(encoding="utf-8")


def _synonym_terms(groups: list[list[str]]) -> dict[str, str]:
    """Each word of `groups` -> the terms of the words it shares a group with (not its own term), space-joined."""
    from cardindex.meaning.stem import stems

    vocabulary = sorted({w for g in groups for w in g})
    term_of = dict(zip(vocabulary, stems(vocabulary), strict=True))
    found: dict[str, dict[str, None]] = {}
    for group in groups:
        for word in group:
            own = term_of[word]
            into = found.setdefault(word, {})
            into.update((term_of[other], None) for other in group if term_of[other] != own)
    return {w: " ".join(list(ts)[:_MOST]) for w, ts in found.items() if ts}


def _words(line: str) -> list[str]:
    return [w.lower() for w in line.split() if w.isalpha()]


def build() -> dict[str, dict[str, str]]:
    """The whole table, in shards by a word's first letter (a query loads the few its words start with)."""
    groups = [_words(line) for line in _groups_text().splitlines() if not line.startswith("#")]
    shards: dict[str, dict[str, str]] = {}
    for word, found in _synonym_terms(groups).items():
        shards.setdefault(_shard(word), {})[word] = found
    return shards


def _shard(word: str) -> str:
    first = word[:1]
    return first if "a" <= first <= "z" else "_"


@functools.lru_cache(maxsize=1)
def _key() -> bytes:
    """What the kept shards are built from: the package's data and stemmer, and this module."""
    from cardindex.store.built import inputs_digest

    stat = os.stat(__file__)
    return inputs_digest("ranking-synonyms", SOURCES) + f"{stat.st_size}:{stat.st_mtime_ns}".encode()


_SHARDS: dict[str, dict[str, str]] = {}  # the shards loaded (or built) by this process: the same for every vault


def _lookup(words: list[str]) -> dict[str, str]:
    """word -> its synonyms' terms ("" when it has none)."""
    from cardindex.store import built

    wanted = {_shard(w) for w in words} - set(_SHARDS)
    folder = built.cache_folder() if wanted else None
    if wanted and (folder is None or not _writable(folder, words)):
        return _scan(words)  # no cache (or none that takes the shards): read only the groups naming these words
    for shard in sorted(wanted):
        found = built.remembered(f"ranking-synonyms-{shard}", _key())
        if not isinstance(found, dict):  # none kept yet (or of other inputs, or damaged): build them all, once
            shards = build()
            for name, table in shards.items():
                built.keep(f"ranking-synonyms-{name}", _key(), table)
            _SHARDS.update(shards)
            _SHARDS.update((name, {}) for name in wanted - set(shards))
            break
        _SHARDS[shard] = found
    return {w: _SHARDS.get(_shard(w), {}).get(w, "") for w in words}


@functools.lru_cache(maxsize=1)
def _padded_text() -> str:
    """The groups' text with every word between spaces (" a b \n c d \n")."""
    return " " + _groups_text().replace("\n", " \n ")


def _writable(folder: Path, words: list[str]) -> bool:
    """Whether the shards `words` need are kept in `folder`, or can be: a read-only vault scans instead of
    building the whole table in every process."""
    if all((folder / f"built-ranking-synonyms-{_shard(w)}.marshal").is_file() for w in words):
        return True
    return os.access(folder, os.W_OK)


def _scan(words: list[str]) -> dict[str, str]:
    """The synonyms of `words` from the groups' text, reading only the groups that name one of them."""
    text = _padded_text()
    groups = []
    for word in dict.fromkeys(words):
        needle = f" {word} "
        at = text.find(needle)
        while at >= 0:
            groups.append(_words(text[text.rfind("\n", 0, at) + 1: text.find("\n", at)]))
            at = text.find(needle, at + 1)
    found = _synonym_terms(groups)
    return {w: found.get(w, "") for w in words}


def bases(word: str) -> list[str]:
    """`word` and the words it may be an inflection of, most likely first (the table holds base forms)."""
    out = [word]
    irregular = irregular_forms().get(word)
    if irregular:
        out.append(irregular)
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 4:
        out.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        out.append(word[:-1])
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            out += [base, base + "e"]
            if len(base) >= 4 and base[-1] == base[-2]:  # "stopped": "stop"
                out.append(base[:-1])
    return list(dict.fromkeys(out))


def synonyms(word: str) -> list[str]:
    """The terms of the words that share a sense with `word` (lower-cased), other than its own term."""
    if len(word) < 3 or not word.isalpha() or word in STOP:
        return []
    own = stem(word)
    out: dict[str, None] = {}
    for found in _lookup(bases(word)).values():
        out.update(dict.fromkeys(x for x in found.split() if x != own))
    return list(out)
