"""SPEC §8: many `cards add` processes at once lose nothing and leave a valid vault.

24 real processes are started together on one vault of 200 cards, then waited for.
Every card must land in its own file with exactly its text, no temp file may remain,
and INDEX.md must pass `cards index --check` with every live card listed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from cardindex.store.card import Card, id_list

TODAY = "2026-11-30"
SEED = 200
WRITERS = 24
SHARED_KEY = "release-train"
TYPES = ("user", "feedback", "project", "reference")
COLOURS = (
    "amber",
    "cobalt",
    "crimson",
    "emerald",
    "indigo",
    "jade",
    "magenta",
    "ochre",
    "saffron",
    "teal",
    "umber",
    "violet",
)
ANIMALS = (
    "badger",
    "falcon",
    "heron",
    "lynx",
    "marmot",
    "otter",
    "puffin",
    "quokka",
    "raven",
    "stoat",
    "walrus",
    "yak",
)


def cli_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CARDS_VAULT", "EDITOR", "VISUAL", "PYTHONPATH")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), CARDS_TODAY=TODAY, CARDS_LOCK_TIMEOUT="120")
    return env


def cards(*args: object, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardindex", *map(str, args)],
        cwd=cwd,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def seeded_vault(tmp_path: Path, env: dict[str, str]) -> Path:
    """A vault of SEED cards, a budget that lists them all, and a current INDEX.md."""
    root = tmp_path / "vault"
    assert cards("init", root, cwd=tmp_path, env=env).returncode == 0
    (root / ".cardindex.yaml").write_text("index_budget:\n  lines: 2000\n  bytes: 1000000\n", encoding="utf-8")
    for i in range(SEED):
        sub = root / ("team" if i % 3 == 0 else "")
        sub.mkdir(exist_ok=True)
        (sub / f"seed-{i:03d}.md").write_text(
            f"---\ndescription: Seed fact {i} on the {COLOURS[i % 12]} {ANIMALS[i // 12 % 12]} service\n"
            f"type: {TYPES[i % 4]}\n---\nThe {COLOURS[i % 12]} {ANIMALS[i // 12 % 12]} service has rule {i}.\n",
            encoding="utf-8",
        )
    result = cards("--vault", root, "index", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    return root


def text_for(i: int) -> str:
    return (
        f"Writer {i:02d} learned that the {COLOURS[i % 12]} pipeline publishes to the "
        f"{ANIMALS[(i * 5) % 12]} queue in batches of {100 + i}."
    )


def run_writers(root: Path, env: dict[str, str], args_for: list[list[str]], cwd: Path) -> list[tuple[int, str, str]]:
    """Start every writer, then wait for all of them."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cardindex", "--vault", str(root), "add", *args],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in args_for
    ]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=240)
        out.append((proc.returncode, stdout, stderr))
    return out


