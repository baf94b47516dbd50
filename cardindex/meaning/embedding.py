"""Optional text embeddings (the `[embed]` extra): vectors that propose an order, never a verdict.

The model is wordllama's `l2_supercat` at 256 dimensions: one static vector per token,
shipped inside the wheel (16 MB of weights and the tokenizer), averaged over a text's
tokens and normalised. Its files are read straight from the installed package, so
nothing is downloaded and no network is needed; wordllama's own package is never
imported (it configures the root logger and imports pydantic, a second of start-up).

Embeddings score a negation closer than a paraphrase ("runs on 5432" and "does not run
on 5432" are near twins), so they decide nothing about what a card states: the value
model (`one_slot`, `value_forms`, `polarity`) does. They only reorder what the
deterministic ranking found (`agents.hybrid`).

Card vectors are cached under `.cardindex/cache/` keyed by the content hash the search
index keeps (`store.search_index.content_hash`), so a warm search embeds only the query.
Nothing here is imported unless the embedding is asked for.
"""

from __future__ import annotations

import importlib.util
import io
import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardindex.errors import UsageError

MODEL = "wordllama"
PACKAGE = "wordllama"  # the distribution that ships the files; `[embed]` in pyproject installs it
WEIGHTS = ("weights", "l2_supercat_256.safetensors")
TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")
DIMENSIONS = 256
TEXT_CHARS = 600  # of a card's body: a mean over a long body says less about what the card is about
CACHE_FILE = "embedding-wordllama-256.npy"
MAX_CACHED = 50_000  # card vectors kept (about 13 MB); the oldest go first


class EmbeddingMissing(UsageError):
    """The embedding was asked for, and the `[embed]` extra is not installed."""


def _files() -> tuple[Path, Path]:
    spec = importlib.util.find_spec(PACKAGE)
    roots = list(spec.submodule_search_locations or ()) if spec is not None else []
    for root in map(Path, roots):
        weights, tokenizer = root.joinpath(*WEIGHTS), root.joinpath(*TOKENIZER)
        if weights.is_file() and tokenizer.is_file():
            return weights, tokenizer
    raise EmbeddingMissing("the embedding needs the optional extra: pip install 'cardindex[embed]' (wordllama)")


def check() -> None:
    """Raise `EmbeddingMissing` unless the model's files and libraries can be loaded."""
    _files()
    for module in ("numpy", "safetensors", "tokenizers"):
        if importlib.util.find_spec(module) is None:
            raise EmbeddingMissing(f"the embedding needs {module}: pip install 'cardindex[embed]'")


@lru_cache(maxsize=1)
def _model() -> tuple[Any, Any]:
    check()
    import numpy as np
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    weights, tokenizer_file = _files()
    table = np.ascontiguousarray(load_file(str(weights))["embedding.weight"], dtype=np.float32)
    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return table, tokenizer


def embed(texts: Sequence[str]) -> Any:
    """One unit vector per text (a numpy array, len(texts) x DIMENSIONS): the mean of its tokens' vectors."""
    import numpy as np

    table, tokenizer = _model()
    out = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
    if not texts:
        return out
    for i, encoded in enumerate(tokenizer.encode_batch(list(texts), add_special_tokens=False)):
        ids = np.clip(np.asarray(encoded.ids, dtype=np.int64), 0, table.shape[0] - 1)
        if len(ids):
            out[i] = table[ids].mean(axis=0)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.maximum(norms, 1e-9)


def card_text(title: str, description: str, body: str) -> str:
    """What a card's vector is taken of: its title, its description and the head of its body."""
    return f"{title}. {description}. {body[:TEXT_CHARS]}"


def vectors(keys: Sequence[bytes], text_of: Callable[[int], str], cache_dir: Path | None) -> Any:
    """The vectors of the texts `keys` name (content hashes), from `cache_dir`'s cache where it has them.

    `text_of(i)` is asked only for the texts the cache lacks; those are embedded and
    added to it (written atomically; a cache that cannot be read is rebuilt, never trusted).
    """
    import numpy as np

    held = _load(cache_dir)
    wanted = np.array(keys, dtype="S16") if keys else np.zeros(0, dtype="S16")
    out = np.zeros((len(keys), DIMENSIONS), dtype=np.float32)
    found = np.zeros(len(keys), dtype=bool)
    if held is not None and len(held) and len(keys):
        order = np.argsort(held["hash"])
        sorted_hashes = held["hash"][order]
        at = np.clip(np.searchsorted(sorted_hashes, wanted), 0, len(held) - 1)
        found = sorted_hashes[at] == wanted
        out[found] = held["vec"][order[at[found]]]
    missing = [i for i in range(len(keys)) if not found[i]]
    if missing:
        out[missing] = embed([text_of(i) for i in missing])
        if cache_dir is not None:
            _store(cache_dir, held, wanted[missing], out[missing])
    return out


def _record() -> Any:
    import numpy as np

    return np.dtype([("hash", "S16"), ("vec", "<f4", (DIMENSIONS,))])


def _load(cache_dir: Path | None) -> Any:
    import numpy as np

    if cache_dir is None:
        return None
    try:
        with open(cache_dir / CACHE_FILE, "rb") as fh:
            held = np.load(fh, allow_pickle=False)
    except (OSError, ValueError, EOFError):  # none yet, or torn by hand: embed again
        return None
    return held if held.dtype == _record() and held.ndim == 1 else None


def _store(cache_dir: Path, held: Any, hashes: Any, vecs: Any) -> None:
    import numpy as np

    from cardindex.store.atomic import write_atomic

    new = np.zeros(len(hashes), dtype=_record())
    new["hash"], new["vec"] = hashes, vecs
    if held is not None:
        new = np.concatenate([held[~np.isin(held["hash"], hashes)], new])[-MAX_CACHED:]
    buffer = io.BytesIO()
    np.save(buffer, new, allow_pickle=False)
    try:
        os.makedirs(cache_dir, exist_ok=True)
        write_atomic(cache_dir / CACHE_FILE, buffer.getvalue(), durable=False)
    except OSError:  # a read-only vault still searches; it embeds again next time
        pass
