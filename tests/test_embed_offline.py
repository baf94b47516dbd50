"""The `embed` extra's vectors: read from the wheel's own files, never from the network."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardindex.meaning import embed

needs_extra = pytest.mark.skipif(not embed.available(), reason="the embed extra (wordllama) is not installed")


@pytest.fixture
def fresh() -> Iterator[None]:
    """Forget the loaded model and the availability answer, before and after."""
    embed.available.cache_clear()
    embed._model.cache_clear()
    yield
    embed.available.cache_clear()
    embed._model.cache_clear()


def test_not_available_when_the_package_is_missing(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wordllama" else real(name, *a))
    assert embed.available() is False


def test_not_available_when_the_weights_are_not_in_the_package(fresh: None, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "wordllama").mkdir()  # a package folder without the model files
    (tmp_path / "wordllama" / "__init__.py").write_text("")
    spec = importlib.util.spec_from_file_location("wordllama", tmp_path / "wordllama" / "__init__.py",
                                                  submodule_search_locations=[str(tmp_path / "wordllama")])
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: spec if name == "wordllama" else real(name, *a))
    assert embed.available() is False


@needs_extra
def test_vectors_load_with_the_network_blocked(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the embed extra touched the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    out = embed.vectors(["The pantry key hangs behind the office door", "", "Spare keys: behind the office door"])
    assert out.shape == (3, 256)
    norms = (out * out).sum(axis=1)
    assert abs(float(norms[0]) - 1.0) < 1e-4 and float(norms[1]) == 0.0
    assert float(out[0] @ out[2]) > float(out[0] @ out[1])


@needs_extra
def test_the_wordllama_package_is_never_imported() -> None:
    # Its __init__ configures the root logger and its loader may download a tokenizer.
    code = ("import sys; from cardindex.meaning import embed; embed.vectors(['a kettle']); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('wordllama', 'requests', 'huggingface_hub')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PATH": "", "HF_HUB_OFFLINE": "1", "NO_PROXY": "*", "https_proxy": "http://127.0.0.1:9"})
    assert done.stdout.strip() == "[]", done.stdout


def test_importing_cardindex_does_not_load_numpy() -> None:
    code = "import sys; import cardindex.meaning.similarity, cardindex.meaning.embed; print('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