def all_cards(root: Path) -> dict[str, Card]:
    """Every card file of the vault (archive included) by vault-relative path."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if name.endswith(".md") and rel != "INDEX.md" and not name.startswith("."):
                found[rel] = Card.from_text(rel, Path(folder, name).read_text(encoding="utf-8"))
    return found


def temp_leftovers(root: Path) -> list[str]:
    return [
        os.path.join(folder, name) for folder, _dirs, files in os.walk(root) for name in files if ".cards-tmp" in name
    ]


def index_links(root: Path) -> list[str]:
    text = (root / "INDEX.md").read_text(encoding="utf-8")
    return re.findall(r"^- \[.*\]\(([^)]+)\)", text, flags=re.MULTILINE)


def add_jobs(root: Path, env: dict[str, str], cwd: Path) -> list[dict[str, object]]:
    result = cards("--vault", root, "journal", "--format", "json", cwd=cwd, env=env)
    assert result.returncode == 0, result.stderr
    return [job for job in json.loads(result.stdout) if job["command"] == "add"]


def check_body(path: Path, text: str) -> Card:
    content = path.read_text(encoding="utf-8")
    card = Card.from_text(path.name, content)
    assert card.usable, (path, card.problems)
    assert card.body == text + "\n", (path, content)
    return card


def test_24_concurrent_adds_lose_nothing(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "home")
    root = seeded_vault(tmp_path, env)
    texts = [text_for(i) for i in range(WRITERS)]
    results = run_writers(root, env, [[text, "--force"] for text in texts], tmp_path)

    failures = [(i, rc, err) for i, (rc, _out, err) in enumerate(results) if rc != 0]
    assert failures == []
    for _rc, _out, err in results:
        assert "Traceback" not in err
    printed = [out.strip() for _rc, out, _err in results]
    assert all(len(out.splitlines()) == 1 for out in printed), printed
    paths = [(tmp_path / out).resolve() for out in printed]
    assert len(set(paths)) == WRITERS, "two writers reported the same file"
    for path, text in zip(paths, texts, strict=True):
        assert path.parent == root.resolve()
        check_body(path, text)

    on_disk = all_cards(root)
    assert len(on_disk) == SEED + WRITERS
    assert all(card.usable for card in on_disk.values())
    assert sorted(c.body for c in on_disk.values() if c.body.startswith("Writer ")) == sorted(t + "\n" for t in texts)
    assert temp_leftovers(root) == []

    check = cards("--vault", root, "index", "--check", cwd=tmp_path, env=env)
    assert check.returncode == 0, check.stderr
    links = index_links(root)
    assert len(links) == SEED + WRITERS
    assert sorted(links) == sorted(on_disk)
    assert len(add_jobs(root, env, tmp_path)) == WRITERS


def test_24_concurrent_adds_half_on_one_key(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "home")
    root = seeded_vault(tmp_path, env)
    texts = [text_for(i) for i in range(WRITERS)]
    keyed = set(range(0, WRITERS, 2))  # 12 writers fill the same single-valued key
    args = [[text, "--force"] + (["--key", SHARED_KEY] if i in keyed else []) for i, text in enumerate(texts)]
    results = run_writers(root, env, args, tmp_path)

    failures = [(i, rc, err) for i, (rc, _out, err) in enumerate(results) if rc != 0]
    assert failures == []
    for _rc, _out, err in results:
        assert "Traceback" not in err
    paths = [(tmp_path / out.strip()).resolve() for _rc, out, _err in results]
    assert len(set(paths)) == WRITERS
    for i, (path, text) in enumerate(zip(paths, texts, strict=True)):
        if i not in keyed:
            check_body(path, text)

    on_disk = all_cards(root)
    assert len(on_disk) == SEED + WRITERS
    holders = {rel: c for rel, c in on_disk.items() if c.key == SHARED_KEY}
    live = {rel: c for rel, c in holders.items() if not rel.startswith("archive/")}
    archived = {rel: c for rel, c in holders.items() if rel.startswith("archive/")}
    assert len(holders) == len(keyed)
    assert len(live) == 1, sorted(live)
    assert len(archived) == len(keyed) - 1, sorted(archived)
    assert [c.status for c in live.values()] == ["active"]
    assert {c.status for c in archived.values()} == {"superseded"}
    assert sorted(c.body for c in holders.values()) == sorted(texts[i] + "\n" for i in keyed)

    # Writers were serialized: each new holder superseded exactly the one before it (and,
    # through it, every earlier one: `supersedes` is transitive), so following
    # superseded_by from the first holder walks all twelve to the live card.
    by_id = {c.id.removeprefix("archive/"): c for c in holders.values()}
    firsts = [c for c in holders.values() if "supersedes" not in c.meta]
    assert len(firsts) == 1
    chain = [firsts[0]]
    while "superseded_by" in chain[-1].meta:
        nxt = by_id[chain[-1].meta["superseded_by"]]
        earlier = [c.id.removeprefix("archive/") for c in chain]
        assert id_list(nxt.meta["supersedes"]) == [earlier[-1], *reversed(earlier[:-1])]
        chain.append(nxt)
        assert len(chain) <= len(keyed)
    assert len(chain) == len(keyed)
    assert chain[-1] is next(iter(live.values()))

    assert temp_leftovers(root) == []
    check = cards("--vault", root, "index", "--check", cwd=tmp_path, env=env)
    assert check.returncode == 0, check.stderr
    links = index_links(root)
    assert len(links) == SEED + WRITERS - (len(keyed) - 1)
    assert sorted(links) == sorted(rel for rel in on_disk if not rel.startswith("archive/"))

    jobs = add_jobs(root, env, tmp_path)
    assert len(jobs) == WRITERS
    supersedes = [a for job in jobs for a in job["actions"] if a["action"] == "supersede"]  # type: ignore[union-attr]
    assert len(supersedes) == len(keyed) - 1
