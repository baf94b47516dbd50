"""Paraphrased duplicates proposed by the `embed` extra and judged by the word model (issue 14, class 4).

Positives: a reworded copy the word model cannot see. Hard negatives (more of them): pairs
whose vectors are close but that are two facts — another number, another shift, a
negation, another scope, two values of a multi-valued key, text outside English.
With `embeddings: true` none of them may gain a pair it did not have without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from cardindex.meaning import embed, proposals
from cardindex.meaning.classify import side
from cardindex.meaning.similarity import find_pairs, pairs_with, weights
from cardindex.meaning.words import statement
from cardindex.store.vault import Vault

if not embed.available():
    pytest.skip("the embed extra (wordllama) is not installed", allow_module_level=True)

FLOUR_A = ("Who refills the flour bins", "The morning baker refills the flour bins before the shop opens.")
FLOUR_B = ("Restocking flour", "Topping up the flour containers is the early-shift baker's job, done before opening.")

# Filler, so that rarity means something: other facts of a bakery and a sailing club.
FILLER = [
    "Invoices are emailed on the first of the month.", "The parking lot closes at ten.",
    "The kettle in the staff room is descaled weekly.", "New volunteers shadow a mentor for two weeks.",
    "The boat trailer lives behind the shed.", "Flyers are printed at the corner shop.",
    "The sourdough starter is fed twice a day.", "The club radio channel is 72.",
    "Pastry dough rests overnight in the cold room.", "The reading group meets in room B.",
]


def _write(root: Path, name: str, description: str, body: str, **fields: str) -> None:
    extra = "".join(f"{k}: {v}\n" for k, v in fields.items())
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(f"---\ndescription: {description}\ntype: project\n{extra}---\n\n{body}\n")


def _vault(root: Path, cards: dict[str, tuple[str, str] | tuple[str, str, dict[str, str]]], config: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".cardindex.yaml").write_text(config or "lint: {}\n")
    for i, text in enumerate(FILLER):
        _write(root, f"filler/f{i}.md", text.rstrip("."), text)
    for name, spec in cards.items():
        _write(root, name, spec[0], spec[1], **(spec[2] if len(spec) == 3 else {}))  # type: ignore[misc]
    return root


def _pairs(root: Path, on: bool) -> set[tuple[str, str, str]]:
    cards = Vault(root, use_cache=False).cards
    return {(p.kind, p.a.path, p.b.path) for p in find_pairs(cards, Vault(root).config.multi_valued_keys,
                                                             embeddings=on)}


def test_a_reworded_copy_is_found_only_with_embeddings(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v", {"flour_a.md": FLOUR_A, "flour_b.md": FLOUR_B})
    assert _pairs(root, False) == set()
    assert _pairs(root, True) == {("duplicate", "flour_a.md", "flour_b.md")}


HARD_NEGATIVES: dict[str, dict[str, tuple[str, str] | tuple[str, str, dict[str, str]]]] = {
    "another number": {
        "oven_a.md": ("Bread oven temperature", "Preheat the bread oven to 220 C."),
        "oven_b.md": ("Heat for the bread oven", "The bread oven is preheated to 180 C."),
    },
    "another shift": {
        "flour_a.md": FLOUR_A,
        "flour_c.md": ("Restocking flour", "Topping up the flour containers is the late-shift baker's job, done after closing."),
    },
    "a negation": {
        "vest_a.md": ("Life jackets during races", "Crew wear life jackets for the whole race."),
        "vest_b.md": ("Buoyancy aids while racing", "Crew never wear buoyancy aids for the whole race."),
    },
    "another scope": {
        "flour_a.md": (*FLOUR_A, {"scope": "path:shop-north"}),
        "flour_b.md": (*FLOUR_B, {"scope": "path:shop-south"}),
    },
    "a multi-valued key": {
        "flour_a.md": (*FLOUR_A, {"key": "flour-restocker"}),
        "flour_b.md": (*FLOUR_B, {"key": "flour-restocker"}),
    },
    "outside English": {
        "mouka_a.md": ("Kdo doplňuje mouku", "Ranní pekař doplňuje zásobníky na mouku před otevřením."),
        "mouka_b.md": ("Doplňování mouky", "Doplnit nádoby s moukou má na starosti pekař z ranní směny."),
    },
}


@pytest.mark.parametrize("case", sorted(HARD_NEGATIVES))
def test_close_vectors_that_are_two_facts_gain_no_duplicate(tmp_path: Path, case: str) -> None:
    config = "multi_valued_keys: [flour-restocker]\n" if case == "a multi-valued key" else ""
    if case == "another scope":
        (tmp_path / "v" / "shop-north").mkdir(parents=True)
        (tmp_path / "v" / "shop-south").mkdir(parents=True)
    root = _vault(tmp_path / "v", HARD_NEGATIVES[case], config)
    off, on = _pairs(root, False), _pairs(root, True)
    assert {p for p in on - off if p[0] == "duplicate"} == set(), case
    assert off <= on


def test_agrees_refuses_what_the_word_model_tells_apart_however_close_the_vectors(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v", {
        "a.md": ("Dinghy launch", "Dinghies launch from the east slipway."),
        "b.md": ("Launching dinghies", "Dinghies do not launch from the east slipway."),
        "c.md": ("Launching dinghies", "Dinghies launch from slipway 3."),
        "d.md": ("Putting boats in", "Small boats go in the water at the eastern ramp."),
    })
    cards = {c.path: c for c in Vault(root, use_cache=False).cards}
    sts = {p: statement(c) for p, c in cards.items()}
    w = weights(list(sts.values()))
    s = {p: side(cards[p], sts[p], w) for p in cards}
    assert proposals.agrees(s["a.md"], s["b.md"], 0.99, w, frozenset()) is None  # a negation
    assert proposals.agrees(s["a.md"], s["c.md"], 0.99, w, frozenset()) is None  # a number on one side only
    assert proposals.agrees(s["a.md"], s["d.md"], proposals.ACCEPT - 0.01, w, frozenset()) is None  # not near enough
    found = proposals.agrees(s["a.md"], s["d.md"], 0.9, w, frozenset())
    assert found is not None and found.kind == "duplicate" and found.reason == "wording"


def test_neighbours_are_at_most_k_per_card() -> None:
    import numpy as np

    rng = np.random.default_rng(7)
    vec = rng.normal(size=(200, 16)).astype(np.float32)
    vec /= np.linalg.norm(vec, axis=1, keepdims=True)
    found = list(proposals.neighbours(vec, k=3, floor=-1.0))
    assert len(found) <= 3 * 200 and all(i < j for i, j, _ in found)
    assert len({(i, j) for i, j, _ in found}) == len(found)
    # each card's own nearest neighbour is proposed
    sims = vec @ vec.T
    np.fill_diagonal(sims, -2)
    pairs = {(i, j) for i, j, _ in found}
    assert all((min(i, int(sims[i].argmax())), max(i, int(sims[i].argmax()))) in pairs for i in range(200))


def test_the_gate_asks_the_same_as_lint(tmp_path: Path) -> None:
    root = _vault(tmp_path / "v", {"flour_a.md": FLOUR_A, "flour_b.md": FLOUR_B})
    cards = Vault(root, use_cache=False).cards
    new = next(c for c in cards if c.path == "flour_b.md")
    assert pairs_with(new, cards) == []
    found = pairs_with(new, cards, embeddings=True)
    assert [(p.kind, p.b.path) for p in found] == [("duplicate", "flour_a.md")]


# ---------------------------------------------------------------- through the CLI


def _lint(run_cli: Callable[..., Result], root: Path) -> list[dict[str, object]]:
    result = run_cli("--vault", str(root), "lint", "--format", "json")
    return [f for f in json.loads(result.stdout) if f["category"] == "duplicate"]


def test_lint_reports_it_only_when_the_vault_enables_it(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = _vault(tmp_path / "v", {"flour_a.md": FLOUR_A, "flour_b.md": FLOUR_B})
    assert _lint(run_cli, root) == []
    (root / ".cardindex.yaml").write_text("embeddings: true\n")
    found = _lint(run_cli, root)
    assert sorted(f["path"] for f in found) == ["flour_a.md", "flour_b.md"]
    assert {f["code"] for f in found} == {"U101"}
    assert all(f["related"] for f in found)
    (root / ".cardindex.yaml").write_text("embeddings: false\n")  # the lint memo knows the setting
    assert _lint(run_cli, root) == []


def test_add_refuses_the_reworded_copy_when_enabled(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = _vault(tmp_path / "v", {"flour_a.md": FLOUR_A}, "embeddings: true\n")
    result = run_cli("--vault", str(root), "add", FLOUR_B[1], "--description", FLOUR_B[0])
    assert result.exit_code != 0 and "flour_a.md" in result.stderr
    (root / ".cardindex.yaml").write_text("lint: {}\n")
    result = run_cli("--vault", str(root), "add", FLOUR_B[1], "--description", FLOUR_B[0])
    assert result.exit_code == 0, result.stderr


def test_consolidate_never_turns_a_proposal_into_a_conflict(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    # Consolidation merges a duplicate only when neither card says more than the other
    # (lifecycle.plan); two rewordings that each add wording are reported by lint and left.
    root = _vault(tmp_path / "v", {"flour_a.md": FLOUR_A, "flour_b.md": FLOUR_B}, "embeddings: true\n")
    result = run_cli("--vault", str(root), "consolidate", "--dry-run", "--all")
    assert result.exit_code == 0, result.stderr
    assert "conflict" not in result.stdout and "supersede" not in result.stdout


def test_a_setting_that_is_not_true_or_false_is_one_line(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = _vault(tmp_path / "v", {}, "embeddings: sometimes\n")
    result = run_cli("--vault", str(root), "lint")
    assert result.exit_code == 2
    assert "'embeddings' must be true or false" in result.stderr and "Traceback" not in result.stderr
