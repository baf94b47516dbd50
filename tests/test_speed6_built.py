"""Tables built from the package, kept in the user's cache folder (`store.built`): the synonym tables."""

from __future__ import annotations

import marshal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import synonyms
from cardindex.store import built


@pytest.fixture
def cache_home(tmp_path: Path) -> Iterator[Path]:
    """A vault's `.cardindex/cache/`, as `Vault` sets it."""
    folder = tmp_path / "v" / ".cardindex" / "cache"
    folder.mkdir(parents=True)
    built.use(folder)
    yield folder
    built.use(None)


def test_a_table_is_built_once_and_then_read(cache_home: Path) -> None:
    calls: list[int] = []

    def make() -> dict[str, str]:
        calls.append(1)
        return {"lantern": "4 9"}

    assert built.built("probe", ["meaning"], make) == {"lantern": "4 9"}
    assert built.built("probe", ["meaning"], make) == {"lantern": "4 9"}
    assert calls == [1]
    assert (cache_home / "built-probe.marshal").is_file()


def test_an_edited_source_builds_it_again(cache_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "pkg"
    (package / "meaning").mkdir(parents=True)
    source = package / "meaning" / "words.py"
    source.write_text("A = 1\n")
    monkeypatch.setattr(built, "PACKAGE", package)
    values = iter(["first", "second"])
    assert built.built("probe", ["meaning"], lambda: next(values)) == "first"
    assert built.built("probe", ["meaning"], lambda: next(values)) == "first"
    source.write_text("A = 22\n")  # another size: another key, whatever the clock says
    assert built.built("probe", ["meaning"], lambda: next(values)) == "second"


@pytest.mark.parametrize("kept", [b"", b"\x00not marshal", marshal.dumps(["a", "list"]), marshal.dumps((1, 2, 3))])
def test_an_unreadable_table_is_built_again(cache_home: Path, kept: bytes) -> None:
    (cache_home / "built-probe.marshal").write_bytes(kept)
    assert built.built("probe", ["meaning"], lambda: "made") == "made"
    assert built.built("probe", ["meaning"], lambda: "other") == "made"  # written over the bad one


def test_no_cache_folder_only_costs_the_build(tmp_path: Path) -> None:
    """A vault without `.cardindex/cache/` (or `--no-cache`: no folder at all) gets the table built, nothing written."""
    built.use(tmp_path / "v" / ".cardindex" / "cache")
    try:
        assert built.built("probe", ["meaning"], lambda: "made") == "made"
        assert not (tmp_path / "v").exists()
    finally:
        built.use(None)
    assert built.built("probe", ["meaning"], lambda: "again") == "again"


def test_a_vault_with_its_cache_on_keeps_them(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    from cardindex.store.vault import Vault

    root = tmp_path / "w"
    assert run_cli("init", str(root)).exit_code == 0
    Vault(root)
    assert built._FOLDER == [root / ".cardindex" / "cache"]
    Vault(root, use_cache=False)
    assert built._FOLDER == []


def test_the_kept_synonym_tables_are_the_built_ones(cache_home: Path) -> None:
    """Read back from the cache in a fresh process, every word's and every stem's groups are what building gives."""
    groups = synonyms.build_groups()
    stems = synonyms.build_stem_groups(groups)
    code = ("from cardindex.meaning import synonyms; from cardindex.store import built; import marshal, sys; "
            f"built.use(__import__('pathlib').Path({str(cache_home)!r})); "
            "sys.stdout.buffer.write(marshal.dumps((synonyms._groups().as_dict(), synonyms.stem_groups().as_dict())))")
    for _ in range(2):  # the first process builds and keeps them, the second reads them
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout
        assert marshal.loads(out) == (groups, stems)
    assert (cache_home / "built-synonyms.marshal").is_file()


def test_the_lookups_answer_as_before() -> None:
    groups = synonyms.build_groups()
    words = sorted(groups)[::997]
    for x in words:
        assert synonyms.groups_of(x) == groups[x]
        for y in words:
            assert synonyms.synonymous(x, y) == (x != y and not groups[x].isdisjoint(groups[y]))
    assert synonyms.groups_of("zzqxv-not-a-word") == frozenset()
    assert synonyms.stem_groups().get("zzqxv", ()) == frozenset()
