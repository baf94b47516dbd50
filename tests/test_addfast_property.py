"""Property: after any run of `cards add`s that take the remembered-ranking path, INDEX.md is what a full render gives.

The vaults vary the budget (lines and bytes), the cards' dates and types, and the adds
(locked, expired, forced secrets, dated so they rank above or below the cut). After each
add, `cards index --check` (a whole-vault render with the memos put aside) must agree.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

Cli = Callable[..., Result]

_WORDS = ["kiln", "glaze", "clay", "wheel", "slip", "bisque", "raku", "shelf", "apron", "sponge"]

adds = st.lists(
    st.tuples(
        st.sampled_from(_WORDS),
        st.sampled_from(["plain", "lock", "expired", "secret", "user"]),
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(min_value=0, max_value=25),
    lines=st.integers(min_value=3, max_value=30),
    size=st.sampled_from([700, 1500, 25000]),
    steps=adds,
)
def test_fast_adds_match_a_full_render(tmp_path: Path, run_cli: Cli, n: int, lines: int, size: int,
                                       steps: list[tuple[str, str]]) -> None:
    root = tmp_path / "v"
    shutil.rmtree(root, ignore_errors=True)
    assert run_cli("init", str(root)).exit_code == 0
    (root / ".cardindex.yaml").write_text(f"index_budget: {{lines: {lines}, bytes: {size}}}\n", encoding="utf-8")
    for i in range(n):
        day = f"2026-{1 + i % 12:02d}-{1 + (i * 5) % 28:02d}"
        kind = ("user", "project", "reference", "feedback")[i % 4]
        (root / f"studio-{i:02d}.md").write_text(
            f"---\ndescription: Studio rule {i} for the {_WORDS[i % 10]}\ntype: {kind}\nverified: {day}\n---\n"
            f"Rule {i}: the {_WORDS[i % 10]} is cleaned on day {i % 7}.\n", encoding="utf-8")
    assert run_cli("--vault", str(root), "index").exit_code == 0
    for j, (word, how) in enumerate(steps):
        # Numbered apart from the studio rules: the gate refuses what lint calls a duplicate (one vocabulary), and
        # in a vault of five cards, where every other word is in every card, "Rule 0: the kiln is cleaned" and
        # "Note 0: the kiln cupboard is locked" share their two rare words, the kiln and the 0.
        k = 100 + j
        args = [f"Pottery note {k}: the {word} cupboard is locked after class {k}.", "-d", f"Where the {word} goes {k}"]
        if how == "lock":
            args.append("--lock")
        elif how == "expired":
            args += ["--expires", "2026-01-02"]
        elif how == "secret":
            args = [f"The kiln controller token is ghp_{'Ab3d' * 9}{j}.", "-d", f"Kiln token {j}", "--force"]
        elif how == "user":
            args += ["--type", "user"]
        result = run_cli("--vault", str(root), "add", *args)
        assert result.exit_code == 0, result.stderr
        shown = (root / "INDEX.md").read_bytes()
        for memo in ("ranking.marshal", "index.marshal", "unchanged.marshal"):  # the full render, from nothing
            (root / ".cardindex" / "cache" / memo).unlink(missing_ok=True)
        check = run_cli("--vault", str(root), "index", "--check")
        assert check.exit_code == 0, (check.stderr, shown.decode())
        assert run_cli("--vault", str(root), "index").exit_code == 0  # remembers the ranking again for the next add
        assert (root / "INDEX.md").read_bytes() == shown
