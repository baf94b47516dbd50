"""Sentence vectors from the optional `embed` extra (wordllama's weights), offline.

wordllama 0.4 ships its 256-dimension weights and its tokenizer inside the wheel, but its
loader may ask Hugging Face for a tokenizer and its package `__init__` configures the root
logger. So this module never imports `wordllama`: it finds the package's folder
(`importlib.util.find_spec`, which runs none of its code), reads the two files by path
with `tokenizers.Tokenizer.from_file` and `safetensors`, and pools the token vectors
itself (the mean over the tokens, as wordllama's `embed` does). No network is touched.

Only proposes: `similarity` asks the deterministic model about every pair these vectors
bring close (an embedding scores a negation closer than a paraphrase).
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
BATCH = 256
MAX_TOKENS = 96  # a card's description and first fact; longer text adds little and costs padding

__all__ = ["available", "vectors"]


def _folder() -> Path | None:
    """The installed wordllama package's folder, when both model files are in it."""
    try:
        spec = importlib.util.find_spec("wordllama")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location)
        if (folder / WEIGHTS).is_file() and (folder / TOKENIZER).is_file():
            return folder
    return None


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether the extra is installed with its weights, and the libraries it reads them with."""
    if _folder() is None:
        return False
    return all(importlib.util.find_spec(name) is not None for name in ("numpy", "tokenizers", "safetensors"))


@functools.lru_cache(maxsize=1)
def _model() -> tuple[Any, Any]:
    """(tokenizer, embedding matrix), read from the wheel's own files."""
    folder = _folder()
    if folder is None:
        raise RuntimeError("the embed extra is not installed")  # callers check available() first
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # belt and braces: nothing below downloads
    import numpy as np
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
    tokenizer.enable_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    matrix = np.ascontiguousarray(load_file(str(folder / WEIGHTS))["embedding.weight"], dtype=np.float32)
    return tokenizer, matrix


def vectors(texts: Sequence[str]) -> np.ndarray:
    """One unit vector per text (rows of a float32 array, shape (len(texts), 256)).

    A text with no token (empty) gets the zero vector, which is close to nothing.
    """
    import numpy as np

    tokenizer, matrix = _model()
    out = np.zeros((len(texts), matrix.shape[1]), dtype=np.float32)
    for start in range(0, len(texts), BATCH):
        chunk = list(texts[start:start + BATCH])
        encoded = tokenizer.encode_batch(chunk, add_special_tokens=False)
        if not encoded:
            continue
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        np.clip(ids, 0, matrix.shape[0] - 1, out=ids)
        summed = np.einsum("bt,btd->bd", mask, matrix[ids])
        counts = mask.sum(axis=1, keepdims=True)
        pooled = summed / np.maximum(counts, 1.0)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out[start:start + len(chunk)] = np.where(norms > 0, pooled / np.maximum(norms, 1e-12), 0.0)
    return out
